"""cfar_accel: sample frames (Ethernet/IPv4/UDP built by scapy, or bare payloads with
SKIP = 0) of seeded scenes go through the accelerator; every result must equal, byte for
byte, the one the independent fixed-point model (host/wirecore/cfar.py) computes, and the
detections of the seeded scenes must be the scenes' target bins. Frames out of order, a
missing second frame, short, long and bad (tuser) frames are dropped and counted exactly
(the model's frame rules, wirecore.cfar.Assembler); blocks back to back at line rate are
either processed or dropped as busy, every frame counted once; the output is stalled at
random."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import cocotb
import numpy as np
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Event, FallingEdge, First, RisingEdge, Timer
from cocotb.utils import get_sim_time
from cocotb_run import run
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from unit.cnt_ev_mon import EvMon
from wirecore import cfar

EVENTS = ["block", "result", "bad", "len", "order", "lost", "busy"]
IFG = 24  # idle cycles between frames at line rate: FCS 4 + gap 12 + preamble 8


@dataclass
class Frame:
    data: bytes
    bad: bool = False
    gap: int = IFG  # idle cycles after it


class Tb:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.skip = int(os.environ["CFAR_SKIP"])
        self.max_det = int(os.environ["CFAR_MAX_DET"])
        cocotb.start_soon(Clock(dut.clk, 8, "ns").start())
        self.mon = EvMon(dut, EVENTS)
        self.queue: list[Frame] = []
        self.cur: bytes = b""
        self.cur_bad = False
        self.pos = 0
        self.in_frame = False
        self.idle = 0
        self.results: list[bytes] = []
        self.partial = bytearray()
        self.p_ready = 1.0
        self.rng = random.Random(7)
        self.cycle = 0
        self.wake = Event()
        self.last_in = 0  # cycle of the last input byte
        self.first_out: list[int] = []  # cycle of each result's first byte
        self.last_out: list[int] = []  # and of its last byte

    async def reset(self) -> None:
        d = self.dut
        d.rst.value = 1
        d.s_axis_tvalid.value = 0
        d.s_axis_tdata.value = 0
        d.s_axis_tkeep.value = 1
        d.s_axis_tlast.value = 0
        d.s_axis_tuser.value = 0
        d.m_axis_tready.value = 0
        self.config(2, 16, 8.0)
        for _ in range(4):
            await FallingEdge(d.clk)
        d.rst.value = 0
        cocotb.start_soon(self._loop())

    def config(self, guard: int, train: int, factor: float) -> tuple[int, int, int]:
        self.cfg = (guard, train, cfar.alpha_word(factor, train))
        self.dut.cfg_guard.value = guard
        self.dut.cfg_train.value = train
        self.dut.cfg_alpha.value = self.cfg[2]
        return self.cfg

    def frame(self, payload: bytes) -> bytes:
        """The frame carrying ``payload``: SKIP header bytes (Ethernet/IPv4/UDP at 42,
        arbitrary bytes otherwise)."""
        if self.skip != 42:
            return bytes((7 * i + 3) & 0xFF for i in range(self.skip)) + payload
        pkt = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(
            src="192.0.2.1", dst="192.0.2.2"
        )
        pkt = pkt / UDP(sport=5000, dport=6000) / Raw(payload)
        return bytes(pkt)

    def block_frames(self, seq: int, samples: np.ndarray) -> list[Frame]:
        return [Frame(self.frame(p)) for p in cfar.block_payloads(seq, samples, tag=seq * 77)]

    # ---- the cycle loop: the DUT's outputs are flip-flops, so at the falling edge their
    # values are the ones the next rising edge sees ----
    async def _loop(self) -> None:
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            if self._quiet():  # nothing to send or take: sleep until that changes
                d.s_axis_tvalid.value = 0
                self.wake.clear()
                await First(RisingEdge(d.m_axis_tvalid), self.wake.wait())
                await FallingEdge(d.clk)
            self.cycle = int(get_sim_time("ns")) // 8
            self._sink()
            self._source()

    def _quiet(self) -> bool:
        return (
            not self.queue
            and not self.in_frame
            and self.idle <= 0
            and not int(self.dut.m_axis_tvalid.value)
        )

    def _sink(self) -> None:
        d = self.dut
        ready = self.rng.random() < self.p_ready
        d.m_axis_tready.value = int(ready)
        if not (ready and int(d.m_axis_tvalid.value)):
            return
        if not self.partial:
            self.first_out.append(self.cycle)
        assert int(d.m_axis_tkeep.value) == 1 and int(d.m_axis_tuser.value) == 0
        self.partial.append(int(d.m_axis_tdata.value))
        if int(d.m_axis_tlast.value):
            self.results.append(bytes(self.partial))
            self.last_out.append(self.cycle)
            self.partial = bytearray()

    def _source(self) -> None:
        d = self.dut
        if self.pos >= len(self.cur) and not self.in_frame:
            if self.idle > 0 or not self.queue:
                self.idle -= 1
                d.s_axis_tvalid.value = 0
                return
            f = self.queue.pop(0)
            self.cur, self.cur_bad, self.pos, self.in_frame = f.data, f.bad, 0, True
            self.idle = f.gap
        last = self.pos >= len(self.cur) - 1
        d.s_axis_tvalid.value = 1
        d.s_axis_tkeep.value = int(self.pos < len(self.cur))  # an empty frame: tkeep 0
        d.s_axis_tdata.value = self.cur[self.pos] if self.cur else 0
        d.s_axis_tlast.value = int(last)
        d.s_axis_tuser.value = int(last and self.cur_bad)
        self.pos += 1
        self.last_in = self.cycle
        if last:
            self.in_frame = False

    async def send(self, frames: list[Frame]) -> None:
        self.queue += frames
        self.wake.set()
        for _ in range(400000):
            if not self.queue and not self.in_frame:
                # the last byte is taken at the next edge, its strobes one edge later
                await ClockCycles(self.dut.clk, 3)
                return
            await FallingEdge(self.dut.clk)
        raise AssertionError("input did not drain")

    async def wait_results(self, n: int, limit: int = 40000) -> None:
        """Wait for n results in total (each within ``limit`` cycles), and for the
        accelerator to go quiet."""
        while len(self.results) < n:
            had = len(self.results)
            await First(RisingEdge(self.dut.m_axis_tlast), Timer(8 * limit, "ns"))
            for _ in range(1000):  # the sink takes it (its ready is random)
                if len(self.results) > had:
                    break
                await FallingEdge(self.dut.clk)
            assert len(self.results) > had, f"{len(self.results)} results, expected {n}"
        await ClockCycles(self.dut.clk, 200)  # nothing more comes
        assert len(self.results) == n, f"{len(self.results)} results, expected {n}"

    def expect_result(self, seq: int, samples: np.ndarray) -> bytes:
        dets = cfar.detect(samples, *self.cfg)
        return cfar.result_bytes(cfar.block_id(seq), dets, self.max_det)


def check_result(got: bytes, want: bytes) -> None:
    if got == want:
        return
    gb, gf, gd = cfar.parse_result(got)
    wb, wf, wd = cfar.parse_result(want)
    raise AssertionError(
        f"result differs: block {gb} found {gf} {gd[:6]}...; model: block {wb} found {wf} "
        f"{wd[:6]}..."
    )


@cocotb.test()
async def test_scenes(dut) -> None:
    """Seeded scenes, several CFAR settings: results bit-exact, detections = target bins."""
    tb = Tb(dut)
    await tb.reset()
    settings = [(2, 16, 8.0), (4, 32, 6.0), (0, 8, 10.0), (15, 127, 7.0), (0, 1, 12.0)]
    for i, (guard, train, factor) in enumerate(settings):
        scene = cfar.random_scene(100 + i)
        x = scene.samples()
        tb.config(guard, train, factor)
        seq = 2 * (1000 + i)
        await tb.send(tb.block_frames(seq, x))
        await tb.wait_results(i + 1)
        want = tb.expect_result(seq, x)
        check_result(tb.results[-1], want)
        _, found, dets = cfar.parse_result(tb.results[-1])
        assert sorted(d.bin for d in dets) == sorted(scene.targets), (
            f"scene {i}: detections {[d.bin for d in dets]}, targets {sorted(scene.targets)}"
        )
    counts = tb.mon.counts()
    n = len(settings)
    assert counts == {**dict.fromkeys(EVENTS, 0), "block": n, "result": n}, counts


@cocotb.test()
async def test_all_bins(dut) -> None:
    """No training cells (threshold 0): every bin with a non-zero magnitude is a detection
    (all 512 magnitudes bit-exact with MAX_DET = 512, the list capped at MAX_DET below);
    full-scale samples, the widest values the FFT takes."""
    tb = Tb(dut)
    await tb.reset()
    tb.p_ready = 0.7
    tb.config(0, 0, 5.0)
    x = cfar.Scene(7, {300: 20000.0, 17: 500.0}, noise=3000.0).samples()
    await tb.send(tb.block_frames(2 * 77, x))
    await tb.wait_results(1)
    want = tb.expect_result(2 * 77, x)
    assert cfar.parse_result(want)[1] > tb.max_det or tb.max_det == 512
    check_result(tb.results[-1], want)
    n = 1
    if os.environ.get("CFAR_FULL_SCALE", "1") == "1":
        # full-scale samples: the widest values the FFT takes
        n = 2
        tb.config(3, 24, 5.0)
        x = np.where(np.arange(cfar.N) % 3 == 0, 32767, -32768)
        await tb.send(tb.block_frames(2 * 78, x))
        await tb.wait_results(2)
        check_result(tb.results[-1], tb.expect_result(2 * 78, x))
    counts = tb.mon.counts()
    assert counts == {**dict.fromkeys(EVENTS, 0), "block": n, "result": n}, counts


@cocotb.test()
async def test_drops(dut) -> None:
    """Out of order, missing second frame, short, long, truncated identifier, bad frames:
    dropped and counted exactly; the blocks around them still right."""
    tb = Tb(dut)
    await tb.reset()
    tb.p_ready = 0.6
    model = cfar.Assembler()
    expect = dict.fromkeys(EVENTS, 0)
    xs = {s: cfar.random_scene(s).samples() for s in range(0, 40, 2)}
    results_want: list[bytes] = []

    def payloads(seq: int) -> tuple[bytes, bytes]:
        return cfar.block_payloads(seq - seq % 2, xs[seq - seq % 2])

    async def put(payload: bytes, bad: bool = False, seq: int | None = None, ok: bool = True):
        await tb.send([Frame(tb.frame(payload), bad)])
        for ev in model.frame(seq, ok, bad):
            expect[ev] += 1
            if ev == "block":
                first = model.blocks[-1]
                results_want.append(tb.expect_result(first, xs[first]))
        if results_want and len(tb.results) < len(results_want):
            await tb.wait_results(len(results_want))

    # a good block
    a, b = payloads(0)
    await put(a, seq=0)
    await put(b, seq=1)
    # second before first: the second is out of order; then the first waits
    a, b = payloads(2)
    await put(b, seq=3)
    await put(a, seq=2)
    # missing second frame: the next first frame replaces the waiting one
    a4, b4 = payloads(4)
    await put(a4, seq=4)
    a, b = payloads(6)
    await put(b, seq=7)  # out of order: 4 still waits for 5
    await put(a, seq=6)  # 4 is lost
    await put(b, seq=7)  # completes block 6
    # bad frames: a bad second frame, then the good one completes the block
    a, b = payloads(8)
    await put(a, seq=8)
    await put(b, bad=True, seq=9)
    await put(b, seq=9)
    # a bad first frame (its identifier read: it replaces nothing waiting), then the block
    a, b = payloads(10)
    await put(a, bad=True, seq=10)
    await put(b, seq=11)  # out of order: the first was dropped
    await put(a, seq=10)
    await put(b, seq=11)
    # malformed: short, long, truncated identifier, empty payload
    a, b = payloads(12)
    await put(a, seq=12)
    await put(b[:-1], seq=13, ok=False)
    await put(b + b"\x00", seq=13, ok=False)
    await put(b[:7], seq=None, ok=False)  # no sequence number
    await put(b[:8], seq=13, ok=False)  # identifier only
    await put(b"", seq=None, ok=False)  # SKIP header only (or nothing at all)
    await put(b, seq=13)  # the waiting first frame is still there
    # a short first frame overwrites the waiting one (its identifier is complete)
    a, b = payloads(14)
    await put(a, seq=14)
    a16, b16 = payloads(16)
    await put(a16[:100], seq=16, ok=False)  # 14 lost
    await put(b, seq=15, ok=True)  # out of order now
    await put(a16, seq=16)
    await put(b16, seq=17)
    # a second frame of another block, and the odd number after the wrong first
    a, b = payloads(18)
    await put(a, seq=18)
    await put(payloads(20)[1], seq=21)
    await put(b, seq=19)
    await tb.wait_results(len(results_want))
    for got, want in zip(tb.results, results_want, strict=True):
        check_result(got, want)
    expect["result"] = len(results_want)
    assert tb.mon.counts() == expect, f"{tb.mon.counts()} != {expect}"


@cocotb.test()
async def test_back_to_back(dut) -> None:
    """Blocks back to back at line rate with the output held while they arrive (the
    engine waits for its last result to leave), then stalled at random: the blocks the
    accelerator takes give bit-exact results in order; the others are dropped as busy
    (both buffers held) or, a second frame whose first was dropped, out of order; every
    frame counted once."""
    tb = Tb(dut)
    await tb.reset()
    tb.p_ready = 0.0
    tb.config(3, 20, 7.0)
    n = int(os.environ.get("CFAR_BLOCKS", "4"))
    xs = [cfar.random_scene(500 + i, count=1 + i % 5).samples() for i in range(n)]
    frames = []
    for i, x in enumerate(xs):
        frames += tb.block_frames(2 * i, x)
    await tb.send(frames)
    tb.p_ready = 0.5
    counts = tb.mon.counts()
    blocks = counts["block"]
    assert counts["busy"] > 0 and blocks >= 3, counts  # one computed, one waiting, one loaded
    await tb.wait_results(blocks)
    counts = tb.mon.counts()
    assert counts["block"] == blocks and counts["result"] == blocks
    # a frame is dropped busy while both buffers are held; a second frame whose first was
    # dropped busy is out of order
    assert counts["block"] * 2 + counts["busy"] + counts["order"] == 2 * n, counts
    assert counts["bad"] == counts["len"] == 0, counts
    taken = []
    for r in tb.results:
        taken.append(cfar.parse_result(r)[0])
    assert taken == sorted(taken) and taken[:2] == [0, 1], taken
    for bid, r in zip(taken, tb.results, strict=True):
        check_result(r, tb.expect_result(2 * bid, xs[bid]))
    assert counts["lost"] == 0, counts


PARAMS = [
    pytest.param(42, 64, None, id="skip42-det64"),
    pytest.param(0, 512, "test_all_bins", id="skip0-det512"),
    pytest.param(255, 1, "test_all_bins", id="skip255-det1"),
]


@pytest.mark.parametrize(("skip", "max_det", "testcase"), PARAMS)
def test_cfar_accel(skip: int, max_det: int, testcase: str | None) -> None:
    run(
        "cfar_accel",
        "test_cfar_accel",
        parameters={"SKIP": skip, "MAX_DET": max_det},
        testcase=testcase,
        extra_env={
            "CFAR_SKIP": str(skip),
            "CFAR_MAX_DET": str(max_det),
            "CFAR_FULL_SCALE": "1" if testcase is None else "0",  # once is enough
        },
    )


@pytest.mark.long
def test_cfar_accel_volume() -> None:
    """Many blocks back to back (each frame counted once, every result bit-exact)."""
    run(
        "cfar_accel",
        "test_cfar_accel",
        parameters={"SKIP": 42, "MAX_DET": 64},
        testcase="test_back_to_back",
        extra_env={"CFAR_SKIP": "42", "CFAR_MAX_DET": "64", "CFAR_BLOCKS": "24"},
    )
