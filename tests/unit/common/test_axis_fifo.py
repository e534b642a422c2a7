"""axis_fifo: single-clock AXI4-Stream FIFO, plain and frame mode, at 8 and 64 bits.

cocotbext-axi drives and receives the streams with random pauses on both sides; every
frame out is compared with what went in, drops are checked against the exact strobe
counts, and a monitor checks that frame mode never pauses mid-frame.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge
from fifo_tb import (
    Cfg,
    FifoTb,
    cfg_from_env,
    check_subsequence,
    make_frame,
    pauses,
    random_frames,
    run_stream_rounds,
)

PERIOD = 8.0


@cocotb.test(timeout_time=2, timeout_unit="ms")  # bounded: a stuck FIFO fails, never hangs
async def stream_random_backpressure(dut) -> None:
    """Random frames with random pauses on both sides come out whole and in order."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=True)
    await tb.start(PERIOD)
    await run_stream_rounds(tb, random.Random(1), ((0.3, 0.3), (0.0, 0.6), (0.6, 0.0)))


@cocotb.test(timeout_time=2, timeout_unit="ms")  # bounded: a stuck FIFO fails, never hangs
async def full_throughput(dut) -> None:
    """With no pauses, one beat per cycle in and out, back to back."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=True)
    await tb.start(PERIOD)
    rng = random.Random(2)
    ln = min(cfg.keep_w * cfg.depth // 2, 64 * cfg.keep_w)
    frames = [make_frame(i, ln, rng) for i in range(30)]
    beats = sum(cfg.beats(len(f)) for f in frames)
    await RisingEdge(tb.s_clk)
    for f in frames:
        tb.send(f)
    t0 = tb.m_beats
    await RisingEdge(dut.s_axis_tvalid)
    cycles = 0
    while tb.m_beats - t0 < beats:
        await RisingEdge(tb.m_clk)
        cycles += 1
        assert cycles < 2 * beats + 100, "FIFO stalled"
    await tb.drain(len(frames))
    assert [r.data for r in tb.rx] == frames
    assert tb.s_stalls == 0, "input back-pressured with an empty FIFO"
    # first beat in to last beat out: every beat once, plus the FIFO latency (and, in
    # frame mode, one frame held until its tlast)
    limit = beats + 3 + (cfg.beats(ln) if cfg.frame else 0)
    assert cycles <= limit, f"{beats} beats took {cycles} cycles (limit {limit})"


@cocotb.test(timeout_time=2, timeout_unit="ms")  # bounded: a stuck FIFO fails, never hangs
async def fill_and_overflow(dut) -> None:
    """Output stalled: plain mode back-pressures at DEPTH; frame mode drops or waits."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=True)
    await tb.start(PERIOD)
    rng = random.Random(3)
    tb.sink.pause = True
    flen = 3 * cfg.keep_w  # 3 beats per frame
    frames = [make_frame(i, flen, rng) for i in range(cfg.depth)]  # 3x the FIFO
    for f in frames:
        tb.send(f)
    await ClockCycles(tb.s_clk, 3 * cfg.depth + 40)
    taken = tb.source.queue_occupancy_frames
    if cfg.frame and cfg.drop_full:
        # never back-pressured: everything was taken, the frames that did not fit dropped
        assert taken == 0 and tb.s_stalls == 0
        dropped = tb.status.counts["drop_full"]
        # stored: DEPTH beats in RAM plus one beat in the output register
        assert dropped == len(frames) - (cfg.depth + 1) // 3
    else:
        # back-pressured once DEPTH beats (+1 in the output register) are held
        assert tb.s_stalls > 0
        assert tb.status.counts["drop_full"] == 0
    tb.sink.pause = False
    await tb.drain(len(frames))
    idx = check_subsequence(tb.rx, frames)
    assert len(frames) - len(idx) == tb.status.counts["drop_full"]
    assert tb.status.counts["overflow"] == tb.status.counts["drop_full"]
    # and the FIFO works normally afterwards
    tb.rx.clear()
    more = [make_frame(1000 + i, flen, rng) for i in range(8)]
    for f in more:
        tb.send(f)
    await tb.drain(len(more))
    assert [r.data for r in tb.rx] == more


@cocotb.test(timeout_time=2, timeout_unit="ms")  # bounded: a stuck FIFO fails, never hangs
async def oversize_frame(dut) -> None:
    """Frame mode: a frame longer than the FIFO is dropped whole and counted, no hang."""
    cfg = cfg_from_env()
    if not cfg.frame:
        return
    tb = FifoTb(dut, cfg, sync=True)
    await tb.start(PERIOD)
    rng = random.Random(4)
    big = make_frame(7, (cfg.depth + 3) * cfg.keep_w, rng)
    small = [make_frame(i, 5 * cfg.keep_w, rng) for i in range(4)]
    tb.send(small[0])
    tb.send(big)
    for f in small[1:]:
        tb.send(f)
    await tb.drain(4)
    assert [r.data for r in tb.rx] == small
    assert tb.status.counts["drop_full"] == 1
    assert tb.status.counts["overflow"] == 1
    assert tb.status.counts["good_frame"] == 4


@cocotb.test(timeout_time=2, timeout_unit="ms")  # bounded: a stuck FIFO fails, never hangs
async def reset_mid_stream(dut) -> None:
    """A reset in the middle of traffic: afterwards frames pass whole, nothing old leaks."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=True)
    await tb.start(PERIOD)
    rng = random.Random(5)
    tb.source.set_pause_generator(pauses(rng, 0.2))
    tb.sink.set_pause_generator(pauses(rng, 0.4))
    max_len = min(40 * cfg.keep_w, 4 * cfg.keep_w * cfg.depth // 5)
    for f in random_frames(rng, 20, max_len, p_bad=0.0):
        tb.send(f.data)
    await ClockCycles(tb.s_clk, 150)
    dut.rst.value = 1
    await ClockCycles(tb.s_clk, 2)
    tb.source.clear()
    dut.rst.value = 0
    await ClockCycles(tb.s_clk, 5)
    tb.rx.clear()
    before = dict(tb.status.counts)
    after = [f.data for f in random_frames(rng, 20, max_len, p_bad=0.0, start_seq=500)]
    for f in after:
        tb.send(f)
    await tb.drain(len(after))
    idx = check_subsequence(tb.rx, after)
    dropped = tb.status.counts["drop_full"] - before["drop_full"]
    if cfg.drop_full:
        assert len(after) - len(idx) == dropped
    else:
        assert idx == list(range(len(after))) and dropped == 0


CFGS = [
    Cfg(8, 64),
    Cfg(64, 32),
    Cfg(8, 128, frame=True, drop_bad=True, drop_full=True),
    Cfg(64, 16, frame=True, drop_bad=True, drop_full=False),
    Cfg(8, 64, frame=True, drop_bad=False, drop_full=False),
    Cfg(64, 32, frame=True, drop_bad=False, drop_full=True),
]


@pytest.mark.parametrize(
    "cfg",
    CFGS,
    ids=[
        f"w{c.data_w}_d{c.depth}"
        + ("_frame" if c.frame else "")
        + ("_dropbad" if c.drop_bad else "")
        + ("_dropfull" if c.drop_full else "")
        for c in CFGS
    ],
)
def test_axis_fifo(cfg: Cfg) -> None:
    import cocotb_run

    cocotb_run.run(
        "axis_fifo",
        "test_axis_fifo",
        parameters=cfg.params(),
        extra_env=cfg.env(),
        test_dir=Path(__file__).parent,
    )
