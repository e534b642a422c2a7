"""reg_arbiter: two masters with random traffic share one register bus.

Each master keeps one request outstanding at random moments; the slave model answers
after a random latency (bus errors in one region). Every master must get exactly one
answer per request, the right one (its own read data, ack or err), and both must be
served (no starvation); the slave must never see two requests outstanding.
"""

from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from wirecore.ipbus import DictBus


async def slave(dut, bus: DictBus, rng: random.Random) -> None:
    pending: list[tuple[int, str, int]] = []
    cycle = 0
    while True:
        await RisingEdge(dut.clk)
        cycle += 1
        dut.m_reg_ack.value = 0
        dut.m_reg_err.value = 0
        if pending and pending[0][0] <= cycle:
            _, st, v = pending.pop(0)
            dut.m_reg_ack.value = int(st == "ok")
            dut.m_reg_err.value = int(st == "err")
            dut.m_reg_rdata.value = v
        if int(dut.m_reg_req.value):
            assert not pending, "two requests outstanding"
            a = int(dut.m_reg_addr.value)
            if int(dut.m_reg_we.value):
                st, v = bus.write(a, int(dut.m_reg_wdata.value)), 0
            else:
                st, v = bus.read(a)
            pending.append((cycle + rng.randint(1, 3), st, v))


async def master(dut, idx: int, rng: random.Random, n: int, stats: dict) -> None:
    p = f"s{idx}_reg_"
    mine = range(idx * 0x100, idx * 0x100 + 0x40)  # each master owns its words
    shadow: dict[int, int] = {}
    for _ in range(n):
        await ClockCycles(dut.clk, rng.randint(0, 3))
        err = rng.random() < 0.1
        a = 0x9000 + rng.randrange(16) if err else rng.choice(mine)
        we = rng.random() < 0.5
        v = rng.getrandbits(32)
        getattr(dut, p + "req").value = 1
        getattr(dut, p + "we").value = int(we)
        getattr(dut, p + "addr").value = a
        getattr(dut, p + "wdata").value = v
        await RisingEdge(dut.clk)
        getattr(dut, p + "req").value = 0
        answers = 0
        while True:
            await ReadOnly()
            ack, er = int(getattr(dut, p + "ack").value), int(getattr(dut, p + "err").value)
            if ack or er:
                answers += 1
                assert er == int(err) and ack == int(not err)
                if ack and not we:
                    assert int(getattr(dut, p + "rdata").value) == shadow.get(a, 0)
                break
            await RisingEdge(dut.clk)
        if ack and we:
            shadow[a] = v
        stats[idx] += 1
        await RisingEdge(dut.clk)


async def count_answers(dut, counts: dict) -> None:
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        for i in (0, 1):
            counts[i] += int(getattr(dut, f"s{i}_reg_ack").value)
            counts[i] += int(getattr(dut, f"s{i}_reg_err").value)


@cocotb.test()
async def two_masters(dut):
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    for s in ("s0", "s1"):
        getattr(dut, f"{s}_reg_req").value = 0
    dut.m_reg_ack.value = 0
    dut.m_reg_err.value = 0
    dut.m_reg_rdata.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    bus = DictBus(err=lambda a: a >= 0x9000)
    rng = random.Random(5)
    cocotb.start_soon(slave(dut, bus, rng))
    stats = {0: 0, 1: 0}
    answers = {0: 0, 1: 0}
    cocotb.start_soon(count_answers(dut, answers))
    t0 = cocotb.start_soon(master(dut, 0, random.Random(1), 300, stats))
    t1 = cocotb.start_soon(master(dut, 1, random.Random(2), 300, stats))
    await t0
    await t1
    await ClockCycles(dut.clk, 10)
    assert stats == {0: 300, 1: 300}
    assert answers == {0: 300, 1: 300}  # exactly one answer per request, to its master


def test_reg_arbiter() -> None:
    import cocotb_run

    cocotb_run.run("reg_arbiter", "test_reg_arbiter")
