"""axil_to_reg: cocotbext-axi's AXI4-Lite master against a register-bus slave model.

Random reads and writes (several in flight from concurrent coroutines) must match a
Python memory; unmapped addresses give SLVERR, a slave that never answers gives SLVERR
after the timeout, a partial-strobe write gives SLVERR and changes nothing.
"""

from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp
from wirecore.ipbus import DictBus


def is_err(a: int) -> bool:
    return 0x800 <= a < 0x900


def is_silent(a: int) -> bool:
    return a == 0xA00


async def reg_slave(dut, bus: DictBus, rng: random.Random, log: list[tuple[int, int, int]]):
    pending: list[tuple[int, str, int]] = []
    cycle = 0
    while True:
        await RisingEdge(dut.clk)
        cycle += 1
        dut.tick_1ms.value = int(cycle % 50 == 0)
        dut.reg_ack.value = 0
        dut.reg_err.value = 0
        if pending and pending[0][0] <= cycle:
            _, st, v = pending.pop(0)
            dut.reg_ack.value = int(st == "ok")
            dut.reg_err.value = int(st == "err")
            dut.reg_rdata.value = v
        if int(dut.reg_req.value):
            a, we = int(dut.reg_addr.value), int(dut.reg_we.value)
            assert not pending, "second request while one is outstanding"
            if we:
                st, v = bus.write(a, int(dut.reg_wdata.value)), 0
            else:
                st, v = bus.read(a)
            log.append((a, we, v))
            if st != "timeout":
                pending.append((cycle + rng.randint(1, 4), st, v))


async def setup(dut, seed: int = 1) -> tuple[AxiLiteMaster, DictBus, list]:
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    bus = DictBus(err=is_err, timeout=is_silent)
    log: list = []
    dut.rst.value = 1
    dut.reg_ack.value = 0
    dut.reg_err.value = 0
    dut.reg_rdata.value = 0
    dut.tick_1ms.value = 0
    master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    cocotb.start_soon(reg_slave(dut, bus, random.Random(seed), log))
    await ClockCycles(dut.clk, 2)
    return master, bus, log


@cocotb.test()
async def random_traffic(dut):
    master, bus, log = await setup(dut)
    rng = random.Random(3)
    shadow: dict[int, int] = {}

    async def worker(wid: int) -> None:
        for _ in range(60):
            w = wid * 64 + rng.randrange(64)  # each worker owns its words: no races
            if rng.random() < 0.5:
                v = rng.getrandbits(32)
                r = await master.write(4 * w, v.to_bytes(4, "little"))
                assert r.resp == AxiResp.OKAY
                shadow[w] = v
            else:
                r = await master.read(4 * w, 4)
                assert r.resp == AxiResp.OKAY
                assert int.from_bytes(r.data, "little") == shadow.get(w, 0)

    tasks = [cocotb.start_soon(worker(i)) for i in range(3)]
    for t in tasks:
        await t
    assert bus.mem == shadow
    assert all(a < 0x100 for a, _, _ in log)  # byte address / 4


@cocotb.test()
async def errors(dut):
    master, bus, log = await setup(dut, seed=2)
    r = await master.read(4 * 0x805, 4)
    assert r.resp == AxiResp.SLVERR and r.data == bytes(4)
    r = await master.write(4 * 0x805, bytes(4))
    assert r.resp == AxiResp.SLVERR
    r = await master.read(4 * 0xA00, 4)  # never answered: timeout
    assert r.resp == AxiResp.SLVERR
    n = len(log)
    r = await master.write(4 * 0x10 + 1, b"\x55")  # partial strobe
    assert r.resp == AxiResp.SLVERR
    assert len(log) == n and 0x10 not in bus.mem  # never reached the bus
    r = await master.write(4 * 0x10, (0x1234).to_bytes(4, "little"))
    assert r.resp == AxiResp.OKAY
    r = await master.read(4 * 0x10, 4)
    assert (r.resp, int.from_bytes(r.data, "little")) == (AxiResp.OKAY, 0x1234)


def test_axil_to_reg() -> None:
    import cocotb_run

    cocotb_run.run("axil_to_reg", "test_axil_to_reg", parameters={"ADDR_W": 16})
