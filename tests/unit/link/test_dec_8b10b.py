"""dec_8b10b against the table-driven model (ref_8b10b): every 10-bit pattern in both
running disparities (2 x 1024) with the model's verdict (valid, disparity error, code
violation), byte and control flag, and the running disparity it tracks; then a random
stream of valid code-groups decodes with no error. BYTES 1, 2 and 4."""

from __future__ import annotations

import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb_run import run
from ref_8b10b import SYMBOLS, Verdict, code_to_bits, decode, encode

FLIP = (0x20, False)  # D0.1: unbalanced in both disparities, so it flips the disparity


def plan() -> list[int]:
    """Every pattern once in each disparity (a valid flipping code-group inserted where the
    model's disparity is the wrong one), then a random stream of valid code-groups."""
    seq: list[int] = []
    rd = -1
    for want in (-1, 1):
        for code in range(1024):
            if rd != want:
                flip, _ = encode(*FLIP, rd)
                seq.append(flip)
                rd = decode(flip, rd)[3]
            seq.append(code)
            rd = decode(code, rd)[3]
    rng = random.Random(9)
    for _ in range(400):
        code, rd = encode(*rng.choice(SYMBOLS), rd)
        seq.append(code)
    return seq


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def decode_all(dut) -> None:
    lanes = len(dut.out_k)
    cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
    seq = plan()
    seq += [encode(*FLIP, -1)[0]] * (-len(seq) % lanes)  # any code-group as padding
    words = [seq[i : i + lanes] for i in range(0, len(seq), lanes)]
    dut.rst.value = 1
    dut.in_code.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    rd = -1
    seen: dict[Verdict, int] = dict.fromkeys(Verdict, 0)
    covered: set[tuple[int, int]] = set()
    for n, w in enumerate(words):
        dut.in_code.value = sum(c << 10 * i for i, c in enumerate(w))
        await RisingEdge(dut.clk)
        await FallingEdge(dut.clk)
        data, k = int(dut.out_data.value), int(dut.out_k.value)
        cerr, derr = int(dut.out_code_err.value), int(dut.out_disp_err.value)
        for lane, code in enumerate(w):
            covered.add((code, rd))
            verdict, byte, is_k, rd = decode(code, rd)
            seen[verdict] += 1
            where = f"word {n} lane {lane} {code_to_bits(code)}"
            assert (cerr >> lane & 1, derr >> lane & 1) == (
                verdict == Verdict.CODE_ERR,
                verdict == Verdict.DISP_ERR,
            ), f"{where}: code_err {cerr >> lane & 1} disp_err {derr >> lane & 1}, model {verdict}"
            if verdict != Verdict.CODE_ERR:
                assert data >> 8 * lane & 0xFF == byte, f"{where}: data"
                assert k >> lane & 1 == is_k, f"{where}: k"
        assert int(dut.out_rd.value) == (rd > 0), f"word {n}: out_rd"
    assert len(covered) == 2048
    assert all(seen.values()), seen


@pytest.mark.parametrize("lanes", [1, 2, 4])
def test_dec_8b10b(lanes: int) -> None:
    run("dec_8b10b", "test_dec_8b10b", parameters={"BYTES": lanes})
