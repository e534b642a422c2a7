"""link_tx against the lane model's transmitter (link_model.Transmitter) and the 8b/10b
model: every cycle's code-groups on every lane exactly as the model encodes the word the
documented transmitter sends (the ordered set /K/ /A/ /S/... at every CC_INTERVAL, a
user word when one is offered outside it, else idle /K/), each lane in its own running
disparity; s_ready low exactly during the ordered sets; a control flag on a byte that is
no control code sent as K30.7; the strobes counted."""

from __future__ import annotations

import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb_run import run
from link_model import K28_5, Transmitter, Word, user_word
from ref_8b10b import encode
from unit.cnt_ev_mon import EvMon

K30_7 = 0xFE
BAD_K = (0x00, True)  # D0.0 flagged as control: no control code


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def transmit(dut) -> None:
    lanes = len(dut.s_k)
    tx = Transmitter(lanes, int(dut.CC_INTERVAL.value), int(dut.SKIPS.value))
    cycles = tx.interval * 2 + 200
    rng = random.Random(lanes)
    cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    mon = EvMon(dut, ["set", "bad_k"])
    dut.rst.value = 1
    dut.s_valid.value = 0
    dut.s_data.value = 0
    dut.s_k.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    rd = [-1] * lanes
    sets = bad_words = 0
    for c in range(cycles):
        offer: Word | None = None
        if rng.random() < 0.7:
            offer = user_word(rng, lanes)
            if rng.random() < 0.02:
                lane = rng.randrange(lanes)
                offer = offer[:lane] + (BAD_K,) + offer[lane + 1 :]
            dut.s_data.value = sum(b << 8 * i for i, (b, _) in enumerate(offer))
            dut.s_k.value = sum(int(k) << i for i, (_, k) in enumerate(offer))
        dut.s_valid.value = offer is not None
        in_set = tx.set_symbol(c) is not None
        assert int(dut.s_ready.value) == (not in_set), f"cycle {c}: s_ready"
        want = tx.run(c, 1, [offer] if offer and not in_set else [], 0)[0]
        set_start = tx.set_symbol(c) == K28_5
        bad = want == offer and BAD_K in want
        sets += set_start
        bad_words += bad
        await RisingEdge(dut.clk)
        await FallingEdge(dut.clk)
        got = int(dut.tx_code.value)
        assert int(dut.cnt_ev.value) == set_start | bad << 1, f"cycle {c}: cnt_ev"
        for lane, (b, k) in enumerate(want):
            sent = K30_7 if (b, k) == BAD_K else b
            code, rd[lane] = encode(sent, k, rd[lane])
            assert got >> 10 * lane & 0x3FF == code, f"cycle {c} lane {lane}: {b:#x} k={k}"
    await RisingEdge(dut.clk)
    assert mon.counts() == {"set": sets, "bad_k": bad_words}, (mon.counts(), sets, bad_words)


@pytest.mark.parametrize(
    "params",
    [
        {"LANES": 4, "CC_INTERVAL": 64},
        {"LANES": 1, "CC_INTERVAL": 256, "SKIPS": 2},
        {"LANES": 8},
    ],
    ids=["x4-cc64", "x1-cc256-skip2", "x8"],
)
def test_link_tx(params: dict[str, int]) -> None:
    run("link_tx", "test_link_tx", parameters=params)
