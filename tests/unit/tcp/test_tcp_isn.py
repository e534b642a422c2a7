"""tcp_isn: SipHash-2-4 of one 8-byte message against the Python reference (itself checked
against the paper's vector), for random keys and messages, starts back to back and
apart; valid holds until the next start and is low in the start cycle."""

from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge
from cocotb_run import run
from unit.tcp.siphash import siphash24


@cocotb.test()
async def test_isn_hash(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    dut.start.value = 0
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    rng = random.Random(28)
    cases = [(bytes(range(16)), bytes(range(8)))]
    cases += [(rng.randbytes(16), rng.randbytes(8)) for _ in range(40)]
    for key, msg in cases:
        dut.key.value = int.from_bytes(key, "little")
        dut.msg.value = int.from_bytes(msg, "little")
        dut.start.value = 1
        await ReadOnly()
        assert not dut.valid.value, "valid (the previous hash) in the start cycle"
        await RisingEdge(dut.clk)
        dut.start.value = 0
        await RisingEdge(dut.clk)  # (the start is taken at this edge)
        waited = 1
        while not dut.valid.value:
            await RisingEdge(dut.clk)
            waited += 1
            assert waited <= 9, "no result within 9 cycles"
        for _ in range(1 + rng.randrange(3)):
            assert dut.valid.value
            assert int(dut.hash.value) == siphash24(key, msg), (key.hex(), msg.hex())
            await RisingEdge(dut.clk)


def test_tcp_isn() -> None:
    run("tcp_isn", "test_tcp_isn")
