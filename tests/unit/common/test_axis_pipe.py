"""axis_pipe: register slice. Random frames with random pauses on both sides come out
identical; with no pauses it moves one beat per cycle (cocotbext-axi on both sides)."""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from fifo_tb import make_frame, pauses


async def setup(dut) -> tuple[AxiStreamSource, AxiStreamSink]:
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    dut.rst.value = 1
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    return src, snk


@cocotb.test()
async def random_backpressure(dut) -> None:
    src, snk = await setup(dut)
    rng = random.Random(1)
    keep_w = len(dut.s_axis_tkeep)
    for p_src, p_snk in ((0.3, 0.3), (0.0, 0.7), (0.7, 0.0), (0.5, 0.5)):
        src.set_pause_generator(pauses(rng, p_src))
        snk.set_pause_generator(pauses(rng, p_snk))
        frames = [
            (make_frame(i, rng.randint(1, 12 * keep_w), rng), rng.random() < 0.3) for i in range(25)
        ]
        for data, bad in frames:
            src.send_nowait(AxiStreamFrame(data, tuser=int(bad)))
        for data, bad in frames:
            rx = await snk.recv(compact=False)
            got = bytes(b for b, k in zip(rx.tdata, rx.tkeep, strict=True) if k)
            tu = rx.tuser if isinstance(rx.tuser, list) else [rx.tuser]
            assert (got, bool(tu[-1])) == (data, bad)
    assert snk.empty()


@cocotb.test()
async def full_throughput(dut) -> None:
    src, snk = await setup(dut)
    rng = random.Random(2)
    keep_w = len(dut.s_axis_tkeep)
    frames = [make_frame(i, 16 * keep_w, rng) for i in range(10)]
    for f in frames:
        src.send_nowait(AxiStreamFrame(f))
    await RisingEdge(dut.m_axis_tvalid)
    beats = 0
    cycles = 0
    while beats < 160:
        await RisingEdge(dut.clk)
        cycles += 1
        if int(dut.m_axis_tvalid.value) and int(dut.m_axis_tready.value):
            beats += 1
    assert cycles == 160, f"160 beats took {cycles} cycles"
    for f in frames:
        assert bytes((await snk.recv()).tdata) == f


@pytest.mark.parametrize("data_w", [8, 64])
def test_axis_pipe(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "axis_pipe", "test_axis_pipe", parameters={"DATA_W": data_w}, test_dir=Path(__file__).parent
    )
