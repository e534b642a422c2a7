"""stream_fifo_g with GATED = 1: s_axis_tready is the FIFO's "not full" AND the producer's
gate, one flip-flop made from their next values (s_gate_nx is the gate's value after the
coming clock edge).

With a random gate, random offers and a randomly stalled sink: the ready is never high in
a cycle whose gate (s_gate_nx of the cycle before) is low, it is high in every such cycle
while the FIFO has room, the beats taken come out in order and unchanged, and a full
FIFO holds DEPTH + 2 beats with its gate open. (Without the gate, GATED = 0, it is
stream_fifo: tests/unit/common/test_stream_fifo.py.) Also with the input register
(IN_REG = 1, DEPTH >= 4): the ready and the fill are the same.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge
from fifo_tb import stream_reset


def _idle_inputs(dut) -> None:
    dut.s_gate_nx.value = 0
    dut.s_axis_tvalid.value = 0
    dut.s_axis_tdata.value = 0
    dut.s_axis_tkeep.value = (1 << len(dut.s_axis_tkeep)) - 1
    dut.s_axis_tlast.value = 0
    dut.s_axis_tuser.value = 0
    dut.m_axis_tready.value = 0


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def random_gate(dut) -> None:
    """The ready follows the gate of the cycle before, limited by the FIFO's room; data in
    order. A model of the FIFO's fill (memory plus the two read registers) tells when it
    has room: the ready must then equal the gate exactly."""
    _idle_inputs(dut)
    await stream_reset(dut)
    depth = int(dut.DEPTH.value)
    width = len(dut.s_axis_tdata)
    rng = random.Random(11)
    taken: list[int] = []
    got: list[int] = []
    gate = 0  # the gate in effect in this cycle (s_gate_nx of the cycle before)
    phases = ((0.9, 0.9, 0.9), (0.5, 0.7, 0.3), (0.8, 0.9, 0.1), (0.3, 0.5, 0.9))
    for p_gate, p_valid, p_ready in phases:
        for _ in range(400):
            await FallingEdge(dut.clk)
            nx = int(rng.random() < p_gate)
            dut.s_gate_nx.value = nx
            dut.s_axis_tvalid.value = int(rng.random() < p_valid)
            dut.s_axis_tdata.value = rng.getrandbits(width)
            dut.m_axis_tready.value = int(rng.random() < p_ready)
            await RisingEdge(dut.clk)
            rdy = int(dut.s_axis_tready.value)
            held = len(taken) - len(got)  # beats inside (memory and read registers)
            assert not (rdy and not gate), "ready while the gate was low"
            # fewer than DEPTH beats inside leaves the memory room (at most DEPTH - 1 of
            # them can be in it), so the ready is the gate alone
            if held < depth:
                assert rdy == gate, f"ready {rdy} with gate {gate} and {held} beats held"
            if rdy and int(dut.s_axis_tvalid.value):
                taken.append(int(dut.s_axis_tdata.value))
            if int(dut.m_axis_tvalid.value) and int(dut.m_axis_tready.value):
                got.append(int(dut.m_axis_tdata.value))
            gate = nx
    await FallingEdge(dut.clk)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    for _ in range(depth + 8):
        await RisingEdge(dut.clk)
        if int(dut.m_axis_tvalid.value):
            got.append(int(dut.m_axis_tdata.value))
    assert got == taken
    assert len(taken) > 500


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def fill_with_gate_open(dut) -> None:
    """Gate open, sink stalled: DEPTH + 2 beats taken, then no ready until one leaves;
    closing the gate drops the ready in the next cycle even with room."""
    _idle_inputs(dut)
    await stream_reset(dut)
    depth = int(dut.DEPTH.value)
    width = len(dut.s_axis_tdata)
    await FallingEdge(dut.clk)
    dut.s_gate_nx.value = 1
    await RisingEdge(dut.clk)
    assert int(dut.s_axis_tready.value) == 0  # the gate opens with the next cycle
    taken: list[int] = []
    for i in range(depth + 8):
        await FallingEdge(dut.clk)
        dut.s_axis_tvalid.value = 1
        dut.s_axis_tdata.value = (i * 29 + 3) % (1 << width)
        await RisingEdge(dut.clk)
        if int(dut.s_axis_tready.value):
            taken.append((i * 29 + 3) % (1 << width))
        else:
            break
    assert len(taken) == depth + 2, f"took {len(taken)} beats, expected {depth + 2}"
    await FallingEdge(dut.clk)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    got: list[int] = []
    for _ in range(4):
        await RisingEdge(dut.clk)
        if int(dut.m_axis_tvalid.value):
            got.append(int(dut.m_axis_tdata.value))
    await FallingEdge(dut.clk)
    assert int(dut.s_axis_tready.value) == 1  # room again, gate still open
    dut.s_gate_nx.value = 0
    await RisingEdge(dut.clk)
    assert int(dut.s_axis_tready.value) == 1  # this cycle's gate was still open
    if int(dut.m_axis_tvalid.value):
        got.append(int(dut.m_axis_tdata.value))
    for _ in range(depth + 8):
        await RisingEdge(dut.clk)
        assert int(dut.s_axis_tready.value) == 0
        if int(dut.m_axis_tvalid.value):
            got.append(int(dut.m_axis_tdata.value))
    assert got == taken


@pytest.mark.parametrize(
    ("data_w", "depth", "in_reg"),
    [(8, 16, 0), (8, 4, 0), (64, 8, 0), (64, 2, 0), (8, 16, 1), (8, 4, 1), (64, 4, 1)],
)
def test_stream_fifo_g(data_w: int, depth: int, in_reg: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "stream_fifo_g",
        "test_stream_fifo_g",
        parameters={"DATA_W": data_w, "DEPTH": depth, "GATED": 1, "IN_REG": in_reg},
        test_dir=Path(__file__).parent,
    )
