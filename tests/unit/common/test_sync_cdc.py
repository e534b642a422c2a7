"""CDC helpers with unrelated clocks: sync_bus (multi-bit value), sync_pulse (strobes),
sync_reset (reset bridge), sync_events (bursts of counter events), sync_handshake (words
with valid/ready). Checked against what the source side really did."""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer

PAIRS = [(8.0, 6.4), (6.4, 8.0), (8.0, 30.3), (30.3, 8.0)]
# sync_events: destinations at least as fast as the source (16 -> 8 ns: the boards'
# 62.5 MHz control clock into their 125 MHz clock)
EV_PAIRS = [(16.0, 8.0), (8.0, 6.4), (8.0, 7.9)]


async def clocks(src_clk, dst_clk, periods: tuple[float, float]) -> None:
    cocotb.start_soon(Clock(src_clk, periods[0], unit="ns").start())
    await Timer(1.37, unit="ns")
    cocotb.start_soon(Clock(dst_clk, periods[1], unit="ns").start())


@cocotb.test()
@cocotb.parametrize(periods=PAIRS)
async def sync_bus_follows_a_counter(dut, periods: tuple[float, float]) -> None:
    """dst_data only ever takes values src_data held, in order, and keeps up."""
    if not hasattr(dut, "dst_update"):
        return
    await clocks(dut.src_clk, dut.dst_clk, periods)
    width = len(dut.src_data)
    init = int(dut.INIT.value) if hasattr(dut, "INIT") else 0
    dut.src_rst.value = 1
    dut.dst_rst.value = 1
    dut.src_data.value = 0
    await ClockCycles(dut.src_clk, 6)
    await ClockCycles(dut.dst_clk, 6)
    assert int(dut.dst_data.value) == init
    dut.src_rst.value = 0
    dut.dst_rst.value = 0
    history: list[int] = [0]  # every value src_data held, by source cycle
    stop = False

    async def drive() -> None:
        v = (1 << (width - 1)) - 300  # crosses a carry into the top bit on the way
        while not stop:
            await RisingEdge(dut.src_clk)
            dut.src_data.value = v
            history.append(v)
            v = (v + 1) % (1 << width)

    cocotb.start_soon(drive())
    seen: list[int] = []
    gaps: list[int] = []
    since = 0
    for _ in range(1500):
        await RisingEdge(dut.dst_clk)
        since += 1
        if int(dut.dst_update.value):
            seen.append(int(dut.dst_data.value))
            gaps.append(since)
            since = 0
    stop = True
    held = set(history)
    assert seen, "no update reached the destination"
    assert all(v in held for v in seen), "dst_data took a value src_data never held"
    assert seen == sorted(seen) and len(set(seen)) == len(seen), "updates out of order"
    # a round trip is about STAGES+1 cycles of each clock
    slow = max(periods) / min(periods)
    stages = int(dut.STAGES.value)
    bound = int((stages + 2) * (1 + slow)) + 2
    assert max(gaps[1:]) <= bound, f"updates too rare: {max(gaps[1:])}"


@cocotb.test()
@cocotb.parametrize(periods=PAIRS)
async def sync_pulse_counts(dut, periods: tuple[float, float]) -> None:
    """Every source strobe (spaced as documented) gives exactly one destination strobe."""
    if not hasattr(dut, "src_pulse"):
        return
    await clocks(dut.src_clk, dut.dst_clk, periods)
    dut.src_rst.value = 1
    dut.dst_rst.value = 1
    dut.src_pulse.value = 0
    await ClockCycles(dut.src_clk, 6)
    await ClockCycles(dut.dst_clk, 6)
    dut.src_rst.value = 0
    dut.dst_rst.value = 0
    got = 0

    async def count() -> None:
        nonlocal got
        while True:
            await RisingEdge(dut.dst_clk)
            got += int(dut.dst_pulse.value)

    cocotb.start_soon(count())
    rng = random.Random(int(periods[0] * 10))
    sent = 0
    # STAGES+2 destination cycles apart, in source cycles, rounded up
    min_gap = int((int(dut.STAGES.value) + 2) * periods[1] / periods[0]) + 1
    for _ in range(40):
        await RisingEdge(dut.src_clk)
        dut.src_pulse.value = 1
        sent += 1
        await RisingEdge(dut.src_clk)
        dut.src_pulse.value = 0
        await ClockCycles(dut.src_clk, min_gap + rng.randrange(0, 5))
    await ClockCycles(dut.dst_clk, 10)
    assert got == sent


@cocotb.test()
@cocotb.parametrize(periods=PAIRS)
async def sync_reset_stretches(dut, periods: tuple[float, float]) -> None:
    """out follows in within STAGES+1 cycles and stays STAGES + HOLD cycles longer."""
    if not hasattr(dut, "HOLD"):
        return
    cocotb.start_soon(Clock(dut.clk, periods[1], unit="ns").start())
    dut.__getattr__("in").value = 1
    await ClockCycles(dut.clk, 6)
    assert int(dut.out.value) == 1
    hold = int(dut.HOLD.value)
    stages = int(dut.STAGES.value)
    for length in (3, 10):
        dut.__getattr__("in").value = 0
        n = 0
        while int(dut.out.value):
            await RisingEdge(dut.clk)
            n += 1
            assert n < 40
        # (in changes right after an edge: the next edge samples it, then STAGES + HOLD)
        assert n == stages + hold + 1, f"released after {n} cycles"
        await ClockCycles(dut.clk, 5)
        dut.__getattr__("in").value = 1
        n = 0
        while not int(dut.out.value):
            await RisingEdge(dut.clk)
            n += 1
            assert n < 10
        assert n == stages + 1, f"asserted after {n} cycles"
        await ClockCycles(dut.clk, length)


async def _reset_both(dut) -> None:  # noqa: ANN001
    dut.src_rst.value = 1
    dut.dst_rst.value = 1
    await ClockCycles(dut.src_clk, 6)
    await ClockCycles(dut.dst_clk, 6)
    dut.src_rst.value = 0
    dut.dst_rst.value = 0


@cocotb.test()
@cocotb.parametrize(periods=EV_PAIRS)
async def sync_events_counts_bursts(dut, periods: tuple[float, float]) -> None:
    """Every source event of every bit arrives once: all bits on every cycle, then random."""
    if not hasattr(dut, "src_ev"):
        return
    await clocks(dut.src_clk, dut.dst_clk, periods)
    width = len(dut.src_ev)
    dut.src_ev.value = 0
    await _reset_both(dut)
    got = [0] * width

    async def count() -> None:
        while True:
            await RisingEdge(dut.dst_clk)
            v = int(dut.dst_ev.value)
            for b in range(width):
                got[b] += (v >> b) & 1

    cocotb.start_soon(count())
    rng = random.Random(int(periods[0] * 10 + periods[1]))
    sent = [0] * width
    patterns = [(1 << width) - 1] * 60 + [rng.getrandbits(width) for _ in range(300)]
    patterns += [rng.getrandbits(width) & rng.getrandbits(width) for _ in range(300)]
    for v in patterns:
        await RisingEdge(dut.src_clk)
        dut.src_ev.value = v
        for b in range(width):
            sent[b] += (v >> b) & 1
    await RisingEdge(dut.src_clk)
    dut.src_ev.value = 0
    await ClockCycles(dut.dst_clk, 20)
    assert got == sent


@cocotb.test()
@cocotb.parametrize(periods=PAIRS)
async def sync_handshake_carries_words(dut, periods: tuple[float, float]) -> None:
    """Every word offered arrives once, in order, whatever both sides' pace."""
    if not hasattr(dut, "src_ready"):
        return
    await clocks(dut.src_clk, dut.dst_clk, periods)
    width = len(dut.src_data)
    dut.src_valid.value = 0
    dut.src_data.value = 0
    dut.dst_ready.value = 0
    await _reset_both(dut)
    rng = random.Random(int(periods[0] * 10 + periods[1]))
    words = [rng.getrandbits(width) for _ in range(60)]
    got: list[int] = []

    async def take() -> None:
        while True:
            dut.dst_ready.value = rng.random() < 0.6
            await RisingEdge(dut.dst_clk)
            if int(dut.dst_valid.value) and int(dut.dst_ready.value):
                got.append(int(dut.dst_data.value))

    cocotb.start_soon(take())
    for w in words:
        dut.src_data.value = w
        dut.src_valid.value = 1
        while True:
            await RisingEdge(dut.src_clk)
            if int(dut.src_ready.value):
                break
        dut.src_valid.value = 0
        dut.src_data.value = rng.getrandbits(width)  # changes while the word is in flight
        await ClockCycles(dut.src_clk, rng.randrange(0, 3))
    for _ in range(400):
        if len(got) == len(words):
            break
        await RisingEdge(dut.dst_clk)
    await ClockCycles(dut.dst_clk, 30)
    assert got == words


@pytest.mark.parametrize(
    "top,params",
    [
        ("sync_bus", {"WIDTH": 16, "INIT": 1518}),
        ("sync_bus", {"WIDTH": 16, "INIT": 1518, "STAGES": 3}),
        ("sync_pulse", {}),
        ("sync_pulse", {"STAGES": 3}),
        ("sync_reset", {"HOLD": 4}),
        ("sync_reset", {"HOLD": 1, "STAGES": 3}),
        ("sync_events", {"WIDTH": 16, "CW": 3}),
        ("sync_handshake", {"WIDTH": 16}),
    ],
    ids=[
        "sync_bus",
        "sync_bus_s3",
        "sync_pulse",
        "sync_pulse_s3",
        "sync_reset",
        "sync_reset_s3_h1",
        "sync_events",
        "sync_handshake",
    ],
)
def test_sync_cdc(top: str, params: dict[str, int]) -> None:
    import cocotb_run

    cocotb_run.run(top, "test_sync_cdc", parameters=params, test_dir=Path(__file__).parent)
