"""pktgen through the UDP/IP stack (pktgen_stack): ARP primers, then Ethernet frames
that scapy parses: addresses from ARP, IPv4 and UDP headers, payloads against the model.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.simtime import convert
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import ARP, Ether
from unit.cnt_ev_mon import EvMon

OUR_MAC = "02:00:00:00:00:02"
OUR_IP = "192.0.2.2"
PEERS = [("192.0.2.1", 50003, "52:54:00:00:00:01"), ("192.0.2.10", 50004, "52:54:00:00:00:0a")]
MASK = 0x80200003


def model_payload(seq: int, ts: int, length: int) -> bytes:
    out = bytearray(struct.pack(">QQ", seq, ts))
    s = (seq & 0xFFFFFFFF) ^ 0x9E3779B9 or 1
    while len(out) < length:
        for _ in range(8):
            s = (s >> 1) ^ MASK if s & 1 else s >> 1
        out.append(s & 0xFF)
    return bytes(out[:length])


def ip_int(ip: str) -> int:
    return int.from_bytes(bytes(int(x) for x in ip.split(".")), "big")


async def release_reset(d) -> None:
    """The stack's addresses (ours 192.0.2.2/24, gateway 192.0.2.1), then reset released."""
    d.cfg_mac.value = int(OUR_MAC.replace(":", ""), 16)
    d.cfg_ip.value = ip_int(OUR_IP)
    d.cfg_netmask.value = 0xFFFFFF00
    d.cfg_gateway.value = ip_int("192.0.2.1")
    await ClockCycles(d.clk, 5)
    d.rst.value = 0


async def ticker(dut, period: int) -> None:
    while True:
        await ClockCycles(dut.clk, period - 1)
        dut.tick_1ms.value = 1
        await RisingEdge(dut.clk)
        dut.tick_1ms.value = 0


async def arp_responder(
    dut, sink: AxiStreamSink, source: AxiStreamSource, frames: list, starts: list | None = None
) -> None:
    """Answer the stack's ARP requests as the peers would; keep every frame seen (and, with
    ``starts``, the time of its first beat in ns)."""
    macs = {ip: mac for ip, _, mac in PEERS}
    while True:
        f = await sink.recv()
        pkt = Ether(bytes(f.tdata))
        frames.append(pkt)
        if starts is not None:
            starts.append(int(convert(f.sim_time_start, "step", to="ns")))
        if ARP in pkt and pkt[ARP].op == 1 and pkt[ARP].pdst in macs:
            mac = macs[pkt[ARP].pdst]
            reply = Ether(dst=OUR_MAC, src=mac) / ARP(
                op=2, hwsrc=mac, psrc=pkt[ARP].pdst, hwdst=OUR_MAC, pdst=OUR_IP
            )
            await source.send(AxiStreamFrame(bytes(reply)))


@cocotb.test()
async def primers_then_frames(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
    source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
    d = dut
    d.rst.value = 1
    for name in ("start", "stop", "tick_1ms", "cfg_lfsr"):
        getattr(d, name).value = 0
    length, count = 100, 6
    d.cfg_len.value = length
    d.cfg_count.value = count
    d.cfg_gap.value = 0
    d.cfg_ndst.value = len(PEERS)
    d.cfg_lfsr.value = 1
    d.cfg_fill.value = 0
    d.cfg_src_port.value = 50002
    d.cfg_warmup_ms.value = 2
    d.cfg_dst_ip_all.value = sum(ip_int(ip) << (32 * i) for i, (ip, _, _) in enumerate(PEERS))
    d.cfg_dst_port_all.value = sum(p << (16 * i) for i, (_, p, _) in enumerate(PEERS))
    await release_reset(d)
    # the generator's and the stack's strobes (udp_stack's cnt_ev with one port: EV_ARP 26,
    # EV_UDP_TX 43; the bits counted here), counted from here
    gen = EvMon(d, ["packets", "bytes"], signal="gen_cnt_ev")
    stk_names: list[str | None] = [None] * 48
    for k, name in ((28, "arp_req_tx"), (43, "udp_tx_frames"), (44, "udp_tx_abort"),
                    (46, "udp_tx_arp_miss")):  # fmt: skip
        stk_names[k] = name
    stk = EvMon(d, stk_names, signal="stk_cnt_ev")
    await ClockCycles(d.clk, 5)
    frames: list = []
    cocotb.start_soon(arp_responder(dut, sink, source, frames))
    cocotb.start_soon(ticker(dut, 400))
    d.start.value = 1
    await RisingEdge(d.clk)
    d.start.value = 0
    for _ in range(20000):
        await RisingEdge(d.clk)
        if not int(d.busy.value):
            break
    await ClockCycles(d.clk, 300)
    assert not int(d.busy.value)
    arps = [f for f in frames if ARP in f]
    udps = [f for f in frames if UDP in f]
    # one request per destination (the stack also announces itself: gratuitous ARP)
    asked = sorted(a[ARP].pdst for a in arps if a[ARP].op == 1 and a[ARP].pdst != OUR_IP)
    assert asked == sorted(p[0] for p in PEERS)
    assert len(udps) == count, [f.summary() for f in frames]
    ts0 = None
    for k, f in enumerate(udps):
        ip, port, mac = PEERS[k % len(PEERS)]
        assert (f.dst, f.src) == (mac, OUR_MAC)
        assert (f[IP].src, f[IP].dst, f[IP].ttl) == (OUR_IP, ip, 64)
        raw_ip = bytes(f[IP])[: f[IP].ihl * 4]
        assert IP(raw_ip).chksum == f[IP].chksum
        fixed = IP(bytes(f[IP]))
        del fixed.chksum
        assert IP(bytes(fixed)).chksum == f[IP].chksum, "IPv4 header checksum"
        assert (f[UDP].sport, f[UDP].dport, f[UDP].chksum) == (50002, port, 0)
        data = bytes(f[UDP].payload)
        assert len(data) == length
        seq, ts = struct.unpack(">QQ", data[:16])
        assert seq == k // len(PEERS)
        ts0 = ts if ts0 is None else ts0
        assert ts >= ts0
        assert data == model_payload(seq, ts, length)
    assert gen.count("packets") == count
    assert stk.counts() == {
        "udp_tx_frames": count,
        "udp_tx_abort": 0,
        "udp_tx_arp_miss": len(PEERS),  # the primers
        "arp_req_tx": len(PEERS),
    }


@pytest.mark.parametrize("data_w", [8, 64])
def test_pktgen_stack(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "pktgen_stack",
        "test_pktgen_stack",
        parameters={"DATA_W": data_w},
        test_dir=Path(__file__).parent,
    )
