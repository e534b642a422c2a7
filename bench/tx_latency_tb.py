"""cocotb measurements for bench/tx_latency.py (run under Icarus by that script).

Each coroutine measures one top and writes its figures as JSON to $TX_BENCH_OUT.
Cycle stamps are rising-edge indices: a handshake "at edge k" was sampled at that edge.
"""

from __future__ import annotations

import json
import os
from typing import Any

import cocotb
from cocotb.triggers import RisingEdge
from scapy.layers.inet import ICMP
from unit.udp.txutil import (
    DEFAULT_IP,
    DEFAULT_MAC,
    Cycles,
    FrameSink,
    HeaderSource,
    PayloadSource,
    reset,
    start_clock,
    wait_cycles,
)

SIZES_8 = [1, 18, 64, 256, 512, 1024, 1472]
SIZES_64 = [1, 6, 7, 18, 46, 64, 100, 256, 512, 1000, 1024, 1471, 1472]
TURN_SIZES = [0, 18, 56, 256, 1472]


def out(figures: dict[str, Any]) -> None:
    with open(os.environ["TX_BENCH_OUT"], "w") as f:
        json.dump(figures, f)


async def wait_idle(dut: Any, *srcs: Any, limit: int = 200000) -> None:
    for _ in range(limit):
        await RisingEdge(dut.clk)
        if all(s.idle() for s in srcs):
            break
    await wait_cycles(dut, 10)


def beats(n: int, kw: int) -> int:
    return max(1, -(-n // kw))


@cocotb.test()
async def bench_udp_ip_tx(dut: Any) -> None:
    """Request-to-first-byte latency and back-to-back goodput of the zero-wait transmitter."""
    w = len(dut.s_axis_tdata)
    kw = w // 8
    cyc = Cycles(dut)
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_ip.value = DEFAULT_IP
    dut.cfg_ttl.value = 64
    dut.cfg_df.value = 1
    dut.arp_req_ready.value = 0
    dut.arp_resp_valid.value = 0
    dut.arp_resp_hit.value = 0
    dut.arp_resp_mac.value = 0
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    rows = []
    latencies = []
    frames_per_size = 4
    for n in SIZES_8 if w == 8 else SIZES_64:
        b0 = len(sink.beats)
        h0 = len(hdr.fired)
        for _ in range(frames_per_size):
            hdr.send(
                dst_mac=0x020000000002,
                dst_mac_valid=1,
                dst_ip=0xC0000202,
                dst_port=1,
                src_port=2,
                len=n,
                csum=0,
                csum_mode=0,
            )
            pay.send(bytes(n))
        for _ in range(frames_per_size):
            await sink.recv()
        await wait_idle(dut, hdr, pay)
        bs = sink.beats[b0:]
        firsts = [b.cycle for b in bs if b.first]
        latencies += [f - h for f, h in zip(firsts, hdr.fired[h0:], strict=True)]
        span = bs[-1].cycle - bs[0].cycle + 1
        ideal = frames_per_size * beats(42 + n, kw)
        rows.append(
            {
                "payload": n,
                "frames": frames_per_size,
                "cycles": span,
                "ideal_cycles": ideal,
                "idle_cycles_added": span - ideal,
                "goodput_of_datapath": round(frames_per_size * n / (span * kw), 4),
            }
        )
    out(
        {
            "data_w": w,
            "request_to_first_byte": sorted(set(latencies)),
            "goodput": rows,
        }
    )


async def _turnaround(dut: Any, reqs: list[tuple[dict[str, int], bytes]]) -> list[dict[str, int]]:
    w = len(dut.s_axis_tdata)
    kw = w // 8
    cyc = Cycles(dut)
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    rows = []
    for fields, msg in reqs:
        b0 = len(sink.beats)
        h0 = len(hdr.fired)
        hdr.send(**fields)
        pay.send(msg)
        await sink.recv()
        await wait_idle(dut, hdr, pay)
        t0 = hdr.fired[h0]
        first = sink.beats[b0].cycle
        # the request's last beat, had it arrived at line rate with its header at t0
        last_in = t0 + beats(len(msg), kw) - 1
        rows.append(
            {
                "message_bytes": len(msg),
                "header_to_first_byte_out": first - t0,
                "turnaround_last_in_to_first_out": first - last_in,
            }
        )
    return rows


@cocotb.test()
async def bench_icmp(dut: Any) -> None:
    """ICMP echo turnaround: last request byte in (at line rate) to first reply byte out."""
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_ttl.value = 64
    dut.cfg_answer.value = 1
    reqs = []
    for n in TURN_SIZES:
        msg = bytes(ICMP(type=8, id=1, seq=n) / bytes(n))
        fields = {
            "src_mac": 0x020000000002,
            "src_ip": 0xC0000202,
            "dst_ip": DEFAULT_IP,
            "protocol": 1,
            "len": len(msg),
            "broadcast": 0,
        }
        reqs.append((fields, msg))
    out({"data_w": len(dut.s_axis_tdata), "icmp_echo": await _turnaround(dut, reqs)})


@cocotb.test()
async def bench_udp_echo(dut: Any) -> None:
    """UDP echo turnaround through udp_echo + udp_tx (checksum mode 0)."""
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_ip.value = DEFAULT_IP
    dut.cfg_ttl.value = 64
    dut.cfg_df.value = 1
    reqs = []
    for n in TURN_SIZES:
        fields = {
            "src_mac": 0x020000000002,
            "src_ip": 0xC0000202,
            "src_port": 1000,
            "dst_port": 7,
            "len": n,
        }
        reqs.append((fields, bytes(n)))
    out({"data_w": len(dut.s_axis_tdata), "udp_echo": await _turnaround(dut, reqs)})


@cocotb.test()
async def bench_min(dut: Any) -> None:
    """udp_tx_min: cycles from the payload's first offer to the first frame byte taken."""
    cyc = Cycles(dut)
    pay = PayloadSource(dut, "s_axis", 8)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    lat = []
    for n in (1, 100):
        dut.s_len.value = n
        b0 = len(sink.beats)
        pay.send(bytes(n))
        while True:
            await RisingEdge(dut.clk)
            if int(dut.s_axis_tvalid.value):
                t = cyc.now
                break
        await sink.recv()
        lat.append(sink.beats[b0].cycle - t)
    out({"data_w": 8, "offer_to_first_byte": sorted(set(lat))})


@cocotb.test()
async def bench_vboard_echo(dut: Any) -> None:
    """The virtual board's UDP echo (sim/vboard_top.v as the harness builds it: udp_echo on
    port 7, checksum mode ECHO_CSUM_MODE = 1) from GMII to GMII: a request of each size in
    $TX_BENCH_SIZES (default TURN_SIZES) enters gmii_rx at line rate (preamble, SFD, frame,
    FCS); the turnaround is from its last byte (the FCS's last) to the reply's first
    preamble byte on gmii_tx, as the board's wire record measures it: each byte at the
    rising edge that samples it (gmii_rxd's at the board, gmii_txd's at the PHY).

    The transmit arbiter (eth_tx_arb) keeps its grant parked on the source that sent
    last, and a request from another source waits one cycle more, so each size is
    measured twice: after an echo reply (turnaround_last_in_to_first_out, a stream of
    echoes: a warm-up echo comes first) and right after the board's ARP reply to the
    peer (turnaround_after_other_source)."""
    import zlib

    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import ARP, Ether

    sizes = [int(x) for x in os.environ.get("TX_BENCH_SIZES", "").split(",") if x] or TURN_SIZES
    d = dut
    await start_clock(d)
    board_mac, peer_mac, peer_ip = "02:00:00:00:00:02", "52:54:00:00:00:01", "192.0.2.100"
    d.cfg_mac.value = int(board_mac.replace(":", ""), 16)
    d.cfg_ip.value = DEFAULT_IP
    d.cfg_netmask.value = 0xFFFFFF00
    d.cfg_gateway.value = 0
    d.cfg_udp_echo_port.value = 7
    d.sim_cycle.value = 0
    d.tick_1ms.value = 0
    d.gmii_rxd.value = 0
    d.gmii_rx_dv.value = 0
    d.gmii_rx_er.value = 0
    d.rst.value = 1
    await wait_cycles(d, 10)
    d.rst.value = 0
    await wait_cycles(d, 100)  # the ARP cache cleared
    ip = ".".join(str((DEFAULT_IP >> s) & 0xFF) for s in (24, 16, 8, 0))

    async def exchange(frame: bytes) -> int:
        """Send one frame on gmii_rx, wait for the board's answer to end; the cycles from
        the request's last byte to the answer's first."""
        frame += bytes(max(0, 60 - len(frame)))
        wire_bytes = b"\x55" * 7 + b"\xd5" + frame + zlib.crc32(frame).to_bytes(4, "little")
        cycle = 0
        first_out = None
        for b in wire_bytes:
            d.gmii_rxd.value = b
            d.gmii_rx_dv.value = 1
            await RisingEdge(d.clk)
            cycle += 1
        last_in = cycle  # the edge that sampled the FCS's last byte on gmii_rxd
        d.gmii_rx_dv.value = 0
        d.gmii_rxd.value = 0
        for _ in range(4 * len(frame) + 1000):
            await RisingEdge(d.clk)
            cycle += 1
            if int(d.gmii_tx_en.value):  # (read at an edge: the value the edge samples)
                first_out = cycle  # the edge that samples the first preamble byte
                break
        assert first_out is not None, f"no answer to {frame[:42].hex()}"
        while int(d.gmii_tx_en.value):
            await RisingEdge(d.clk)
        await wait_cycles(d, 50)
        return first_out - last_in

    def echo(n: int) -> bytes:
        return bytes(
            Ether(dst=board_mac, src=peer_mac)
            / IP(src=peer_ip, dst=ip)
            / UDP(sport=1000, dport=7)
            / bytes(n)
        )

    arp = bytes(
        Ether(dst="ff:ff:ff:ff:ff:ff", src=peer_mac)
        / ARP(op=1, hwsrc=peer_mac, psrc=peer_ip, pdst=ip)
    )
    rows = []
    await exchange(echo(0))  # the warm-up: the grant parked on the echo's port
    for n in sizes:
        steady = await exchange(echo(n))
        await exchange(arp)
        other = await exchange(echo(n))
        rows.append(
            {
                "message_bytes": n,
                "turnaround_last_in_to_first_out": steady,
                "turnaround_after_other_source": other,
            }
        )
    out({"design": "vboard_top", "udp_echo": rows})
