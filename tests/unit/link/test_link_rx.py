"""link_rx, the bonded receive path, driven with raw 10-bit lane streams from the lane model
(link_model: the documented transmitter's words, each lane encoded by the 8b/10b model)
with skew between lanes, bit offsets, clock offsets and slips; the far end's clock is
rx_clk, the local one clk.

- every skew 0..SKEW_MAX between lanes (random bit offsets, the lanes in between at random
  skews) brings the link up once and delivers every user word exactly, in order, with no
  error; SKEW_MAX + 1 never brings it up, each alignment marker refused and counted;
- the far end's clock +-200 ppm and +-(the documented limit) from the local one: every
  user word delivered, skip words dropped (far end faster) or repeated (slower) only, no
  overflow or underflow;
- a lane that slips a bit takes the link down (the lane's lock lost, counted), the link
  comes back by itself and the words after it are delivered exactly.
All strobes are counted and checked."""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, Timer
from cocotb_run import run
from link_model import Lane, Transmitter, Word, raw_words, user_word
from unit.cnt_ev_mon import EvMon

PERIOD_FS = 10_000_000
LANE_EV = ["lock", "loss", "code_err", "disp_err", "start"]
BOND_EV = ["up", "down_lane", "down_misalign", "refused", "drop", "overflow"]


class Bench:
    def __init__(self, dut, ppm: float = 0.0) -> None:
        self.dut = dut
        self.lanes = len(dut.m_k)
        self.skew_max = int(dut.SKEW_MAX.value)
        self.depth = int(dut.EB_DEPTH.value)
        far = 2 * round(PERIOD_FS / (1 + ppm * 1e-6) / 2)
        self.clocks = [Clock(dut.rx_clk, far, "fs"), Clock(dut.clk, PERIOD_FS, "fs")]
        for c in self.clocks:
            c.start()
        names: list[str | None] = []
        for i in range(self.lanes):
            names += [f"{n}{i}" for n in LANE_EV]
        self.rx_mon = EvMon(dut, names + BOND_EV, clk="rx_clk", rst="rx_rst", signal="rx_cnt_ev")
        self.mon = EvMon(dut, ["repeat", "underflow"])
        self.got: list[tuple[int, Word, int]] = []  # (clk cycle, word, m_err)

    async def reset(self) -> None:
        d = self.dut
        d.rx_rst.value = 1
        d.rst.value = 1
        d.rx_raw.value = 0
        await Timer(4 * PERIOD_FS, "fs")
        await FallingEdge(d.rx_clk)
        d.rx_rst.value = 0
        await FallingEdge(d.clk)
        d.rst.value = 0

    async def collect(self) -> None:
        d = self.dut
        cycle = 0
        while True:
            await FallingEdge(d.clk)
            cycle += 1
            if int(d.m_valid.value):
                data, k = int(d.m_data.value), int(d.m_k.value)
                w = tuple((data >> 8 * i & 0xFF, bool(k >> i & 1)) for i in range(self.lanes))
                self.got.append((cycle, w, int(d.m_err.value)))

    async def feed(self, raw: list[int]) -> None:
        d = self.dut
        for v in raw:
            await FallingEdge(d.rx_clk)
            d.rx_raw.value = v

    async def play(self, lanes: list[Lane], words: list[Word]) -> None:
        collector = cocotb.start_soon(self.collect())
        # the plans end with an interval of idle: the last user word is out before the end
        await self.feed(raw_words(lanes, words))
        collector.cancel()
        for c in self.clocks:
            c.stop()
        self.rx_mon.stop()
        self.mon.stop()

    def counts(self) -> dict[str, int]:
        c = {**self.rx_mon.counts(), **self.mon.counts()}
        out = {n: c[n] for n in BOND_EV + ["repeat", "underflow"]}
        for n in LANE_EV:
            out[n] = sum(c[f"{n}{i}"] for i in range(self.lanes))
        return out


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def plan(
    lanes: int, rng: random.Random, cycles: int, interval: int = 64, n_user: int | None = None
) -> tuple[list[Word], list[Word], Transmitter, int]:
    """A transmitter already running (the receiver is reset at its cycle `first`, mid-
    interval, so lanes lock on idle commas before the first marker), user words from the
    third interval on, idle for the last interval. Returns (words sent, user words,
    transmitter, first)."""
    tx = Transmitter(lanes, interval, 4)
    first = interval // 4
    user_from = first + 2 * interval
    room = cycles - (user_from - first) - interval
    if n_user is None:
        n_user = room * (interval - 6) // interval
    user = [user_word(rng, lanes) for _ in range(n_user)]
    return tx.run(first, cycles, user, user_from), user, tx, first


def check_words(b: Bench, user: list[Word]) -> None:
    got = [w for _, w, _ in b.got]
    errs = [e for _, _, e in b.got]
    assert not any(errs), "a word with a lane error"
    for n, (g, u) in enumerate(zip(got, user, strict=False)):
        assert g == u, f"user word {n}: got {g}, sent {u}"
    assert len(got) == len(user), f"{len(got)} words delivered, {len(user)} sent"


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def skew_every(dut) -> None:
    """Every skew 0..SKEW_MAX: up once, every word; SKEW_MAX + 1: refused at every marker."""
    lanes = len(dut.m_k)
    skew_max = int(dut.SKEW_MAX.value)
    rng = random.Random(10 + lanes)
    top = skew_max + 1 if lanes > 1 else 0
    for skew in range(top + 1):
        b = Bench(dut)
        await b.reset()
        skews = [0] + [rng.randint(0, skew) for _ in range(lanes - 2)] + [skew]
        skews = skews[:lanes] if lanes > 1 else [0]
        rng.shuffle(skews)
        setup = [Lane(skew=s, offset=rng.randrange(10)) for s in skews]
        cycles = 64 * 5 + 16 + skew
        words, user, tx, first = plan(lanes, rng, cycles)
        await b.play(setup, words)
        c = b.counts()
        where = f"skews {skews}: {c}"
        assert c["lock"] == lanes and c["loss"] == 0 and c["code_err"] + c["disp_err"] == 0, where
        assert c["down_lane"] + c["down_misalign"] + c["overflow"] + c["underflow"] == 0, where
        if skew <= skew_max:
            assert c["up"] == 1 and c["refused"] == 0, where
            check_words(b, user)
        else:
            # one refusal per marker that arrived with every lane locked (all but none:
            # the lanes lock on the idle commas before the first marker), the last lane's
            # marker in time to be seen before the end
            markers = [m for m in tx.marker_cycles(first, cycles) if m + skew + 8 < cycles]
            assert c["up"] == 0 and c["refused"] == len(markers), f"{where}, markers {markers}"
            assert not b.got, "words given with the link down"


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def clock_offset(dut) -> None:
    """The far end +-200 ppm and +-(the limit, SKIPS / (2 * interval)) off: every word,
    skip words dropped or repeated only, in the direction the offset needs."""
    lanes = len(dut.m_k)
    rng = random.Random(20)
    interval = env_int("LINK_PPM_INTERVAL", 128)
    limit = 4 / (2 * interval) * 1e6
    slow = env_int("LINK_PPM_CYCLES", 2500)
    sweep = [int(p) for p in os.environ.get("LINK_PPM_SWEEP", "").split(",") if p]
    cases = [(p, slow) for p in sweep] or [(200, slow), (-200, slow)]
    at_limit = max(2000, env_int("LINK_LIMIT_CYCLES", 2000))
    for ppm, cycles in [*cases, (limit, at_limit), (-limit, at_limit)]:
        b = Bench(dut, ppm)
        await b.reset()
        setup = [Lane(skew=rng.randint(0, 3), offset=rng.randrange(10)) for _ in range(lanes)]
        words, user, _, _ = plan(lanes, rng, cycles, interval)
        await b.play(setup, words)
        c = b.counts()
        where = f"{ppm} ppm: {c}"
        assert c["up"] == 1 and c["loss"] == 0 and c["refused"] == 0, where
        assert c["overflow"] + c["underflow"] == 0, where
        slips = abs(ppm) * 1e-6 * cycles
        if ppm > 0:
            assert c["repeat"] == 0 and abs(c["drop"] - slips) <= b.depth, where
        else:
            assert c["drop"] == 0 and abs(c["repeat"] - slips) <= b.depth, where
        check_words(b, user)


@cocotb.test(timeout_time=40, timeout_unit="ms")
async def lane_failure(dut) -> None:
    """A lane slips a bit while the link is up, later another lane takes a burst of bit
    errors: each time the link goes down when that lane loses its lock, comes back on its
    own, and delivers every word after that exactly (and every word before the fault, on
    every lane, and after it on the lanes that did not fail)."""
    lanes = len(dut.m_k)
    rng = random.Random(30)
    b = Bench(dut)
    await b.reset()
    cycles = 64 * 16
    words, user, _, first = plan(lanes, rng, cycles)
    faults = [(lanes // 2, 64 * 4 + 20), (0, 64 * 9 + 20)]  # (lane, symbol): mid-interval
    setup = [Lane(skew=rng.randint(0, 4), offset=rng.randrange(10)) for _ in range(lanes)]
    setup[faults[0][0]].drops.append(10 * faults[0][1] + 3)
    setup[faults[1][0]].flips += [10 * (faults[1][1] + k) + rng.randrange(10) for k in range(10)]
    await b.play(setup, words)
    c = b.counts()
    where = str(c)
    assert c["up"] == 3 and c["down_lane"] == 2 and c["down_misalign"] == 0, where
    assert c["loss"] == 2 and c["lock"] == lanes + 2, where
    assert c["overflow"] + c["underflow"] == 0, where
    # the words split into runs of cycles (a gap while the link is down)
    runs: list[list[tuple[Word, int]]] = [[]]
    for n, (cyc, w, e) in enumerate(b.got):
        if n and cyc - b.got[n - 1][0] > 20:
            runs.append([])
        runs[-1].append((w, e))
    assert len(runs) == 3, [len(r) for r in runs]
    end = 0
    for r, seg in enumerate(runs):
        start = 0 if r == 0 else user.index(seg[0][0])  # user words are random: unique
        assert start >= end, (r, start, end)
        if r < len(faults):
            lane_hit, sym = faults[r]
            hit = sum(1 for w in words[:sym] if w in user)  # the user word the fault hits
            for n, (w, _) in enumerate(seg):
                for lane in range(lanes):
                    if lane != lane_hit or start + n < hit:
                        assert w[lane] == user[start + n][lane], f"run {r} word {n} lane {lane}"
        else:
            assert [w for w, _ in seg] == user[start:], f"run {r}"
            assert not any(e for _, e in seg), "an error after recovery"
        end = start + len(seg)


@pytest.mark.parametrize(
    "params,cases",
    [
        ({"LANES": 4}, None),
        ({"LANES": 1}, ["skew_every"]),
        ({"LANES": 8, "SKEW_MAX": 3}, ["skew_every"]),
    ],
    ids=["x4", "x1", "x8-skew3"],
)
def test_link_rx(params: dict[str, int], cases: list[str] | None) -> None:
    run("link_rx", "test_link_rx", parameters=params, testcase=cases, timescale=("1ns", "1fs"))


@pytest.mark.long
@pytest.mark.parametrize(
    "lanes,interval", [(1, 128), (4, 128), (4, 2048)], ids=["x1", "x4", "x4-cc2048"]
)
def test_link_rx_ppm_sweep(lanes: int, interval: int) -> None:
    """Clock offsets from 100 ppm to the limit, both ways, 20,000 cycles each; with the
    default CC_INTERVAL 2048 the limit is the documented 976 ppm."""
    sweep = "100,-100,200,-200,1000,-1000,5000,-5000" if interval == 128 else "200,-200"
    env = {
        "LINK_PPM_CYCLES": "20000",
        "LINK_PPM_SWEEP": sweep,
        "LINK_PPM_INTERVAL": str(interval),
        "LINK_LIMIT_CYCLES": "20000",
    }
    run(
        "link_rx",
        "test_link_rx",
        parameters={"LANES": lanes},
        testcase="clock_offset",
        extra_env=env,
        timescale=("1ns", "1fs"),
    )
