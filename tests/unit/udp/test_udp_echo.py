"""udp_echo (through udp_echo_tx = udp_echo + udp_tx): UDP echo replies, byte-exact.

Requests are driven on the receive application port; each reply frame is parsed by scapy:
addresses and ports swapped, payload byte-exact, UDP checksum 0 (mode 0) or scapy's
(mode 1); with mode 0 the reply starts before the request has ended (cut-through); a bad
request gives an aborted reply; the event strobes (cnt_ev) exact. DATA_W 8 and 64.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from unit.cnt_ev_mon import EvMon
from unit.udp.test_udp_ip_tx import check_frame, udp_csum
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

PEER_MAC = 0x02ABCDEF0123
PEER_IP = 0xC6336407  # 198.51.100.7
EV = ["echoed", "tx_frames", "tx_abort"]  # udp_echo_tx's cnt_ev bits


@cocotb.test()
async def echo_byte_exact(dut: Any) -> None:
    w = len(dut.s_axis_tdata)
    mode = int(dut.CSUM_MODE.value)
    cyc = Cycles(dut)
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_ip.value = DEFAULT_IP
    dut.cfg_ttl.value = 64
    dut.cfg_df.value = 1
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w)
    sink = FrameSink(dut, "m_axis", cyc)
    in_last: list[int] = []

    async def mon() -> None:
        while True:
            await RisingEdge(dut.clk)
            if str(dut.s_axis_tvalid.value) == "1" and str(dut.s_axis_tready.value) == "1":
                if str(dut.s_axis_tlast.value) == "1":
                    in_last.append(cyc.now)

    cocotb.start_soon(mon())
    await start_clock(dut)
    await reset(dut)
    ev = EvMon(dut, EV)
    rng = random.Random(4)
    sizes = [0, 1, 2, 7, 8, 9, 64, 200, 1472]
    reqs = []
    for k, n in enumerate(sizes):
        payload = bytes(rng.randrange(256) for _ in range(n))
        sport, dport = 30000 + k, 7
        hdr.send(src_mac=PEER_MAC, src_ip=PEER_IP, src_port=sport, dst_port=dport, len=n)
        pay.send(payload)
        reqs.append((payload, sport, dport))
    for k, (payload, sport, dport) in enumerate(reqs):
        raw, tuser = await sink.recv()
        assert tuser == 0
        cs = udp_csum(DEFAULT_IP, PEER_IP, dport, sport, payload) if mode == 1 else 0
        check_frame(
            raw,
            dst_mac=PEER_MAC,
            src_mac=DEFAULT_MAC,
            src_ip=DEFAULT_IP,
            dst_ip=PEER_IP,
            sport=dport,
            dport=sport,
            payload=payload,
            ident=k,
            ucsum=cs,
        )
    firsts = [b.cycle for b in sink.beats if b.first]
    if mode == 0:
        for k, n in enumerate(sizes):
            if n >= 64:
                assert firsts[k] < in_last[k], f"size {n}: reply not cut through"
    # a bad request: the reply is aborted
    hdr.send(src_mac=PEER_MAC, src_ip=PEER_IP, src_port=1, dst_port=7, len=30)
    pay.send(bytes(30), tuser=1)
    raw, tuser = await sink.recv()
    assert tuser == 1
    await wait_cycles(dut, 10)
    n = len(sizes)
    assert ev.counts() == {"echoed": n + 1, "tx_frames": n, "tx_abort": 1}


@cocotb.test()
async def padded_request_late_end(dut: Any) -> None:
    """Short datagrams (their request frames were padded, so the receive side releases
    their last byte only after the padding and FCS) whose last byte comes 40 byte-times
    after the first: the cut-through reply, 42 header bytes ahead, has no idle cycle."""
    w = len(dut.s_axis_tdata)
    cyc = Cycles(dut)
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_ip.value = DEFAULT_IP
    dut.cfg_ttl.value = 64
    dut.cfg_df.value = 1
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    delay = -(-40 // (w // 8))
    for n in (0, 1, 9, 17):
        hdr.send(src_mac=PEER_MAC, src_ip=PEER_IP, src_port=99, dst_port=7, len=n)
        pay.send(bytes(range(n)), last_after=delay)
        raw, tuser = await sink.recv()
        assert tuser == 0 and raw[42:] == bytes(range(n))
    frames: list[list[int]] = []
    for b in sink.beats:
        if b.first:
            frames.append([])
        frames[-1].append(b.cycle)
    for k, cycles in enumerate(frames):
        assert cycles == list(range(cycles[0], cycles[0] + len(cycles))), f"gap in reply {k}"


@cocotb.test()
async def many_echoes(dut: Any) -> None:
    """258 echoed datagrams back to back: one echoed and one tx_frames strobe each."""
    w = len(dut.s_axis_tdata)
    cyc = Cycles(dut)
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_ip.value = DEFAULT_IP
    dut.cfg_ttl.value = 64
    dut.cfg_df.value = 1
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w, hdr=hdr)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    ev = EvMon(dut, EV)
    n = 258
    for k in range(n):
        hdr.send(src_mac=PEER_MAC, src_ip=PEER_IP, src_port=k, dst_port=7, len=1)
        pay.send(bytes([k & 0xFF]))
    for k in range(n):
        raw, tuser = await sink.recv()
        assert tuser == 0 and raw[42:] == bytes([k & 0xFF])
    await wait_cycles(dut, 10)
    assert ev.counts() == {"echoed": n, "tx_frames": n, "tx_abort": 0}


@pytest.mark.parametrize("data_w,mode", [(8, 0), (64, 0), (8, 1), (64, 1)])
def test_udp_echo(data_w: int, mode: int) -> None:
    from cocotb_run import run

    run("udp_echo_tx", "test_udp_echo", parameters={"DATA_W": data_w, "CSUM_MODE": mode})
