"""stat_counters, in flip-flops (RAM = 0) and in RAM (RAM = 1), against a Python model.

Both modes: random event strobes (and values, for value counters), reads at random times
(each read equals the model's count of the events before it), exact counts of every
counter at the end, back-to-back reads of one counter and of neighbours, wrapping at 2^W,
clear (every counter restarts at 0, the clear cycle's events counted).
RAM = 1: events at the documented rate bound (the model limits them), the read-after-write
forwarding of the scan, wider pending counts (WMASK), the reset pass (busy for N cycles,
every counter 0, events of the pass counted), and the sticky lost flag when one counter
gets more events per scan than its pending count holds.
RAM = 0: no bound: every counter may count in every cycle, busy and lost stay 0.
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

RD_LATENCY = 2


class Tb:
    """Drives the DUT once a cycle (at the falling edge) and keeps the reference counts."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.n = int(dut.N.value)
        self.w = int(dut.W.value)
        self.ram = int(dut.RAM.value) == 1
        self.pw = int(dut.PW.value)
        self.pv = int(dut.PV.value)
        self.vw = int(dut.VW.value)
        vmask = int(dut.VMASK.value)
        wmask = int(dut.WMASK.value)
        self.value = [bool(vmask >> i & 1) for i in range(self.n)]
        # what each pending count holds: values for value counters, events for the others
        pww = int(dut.PWW.value)
        # flip-flop counters have no pending count: any rate is exact
        self.cap = [
            (1 << self.pv) - 1
            if self.value[i]
            else (1 << (pww if wmask >> i & 1 else self.pw)) - 1
            if self.ram
            else 1 << 62
            for i in range(self.n)
        ]
        self.count = [0] * self.n
        self.pending_reads: deque[tuple[int, int, int]] = deque()  # (due cycle, addr, value)
        self.cycle = 0
        self.reads_done = 0

    async def start(self) -> None:
        cocotb.start_soon(Clock(self.dut.clk, 8, unit="ns").start())
        d = self.dut
        d.rst.value = 1
        d.clear.value = 0
        d.ev.value = 0
        d.ev_val.value = 0
        d.rd_en.value = 0
        d.rd_addr.value = 0
        for _ in range(3):
            await FallingEdge(d.clk)

    async def step(
        self, ev: dict[int, int] | None = None, rd: int | None = None, rst: int = 0
    ) -> None:
        """One cycle: drive events (counter -> value, 1 for strobes) and a read, then check
        the outputs the following edge produced against the model."""
        d = self.dut
        ev = ev or {}
        bits = 0
        vals = 0
        for i, v in ev.items():
            bits |= 1 << i
            vals |= (v & ((1 << self.vw) - 1)) << (i * self.vw)
        d.ev.value = bits
        d.ev_val.value = vals
        d.rst.value = rst
        busy = int(d.busy.value)
        taken = rd is not None and not busy and not rst
        d.rd_en.value = int(rd is not None)
        d.rd_addr.value = rd if rd is not None else 0
        if taken:
            assert rd is not None
            # the read counts the events of the cycles before this one
            self.pending_reads.append((self.cycle + RD_LATENCY, rd, self.count[rd]))
        if not rst:
            for i, v in ev.items():
                self.count[i] = (self.count[i] + v) % (1 << self.w)
        await FallingEdge(d.clk)
        self.cycle += 1
        self.check_read()

    def check_read(self) -> None:
        d = self.dut
        valid = int(d.rd_valid.value)
        if self.pending_reads and self.pending_reads[0][0] == self.cycle:
            _, addr, want = self.pending_reads.popleft()
            assert valid, f"cycle {self.cycle}: no rd_valid for the read of {addr}"
            got = int(d.rd_data.value)
            assert got == want, f"cycle {self.cycle}: counter {addr} read {got}, want {want}"
            self.reads_done += 1
        else:
            assert not valid, f"cycle {self.cycle}: rd_valid without a read"

    async def reset(self) -> None:
        """Reset, then check busy lasts N cycles (RAM; none in flip-flops)."""
        await self.step(rst=1)
        await self.step(rst=1)
        self.count = [0] * self.n
        busy_cycles = 0
        while int(self.dut.busy.value):
            busy_cycles += 1
            await self.step()
            assert busy_cycles <= self.n + 1
        want = self.n if self.ram else 0
        assert busy_cycles == want, f"busy {busy_cycles} cycles, want {want}"
        assert int(self.dut.lost.value) == 0

    async def drain_and_check_all(self) -> None:
        """Let the scan fold everything, then read every counter (back to back)."""
        for _ in range(self.n + 4):
            await self.step()
        for i in range(self.n):
            await self.step(rd=i)
        for _ in range(RD_LATENCY + 1):
            await self.step()
        assert not self.pending_reads


class RateLimiter:
    """Keeps every counter within the documented bound: at most 2^PW - 1 events (2^PV - 1
    in values) in any window of N + R cycles, R the reads in it (the window is grown until
    it holds N cycles without a read, plus a margin of 2)."""

    def __init__(self, tb: Tb) -> None:
        self.tb = tb
        self.hist: list[deque[tuple[int, int]]] = [deque() for _ in range(tb.n)]
        self.reads: deque[int] = deque()

    def window(self) -> int:
        tb = self.tb
        while self.reads and self.reads[0] <= tb.cycle - 40 * tb.n:
            self.reads.popleft()
        w = tb.n + 2
        while True:
            r = sum(1 for c in self.reads if c > tb.cycle - w)
            if tb.n + 2 + r == w:
                return w
            w = tb.n + 2 + r

    def allow(self, i: int, v: int) -> bool:
        tb = self.tb
        h = self.hist[i]
        win = self.window()
        while h and h[0][0] <= tb.cycle - win:
            h.popleft()
        cap = tb.cap[i]
        if sum(x for _, x in h) + v > cap:
            return False
        h.append((tb.cycle, v))
        return True

    def read(self) -> None:
        self.reads.append(self.tb.cycle)


def random_events(tb: Tb, lim: RateLimiter, rng: random.Random, p: float) -> dict[int, int]:
    ev: dict[int, int] = {}
    for i in range(tb.n):
        if rng.random() < p:
            v = rng.randint(0, min((1 << tb.vw) - 1, 1500)) if tb.value[i] else 1
            if lim.allow(i, v):
                ev[i] = v
    return ev


@cocotb.test()
async def reset_pass(dut) -> None:
    """busy for N cycles after reset, every counter 0 (the RAM starts unknown), reads asked
    while busy ignored, events of the pass counted."""
    tb = Tb(dut)
    await tb.start()
    await tb.step(rst=1)
    tb.count = [0] * tb.n
    if not tb.ram:
        # flip-flops: never busy, counters 0 and reads answered from the first cycle
        ev0 = {0: 1} if not tb.value[0] else {0: 7}
        await tb.step(ev=ev0, rd=0)
        for k in range(tb.n):
            assert not int(dut.busy.value)
            await tb.step(rd=k)
        await tb.drain_and_check_all()
        assert tb.count[0] == (1 if not tb.value[0] else 7)
        return
    # reads while busy are ignored: the model expects no rd_valid for them
    ev0 = {0: 1} if not tb.value[0] else {0: 7}
    await tb.step(ev=ev0, rd=0)
    assert int(dut.busy.value)
    for _ in range(tb.n - 1):
        await tb.step(rd=1)
    assert not int(dut.busy.value)
    await tb.drain_and_check_all()
    assert tb.count[0] == (1 if not tb.value[0] else 7)


@cocotb.test()
async def random_events_and_reads(dut) -> None:
    """Random strobes at the allowed rate, random reads: every read and the final counts
    are exact, lost stays low."""
    tb = Tb(dut)
    await tb.start()
    await tb.reset()
    rng = random.Random(tb.n * 7 + tb.pw)
    lim = RateLimiter(tb)
    total = 0
    for p, p_rd, cycles in ((0.05, 0.1, 1500), (0.5, 0.05, 1500), (1.0, 0.3, 800)):
        for _ in range(cycles):
            rd = None
            if rng.random() < p_rd:
                rd = rng.randrange(tb.n)
                lim.read()
            ev = random_events(tb, lim, rng, p)
            total += len(ev)
            await tb.step(ev=ev, rd=rd)
            assert int(dut.lost.value) == 0, f"cycle {tb.cycle}: lost within the bound"
    await tb.drain_and_check_all()
    assert int(dut.lost.value) == 0
    assert tb.reads_done > 200
    assert total > 500


@cocotb.test()
async def back_to_back_reads(dut) -> None:
    """Reads every cycle: one counter again and again, then neighbours, then the address the
    scan has just folded (the read-after-write forwarding), with events on those counters."""
    tb = Tb(dut)
    await tb.start()
    await tb.reset()
    rng = random.Random(5)
    lim = RateLimiter(tb)
    for _ in range(3):
        for _ in range(20):
            lim.read()
            await tb.step(ev=random_events(tb, lim, rng, 0.3), rd=3 % tb.n)
        for k in range(3 * tb.n):
            lim.read()
            await tb.step(ev=random_events(tb, lim, rng, 0.3), rd=(k // 2) % tb.n)
        for k in range(2 * tb.n):
            await tb.step(ev=random_events(tb, lim, rng, 0.3), rd=(k - 1) % tb.n if k % 3 else None)
        for _ in range(2 * tb.n):
            await tb.step()
        assert int(dut.lost.value) == 0
    await tb.drain_and_check_all()
    assert int(dut.lost.value) == 0


@cocotb.test()
async def wraps_at_2w(dut) -> None:
    """A counter wraps at 2^W (run with a small W)."""
    tb = Tb(dut)
    if tb.w > 8:
        return
    await tb.start()
    await tb.reset()
    rng = random.Random(9)
    lim = RateLimiter(tb)
    target = 3 * (1 << tb.w) + 5
    n = 0
    while n < target:
        ev = {1: 1} if lim.allow(1, 1) else {}
        n += len(ev)
        await tb.step(ev=ev, rd=1 if rng.random() < 0.05 else None)
    await tb.drain_and_check_all()
    assert tb.count[1] == target % (1 << tb.w)


@cocotb.test()
async def overflow_sets_lost_and_clear(dut) -> None:
    """One counter strobed every cycle overflows its pending count: lost rises and stays;
    the other counters stay exact; clear drops lost and restarts every counter at 0.
    Flip-flops: every counter strobed every cycle stays exact, lost stays low; clear."""
    tb = Tb(dut)
    await tb.start()
    await tb.reset()
    if not tb.ram:
        rng = random.Random(4)
        for c in range(3 * tb.n):
            ev = {k: rng.randint(0, (1 << tb.vw) - 1) if tb.value[k] else 1 for k in range(tb.n)}
            await tb.step(ev=ev, rd=c % tb.n)
            assert int(dut.lost.value) == 0 and int(dut.busy.value) == 0
        dut.clear.value = 1
        await tb.step(ev={1: 1} if not tb.value[1] else {1: 3})
        dut.clear.value = 0
        tb.count = [0] * tb.n
        tb.count[1] = 1 if not tb.value[1] else 3
        assert int(dut.busy.value) == 0
        await tb.drain_and_check_all()
        return
    i = next(k for k in range(tb.n) if not tb.value[k] and tb.cap[k] < tb.n // 2)
    other = (i + 1) % tb.n
    rng = random.Random(3)
    lim = RateLimiter(tb)
    # within the bound on `other` only
    for _ in range(200):
        ev = {other: 1} if lim.allow(other, 1) and rng.random() < 0.5 else {}
        await tb.step(ev=ev)
    assert int(dut.lost.value) == 0
    # every cycle on counter i: 2^PW events arrive well within one scan of N cycles
    for _ in range(tb.n + 4):
        await tb.step(ev={i: 1})
    assert int(dut.lost.value) == 1
    for _ in range(2 * tb.n):
        await tb.step()
    assert int(dut.lost.value) == 1, "lost is sticky"
    # the other counter is still exact; counter i lost events (read it to show it)
    want_other = tb.count[other]
    got = await read_raw(tb, other)
    assert got == want_other
    got_i = await read_raw(tb, i)
    assert got_i < tb.n + 4
    # clear: lost falls, busy N cycles, every counter restarts at 0 (events of the clear
    # cycle counted)
    dut.clear.value = 1
    await tb.step(ev={other: 1})
    dut.clear.value = 0
    tb.count = [0] * tb.n
    tb.count[other] = 1
    assert int(dut.lost.value) == 0
    busy = 0
    while int(dut.busy.value):
        busy += 1
        await tb.step()
    assert busy == tb.n
    await tb.drain_and_check_all()


async def read_raw(tb: Tb, addr: int) -> int:
    d = tb.dut
    d.rd_en.value = 1
    d.rd_addr.value = addr
    await FallingEdge(d.clk)
    d.rd_en.value = 0
    tb.cycle += 1
    for _ in range(RD_LATENCY - 1):
        await FallingEdge(d.clk)
        tb.cycle += 1
    assert int(d.rd_valid.value)
    return int(d.rd_data.value)


CONFIGS = [
    {"RAM": 1, "N": 8, "W": 32, "PW": 2},
    {"RAM": 1, "N": 59, "W": 32, "PW": 2, "VMASK": 0x22},
    {"RAM": 1, "N": 5, "W": 4, "PW": 1, "VW": 4, "PV": 6, "VMASK": 0x10},
    {"RAM": 1, "N": 16, "W": 32, "PW": 3, "VW": 16, "PV": 16, "VMASK": 0x8001},
    {
        "RAM": 1,
        "N": 12,
        "W": 16,
        "PW": 1,
        "PWW": 3,
        "WMASK": 0x0C6,
        "VW": 12,
        "PV": 13,
        "VMASK": 0x800,
    },  # fmt: skip
    {"RAM": 1, "N": 6, "W": 2, "PW": 1, "VW": 2, "PV": 3, "VMASK": 0x20},
    {"RAM": 0, "N": 8, "W": 32},
    {"RAM": 0, "N": 59, "W": 32, "VMASK": 0x22},
    {"RAM": 0, "N": 5, "W": 4, "VW": 6, "VMASK": 0x10},
    {"RAM": 0, "N": 6, "W": 2, "VW": 2, "VMASK": 0x20},
    {"RAM": 0, "N": 120, "W": 32, "VW": 16, "VMASK": 1 << 119 | 1 << 3},
]


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_stat_counters(params: dict[str, object]) -> None:
    import cocotb_run

    cocotb_run.run(
        "stat_counters", "test_stat_counters", parameters=params, test_dir=Path(__file__).parent
    )
