"""pktgen_loopback: generator into sink through random throttles; the counts of their event
strobes (gen_cnt_ev, sink_cnt_ev) agree exactly."""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from unit.cnt_ev_mon import EvMon

SINK = ["packets", "bytes", "lost", "gaps", "ooo", "bad", "len_err", "short", "payload_err"]
_EV: dict[str, EvMon] = {}  # the generator's and the sink's strobes, counted since setup


def gen(dut) -> dict[str, int]:
    return _EV["gen"].counts()


def sink(dut) -> dict[str, int]:
    return _EV["sink"].counts()


async def throttle(dut, p_hdr: float, p_data: float) -> None:
    while True:
        dut.wire_hdr_ready.value = int(random.random() < p_hdr)
        dut.wire_tready.value = int(random.random() < p_data)
        await RisingEdge(dut.clk)


async def setup(dut, length: int, count: int, lfsr: int) -> None:
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    for name in ("start", "stop", "tick_1ms", "clear", "wire_hdr_ready", "wire_tready"):
        getattr(dut, name).value = 0
    dut.rst.value = 1
    dut.cfg_len.value = length
    dut.cfg_count.value = count
    dut.cfg_gap.value = 0
    dut.cfg_lfsr.value = lfsr
    dut.cfg_fill.value = 0xC3
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    _EV["gen"] = EvMon(dut, ["packets", "bytes"], signal="gen_cnt_ev",
                       values={"bytes": ("gen_cnt_ev_len", 0, 16)})  # fmt: skip
    _EV["sink"] = EvMon(dut, SINK, signal="sink_cnt_ev",
                        values={"bytes": ("sink_cnt_ev_len", 0, 17),
                                "lost": ("sink_cnt_ev_lost", 0, 32)})  # fmt: skip


async def pulse(dut, name: str) -> None:
    getattr(dut, name).value = 1
    await RisingEdge(dut.clk)
    getattr(dut, name).value = 0


async def wait_idle(dut) -> None:
    for _ in range(200000):
        await RisingEdge(dut.clk)
        if not int(dut.busy.value):
            await ClockCycles(dut.clk, 3)
            return
    raise AssertionError("still busy")


@cocotb.test()
async def throttled_run_is_lossless(dut) -> None:
    await setup(dut, 77, 40, 1)
    cocotb.start_soon(throttle(dut, 0.3, 0.5))
    await pulse(dut, "start")
    await wait_idle(dut)
    assert gen(dut) == {"packets": 40, "bytes": 40 * 77}
    want = dict.fromkeys(SINK, 0)
    want.update(packets=40, bytes=40 * 77)
    assert sink(dut) == want


@cocotb.test()
async def restart_without_clear_is_seen_as_late(dut) -> None:
    """A second run restarts the sequence at 0: the sink counts those as late/duplicates,
    and after a clear (which restarts its sequence check) as good again."""
    await setup(dut, 20, 5, 0)
    dut.wire_hdr_ready.value = 1
    dut.wire_tready.value = 1
    await pulse(dut, "start")
    await wait_idle(dut)
    await pulse(dut, "start")
    await wait_idle(dut)
    c = sink(dut)
    assert (c["packets"], c["ooo"], c["lost"]) == (10, 5, 0), c
    await pulse(dut, "clear")
    await pulse(dut, "start")
    await wait_idle(dut)
    c = {k: v - c[k] for k, v in sink(dut).items()}
    assert (c["packets"], c["ooo"], c["lost"], c["payload_err"]) == (5, 0, 0, 0), c


@pytest.mark.parametrize("data_w", [8, 64])
def test_pktgen_loopback(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "pktgen_loopback",
        "test_pktgen_loopback",
        parameters={"DATA_W": data_w},
        test_dir=Path(__file__).parent,
    )
