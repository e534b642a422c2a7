"""eth_tx_arb: frame-level round robin, at DATA_W 8 and 64 with 2 (the default), 3 and 5
inputs.

REG_OUT = 0 and 1 share the frame-level tests (whole frames, order per input, no
preemption, tuser, the frames strobe); REG_OUT = 1 has its own timing tests (registered outputs, a
MAC-like consumer never kept waiting, 3-cycle idle latency, round robin with no parking).

Frames are tagged with their input and sequence number; the output (cocotbext-axi sink,
with and without random backpressure) must hold every frame whole and in order per input,
never interleaved; with all inputs busy the order is strict round robin and the output has
no idle cycle; the grant is a register: an idle arbiter serves a lone requester one cycle
after its request (in the same cycle if it holds the parked grant), and no tvalid changes
any tready in its own cycle.
"""

from __future__ import annotations

import os
import random
from typing import Any

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from unit.cnt_ev_mon import EvMon
from unit.eth.arbtb import MultiSource, tagged
from unit.udp.txutil import Cycles, FrameSink, random_pause, reset, start_clock, wait_cycles

# the number of inputs, as the pytest wrapper built the arbiter (2: the module's default;
# 5: the stack with two UDP ports, ARP, ICMP and the raw channel)
N = int(os.environ.get("TEST_ARB_N", "3"))
# the scenario tests' inputs: HI the highest; OTHER an input other than 1 (2, or 0 when
# there are only two)
HI = N - 1
OTHER = 2 if N > 2 else 0


async def bring_up(
    dut: Any, gap: float = 0.0, seed: int = 1, pause: Any = None
) -> tuple[MultiSource, FrameSink, int]:
    """Sources on every input, the frame sink on m_axis (with ``pause``, a backpressure
    pattern), the clock started and the arbiter reset; returns them and the data width."""
    w = len(dut.m_axis_tdata)
    src = MultiSource(dut, N, w, gap=gap, seed=seed)
    sink = FrameSink(dut, "m_axis", Cycles(dut), pause)
    await start_clock(dut)
    await reset(dut)
    _EV[:] = [EvMon(dut, ["frames"])]
    return src, sink, w


_EV: list[EvMon] = []  # the frames strobe (cnt_ev) counted since bring_up


def frames_counted() -> int:
    return _EV[0].count("frames")


async def collect(sink: FrameSink, count: int) -> list[tuple[bytes, int]]:
    return [await sink.recv() for _ in range(count)]


@cocotb.test()
async def round_robin_back_to_back(dut: Any) -> None:
    """All inputs busy: strict round robin, whole frames, no idle output cycle."""
    src, sink, w = await bring_up(dut)
    rng = random.Random(11)
    per = 6
    for s in range(per):
        for p in range(N):
            src.send(p, tagged(p, s, rng.randrange(0, 40)))
    frames = await collect(sink, per * N)
    order = [(f[0], f[1]) for f, _ in frames]
    # the first frame may come from any input; after it the order is strict rotation
    start = order[0][0]
    for k, (p, _s) in enumerate(order):
        assert p == (start + k) % N, f"frame {k} from input {p}: order {order}"
    seqs: dict[int, list[int]] = {}
    for f, tu in frames:
        assert tu == 0
        p, s = f[0], f[1]
        seqs.setdefault(p, []).append(s)
        assert f == tagged(p, s, len(f) - 2), "frame corrupted or interleaved"
    assert all(v == list(range(per)) for v in seqs.values())
    beats = sink.beats
    assert beats[-1].cycle - beats[0].cycle + 1 == len(beats), "idle cycle between frames"
    await wait_cycles(dut, 2)
    assert frames_counted() == per * N


@cocotb.test()
async def backpressure_no_interleave(dut: Any) -> None:
    """Random input gaps and output backpressure: every frame whole, in order per input."""
    src, sink, w = await bring_up(dut, gap=0.5, seed=3, pause=random_pause(9, 0.5))
    rng = random.Random(12)
    sent = 0
    for s in range(16):
        for p in range(N):
            if rng.random() < 0.8:
                src.send(p, tagged(p, s, rng.randrange(0, 70)), tuser=int(s == 5))
                sent += 1
    frames = await collect(sink, sent)
    last_seq = {p: -1 for p in range(N)}
    for f, tu in frames:
        p, s = f[0], f[1]
        assert f == tagged(p, s, len(f) - 2), "frame corrupted or interleaved"
        assert s > last_seq[p]
        last_seq[p] = s
        assert tu == int(s == 5), "tuser not carried with its frame"
    await wait_cycles(dut, 2)
    assert frames_counted() == sent
    assert sink.count() == 0


@cocotb.test()
async def no_preemption(dut: Any) -> None:
    """A request from the next input in turn arriving mid-frame waits for the frame's end
    (with two inputs: input 1's frame, then input 0's, which asked mid-frame)."""
    src, sink, w = await bring_up(dut)
    t0 = src.t
    nbytes = 12 * (w // 8)
    src.send(HI, tagged(HI, 0, nbytes), at=t0 + 2)  # a lone request: input HI goes first
    if N > 2:
        src.send(1, tagged(1, 0, nbytes), at=t0 + 6)  # input 1 (next in turn) asks mid-frame
    src.send(0, tagged(0, 0, 3), at=t0 + 7)
    frames = await collect(sink, 3 if N > 2 else 2)
    # after HI, round robin serves 0 then 1
    assert [f[0] for f, _ in frames] == ([HI, 0, 1] if N > 2 else [1, 0])
    for f, tu in frames:
        assert tu == 0 and f == tagged(f[0], f[1], len(f) - 2), "frame interleaved"


def drive_beats(dut: Any, beats: dict[int, int]) -> None:
    """Offer one single-beat frame (tlast) carrying `beats[p]` on every input p given."""
    w = len(dut.m_axis_tdata)
    kw = w // 8
    d = k = v = 0
    for p, data in beats.items():
        d |= data << (p * w)
        k |= ((1 << kw) - 1) << (p * kw)
        v |= 1 << p
    dut.s_axis_tdata.value = d
    dut.s_axis_tkeep.value = k
    dut.s_axis_tlast.value = v
    dut.s_axis_tuser.value = 0
    dut.s_axis_tvalid.value = v


@cocotb.test()
async def idle_latency(dut: Any) -> None:
    """A lone requester on an idle arbiter: the grant is a register, so an input that does
    not hold it is served one cycle after its request (tready stays low in the request's
    cycle); the input holding the parked grant (the one served last) in the same cycle."""
    await start_clock(dut)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    await reset(dut)
    # after reset no input holds the grant; then it stays on the input served last
    for p, lat in [(HI, 1), (0, 1), (1, 1), (1, 0), (1, 0), (OTHER, 1)]:
        await RisingEdge(dut.clk)
        data = 0x5A + p
        drive_beats(dut, {p: data})
        for _ in range(lat):
            await cocotb.triggers.ReadOnly()
            assert int(dut.m_axis_tvalid.value) == 0, f"input {p} served early"
            assert int(dut.s_axis_tready.value) & (1 << p) == 0, "tready follows tvalid"
            await RisingEdge(dut.clk)
        await cocotb.triggers.ReadOnly()
        assert int(dut.m_axis_tvalid.value) == 1, f"input {p} not served after {lat} cycles"
        assert int(dut.s_axis_tready.value) == 1 << p
        assert int(dut.m_axis_tdata.value) == data
        assert int(dut.m_axis_tlast.value) == 1
        await RisingEdge(dut.clk)
        dut.s_axis_tvalid.value = 0


@cocotb.test()
async def tready_not_from_tvalid(dut: Any) -> None:
    """Requests never change any tready in their own cycle (no combinational path from a
    tvalid to a tready): with the output ready, tready is the registered grant alone."""
    await start_clock(dut)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    await reset(dut)
    rng = random.Random(5)
    for _ in range(200):
        await RisingEdge(dut.clk)
        await cocotb.triggers.ReadOnly()
        before = int(dut.s_axis_tready.value)
        await cocotb.triggers.NextTimeStep()
        drive_beats(dut, {p: rng.randrange(256) for p in range(N) if rng.random() < 0.5})
        await cocotb.triggers.ReadOnly()
        assert int(dut.s_axis_tready.value) == before, "tready changed with tvalid"
        assert bin(before).count("1") <= 1, "more than one input granted"


@cocotb.test()
async def parked_tie(dut: Any) -> None:
    """The input holding the parked grant (1) and another one (OTHER) request in the same
    cycle: the parked input's frame goes first (no idle cycle), the other's right after it."""
    await start_clock(dut)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    await reset(dut)
    await RisingEdge(dut.clk)
    drive_beats(dut, {1: 0x11})  # input 1 takes the grant (1 cycle) and keeps it
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.s_axis_tvalid.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    drive_beats(dut, {1: 0x21, OTHER: 0x32})
    await cocotb.triggers.ReadOnly()
    assert int(dut.s_axis_tready.value) == 0b010 and int(dut.m_axis_tdata.value) == 0x21
    await RisingEdge(dut.clk)
    drive_beats(dut, {OTHER: 0x32})
    await cocotb.triggers.ReadOnly()
    assert int(dut.s_axis_tready.value) == 1 << OTHER and int(dut.m_axis_tdata.value) == 0x32
    assert int(dut.m_axis_tvalid.value) == 1
    await RisingEdge(dut.clk)
    dut.s_axis_tvalid.value = 0


@cocotb.test()
async def frame_count(dut: Any) -> None:
    """258 frames from all inputs: one frames strobe (cnt_ev) each."""
    src, sink, w = await bring_up(dut)
    n = 258
    for s in range(n):
        src.send(s % N, tagged(s % N, s // N, 1))
    frames = await collect(sink, n)
    for f, tu in frames:
        assert tu == 0 and f == tagged(f[0], f[1], 1)
    await wait_cycles(dut, 2)
    assert frames_counted() == n


def _reg_out(dut: Any) -> int:
    return int(dut.REG_OUT.value)


@cocotb.test()
async def reg_round_robin(dut: Any) -> None:
    """REG_OUT = 1, all inputs busy, output always ready: strict round robin, whole
    frames, no gap inside a frame, and exactly one cycle without a beat between frames."""
    assert _reg_out(dut), "a REG_OUT = 1 test: run it with REG_OUT = 1 (MODE_TESTS[1])"
    src, sink, w = await bring_up(dut)
    rng = random.Random(21)
    per = 5
    for s in range(per):
        for p in range(N):
            src.send(p, tagged(p, s, rng.randrange(0, 40)))
    frames = await collect(sink, per * N)
    order = [f[0] for f, _ in frames]
    assert order == [k % N for k in range(per * N)], f"order {order}"
    for f, tu in frames:
        assert tu == 0 and f == tagged(f[0], f[1], len(f) - 2), "frame corrupted"
    beats = sink.beats
    for a, b in zip(beats, beats[1:], strict=False):
        gap = b.cycle - a.cycle
        assert gap == (2 if a.last else 1), f"beats {a} -> {b}"
    await wait_cycles(dut, 2)
    assert frames_counted() == per * N


@cocotb.test()
async def reg_mac_consumer(dut: Any) -> None:
    """REG_OUT = 1 in front of a MAC-like consumer (ready for a whole frame, then not for
    16 cycles: FCS and gap): with frames queued on the inputs the consumer never waits
    for a beat, inside a frame or after its pause; frames whole, round robin."""
    assert _reg_out(dut), "a REG_OUT = 1 test: run it with REG_OUT = 1 (MODE_TESTS[1])"
    w = len(dut.m_axis_tdata)
    kw = w // 8
    src = MultiSource(dut, N, w)
    dut.m_axis_tready.value = 0
    await start_clock(dut)
    await reset(dut)
    rng = random.Random(22)
    per = 4
    for s in range(per):
        for p in [HI, *range(HI)]:
            src.send(p, tagged(p, s, rng.randrange(0, 30)))
    await wait_cycles(dut, 6)  # every input offers its first frame by now
    frames: list[bytes] = []
    cur = b""
    pause = 0
    waited = 0
    for _ in range(4000):
        dut.m_axis_tready.value = int(pause == 0)
        await RisingEdge(dut.clk)
        v = int(dut.m_axis_tvalid.value)
        if pause:
            pause -= 1
            continue
        if not v:
            if len(frames) < per * N:
                waited += 1
            continue
        k = int(dut.m_axis_tkeep.value)
        d = int(dut.m_axis_tdata.value).to_bytes(kw, "little")
        cur += d[: bin(k).count("1")]
        if int(dut.m_axis_tlast.value):
            frames.append(cur)
            cur = b""
            pause = 16
        if len(frames) == per * N:
            break
    assert len(frames) == per * N
    assert waited == 0, f"the consumer waited {waited} cycles for a beat"
    order = [f[0] for f in frames]
    assert order == [(order[0] + k) % N for k in range(per * N)], f"order {order}"
    for f in frames:
        assert f == tagged(f[0], f[1], len(f) - 2), "frame corrupted or interleaved"


@cocotb.test()
async def reg_same_input_again(dut: Any) -> None:
    """REG_OUT = 1, output always ready: one input's frames back to back with no other
    requester leave with exactly three cycles without a beat between them (its next
    request is picked anew, no parking); input HI asking in the middle of input 0's second
    frame goes after that frame and before input 0's third, every frame whole."""
    assert _reg_out(dut), "a REG_OUT = 1 test: run it with REG_OUT = 1 (MODE_TESTS[1])"
    src, sink, w = await bring_up(dut)
    nbytes = 20 * (w // 8)  # 20 beats a frame at either width
    t0 = src.t
    for s in range(3):
        src.send(0, tagged(0, s, nbytes - 2), at=t0 + 2)
    src.send(HI, tagged(HI, 0, nbytes - 2), at=t0 + 2 + 20 + 3 + 10)  # mid-frame 2
    frames = await collect(sink, 4)
    assert [(f[0], f[1]) for f, _ in frames] == [(0, 0), (0, 1), (HI, 0), (0, 2)]
    for f, tu in frames:
        assert tu == 0 and f == tagged(f[0], f[1], len(f) - 2), "frame corrupted or interleaved"
    beats = sink.beats
    starts = [i for i, b in enumerate(beats) if b.first]
    assert len(starts) == 4 and all(beats[i - 1].last for i in starts[1:])
    gaps = [beats[i].cycle - beats[i - 1].cycle for i in starts[1:]]
    # 0 -> 0: three empty cycles; 0 -> HI and HI -> 0: one (HI was waiting, then 0 was)
    assert gaps == [4, 2, 2], f"gaps between frames {gaps}"
    for a, b in zip(beats, beats[1:], strict=False):
        if not a.last:
            assert b.cycle == a.cycle + 1, "gap inside a frame"


@cocotb.test()
async def reg_outputs_registered(dut: Any) -> None:
    """REG_OUT = 1: m_axis_* never change within a cycle when the inputs or
    m_axis_tready do, and no tvalid changes any tready within its cycle."""
    assert _reg_out(dut), "a REG_OUT = 1 test: run it with REG_OUT = 1 (MODE_TESTS[1])"
    await start_clock(dut)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 0
    await reset(dut)
    rng = random.Random(23)
    seen_valid = 0
    for _ in range(300):
        await RisingEdge(dut.clk)
        await cocotb.triggers.ReadOnly()
        out = [str(getattr(dut, f"m_axis_{n}").value) for n in ("tdata", "tvalid", "tlast")]
        rdy = int(dut.s_axis_tready.value)
        await cocotb.triggers.NextTimeStep()
        drive_beats(dut, {p: rng.randrange(256) for p in range(N) if rng.random() < 0.6})
        dut.s_axis_tlast.value = rng.randrange(1 << N)
        await cocotb.triggers.ReadOnly()
        now = [str(getattr(dut, f"m_axis_{n}").value) for n in ("tdata", "tvalid", "tlast")]
        assert now == out, "an output changed with the inputs"
        assert int(dut.s_axis_tready.value) == rdy, "tready changed with tvalid"
        assert bin(rdy).count("1") <= 1, "more than one input granted"
        seen_valid += int(now[1] == "1")
        await cocotb.triggers.Timer(1, "ns")  # still inside the cycle (8 ns)
        dut.m_axis_tready.value = int(rng.random() < 0.5)
        await cocotb.triggers.ReadOnly()
        now = [str(getattr(dut, f"m_axis_{n}").value) for n in ("tdata", "tvalid", "tlast")]
        assert now == out, "an output changed with m_axis_tready"
    assert seen_valid > 20


@cocotb.test()
async def reg_idle_latency_no_park(dut: Any) -> None:
    """REG_OUT = 1: a lone request on an idle arbiter reaches m_axis_tvalid 3 cycles
    later, whichever input was served last; two requests in the same cycle, from the
    input served last (HI) and from another: the other goes first (no parking)."""
    assert _reg_out(dut), "a REG_OUT = 1 test: run it with REG_OUT = 1 (MODE_TESTS[1])"
    await start_clock(dut)
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    await reset(dut)
    for p in [HI, 0, 1, 1, HI]:
        await RisingEdge(dut.clk)
        data = 0x5A + p
        drive_beats(dut, {p: data})
        for k in range(3):
            await cocotb.triggers.ReadOnly()
            assert int(dut.m_axis_tvalid.value) == 0, f"input {p} out after {k} cycles"
            await RisingEdge(dut.clk)
            if int(dut.s_axis_tready.value) >> p & 1:
                dut.s_axis_tvalid.value = 0
        await cocotb.triggers.ReadOnly()
        assert int(dut.m_axis_tvalid.value) == 1, f"input {p} not out after 3 cycles"
        assert int(dut.m_axis_tdata.value) == data and int(dut.m_axis_tlast.value) == 1
        await RisingEdge(dut.clk)
        dut.s_axis_tvalid.value = 0
        await wait_cycles(dut, 3)
    # served last: HI. Inputs HI and X ask together: X (after HI, wrapping) goes first
    # (X = 1, or 0 with two inputs)
    x = 1 if N > 2 else 0
    await RisingEdge(dut.clk)
    drive_beats(dut, {x: 0x11, HI: 0x22})
    got: list[int] = []
    for _ in range(20):
        await RisingEdge(dut.clk)
        r = int(dut.s_axis_tready.value)
        v = int(dut.s_axis_tvalid.value)
        if int(dut.m_axis_tvalid.value) and int(dut.m_axis_tready.value):
            got.append(int(dut.m_axis_tdata.value))
        if r & v:
            left = {p: (0x11 if p == x else 0x22) for p in (x, HI) if (v & ~r) >> p & 1}
            drive_beats(dut, left)
            if not left:
                dut.s_axis_tvalid.value = 0
    assert got == [0x11, 0x22], f"{got}"


# the tests of each mode: REG_OUT = 0 (the default) every test but the REG_OUT = 1 timing
# tests (reg_*); REG_OUT = 1 the frame-level tests and its own timing tests
MODE_TESTS = {
    0: [
        "round_robin_back_to_back",
        "backpressure_no_interleave",
        "no_preemption",
        "idle_latency",
        "tready_not_from_tvalid",
        "parked_tie",
        "frame_count",
    ],
    1: [
        "backpressure_no_interleave",
        "no_preemption",
        "frame_count",
        "reg_round_robin",
        "reg_mac_consumer",
        "reg_same_input_again",
        "reg_outputs_registered",
        "reg_idle_latency_no_park",
    ],
}


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("reg_out", [0, 1])
@pytest.mark.parametrize("data_w", [8, 64])
def test_eth_tx_arb(data_w: int, reg_out: int, n: int) -> None:
    from cocotb_run import run

    run(
        "eth_tx_arb",
        "test_eth_tx_arb",
        parameters={"DATA_W": data_w, "N": n, "REG_OUT": reg_out},
        testcase=MODE_TESTS[reg_out],
        extra_env={"TEST_ARB_N": str(n)},
    )
