"""raw_tx: raw-EtherType transmit channel, at DATA_W 8 and 64.

scapy parses every frame (destination, source, EtherType, payload byte-exact); the first
byte leaves one cycle after the header handshake, back to back, frames
are separated by exactly one idle cycle; tuser on the
payload's last beat aborts the frame; a configuration change applies to the next frame.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb
import pytest
from scapy.layers.l2 import Ether
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
    assert int(dut.cnt_frames.value) == len(sizes) - 1
    assert int(dut.cnt_abort.value) == 1
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
async def counter_wrap(dut: Any) -> None:
    """258 frames and 2 aborted ones: the counters are exact modulo 2^CNT_W (32 by default;
    with CNT_W = 8 the frame counter wraps to 2)."""
    w = len(dut.s_axis_tdata)
    cyc = Cycles(dut)
    dut.cfg_mac.value = DEFAULT_MAC
    dut.cfg_raw_ethertype.value = ETYPE
    hdr = HeaderSource(dut, "s", cyc)
    pay = PayloadSource(dut, "s_axis", w, hdr=hdr)
    sink = FrameSink(dut, "m_axis", cyc)
    await start_clock(dut)
    await reset(dut)
    mod = 1 << int(dut.CNT_W.value)
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
    assert int(dut.cnt_frames.value) == (n - 2) % mod
    assert int(dut.cnt_abort.value) == 2 % mod


def test_raw_tx_cnt8() -> None:
    """CNT_W = 8: the frame counter wraps."""
    from cocotb_run import run

    run(
        "raw_tx",
        "test_raw_tx",
        parameters={"DATA_W": 64, "CNT_W": 8},
        testcase="counter_wrap",
    )


@pytest.mark.parametrize("data_w", [8, 64])
def test_raw_tx(data_w: int) -> None:
    from cocotb_run import run

    run("raw_tx", "test_raw_tx", parameters={"DATA_W": data_w})
