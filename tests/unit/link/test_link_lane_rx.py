"""link_lane_rx: a lane of 8b/10b code-groups (encoded by the model, ref_8b10b) arrives as
a raw 10- or 20-bit stream at every bit offset; the receiver must find the comma, lock
after LOCK_COMMAS commas, and give every code-group from then on exactly as the model
decodes the received bits at that alignment (byte, control flag, code violation,
disparity error), 3 cycles after the word holding its first bit, at the offset it reports.
Injected single-bit errors are flagged as the model says without losing lock; a burst of
errors and bit slips (a bit dropped, a bit repeated) lose lock once each, and the receiver
comes back at the new offset. The cnt_ev strobes are counted exactly."""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb_run import run
from ref_8b10b import Verdict, code_to_bits, decode, encode
from unit.cnt_ev_mon import EvMon

EVENTS = ["lock", "loss", "code_err", "disp_err", "start"]
COMMA_EVERY = 16  # symbols; an even count, so commas stay in lane 0 of 20-bit words
NOISE_K = [0x1C, 0x5C, 0x9C]  # K28.0, K28.2, K28.4: control codes that are no comma


def comma() -> int:
    return int(os.environ.get("LANE_COMMA", "0xBC"), 0)


def symbols(n: int, rng: random.Random) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    for i in range(n):
        if i % COMMA_EVERY == 0:
            out.append((comma(), True))
        elif i % 37 == 5:
            out.append((rng.choice(NOISE_K), True))
        else:
            out.append((rng.getrandbits(8), False))
    return out


def encode_bits(syms: list[tuple[int, bool]]) -> str:
    rd = -1
    bits = []
    for b, k in syms:
        code, rd = encode(b, k, rd)
        bits.append(code_to_bits(code))
    return "".join(bits)


def junk(n: int) -> str:
    """n bits that cannot make a comma with what follows (no run longer than 1)."""
    return ("10" * 10)[:n]


def model_streams(rx: str) -> list[list[tuple[Verdict, int | None, bool | None]]]:
    """The model's decoding of the received bits at each phase 0..9 (disparity from RD-)."""
    streams = []
    for phase in range(10):
        rd = -1
        out = []
        for p in range(phase, len(rx) - 9, 10):
            verdict, byte, k, rd = decode(int(rx[p : p + 10][::-1], 2), rd)
            out.append((verdict, byte, k))
        streams.append(out)
    return streams


class Lane:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.lanes = len(dut.m_k)
        self.w = 10 * self.lanes
        cocotb.start_soon(Clock(dut.clk, 10, "ns").start())
        self.mon = EvMon(dut, EVENTS)

    async def reset(self) -> None:
        self.dut.rst.value = 1
        self.dut.rx_raw.value = 0
        for _ in range(3):
            await RisingEdge(self.dut.clk)
        await FallingEdge(self.dut.clk)
        self.dut.rst.value = 0

    async def feed(self, rx: str) -> list[dict[str, int]]:
        """Drive the bits word by word; the outputs after each edge."""
        rec = []
        w = self.w
        for n in range(len(rx) // w):
            self.dut.rx_raw.value = int(rx[n * w : (n + 1) * w][::-1], 2)
            await RisingEdge(self.dut.clk)
            await FallingEdge(self.dut.clk)
            d = self.dut
            rec.append(
                {
                    "valid": int(d.m_valid.value),
                    "data": int(d.m_data.value) if int(d.m_valid.value) else 0,
                    "k": int(d.m_k.value) if int(d.m_valid.value) else 0,
                    "cerr": int(d.m_code_err.value) if int(d.m_valid.value) else 0,
                    "derr": int(d.m_disp_err.value) if int(d.m_valid.value) else 0,
                    "lock": int(d.lock.value),
                    "off": int(d.align_off.value),
                }
            )
        return rec

    def check(self, rx: str, rec: list[dict[str, int]]) -> list[tuple[int, int]]:
        """Every valid output word against the model; returns (phase, align_off) of each run
        of valid words. Also checks that the strobes count the flagged words."""
        streams = model_streams(rx)
        runs: list[tuple[int, int]] = []
        cerr_words = derr_words = 0
        for c, r in enumerate(rec):
            if not r["valid"]:
                continue
            off = rec[c - 2]["off"]
            p = (c - 3) * self.w + off  # first bit of lane 0: 3 cycles latency
            if not rec[c - 1]["valid"]:
                runs.append((p % 10, off))
            assert (p % 10, off) == runs[-1], f"cycle {c}: alignment moved while valid"
            for lane in range(self.lanes):
                verdict, byte, k = streams[p % 10][p // 10 + lane]
                got = (r["cerr"] >> lane & 1, r["derr"] >> lane & 1)
                want = (int(verdict == Verdict.CODE_ERR), int(verdict == Verdict.DISP_ERR))
                where = f"cycle {c} lane {lane} (bit {p + 10 * lane})"
                assert got == want, f"{where}: errors {got}, model {verdict}"
                if verdict != Verdict.CODE_ERR:
                    assert (r["data"] >> 8 * lane & 0xFF, r["k"] >> lane & 1) == (byte, k), where
            cerr_words += r["cerr"] != 0
            derr_words += r["derr"] != 0
        counts = self.mon.counts()
        assert counts["code_err"] == cerr_words, (counts, cerr_words)
        assert counts["disp_err"] == derr_words, (counts, derr_words)
        assert rec[-1]["valid"] and rec[-1]["lock"], "not locked at the end"
        self.check_losses(rec)
        return runs

    def check_losses(self, rec: list[dict[str, int]]) -> None:
        """The lock falls exactly where the documented rule says: windows of ERR_WINDOW
        cycles from the cycle lock rose, lost at the ERR_LIMIT-th word with an error in
        one window (the word on m_* after edge c acts at edge c+1)."""
        limit = int(os.environ["LANE_ERR_LIMIT"])
        window = int(os.environ["LANE_ERR_WINDOW"])
        rises = [c for c in range(1, len(rec)) if rec[c]["lock"] and not rec[c - 1]["lock"]]
        falls = [c for c in range(1, len(rec)) if rec[c - 1]["lock"] and not rec[c]["lock"]]
        want = []
        for rise in rises:
            errs: dict[int, int] = {}
            for c in range(rise, len(rec) - 1):
                if rec[c]["valid"] and (rec[c]["cerr"] or rec[c]["derr"]):
                    w = (c - rise) // window
                    errs[w] = errs.get(w, 0) + 1
                    if errs[w] == limit:
                        want.append(c + 1)
                        break
        assert falls == want, f"lock fell at {falls}, the rule says {want}"


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def align_every_offset(dut) -> None:
    """From reset, at every bit offset: one alignment, one lock, no error."""
    lane = Lane(dut)
    rng = random.Random(1)
    for off in range(lane.w):
        await lane.reset()
        rx = junk(off) + encode_bits(symbols(176, rng))
        rec = await lane.feed(rx)
        runs = lane.check(rx, rec)
        assert runs == [(off % 10, off)], f"offset {off}: runs {runs}"
        want = {"lock": 1, "loss": 0, "code_err": 0, "disp_err": 0, "start": 1}
        assert lane.mon.counts() == want, f"offset {off}: {lane.mon.counts()}"


def flip(rx: str, p: int) -> str:
    return rx[:p] + ("1" if rx[p] == "0" else "0") + rx[p + 1 :]


def false_commas(rx: str, phase: int, lo: int = 0, hi: int | None = None) -> list[int]:
    """Bit positions in lo..hi, off the phase, where the seven-bit comma (either form)
    starts."""
    hi = len(rx) - 7 if hi is None else hi
    return [
        p for p in range(lo, hi + 1) if p % 10 != phase and rx[p : p + 7] in ("0011111", "1100000")
    ]


def error_symbols(rx: str, phase: int) -> int:
    return sum(v != Verdict.VALID for v, _, _ in model_streams(rx)[phase])


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def bit_errors(dut) -> None:
    """Single-bit errors (each making exactly one bad code-group by the model) are flagged
    and keep the lock; a burst of 8 bad code-groups loses it once; the lane recovers."""
    lane = Lane(dut)
    rng = random.Random(2)
    await lane.reset()
    off = 7
    rx = junk(off) + encode_bits(symbols(1400, rng))
    assert error_symbols(rx, off % 10) == 0 and not false_commas(rx, off % 10)
    singles = 0
    for sym in (300, 460, 620, 780):  # far apart: one window holds at most one of them
        for bit in rng.sample(range(10), 10):
            trial = flip(rx, off + 10 * sym + bit)
            if error_symbols(trial, off % 10) == singles + 1:
                rx = trial
                singles += 1
                break
    assert singles == 4
    for sym in range(1000, 1008):  # the burst, making no comma at another bit offset
        for bit in rng.sample(range(10), 10):
            trial = flip(rx, off + 10 * sym + bit)
            at = off + 10 * sym
            if not false_commas(trial, off % 10, at - 10, at + 10):
                rx = trial
                break
        else:
            raise AssertionError(f"no flip in symbol {sym} without a false comma")
    rec = await lane.feed(rx)
    runs = lane.check(rx, rec)
    assert runs == [(off % 10, off)] * 2, runs
    counts = lane.mon.counts()
    assert (counts["lock"], counts["loss"], counts["start"]) == (2, 1, 2), str(counts)
    assert counts["code_err"] + counts["disp_err"] >= 4 + 4, counts


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def slips(dut) -> None:
    """A bit dropped, then a bit repeated: each loses the lock once, and the lane locks
    again at the offset one bit earlier, then back."""
    lane = Lane(dut)
    rng = random.Random(3)
    await lane.reset()
    off = lane.w - 1
    rx = junk(off) + encode_bits(symbols(1200, rng))
    drop = off + 10 * 400 + 4
    rx = rx[:drop] + rx[drop + 1 :]
    dup = off + 10 * 800 + 3
    rx = rx[:dup] + rx[dup] + rx[dup:]
    rx += junk(lane.w)  # whole words
    rec = await lane.feed(rx)
    runs = lane.check(rx, rec)
    w = lane.w
    assert runs == [(off % 10, off), ((off - 1) % 10, (off - 1) % w), (off % 10, off)], runs
    counts = lane.mon.counts()
    assert (counts["lock"], counts["loss"], counts["start"]) == (3, 2, 3), str(counts)


@pytest.mark.parametrize(
    "params,comma",
    [
        ({"BYTES": 1}, "0xBC"),
        ({"BYTES": 2}, "0xBC"),
        ({"BYTES": 1, "COMMA_MODE": 1, "LOCK_COMMAS": 2, "ERR_LIMIT": 2, "ERR_WINDOW": 16}, "0x3C"),
        ({"BYTES": 2, "COMMA_MODE": 1}, "0xBC"),
    ],
    ids=["w10", "w20", "w10-k28.1-small", "w20-anycomma"],
)
def test_link_lane_rx(params: dict[str, int], comma: str) -> None:
    env = {
        "LANE_COMMA": comma,
        "LANE_ERR_LIMIT": str(params.get("ERR_LIMIT", 4)),
        "LANE_ERR_WINDOW": str(params.get("ERR_WINDOW", 64)),
    }
    run("link_lane_rx", "test_link_lane_rx", parameters=params, extra_env=env)
