"""icmp_unreach: ICMP port unreachable for closed UDP ports, rate-limited, 8 and 64 bits.

scapy parses every message: outer Ethernet/IPv4 (checksum recomputed), ICMP type 3 code 3
with a verified checksum, and the quoted IPv4 (valid checksum) and UDP headers with the
offending datagram's addresses and ports. Rate limit, broadcast and busy drops are
counted exactly.
"""

from __future__ import annotations

from typing import Any

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from scapy.layers.inet import ICMP, IP, IPerror, UDPerror
from scapy.layers.l2 import Ether
from scapy.utils import checksum
from unit.cnt_ev_mon import EvMon
from unit.udp.txutil import (
    DEFAULT_MAC,
    Cycles,
    FrameSink,
    ip_str,
    mac_str,
    reset,
    start_clock,
    wait_cycles,
)

OUR_IP = 0xC0000201


async def strobe(dut: Any, k: int, bcast: int = 0) -> None:
    dut.closed_src_mac.value = 0x020000000100 + k
    dut.closed_src_ip.value = 0xC0000210 + k
    dut.closed_dst_ip.value = OUR_IP
    dut.closed_src_port.value = 40000 + k
    dut.closed_dst_port.value = 1000 + k
    dut.closed_broadcast.value = bcast
    dut.closed_valid.value = 1
    await RisingEdge(dut.clk)
    dut.closed_valid.value = 0


def check(raw: bytes, k: int) -> None:
    assert len(raw) == 70
    p = Ether(raw)
    assert p.dst == mac_str(0x020000000100 + k) and p.src == mac_str(DEFAULT_MAC)
    ip = p[IP]
    assert (ip.len, ip.proto, ip.ttl, ip.src, ip.dst) == (
        56,
        1,
        64,
        ip_str(OUR_IP),
        ip_str(0xC0000210 + k),
    )
    ref = IP(bytes(ip)[:20])
    got = ref.chksum
    del ref.chksum
    assert IP(bytes(ref)).chksum == got
    ic = p[ICMP]
    assert (ic.type, ic.code) == (3, 3)
    assert checksum(raw[34:]) == 0, "bad ICMP checksum"
    q = p[IPerror]
    assert (q.src, q.dst, q.proto, q.ihl) == (ip_str(0xC0000210 + k), ip_str(OUR_IP), 17, 5)
    assert checksum(raw[42:62]) == 0, "bad quoted IPv4 checksum"
    u = p[UDPerror]
    assert (u.sport, u.dport) == (40000 + k, 1000 + k)


@cocotb.test()
async def unreachable_rate_limited(dut: Any) -> None:
    cyc = Cycles(dut)
    dut.tick_1ms.value = 0
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_ttl.value = 64
    dut.cfg_unreach_per_ms.value = 2
    dut.closed_valid.value = 0
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    ev = EvMon(dut, ["sent", "dropped"])  # the event strobes (cnt_ev), counted from here
    for k in range(5):  # only 2 in this millisecond
        await strobe(dut, k)
        await wait_cycles(dut, 120)
    for k in range(2):
        raw, tu = await sink.recv()
        assert tu == 0
        check(raw, k)
    assert sink.count() == 0
    dut.tick_1ms.value = 1
    await RisingEdge(dut.clk)
    dut.tick_1ms.value = 0
    await strobe(dut, 7, bcast=1)  # broadcast: never answered
    await wait_cycles(dut, 3)
    await strobe(dut, 8)
    await strobe(dut, 9)  # busy with the previous one: dropped
    raw, tu = await sink.recv()
    check(raw, 8)
    await wait_cycles(dut, 120)
    assert sink.count() == 0
    assert ev.counts() == {"sent": 3, "dropped": 5}
    dut.cfg_unreach_per_ms.value = 0  # off
    dut.tick_1ms.value = 1
    await RisingEdge(dut.clk)
    dut.tick_1ms.value = 0
    await strobe(dut, 10)
    await wait_cycles(dut, 120)
    assert sink.count() == 0
    assert ev.counts() == {"sent": 3, "dropped": 6}


@pytest.mark.parametrize("data_w", [8, 64])
def test_icmp_unreach(data_w: int) -> None:
    from cocotb_run import run

    run("icmp_unreach", "test_icmp_unreach", parameters={"DATA_W": data_w})
