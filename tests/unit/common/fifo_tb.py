"""Shared testbench pieces for the AXI4-Stream FIFOs (axis_fifo, axis_async_fifo).

Frames are numbered (a 4-byte sequence number leads every frame of 4 bytes or more) and
filled with random bytes; cocotbext-axi drives and receives the streams, with random
pauses on either side. Monitors count the status strobes and check that, in frame mode,
the output never pauses inside a frame.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource


@dataclass(frozen=True)
class Cfg:
    """FIFO parameters, passed from pytest to the cocotb tests through the environment."""

    data_w: int
    depth: int
    frame: bool = False
    drop_bad: bool = False
    drop_full: bool = False

    def params(self) -> dict[str, int]:
        return {
            "DATA_W": self.data_w,
            "DEPTH": self.depth,
            "FRAME_FIFO": int(self.frame),
            "DROP_BAD_FRAME": int(self.drop_bad),
            "DROP_WHEN_FULL": int(self.drop_full),
        }

    def env(self) -> dict[str, str]:
        return {"FIFO_CFG": json.dumps(self.__dict__)}

    @property
    def keep_w(self) -> int:
        return max(1, self.data_w // 8)

    def beats(self, nbytes: int) -> int:
        return max(1, -(-nbytes // self.keep_w))


def cfg_from_env() -> Cfg:
    return Cfg(**json.loads(os.environ["FIFO_CFG"]))


def make_frame(seq: int, length: int, rng: random.Random) -> bytes:
    """A frame of ``length`` bytes: the sequence number (if it fits), then random bytes."""
    head = seq.to_bytes(4, "big")[:length]
    return head + bytes(rng.getrandbits(8) for _ in range(length - len(head)))


def pauses(rng: random.Random, p: float) -> Iterator[bool]:
    """Pause pattern for cocotbext-axi: each cycle paused with probability ``p``."""
    while True:
        yield rng.random() < p


@dataclass
class Rx:
    data: bytes
    bad: bool


@dataclass
class Sent:
    data: bytes
    bad: bool  # sent with tuser = 1 on the last beat


@dataclass
class StrobeCounter:
    """Counts one-cycle strobes of several status outputs on a clock."""

    clk: object
    sigs: dict[str, object]
    counts: dict[str, int] = field(default_factory=dict)

    def start(self) -> None:
        self.counts = dict.fromkeys(self.sigs, 0)
        cocotb.start_soon(self._run())

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.clk)  # type: ignore[arg-type]
            for name, s in self.sigs.items():
                if s.value.is_resolvable and int(s.value):  # type: ignore[attr-defined]
                    self.counts[name] += 1


async def _check_gray(clk: object, binary: object, gray: object) -> None:
    """In every cycle of clk (after its edge): gray == binary ^ (binary >> 1)."""
    while True:
        await RisingEdge(clk)  # type: ignore[arg-type]
        await ReadOnly()
        if not (binary.value.is_resolvable and gray.value.is_resolvable):  # type: ignore[attr-defined]
            continue  # before the first reset
        b = int(binary.value)  # type: ignore[attr-defined]
        assert int(gray.value) == b ^ (b >> 1), f"Gray pointer {gray} differs from bin2gray({b})"  # type: ignore[attr-defined]


async def _check_ptr_copies(clk: object, dut: object, depth: int) -> None:
    """axis_fifo, in every cycle (after the edge): rd_ptr_inc_dup_reg and rd_ptr_m1_dup_reg,
    the read pointer's copies kept for timing, are rd_ptr_reg + 1 and - 1 (mod DEPTH)."""
    while True:
        await RisingEdge(clk)  # type: ignore[arg-type]
        await ReadOnly()
        rd = dut.rd_ptr_reg.value  # type: ignore[attr-defined]
        if not rd.is_resolvable:
            continue  # before the first reset
        p = int(rd)
        inc = int(dut.rd_ptr_inc_dup_reg.value)  # type: ignore[attr-defined]
        m1 = int(dut.rd_ptr_m1_dup_reg.value)  # type: ignore[attr-defined]
        assert inc == (p + 1) % depth, f"rd_ptr_inc_dup_reg {inc} with rd_ptr_reg {p}"
        assert m1 == (p - 1) % depth, f"rd_ptr_m1_dup_reg {m1} with rd_ptr_reg {p}"


class FifoTb:
    """Drives a FIFO's s_axis and collects its m_axis.

    ``sync=True``: axis_fifo (clk/rst, status_*); otherwise axis_async_fifo
    (s_clk/s_rst, m_clk/m_rst, s_status_*).
    """

    def __init__(self, dut: object, cfg: Cfg, sync: bool) -> None:
        self.dut = dut
        self.cfg = cfg
        self.sync = sync
        d = dut
        if sync:
            self.s_clk, self.s_rst = d.clk, d.rst  # type: ignore[attr-defined]
            self.m_clk, self.m_rst = d.clk, d.rst  # type: ignore[attr-defined]
            pre = "status_"
        else:
            self.s_clk, self.s_rst = d.s_clk, d.s_rst  # type: ignore[attr-defined]
            self.m_clk, self.m_rst = d.m_clk, d.m_rst  # type: ignore[attr-defined]
            pre = "s_status_"
        self.source = AxiStreamSource(
            AxiStreamBus.from_prefix(dut, "s_axis"), self.s_clk, self.s_rst
        )
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), self.m_clk, self.m_rst)
        self.status = StrobeCounter(
            self.s_clk,
            {k: getattr(dut, pre + k) for k in ("overflow", "drop_bad", "drop_full", "good_frame")},
        )
        self.gaps_mid_frame = 0
        self.m_beats = 0
        self.m_cycle = 0
        self.m_beat_cycles: list[int] = []  # output clock cycle of every beat out
        self.s_stalls = 0  # cycles with s_axis_tvalid high and s_axis_tready low
        self.rx: list[Rx] = []

    async def start(self, s_period: float, m_period: float | None = None) -> None:
        self.s_rst.value = 1  # type: ignore[attr-defined]
        self.m_rst.value = 1  # type: ignore[attr-defined]
        cocotb.start_soon(Clock(self.s_clk, s_period, unit="ns").start())  # type: ignore[arg-type]
        if not self.sync:
            # unrelated clocks: an odd phase offset as well as a different period
            await Timer(1.37, unit="ns")
            cocotb.start_soon(
                Clock(self.m_clk, m_period or s_period, unit="ns").start()  # type: ignore[arg-type]
            )
        self.status.start()
        if self.sync:
            cocotb.start_soon(_check_ptr_copies(self.s_clk, self.dut, self.cfg.depth))
        else:
            # the Gray pointers that cross between the clocks are flip-flops: each must
            # equal the Gray code of its binary pointer in every cycle of its clock
            if not self.cfg.frame:
                cocotb.start_soon(
                    _check_gray(self.s_clk, self.dut.wr_ptr_cur_reg, self.dut.wr_ptr_cur_gray_reg)  # type: ignore[attr-defined]
                )
            cocotb.start_soon(
                _check_gray(self.m_clk, self.dut.rd_ptr_reg, self.dut.rd_ptr_gray_reg)  # type: ignore[attr-defined]
            )
        cocotb.start_soon(self._watch_output())
        cocotb.start_soon(self._watch_input())
        cocotb.start_soon(self._collect())
        await self.reset()

    async def reset(self) -> None:
        """Reset both sides together for a few cycles of the slower clock."""
        self.s_rst.value = 1  # type: ignore[attr-defined]
        self.m_rst.value = 1  # type: ignore[attr-defined]
        await ClockCycles(self.s_clk, 8)  # type: ignore[arg-type]
        if not self.sync:
            await ClockCycles(self.m_clk, 8)  # type: ignore[arg-type]
        self.s_rst.value = 0  # type: ignore[attr-defined]
        self.m_rst.value = 0  # type: ignore[attr-defined]
        await self.settle_reset()

    async def settle_reset(self) -> None:
        """Wait until both sides are out of reset (the async handshake takes a while)."""
        for _ in range(2):
            await ClockCycles(self.s_clk, 12)  # type: ignore[arg-type]
            if not self.sync:
                await ClockCycles(self.m_clk, 12)  # type: ignore[arg-type]

    async def _collect(self) -> None:
        while True:
            f = await self.sink.recv(compact=False)
            data = bytes(b for b, k in zip(f.tdata, f.tkeep, strict=True) if k)
            tu = f.tuser if isinstance(f.tuser, list) else [f.tuser]
            self.rx.append(Rx(data, bool(tu[-1])))

    async def _watch_output(self) -> None:
        """Counts output beats and, in frame mode, cycles with tvalid low inside a frame."""
        d = self.dut
        in_frame = False
        while True:
            await RisingEdge(self.m_clk)  # type: ignore[arg-type]
            self.m_cycle += 1
            if int(self.m_rst.value):  # type: ignore[attr-defined]
                in_frame = False
                continue
            v = d.m_axis_tvalid.value  # type: ignore[attr-defined]
            if not v.is_resolvable:
                continue
            if int(v):
                if int(d.m_axis_tready.value):  # type: ignore[attr-defined]
                    self.m_beats += 1
                    self.m_beat_cycles.append(self.m_cycle)
                    in_frame = not int(d.m_axis_tlast.value)  # type: ignore[attr-defined]
            elif in_frame:
                self.gaps_mid_frame += 1

    async def _watch_input(self) -> None:
        d = self.dut
        while True:
            await RisingEdge(self.s_clk)  # type: ignore[arg-type]
            v = d.s_axis_tvalid.value  # type: ignore[attr-defined]
            r = d.s_axis_tready.value  # type: ignore[attr-defined]
            if v.is_resolvable and r.is_resolvable and int(v) and not int(r):
                self.s_stalls += 1

    def send(self, data: bytes, bad: bool = False) -> None:
        self.source.send_nowait(AxiStreamFrame(data, tuser=int(bad)))

    async def drain(self, n_expected: int | None = None, quiet: int = 200) -> None:
        """Wait for the source to finish and the output to stay quiet for ``quiet`` cycles."""
        await self.source.wait()
        last = -1
        idle = 0
        while idle < quiet:
            await RisingEdge(self.m_clk)  # type: ignore[arg-type]
            if len(self.rx) != last or not self.sink.idle():
                last = len(self.rx)
                idle = 0
            else:
                idle += 1
            if n_expected is not None and len(self.rx) >= n_expected and idle > 20:
                break
        await ClockCycles(self.s_clk, 4)  # type: ignore[arg-type]


def check_subsequence(rx: list[Rx], sent: list[bytes] | list[tuple[bytes, bool]]) -> list[int]:
    """Every received frame is a sent frame (data and bad flag), in order.

    ``sent`` holds frames (expected good) or (data, bad) pairs. Returns the indices of
    the sent frames that were received.
    """
    want = [w if isinstance(w, tuple) else (w, False) for w in sent]
    idx: list[int] = []
    j = 0
    for r in rx:
        while j < len(want) and want[j] != (r.data, r.bad):
            j += 1
        assert j < len(want), (
            f"received a frame never sent, or out of order: {r.data[:8].hex()} bad={r.bad}"
        )
        idx.append(j)
        j += 1
    return idx


def random_frames(
    rng: random.Random, n: int, max_len: int, p_bad: float, start_seq: int = 0
) -> list[Sent]:
    out: list[Sent] = []
    for i in range(n):
        ln = rng.choice([1, 2, 3, 7, 8, 9, rng.randint(1, max_len), rng.randint(1, max_len)])
        out.append(Sent(make_frame(start_seq + i, ln, rng), rng.random() < p_bad))
    return out


def expected_out(cfg: Cfg, frames: list[Sent]) -> list[tuple[bytes, bool]]:
    """What a FIFO must deliver for ``frames`` when nothing is dropped for room."""
    if cfg.frame and cfg.drop_bad:
        return [(f.data, False) for f in frames if not f.bad]
    return [(f.data, f.bad) for f in frames]


async def run_stream_rounds(
    tb: FifoTb, rng: random.Random, rounds: tuple[tuple[float, float], ...], n: int = 40
) -> None:
    """Rounds of random frames (a quarter bad) with random pauses (source, sink).

    Checks the frames out against the frames in, and every status strobe count exactly.
    """
    cfg = tb.cfg
    max_len = min(4 * cfg.keep_w * cfg.depth // 5, 200)
    for p_src, p_snk in rounds:
        tb.rx.clear()
        tb.source.set_pause_generator(pauses(rng, p_src))
        tb.sink.set_pause_generator(pauses(rng, p_snk))
        frames = random_frames(rng, n, max_len, p_bad=0.25)
        before = dict(tb.status.counts)
        for f in frames:
            tb.send(f.data, f.bad)
        want = expected_out(cfg, frames)
        await tb.drain(len(want))
        got = [(r.data, r.bad) for r in tb.rx]
        delta = {k: tb.status.counts[k] - before[k] for k in before}
        n_bad = sum(f.bad for f in frames)
        if cfg.drop_full:
            # frames may meet a full FIFO: the ones missing are exactly those counted (a
            # bad frame that also ran out of room counts as dropped-full)
            idx = check_subsequence(tb.rx, want)
            assert delta["good_frame"] == len(idx) == len(tb.rx)
            assert delta["drop_full"] + delta["drop_bad"] + len(idx) == len(frames), delta
            assert delta["overflow"] == delta["drop_full"]
            assert delta["drop_bad"] <= (n_bad if cfg.drop_bad else 0)
        else:
            assert got == want
            assert delta["drop_full"] == 0 and delta["overflow"] == 0
            assert delta["drop_bad"] == (n_bad if cfg.frame and cfg.drop_bad else 0)
            assert delta["good_frame"] == len(frames) - delta["drop_bad"]
    tb.source.clear_pause_generator()
    tb.sink.clear_pause_generator()
    tb.source.pause = False
    tb.sink.pause = False
    if cfg.frame:
        assert tb.gaps_mid_frame == 0, "frame mode output paused inside a frame"


async def stream_reset(dut) -> None:
    """Start an 8 ns clock on ``clk`` and hold ``rst`` for 4 cycles."""
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)


async def stream_setup(dut) -> tuple[AxiStreamSource, AxiStreamSink]:
    """cocotbext-axi source on ``s_axis`` and sink on ``m_axis`` of a one-clock block."""
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
    await stream_reset(dut)
    return src, snk


async def check_random_backpressure(dut, pause_pairs: tuple[tuple[float, float], ...]) -> None:
    """25 random frames (30 % with tuser) per (source, sink) pause probability pair come
    out identical, tuser on their last beat included."""
    src, snk = await stream_setup(dut)
    rng = random.Random(1)
    keep_w = len(dut.s_axis_tkeep)
    for p_src, p_snk in pause_pairs:
        src.set_pause_generator(pauses(rng, p_src))
        snk.set_pause_generator(pauses(rng, p_snk))
        frames = [
            (make_frame(i, rng.randint(1, 12 * keep_w), rng), rng.random() < 0.3) for i in range(25)
        ]
        for data, bad in frames:
            src.send_nowait(AxiStreamFrame(data, tuser=int(bad)))
        for data, bad in frames:
            rx = await snk.recv(compact=False)
            got = bytes(b for b, k in zip(rx.tdata, rx.tkeep, strict=True) if k)
            tu = rx.tuser if isinstance(rx.tuser, list) else [rx.tuser]
            assert (got, bool(tu[-1])) == (data, bad)
    assert snk.empty()


async def check_full_throughput(dut) -> None:
    """With no pauses, 10 frames of 16 beats move one beat per cycle, unchanged."""
    src, snk = await stream_setup(dut)
    rng = random.Random(2)
    keep_w = len(dut.s_axis_tkeep)
    frames = [make_frame(i, 16 * keep_w, rng) for i in range(10)]
    for f in frames:
        src.send_nowait(AxiStreamFrame(f))
    await RisingEdge(dut.m_axis_tvalid)
    beats = 0
    cycles = 0
    while beats < 160:
        await RisingEdge(dut.clk)
        cycles += 1
        if int(dut.m_axis_tvalid.value) and int(dut.m_axis_tready.value):
            beats += 1
    assert cycles == 160, f"160 beats took {cycles} cycles"
    for f in frames:
        assert bytes((await snk.recv()).tdata) == f
