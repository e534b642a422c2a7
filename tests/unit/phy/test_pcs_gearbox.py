"""pcs_gearbox_tx and pcs_gearbox_rx back to back (tests/tb/pcs_gearbox_loop.v): random
66-bit blocks in; the 32-bit line carries exactly their bits in order, 16 blocks taken in
every 33 cycles; the receiver gives the same blocks back, and after each rx_slip the
blocks cut one bit later in the line's bit stream."""

from __future__ import annotations

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotb_run import run


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def gearbox_pair(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, 3.1, "ns").start())
    rng = random.Random(5)
    blocks = [rng.getrandbits(66) for _ in range(400)]
    dut.rst.value = 1
    dut.rx_slip.value = 0
    dut.s_block.value = blocks[0]
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    line = 0  # the words the receiver samples, bit 0 first, from its first edge after reset
    nbits = 0
    taken: list[int] = []  # cycle of each block taken
    got: list[int] = []
    slip_at = {300, 420, 421, 600}  # cycles with rx_slip high
    slips_before: list[int] = []  # the cycle each block was received in
    slips = 0
    i = 0
    for cyc in range(800):
        dut.s_block.value = blocks[i % len(blocks)]
        dut.rx_slip.value = int(cyc in slip_at)
        await RisingEdge(dut.clk)
        # (read at the edge, registers show what the edge samples: the line word the
        # receiver takes now, written by the transmitter at the edge before)
        if int(dut.s_ready.value):
            taken.append(cyc)
            i += 1
        slips += cyc in slip_at
        line |= int(dut.line.value) << nbits
        nbits += 32
        if int(dut.m_valid.value):
            got.append(int(dut.m_block.value))
            slips_before.append(cyc)
    # the line: the blocks' bits in order (the first word leaves after the first block)
    sent = sum(blocks[k % len(blocks)] << (66 * k) for k in range(len(taken)))
    n = 66 * (len(taken) - 2)
    # (the first word sampled is the transmitter's word from reset)
    assert (line >> 32) & ((1 << n) - 1) == sent & ((1 << n) - 1), "line bits differ"
    # 16 blocks in every 33 cycles
    for s in range(0, 700, 33):
        assert sum(s <= t < s + 33 for t in taken) == 16, s
    # received blocks: each is 66 bits of what the receiver sampled, at 66 k plus the
    # slips before it (a slip in the cycle a block is cut acts on that block already)
    for k, (blk, cyc) in enumerate(zip(got, slips_before, strict=True)):
        done = sum(c <= cyc - 2 for c in slip_at)  # slips surely acted on this block
        maybe = sum(cyc - 2 < c <= cyc for c in slip_at)  # slips at its own edges
        cands = {66 * k + done + j for j in range(maybe + 1)}
        assert any((line >> p) & ((1 << 66) - 1) == blk for p in cands), k
    assert slips == 4 and len(got) > 300


def test_pcs_gearbox() -> None:
    run("pcs_gearbox_loop", "test_pcs_gearbox")
