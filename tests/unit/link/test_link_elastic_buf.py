"""link_elastic_buf between two clocks a few hundred to tens of thousands of ppm apart, in
both directions. The writer numbers every word (the word is its own sequence number) and
marks a run of skip words every INTERVAL words, as a link's ordered sets do; the test then
accounts for every word: each non-skip word leaves exactly once, in order, unaltered;
a skip word may be missing (a drop) or given twice in a row (a repeat); a non-skip word
may be missing only by overflow, and the output stalls only by underflow. The strobes
must count exactly those drops, repeats, overflows and underflows. Within the documented
offset (min(SKIPS, DEPTH/4) / (2 * INTERVAL)) there is no overflow or underflow; far
beyond it both happen and are counted."""

from __future__ import annotations

import os

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, Timer
from cocotb_run import run
from unit.cnt_ev_mon import EvMon

PERIOD_FS = 10_000_000  # 10 ns local clock
INTERVAL = 64
SKIPS = 2


def limit_ppm(depth: int) -> float:
    return min(SKIPS, depth // 4) / (2 * INTERVAL) * 1e6


class Bench:
    def __init__(self, dut, ppm: float) -> None:
        """ppm > 0: the writer's clock (the far end) is faster than the reader's."""
        self.dut = dut
        self.width = len(dut.s_data)
        wr_period = 2 * round(PERIOD_FS / (1 + ppm * 1e-6) / 2)
        self.clocks = [Clock(dut.wr_clk, wr_period, "fs"), Clock(dut.clk, PERIOD_FS, "fs")]
        for c in self.clocks:
            c.start()
        self.wr_mon = EvMon(
            dut, ["drop", "overflow"], clk="wr_clk", rst="wr_rst", signal="wr_cnt_ev"
        )
        self.rd_mon = EvMon(dut, ["repeat", "underflow"])
        self.sent: list[tuple[int, bool]] = []
        self.got: list[tuple[int, bool]] = []
        self.stalls = 0

    async def reset(self) -> None:
        d = self.dut
        d.wr_rst.value = 1
        d.rst.value = 1
        d.s_valid.value = 0
        d.s_up.value = 0
        d.s_skip.value = 0
        d.s_data.value = 0
        await Timer(5 * PERIOD_FS, "fs")
        await FallingEdge(d.wr_clk)
        d.wr_rst.value = 0
        await FallingEdge(d.clk)
        d.rst.value = 0

    async def write(self, n: int) -> None:
        d = self.dut
        mask = (1 << self.width) - 1
        d.s_up.value = 1
        for i in range(n):
            await FallingEdge(d.wr_clk)
            skip = i % INTERVAL < SKIPS
            d.s_data.value = i & mask
            d.s_skip.value = skip
            d.s_valid.value = 1
            self.sent.append((i, skip))
        await FallingEdge(d.wr_clk)
        d.s_valid.value = 0

    async def read(self) -> None:
        d = self.dut
        was_valid = False
        while True:
            await FallingEdge(d.clk)
            v = int(d.m_valid.value)
            if v:
                self.got.append((int(d.m_data.value), bool(int(d.m_skip.value))))
            elif was_valid:
                self.stalls += 1
            was_valid = bool(v)

    def stop(self) -> None:
        for c in self.clocks:
            c.stop()
        self.wr_mon.stop()
        self.rd_mon.stop()

    def account(self) -> dict[str, int]:
        """Match the output against the input word by word: the drops, repeats, overflows
        and underflows the output shows."""
        mask = (1 << self.width) - 1
        out = {"drop": 0, "repeat": 0, "overflow": 0, "underflow": self.stalls}
        j = 0
        prev: tuple[int, bool] | None = None
        for n, (data, skip) in enumerate(self.got):
            if prev is not None and (data, skip) == prev:
                assert skip, f"output word {n}: non-skip word {data} given twice"
                out["repeat"] += 1
                continue
            while j < len(self.sent) and self.sent[j][0] & mask != data:
                out["overflow" if not self.sent[j][1] else "drop"] += 1
                j += 1
            assert j < len(self.sent), f"output word {n} ({data}) was never sent (or out of order)"
            assert self.sent[j][1] == skip, f"output word {n}: skip flag {skip}"
            prev = (data, skip)
            j += 1
        # after the last word out: the words the buffer still holds (a reader that ran
        # empty waits for START words), the rest lost
        held = (int(self.dut.wr_ptr_reg.value) - int(self.dut.rd_ptr_reg.value)) % (
            2 * depth(self.dut)
        )
        assert held <= len(self.sent) - j, (held, len(self.sent) - j)
        for _, skip in self.sent[j : len(self.sent) - held]:
            out["overflow" if not skip else "drop"] += 1
        return out


async def exercise(dut, ppm: float, words: int) -> dict[str, int]:
    b = Bench(dut, ppm)
    await b.reset()
    reader = cocotb.start_soon(b.read())
    await b.write(words)
    await Timer(100 * PERIOD_FS, "fs")  # drain
    reader.cancel()
    b.stop()
    seen = b.account()
    counted = {**b.wr_mon.counts(), **b.rd_mon.counts()}
    # the final drain runs the buffer empty while s_up is high: one underflow of the test
    assert seen == counted, f"{ppm} ppm: the output shows {seen}, the strobes count {counted}"
    return seen


def depth(dut) -> int:
    return int(dut.DEPTH.value)


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def within_limit(dut) -> None:
    """+-200 ppm and +-(the documented limit): only skips dropped or repeated, in the
    direction the offset needs, no overflow and no underflow but the final drain's."""
    lim = limit_ppm(depth(dut))
    slow = int(os.environ.get("EB_PPM_WORDS", "6000"))
    for ppm, words in ((200, slow), (-200, slow), (lim, 3000), (-lim, 3000)):
        seen = await exercise(dut, ppm, words)
        assert seen["overflow"] == 0 and seen["underflow"] == 1, (ppm, seen)
        slips = abs(ppm) * 1e-6 * words
        if ppm > 0:
            assert seen["repeat"] == 0 and abs(seen["drop"] - slips) <= depth(dut), (ppm, seen)
        else:
            assert seen["drop"] == 0 and abs(seen["repeat"] - slips) <= depth(dut), (ppm, seen)


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def beyond_limit(dut) -> None:
    """Far beyond the limit: the far end 4 times the limit too fast loses words to
    overflow; 10 times too slow (repeats are not bounded by the skip run's length, only
    the drift between two runs is) makes the output stall; each counted, every word that
    comes out intact and in order."""
    lim = limit_ppm(depth(dut))
    fast = await exercise(dut, 4 * lim, 3000)
    assert fast["overflow"] > 0, fast
    slow = await exercise(dut, -10 * lim, 3000)
    assert slow["underflow"] > 1, slow


@pytest.mark.parametrize(
    "depth,words", [(16, 6000), (32, 1500), pytest.param(16, 50000, marks=pytest.mark.long)]
)
def test_link_elastic_buf(depth: int, words: int) -> None:
    """words: how long the +-200 ppm runs are (50,000: about 10 slips each way)."""
    run(
        "link_elastic_buf",
        "test_link_elastic_buf",
        parameters={"WIDTH": 16, "DEPTH": depth},
        extra_env={"EB_PPM_WORDS": str(words)},
        timescale=("1ns", "1fs"),
    )
