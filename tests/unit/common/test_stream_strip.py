"""stream_strip: per-packet skip, length cut, drop and route against a Python model.

Random packets (random sizes, input tuser, empty beats where the receive path makes them)
each come with a random command (skip, length or "to the end", drop, route) and, with
USE_STS, a late status; valid and ready toggle randomly on every interface. The model
says what must come out: the bytes skip..skip+len realigned to lane 0 (one empty beat
when nothing is kept), tuser = input tuser | truncated | status bad on the last beat,
ttrunc = truncated, the route on every beat, nothing for a dropped packet. A monitor
checks in every cycle that m_axis_tvalid_oh is the decode of tvalid and troute and
m_hdr_valid_oh the decode of m_hdr_valid and the command's route, that an
offered beat and the header handshake stay stable until taken, and that cmd_ready and
sts_ready only pulse for a presented command or status. At 8 bits it also checks every
cycle that the flag flip-flops kept beside their sources equal what they stand for
(take_reg, len_left_reg, skipping_reg). Without USE_SKIP the commands still carry random
skips, which must be ignored.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge


@dataclass
class Pkt:
    data: bytes
    empty_at: set[int]  # 8 bits: positions before which an empty beat is inserted
    tuser: bool
    skip: int
    length: int  # 0xFFFF: to the end
    drop: bool
    route: int
    sts_bad: bool


def expect(p: Pkt, use_len: bool) -> tuple[bytes, bool, bool] | None:
    """(kept bytes, last tuser, ttrunc) of a packet, or None when it is dropped."""
    if p.drop:
        return None
    unlim = (not use_len) or p.length == 0xFFFF
    kept = p.data[p.skip :] if unlim else p.data[p.skip : p.skip + p.length]
    trunc = (not unlim) and len(p.data) < p.skip + p.length
    return kept, p.tuser or trunc or p.sts_bad, trunc


def make_pkts(rng: random.Random, n: int, keep_w: int, skip_w: int, routes: int) -> list[Pkt]:
    pkts = []
    for _ in range(n):
        size = rng.choice(
            [0, 1, 2, rng.randint(0, 3 * keep_w), rng.randint(1, 90), rng.randint(1, 400)]
        )
        skip = rng.randint(0, min(2**skip_w - 1, size + 3))
        r = rng.random()
        if r < 0.2:
            length = 0xFFFF
        elif r < 0.35:
            length = max(0, size - skip + rng.randint(1, 9))  # past the end: truncated
        else:
            length = rng.randint(0, max(0, size - skip))
        empty = set()
        if keep_w == 1:
            empty = {i for i in range(size + 1) if rng.random() < 0.1}
        pkts.append(
            Pkt(
                data=bytes(rng.getrandbits(8) for _ in range(size)),
                empty_at=empty,
                tuser=rng.random() < 0.15,
                skip=skip,
                length=length,
                drop=rng.random() < 0.15,
                route=rng.randrange(routes),
                sts_bad=rng.random() < 0.2,
            )
        )
    return pkts


def beats_of(p: Pkt, keep_w: int) -> list[tuple[bytes, int]]:
    """(bytes, tkeep) per input beat; an empty packet is one beat with tkeep = 0."""
    if keep_w == 1:
        out: list[tuple[bytes, int]] = []
        for i in range(len(p.data) + 1):
            if i in p.empty_at or (i == len(p.data) and not out and not p.data):
                out.append((b"\x00", 0))
            if i < len(p.data):
                out.append((p.data[i : i + 1], 1))
        return out
    if not p.data:
        return [(bytes(keep_w), 0)]
    out = []
    for o in range(0, len(p.data), keep_w):
        chunk = p.data[o : o + keep_w]
        out.append((chunk.ljust(keep_w, b"\x00"), (1 << len(chunk)) - 1))
    return out


async def drive_input(dut, pkts: list[Pkt], keep_w: int, rng: random.Random, p_idle: float, ends):
    for k, p in enumerate(pkts):
        beats = beats_of(p, keep_w)
        for j, (data, keep) in enumerate(beats):
            while rng.random() < p_idle:
                dut.s_axis_tvalid.value = 0
                await RisingEdge(dut.clk)
            dut.s_axis_tdata.value = int.from_bytes(data, "little")
            dut.s_axis_tkeep.value = keep
            dut.s_axis_tlast.value = int(j == len(beats) - 1)
            dut.s_axis_tuser.value = int(p.tuser and j == len(beats) - 1)
            dut.s_axis_tvalid.value = 1
            await until_taken(dut, "s_axis_tready")
        ends[k] = True
    dut.s_axis_tvalid.value = 0


async def until_taken(dut, ready: str) -> None:
    """Wait for the clock edge at which the presented valid meets ``ready``."""
    while True:
        await RisingEdge(dut.clk)
        if int(getattr(dut, ready).value):
            return


async def drive_cmd(dut, pkts: list[Pkt], rng: random.Random, p_wait: float = 0.3) -> None:
    for p in pkts:
        while rng.random() < p_wait:
            dut.cmd_valid.value = 0
            await RisingEdge(dut.clk)
        dut.cmd_skip.value = p.skip
        dut.cmd_len.value = p.length
        dut.cmd_drop.value = int(p.drop)
        dut.cmd_route.value = p.route
        dut.cmd_valid.value = 1
        await until_taken(dut, "cmd_ready")
    dut.cmd_valid.value = 0


async def drive_sts(dut, pkts: list[Pkt], rng: random.Random, ends, p_wait: float = 0.4) -> None:
    """One status per packet, presented only once the packet's input has ended."""
    for k, p in enumerate(pkts):
        dut.sts_valid.value = 0
        while not ends[k] or rng.random() < p_wait:
            await RisingEdge(dut.clk)
        dut.sts_bad.value = int(p.sts_bad)
        dut.sts_valid.value = 1
        await until_taken(dut, "sts_ready")
    dut.sts_valid.value = 0


async def ready_toggler(dut, sig: str, rng: random.Random, p_busy: float) -> None:
    while True:
        getattr(dut, sig).value = int(rng.random() >= p_busy)
        await RisingEdge(dut.clk)


def resolved(v: object) -> int:
    """A bus value with X/Z bits read as 0 (lanes outside tkeep carry no data)."""
    return int("".join("1" if c == "1" else "0" for c in str(v)), 2)


async def monitor(
    dut, got: list[tuple[bytes, bool, bool, int]], hdrs: list[int], errors: list[str]
):
    """Collect output packets and check the per-cycle protocol rules."""
    keep_w = len(dut.m_axis_tkeep)
    cur = bytearray()
    routes: set[int] = set()
    prev_beat = None
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        if int(dut.rst.value):
            continue
        v = int(dut.m_axis_tvalid.value)
        route = resolved(dut.m_axis_troute.value)
        oh = int(dut.m_axis_tvalid_oh.value)
        if oh != (v << route if v else 0):
            errors.append(f"tvalid_oh {oh:b} with tvalid {v} route {route}")
        if int(dut.cmd_ready.value) and not int(dut.cmd_valid.value):
            errors.append("cmd_ready without cmd_valid")
        if int(dut.sts_ready.value) and not int(dut.sts_valid.value):
            errors.append("sts_ready without sts_valid")
        if keep_w == 1:
            check_flags(dut.g_byte, errors)
        hv = int(dut.m_hdr_valid.value)
        hoh = int(dut.m_hdr_valid_oh.value)
        if hoh != ((1 << int(dut.cmd_route.value)) if hv else 0):
            errors.append(f"hdr_valid_oh {hoh:b} with hdr_valid {hv} route {dut.cmd_route.value}")
        if hv:
            cmd = (int(dut.cmd_valid.value), int(dut.cmd_route.value), int(dut.cmd_drop.value))
            if cmd[0] == 0 or cmd[2]:
                errors.append("header offered without its (kept) command")
            if int(dut.m_hdr_ready.value):
                hdrs.append(cmd[1])
        beat = None
        if v:
            beat = (
                resolved(dut.m_axis_tdata.value),
                int(dut.m_axis_tkeep.value),
                int(dut.m_axis_tlast.value),
                int(dut.m_axis_tuser.value),
                int(dut.m_axis_ttrunc.value),
                route,
            )
            if prev_beat is not None and beat != prev_beat:
                errors.append("output beat changed while waiting for tready")
        if v and int(dut.m_axis_tready.value):
            data, keep, last, user, trunc, route = beat
            if keep & (keep + 1):
                errors.append(f"tkeep {keep:b} not contiguous from lane 0")
            if keep and not last and keep != (1 << keep_w) - 1:
                errors.append("partial beat before the last")
            cur += data.to_bytes(keep_w, "little")[: keep.bit_length()]
            routes.add(route)
            if last:
                if len(routes) != 1:
                    errors.append(f"routes {routes} within one packet")
                got.append((bytes(cur), bool(user), bool(trunc), route))
                cur = bytearray()
                routes = set()
            prev_beat = None
        else:
            prev_beat = beat


def check_flags(g, errors: list[str]) -> None:
    """The 8-bit branch's flags equal the registers they are kept beside (the datapath
    registers are not reset: the check starts once they hold values)."""
    sigs = (g.take_reg, g.len_left_reg, g.len_cnt_reg, g.skipping_reg, g.skip_cnt_reg)
    if any(set(str(s.value)) - {"0", "1"} for s in sigs):
        return
    state = int(g.state_reg.value)
    take = (
        state == 1  # STATE_RUN
        and not int(g.skid_valid_reg.value)
        and (int(g.hdr_done_reg.value) or not int(g.held_valid_reg.value))
    )
    if int(g.take_reg.value) != int(take):
        errors.append(f"take_reg {int(g.take_reg.value)}, its terms say {int(take)}")
    if int(g.len_left_reg.value) != int(int(g.len_cnt_reg.value) != 0):
        errors.append(f"len_left_reg {g.len_left_reg.value} with len_cnt_reg {g.len_cnt_reg.value}")
    if int(g.skipping_reg.value) != int(int(g.skip_cnt_reg.value) != 0):
        errors.append(
            f"skipping_reg {g.skipping_reg.value} with skip_cnt_reg {g.skip_cnt_reg.value}"
        )


async def count_stalls(dut, stalls: list[int]) -> None:
    """Count the clock edges at which the input offers a beat and the strip holds it off."""
    while True:
        await RisingEdge(dut.clk)
        if int(dut.s_axis_tvalid.value) and not int(dut.s_axis_tready.value):
            stalls[0] += 1


async def run_mix(
    dut,
    seed: int,
    p_idle: float,
    p_busy: float,
    n: int = 160,
    p_cmd: float = 0.3,
    p_sts: float = 0.4,
    max_stalls_per_pkt: int | None = None,
) -> None:
    keep_w = len(dut.s_axis_tkeep)
    skip_w = len(dut.cmd_skip)
    routes = len(dut.m_axis_tvalid_oh)
    use_len = os.environ["STRIP_USE_LEN"] == "1"
    use_sts = os.environ["STRIP_USE_STS"] == "1"
    use_skip = os.environ["STRIP_USE_SKIP"] == "1"
    rng = random.Random(seed)
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    for s in ("s_axis_tvalid", "cmd_valid", "sts_valid", "m_hdr_ready", "m_axis_tready"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    pkts = make_pkts(rng, n, keep_w, skip_w, routes)
    if not use_sts:
        for p in pkts:
            p.sts_bad = False
    ends = [False] * n
    got: list[tuple[bytes, bool, bool, int]] = []
    hdrs: list[int] = []
    errors: list[str] = []
    cocotb.start_soon(monitor(dut, got, hdrs, errors))
    cocotb.start_soon(ready_toggler(dut, "m_axis_tready", random.Random(seed + 1), p_busy))
    cocotb.start_soon(ready_toggler(dut, "m_hdr_ready", random.Random(seed + 2), p_busy))
    cocotb.start_soon(drive_cmd(dut, pkts, random.Random(seed + 3), p_cmd))
    if use_sts:
        cocotb.start_soon(drive_sts(dut, pkts, random.Random(seed + 4), ends, p_sts))
    stalls = [0]
    cocotb.start_soon(count_stalls(dut, stalls))
    inp = cocotb.start_soon(drive_input(dut, pkts, keep_w, random.Random(seed + 5), p_idle, ends))
    # without USE_SKIP the command's skip is ignored: nothing is skipped
    model = pkts if use_skip else [replace(p, skip=0) for p in pkts]
    want = [(e, p.route) for p in model if (e := expect(p, use_len)) is not None]
    # bound: a slow consumer takes a beat in one cycle of five on average
    for _ in range(200 * n + 20 * sum(len(p.data) for p in pkts) // keep_w):
        await RisingEdge(dut.clk)
        if inp.done() and len(got) == len(want):
            break
    await ClockCycles(dut.clk, 20)
    assert not errors, errors[:5]
    assert len(got) == len(want), f"{len(got)} packets out, {len(want)} expected"
    for i, (g, ((data, user, trunc), route)) in enumerate(zip(got, want, strict=True)):
        assert g == (data, user, trunc, route), (
            f"packet {i}: got {g}, want {(data, user, trunc, route)}"
        )
    assert hdrs == [route for _, route in want]
    if max_stalls_per_pkt is not None:
        assert stalls[0] <= max_stalls_per_pkt * n, (
            f"{stalls[0]} input stalls for {n} packets (at most {max_stalls_per_pkt} each)"
        )


@cocotb.test()
async def random_mix_free(dut) -> None:
    """No pauses on any side: every packet and its cut at full rate."""
    await run_mix(dut, 11, 0.0, 0.0)


@cocotb.test()
async def random_mix_backpressure(dut) -> None:
    await run_mix(dut, 12, 0.3, 0.4)


@cocotb.test()
async def random_mix_slow_consumer(dut) -> None:
    await run_mix(dut, 13, 0.0, 0.8)


@cocotb.test()
async def full_rate(dut) -> None:
    """Commands, input and consumers never pause: the strip takes one input beat per cycle
    within a packet and holds the input off at most once between packets (8 bits: the
    end flush; the late status, when used, is presented once the input has ended)."""
    keep_w = len(dut.s_axis_tkeep)
    use_sts = os.environ["STRIP_USE_STS"] == "1"
    limit = None if keep_w > 1 else (2 if use_sts else 1)
    await run_mix(dut, 14, 0.0, 0.0, p_cmd=0.0, p_sts=0.0, max_stalls_per_pkt=limit)


# (DATA_W, SKIP_W, ROUTE_W, USE_STS, USE_LEN, USE_SKIP): the settings eth_rx (8 4 2 0 0 1,
# 64 4 2 0 0 1), ip_rx (8 6 1 0 0 0, 64 6 1 0 1 1) and udp_rx (8 4 r s 0 0, 64 4 r s 1 1)
# use, and the remaining combinations of the length and status options
CONFIGS = [
    (8, 4, 2, 0, 0, 1),
    (8, 6, 1, 0, 0, 0),
    (8, 4, 2, 1, 0, 0),
    (8, 4, 1, 0, 0, 0),
    (8, 6, 1, 0, 1, 1),
    (8, 6, 2, 1, 1, 1),
    (64, 4, 2, 0, 0, 1),
    (64, 6, 1, 0, 1, 1),
    (64, 4, 2, 1, 1, 1),
]


@pytest.mark.parametrize(("data_w", "skip_w", "route_w", "use_sts", "use_len", "use_skip"), CONFIGS)
def test_stream_strip(
    data_w: int, skip_w: int, route_w: int, use_sts: int, use_len: int, use_skip: int
) -> None:
    import cocotb_run

    cocotb_run.run(
        "stream_strip",
        "test_stream_strip",
        parameters={
            "DATA_W": data_w,
            "SKIP_W": skip_w,
            "ROUTE_W": route_w,
            "USE_STS": use_sts,
            "USE_LEN": use_len,
            "USE_SKIP": use_skip,
        },
        extra_env={
            "STRIP_USE_STS": str(use_sts),
            "STRIP_USE_LEN": str(use_len),
            "STRIP_USE_SKIP": str(use_skip),
        },
        test_dir=Path(__file__).parent,
    )
