"""enc_8b10b against the table-driven model (ref_8b10b): every data byte and every
control code in both starting disparities, random streams, the disparity chained through
the lanes of a word, and a control flag on a byte that is no control code sent as K30.7
and counted. BYTES 1, 2 and 4."""

from __future__ import annotations

import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb_run import run
from ref_8b10b import SYMBOLS, code_to_bits, encode, name

FLIP = (0x20, False)  # D0.1: unbalanced in both disparities, so it flips the disparity
K30_7 = 0xFE


def plan() -> list[tuple[int, bool]]:
    """Every symbol once in each starting disparity (a flip inserted where the model's
    disparity is the wrong one), then random symbols."""
    seq: list[tuple[int, bool]] = []
    rd = -1
    for want in (-1, 1):
        for sym in SYMBOLS:
            if rd != want:
                seq.append(FLIP)
                rd = encode(*FLIP, rd)[1]
            seq.append(sym)
            rd = encode(*sym, rd)[1]
    rng = random.Random(8)
    seq += [rng.choice(SYMBOLS) for _ in range(400)]
    return seq


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def encode_all(dut) -> None:
    lanes = len(dut.in_k)
    cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    seq = plan()
    # a control flag on D0.0 (no control code) in the middle, at every lane position
    bad_at = {len(seq) // 2 + i * (lanes + 1) for i in range(lanes)}
    for i in sorted(bad_at):
        seq.insert(i, (0x00, True))
    seq += [FLIP] * (-len(seq) % lanes)
    words = [seq[i : i + lanes] for i in range(0, len(seq), lanes)]
    dut.rst.value = 1
    dut.in_data.value = 0
    dut.in_k.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    rd = -1
    covered: set[tuple[int, bool, int]] = set()
    bad_events = 0
    for n, w in enumerate(words):
        dut.in_data.value = sum(b << 8 * i for i, (b, _) in enumerate(w))
        dut.in_k.value = sum(int(k) << i for i, (_, k) in enumerate(w))
        await RisingEdge(dut.clk)
        await FallingEdge(dut.clk)  # the word is encoded; its cnt_ev strobe is up
        bad_events += int(dut.cnt_ev.value)
        got = int(dut.out_code.value)
        for lane, (b, k) in enumerate(w):
            sent = K30_7 if k and (b, k) not in SYMBOLS else b
            covered.add((b, k, rd))
            want, rd = encode(sent, k, rd)
            code = got >> 10 * lane & 0x3FF
            assert code == want, (
                f"word {n} lane {lane} {name(b, k)}: {code_to_bits(code)} != {code_to_bits(want)}"
            )
        assert int(dut.out_rd.value) == (rd > 0), f"word {n}: out_rd"
    assert all((b, k, r) in covered for b, k in SYMBOLS for r in (-1, 1))
    assert bad_events == len({i // lanes for i in bad_at}), bad_events


@pytest.mark.parametrize("lanes", [1, 2, 4])
def test_enc_8b10b(lanes: int) -> None:
    run("enc_8b10b", "test_enc_8b10b", parameters={"BYTES": lanes})
