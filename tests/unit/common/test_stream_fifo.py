"""stream_fifo: synchronous first-word-fall-through FIFO, without and with its input
register (IN_REG = 1: a beat is presented a cycle later, the ready and the fill are the
same).

Random frames with random pauses on both sides come out identical (the FIFO filling up
and draining to empty many times, a write landing in the cycle its last entry is read);
with no pauses it moves one beat per cycle; a beat written into an empty FIFO, whatever
the gap since the one before, is presented exactly 3 cycles later (IN_REG: 4; the
documented latency, on which icmp_echo's checksum verdict relies: a wrong empty flag
moves it); a full FIFO
holds DEPTH + 2 beats and takes nothing more until one leaves.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge
from fifo_tb import check_full_throughput, check_random_backpressure, stream_reset


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def random_backpressure(dut) -> None:
    await check_random_backpressure(
        dut, ((0.3, 0.3), (0.0, 0.7), (0.7, 0.0), (0.5, 0.5), (0.8, 0.2))
    )


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def full_throughput(dut) -> None:
    await check_full_throughput(dut)


def _idle_inputs(dut) -> None:
    dut.s_axis_tvalid.value = 0
    dut.s_axis_tdata.value = 0
    dut.s_axis_tkeep.value = (1 << len(dut.s_axis_tkeep)) - 1
    dut.s_axis_tlast.value = 1
    dut.s_axis_tuser.value = 0


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def latency_after_empty(dut) -> None:
    """Single beats with gaps of 0..5 cycles, the sink always ready: each beat is
    presented exactly 3 cycles (IN_REG: 4) after it was written, also when it is written
    in the cycle the FIFO's last entry is read."""
    _idle_inputs(dut)
    dut.m_axis_tready.value = 1
    await stream_reset(dut)
    rng = random.Random(3)
    width = len(dut.s_axis_tdata)
    written: dict[int, int] = {}  # cycle -> data
    seen: list[tuple[int, int]] = []
    cycle = 0
    gaps = [g for g in range(6) for _ in range(4)]
    rng.shuffle(gaps)
    plan: list[int] = []  # per cycle: 1 = write a beat
    for g in gaps:
        plan += [1] + [0] * g
    plan += [0] * 8
    for w in plan:
        await FallingEdge(dut.clk)
        data = rng.getrandbits(width)
        dut.s_axis_tvalid.value = w
        dut.s_axis_tdata.value = data
        await RisingEdge(dut.clk)
        assert int(dut.s_axis_tready.value) == 1
        if w:
            written[cycle] = data
        if int(dut.m_axis_tvalid.value):
            seen.append((cycle, int(dut.m_axis_tdata.value)))
        cycle += 1
    latency = 3 + int(dut.IN_REG.value)
    assert [(c + latency, d) for c, d in sorted(written.items())] == seen


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def fill_and_hold(dut) -> None:
    """With the sink stalled the FIFO takes DEPTH + 2 beats (memory, read and output
    registers) and then drops its ready; the beats then come out in order."""
    _idle_inputs(dut)
    dut.m_axis_tready.value = 0
    await stream_reset(dut)
    depth = int(dut.DEPTH.value)
    width = len(dut.s_axis_tdata)
    taken: list[int] = []
    for i in range(depth + 8):
        await FallingEdge(dut.clk)
        dut.s_axis_tvalid.value = 1
        dut.s_axis_tdata.value = (i * 37 + 5) % (1 << width)
        await RisingEdge(dut.clk)
        if int(dut.s_axis_tready.value):
            taken.append((i * 37 + 5) % (1 << width))
        else:
            break
    # the beat offered when ready fell was not taken: keep offering it until it is
    assert len(taken) == depth + 2, f"took {len(taken)} beats, expected {depth + 2}"
    for _ in range(4):
        await RisingEdge(dut.clk)
        assert int(dut.s_axis_tready.value) == 0
    await FallingEdge(dut.clk)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    got: list[int] = []
    for _ in range(depth + 8):
        await RisingEdge(dut.clk)
        if int(dut.m_axis_tvalid.value):
            got.append(int(dut.m_axis_tdata.value))
    assert got == taken


@pytest.mark.parametrize(
    ("data_w", "depth", "in_reg"),
    [(8, 32, 0), (8, 4, 0), (64, 16, 0), (64, 2, 0), (8, 16, 1), (8, 4, 1), (64, 4, 1)],
)
def test_stream_fifo(data_w: int, depth: int, in_reg: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "stream_fifo",
        "test_stream_fifo",
        parameters={"DATA_W": data_w, "DEPTH": depth, "IN_REG": in_reg},
        test_dir=Path(__file__).parent,
    )
