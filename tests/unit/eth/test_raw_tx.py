"""raw_tx: raw-EtherType transmit channel, at DATA_W 8 and 64.

scapy parses every frame (destination, source, EtherType, payload byte-exact); the first
byte leaves one cycle after the header handshake, back to back, frames
are separated by exactly one idle cycle; tuser on the
payload's last beat aborts the frame; a configuration change applies to the next frame;
one strobe (cnt_ev) per frame sent and per frame aborted.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb
import pytest
from scapy.layers.l2 import Ether
from unit.cnt_ev_mon import EvMon
from unit.udp.txutil import (
    DEFAULT_MAC,
    Cycles,
    FrameSink,
    HeaderSource,
    PayloadSource,
    mac_str,
    reset,
    start_clock,
    wait_cycles,
)

ETYPE = 0x88B5
EV = ["frames", "abort"]  # cnt_ev bits


@cocotb.test()
async def raw_frames(dut: Any) -> None:
    w = len(dut.s_axis_tdata)
    cyc = Cycles(dut)
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_raw_ethertype.value = ETYPE
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    ev = EvMon(dut, EV)
    rng = random.Random(6)
    sizes = [0, 1, 2, 5, 6, 7, 8, 9, 10, 17, 46, 100, 1500]
    sent = []
    for k, n in enumerate(sizes):
        payload = bytes(rng.randrange(256) for _ in range(n))
        dmac = 0x020000000100 + k
        hdr.send(dst_mac=dmac)
        pay.send(payload, tuser=int(n == 17))
        sent.append((dmac, payload))
    for dmac, payload in sent:
        raw, tuser = await sink.recv()
        assert tuser == int(len(payload) == 17)
        if tuser:
            continue
        p = Ether(raw)
        assert p.dst == mac_str(dmac) and p.src == mac_str(DEFAULT_MAC) and p.type == ETYPE
        assert raw[14:] == payload
    await wait_cycles(dut, 5)
    firsts = [b.cycle for b in sink.beats if b.first]
    lasts = [b.cycle for b in sink.beats if b.last]
    for h, f in zip(hdr.fired, firsts, strict=True):
        assert f - h == 1
    for k in range(1, len(firsts)):
        # one idle cycle between frames (the engine starts the cycle after it ends)
        assert firsts[k] == lasts[k - 1] + 2, f"gap before frame {k}"
    assert ev.counts() == {"frames": len(sizes) - 1, "abort": 1}
    # configuration change: next frame uses the new source MAC and EtherType
    dut.cfg_mac.value = 0x02FFEEDDCCBB
    dut.cfg_raw_ethertype.value = 0x88B6
    hdr.send(dst_mac=0xFFFFFFFFFFFF)
    pay.send(b"hello")
    raw, tuser = await sink.recv()
    p = Ether(raw)
    assert tuser == 0 and p.src == "02:ff:ee:dd:cc:bb" and p.type == 0x88B6
    assert p.dst == "ff:ff:ff:ff:ff:ff" and raw[14:] == b"hello"


@cocotb.test()
async def many_frames(dut: Any) -> None:
    """258 frames and 2 aborted ones, back to back: every strobe exact."""
    w = len(dut.s_axis_tdata)
    cyc = Cycles(dut)
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_raw_ethertype.value = ETYPE
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w, hdr=hdr)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    ev = EvMon(dut, EV)
    n = 260
    for k in range(n):
        hdr.send(dst_mac=0x020000000100 + k)
        pay.send(bytes([k & 0xFF]), tuser=int(k in (5, 200)))
    for k in range(n):
        raw, tuser = await sink.recv()
        assert tuser == int(k in (5, 200))
        if not tuser:
            assert raw[14:] == bytes([k & 0xFF]) and Ether(raw).dst == mac_str(0x020000000100 + k)
    await wait_cycles(dut, 5)
    assert ev.counts() == {"frames": n - 2, "abort": 2}


@pytest.mark.parametrize("data_w", [8, 64])
def test_raw_tx(data_w: int) -> None:
    from cocotb_run import run

    run("raw_tx", "test_raw_tx", parameters={"DATA_W": data_w})
