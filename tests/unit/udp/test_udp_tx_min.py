"""udp_tx_min: minimal 8-bit UDP transmitter.

scapy parses every frame (all fields, IPv4 header checksum recomputed); the first header
byte is taken in the same cycle as the payload's first byte is offered; frames are exact
under backpressure; a payload whose length is not s_len ends with tuser.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from scapy.layers.inet import IP, UDP, Ether
from unit.udp.txutil import (
    Cycles,
    FrameSink,
    PayloadSource,
    ip_str,
    mac_str,
    random_pause,
    reset,
    start_clock,
    wait_cycles,
)

P = {
    "SRC_MAC": 0x02AABBCCDDEE,
    "DST_MAC": 0x0A0B0C0D0E0F,
    "SRC_IP": 0xC0A80102,
    "DST_IP": 0x0A000063,
    "SRC_PORT": 4660,
    "DST_PORT": 65000,
    "TTL": 33,
}


def check(raw: bytes, payload: bytes) -> None:
    assert len(raw) == 42 + len(payload)
    p = Ether(raw)
    assert p.dst == mac_str(P["DST_MAC"]) and p.src == mac_str(P["SRC_MAC"]) and p.type == 0x800
    ip = p[IP]
    assert (ip.version, ip.ihl, ip.tos, ip.len) == (4, 5, 0, 28 + len(payload))
    assert (ip.id, int(ip.flags), ip.frag, ip.ttl, ip.proto) == (0, 2, 0, P["TTL"], 17)
    assert ip.src == ip_str(P["SRC_IP"]) and ip.dst == ip_str(P["DST_IP"])
    ref = IP(bytes(ip)[:20])
    got = ref.chksum
    del ref.chksum
    assert IP(bytes(ref)).chksum == got, "bad IPv4 header checksum"
    u = p[UDP]
    assert (u.sport, u.dport, u.len, u.chksum) == (
        P["SRC_PORT"],
        P["DST_PORT"],
        8 + len(payload),
        0,
    )
    assert bytes(u.payload) == payload


async def setup(dut: Any, pause: float = 0.0) -> tuple[PayloadSource, FrameSink, Cycles]:
    cyc = Cycles(dut)
    dut.s_len.value = 0
    src = PayloadSource(dut, "s_axis", 8)
    sink = FrameSink(dut, "m_axis", cyc, random_pause(4, pause) if pause else None)
    await start_clock(dut)
    await reset(dut)
    return src, sink, cyc


@cocotb.test()
async def frames_and_zero_wait(dut: Any) -> None:
    src, sink, cyc = await setup(dut)
    rng = random.Random(2)
    sizes = [1, 2, 3, 17, 18, 100, 1472, 5]
    if int(dut.LEN_W.value) > 11:
        sizes.append(3000)  # a length past 11 bits
    for n in sizes:
        payload = bytes(rng.randrange(256) for _ in range(n))
        dut.s_len.value = n
        await RisingEdge(dut.clk)
        src.send(payload)
        while True:  # the edge at which the first payload byte is first offered
            await RisingEdge(dut.clk)
            if int(dut.s_axis_tvalid.value):
                t_offer = cyc.now
                break
        raw, tuser = await sink.recv()
        assert tuser == 0
        check(raw, payload)
        first = [b for b in sink.beats if b.first][-1]
        assert first.cycle == t_offer, f"first byte {first.cycle - t_offer} cycles late"
        await wait_cycles(dut, 2)


@cocotb.test()
async def backpressure(dut: Any) -> None:
    src, sink, _ = await setup(dut, pause=0.5)
    for n in [1, 9, 64, 200]:
        payload = bytes((n + j) & 0xFF for j in range(n))
        dut.s_len.value = n
        src.send(payload)
        raw, tuser = await sink.recv()
        assert tuser == 0
        check(raw, payload)


@cocotb.test()
async def wrong_length_flagged(dut: Any) -> None:
    src, sink, _ = await setup(dut)
    for n, ln in [(10, 11), (12, 11), (1, 2), (30, 30)]:
        dut.s_len.value = ln
        src.send(bytes(n))
        raw, tuser = await sink.recv()
        assert len(raw) == 42 + n
        assert tuser == int(n != ln), f"payload {n} with s_len {ln}: tuser {tuser}"


@pytest.mark.parametrize("len_w", [11, 16])
def test_udp_tx_min(len_w: int) -> None:
    from cocotb_run import run

    run("udp_tx_min", "test_udp_tx_min", parameters={**P, "LEN_W": len_w})
