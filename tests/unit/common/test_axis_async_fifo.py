"""axis_async_fifo: two unrelated clocks, plain and frame mode, at 8 and 64 bits.

The two clocks differ in period and phase (125 MHz against 156.25 MHz and against 33 MHz,
each way round). cocotbext-axi drives and receives the streams with random pauses; every
frame out is compared with what went in, drops against exact strobe counts, frame mode
is checked never to pause mid-frame, and either side is reset in the middle of traffic.
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
    Rx,
    cfg_from_env,
    check_subsequence,
    make_frame,
    pauses,
    random_frames,
    run_stream_rounds,
)

# (s_clk period, m_clk period) in ns
RATIOS = [(8.0, 6.4), (6.4, 8.0), (8.0, 30.3), (30.3, 8.0)]


@cocotb.test()
@cocotb.parametrize(periods=RATIOS)
async def stream_random_backpressure(dut, periods: tuple[float, float]) -> None:
    """Random frames, random pauses on both sides, unrelated clocks: whole and in order."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=False)
    await tb.start(*periods)
    rng = random.Random(int(periods[0] * 100 + periods[1]))
    await run_stream_rounds(tb, rng, ((0.3, 0.3), (0.0, 0.6)), n=30)


@cocotb.test()
@cocotb.parametrize(periods=[(8.0, 6.4), (6.4, 8.0)])
async def full_throughput(dut, periods: tuple[float, float]) -> None:
    """No pauses: the slower side moves one beat every cycle."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=False)
    await tb.start(*periods)
    rng = random.Random(7)
    ln = min(cfg.keep_w * cfg.depth // 4, 64 * cfg.keep_w)
    frames = [make_frame(i, ln, rng) for i in range(30)]
    for f in frames:
        tb.send(f)
    await tb.drain(len(frames))
    assert tb.m_beats == sum(cfg.beats(len(r.data)) for r in tb.rx)
    if periods[0] > periods[1]:
        # output faster: the input must never be held up, and nothing is lost
        assert tb.s_stalls == 0, f"input stalled {tb.s_stalls} cycles"
        assert [r.data for r in tb.rx] == frames
    else:
        # output slower: from its first beat to its last it moves one beat every cycle
        # (with DROP_WHEN_FULL the faster input overruns it and whole frames are dropped)
        bc = tb.m_beat_cycles
        idle = (bc[-1] - bc[0] + 1) - len(bc)
        assert idle == 0, f"output idle {idle} cycles while data was waiting"
        idx = check_subsequence(tb.rx, frames)
        assert len(frames) - len(idx) == tb.status.counts["drop_full"]
        assert cfg.drop_full or len(idx) == len(frames)
    if cfg.frame:
        assert tb.gaps_mid_frame == 0


@cocotb.test()
async def fill_and_overflow(dut) -> None:
    """Output stalled: plain mode back-pressures; frame mode drops (or waits) exactly."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=False)
    await tb.start(8.0, 6.4)
    rng = random.Random(3)
    tb.sink.pause = True
    flen = 3 * cfg.keep_w  # 3 beats per frame
    frames = [make_frame(i, flen, rng) for i in range(cfg.depth)]  # 3x the FIFO
    for f in frames:
        tb.send(f)
    await ClockCycles(tb.s_clk, 3 * cfg.depth + 60)
    if cfg.frame and cfg.drop_full:
        assert tb.source.queue_occupancy_frames == 0 and tb.s_stalls == 0
        # stored: DEPTH beats in RAM plus one beat in the output register
        assert tb.status.counts["drop_full"] == len(frames) - (cfg.depth + 1) // 3
    else:
        assert tb.s_stalls > 0
        assert tb.status.counts["drop_full"] == 0
    tb.sink.pause = False
    await tb.drain(len(frames))
    idx = check_subsequence(tb.rx, frames)
    assert len(frames) - len(idx) == tb.status.counts["drop_full"]
    assert tb.status.counts["overflow"] == tb.status.counts["drop_full"]
    tb.rx.clear()
    more = [make_frame(1000 + i, flen, rng) for i in range(8)]
    for f in more:
        tb.send(f)
    await tb.drain(len(more))
    assert [r.data for r in tb.rx] == more


@cocotb.test()
async def oversize_frame(dut) -> None:
    """Frame mode: a frame longer than the FIFO is dropped whole and counted, no hang."""
    cfg = cfg_from_env()
    if not cfg.frame:
        return
    tb = FifoTb(dut, cfg, sync=False)
    await tb.start(6.4, 8.0)
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


def check_after_reset(rx: list[Rx], sent: list[bytes], must: list[bytes]) -> None:
    """Frames out around a reset: good ones exact and in order, bad ones only truncations
    of a sent frame (plus the closing byte, which repeats one of that frame's), and every
    frame of ``must`` (sent well after the reset) delivered."""
    good = [r for r in rx if not r.bad]
    check_subsequence(good, sent)
    for r in rx:
        if r.bad:
            body = r.data[:-1]
            assert any(f.startswith(body) and len(f) > len(body) for f in sent), (
                f"bad frame out is not a truncated sent frame: {r.data[:8].hex()}"
            )
            assert r.data[-1:] and r.data[-1] in next(f for f in sent if f.startswith(body))
    got = [r.data for r in good]
    assert got[-len(must) :] == must, "frames sent after the reset were not all delivered"


@cocotb.test()
@cocotb.parametrize(periods=[(8.0, 30.3), (30.3, 8.0), (8.0, 6.4)], side=["s", "m"])
async def reset_one_side_mid_stream(dut, periods: tuple[float, float], side: str) -> None:
    """Reset one side while frames flow: nothing corrupt comes out, traffic resumes."""
    cfg = cfg_from_env()
    tb = FifoTb(dut, cfg, sync=False)
    await tb.start(*periods)
    rng = random.Random(11 + int(periods[0]) + (side == "m"))
    tb.source.set_pause_generator(pauses(rng, 0.1))
    tb.sink.set_pause_generator(pauses(rng, 0.1))
    max_len = min(24 * cfg.keep_w, 4 * cfg.keep_w * cfg.depth // 5)
    sent = [f.data for f in random_frames(rng, 14, max_len, p_bad=0.0)]
    for f in sent:
        tb.send(f)
    # reset once the output is in the middle of a frame, or close to it
    for _ in range(2000):
        await RisingEdge(tb.m_clk)
        if tb.m_beats > 30 and int(dut.m_axis_tvalid.value) and not int(dut.m_axis_tlast.value):
            break
    clk, rst = (tb.s_clk, tb.s_rst) if side == "s" else (tb.m_clk, tb.m_rst)
    await RisingEdge(clk)
    rst.value = 1
    await RisingEdge(clk)
    rst.value = 0
    if side == "m":
        tb.rx.clear()  # the sink was reset too: start afresh
    await tb.settle_reset()
    must = [f.data for f in random_frames(rng, 6, max_len, p_bad=0.0, start_seq=900)]
    for f in must:
        tb.send(f)
    sent += must
    await tb.drain()
    check_after_reset(tb.rx, sent, must)
    if side == "m":
        assert not any(r.bad for r in tb.rx), "downstream was reset: no partial frame expected"
    assert tb.status.counts["drop_bad"] == 0 and tb.status.counts["drop_full"] == 0


CFGS = [
    Cfg(8, 64),
    Cfg(64, 32),
    Cfg(8, 128, frame=True, drop_bad=True, drop_full=True),
    Cfg(64, 32, frame=True, drop_bad=True, drop_full=False),
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
def test_axis_async_fifo(cfg: Cfg) -> None:
    import cocotb_run

    cocotb_run.run(
        "axis_async_fifo",
        "test_axis_async_fifo",
        parameters=cfg.params(),
        extra_env=cfg.env(),
        test_dir=Path(__file__).parent,
    )
