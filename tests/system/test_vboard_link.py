"""The virtual board's link: the wire record in wire time, the link queue towards the
board, and the seeded impairments.

The impairments are checked against a model written here from their description in
docs/virtual-board.md (SplitMix64 itself checked against its published first output):
for a known seed the frames on the wire are exactly those the model predicts, byte for
byte, and every counter equals the model's count. The real MAC (vboard_macloop) checks
what the harness put on the wire: it drops exactly the frames sent with a bad FCS and
echoes the others. Wire times are checked with tshark reading the pcap. The link queue
is checked with the Linux kernel as the peer: a burst larger than the TAP's own queue
reaches the board whole, and the TAP's counters (the PC side) agree with the link's.
"""

from __future__ import annotations

import json
import math
import os
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from scapy.utils import rdpcap
from tap_frames import BOARD_MAC, ETYPE, frame, raw_socket, recv_frame, tap_mac
from wirecore.vboard import BoardError, VirtualBoard, build, read_pcap, write_pcap

MACLOOP = "vboard_macloop"  # the real MAC looped back: echoes every good frame
PC_MAC = bytes.fromhex("020000000001")
M64 = (1 << 64) - 1


# --------------------------------------------------------------------------- the model


def splitmix64_at(s: int, n: int) -> int:
    """The (n+1)-th output of SplitMix64 from state s."""
    z = (s + (n + 1) * 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def unit(x: int) -> float:
    return (x >> 11) / 2.0**53


def settings(spec: str) -> dict[str, float]:
    """The items of one direction's SPEC, DIR:KEY=V[:SUB=V],...: {KEY: V, SUB: V}."""
    out = {}
    for item in spec.split(":", 1)[1].split(","):
        for part in item.split(":"):
            k, v = part.split("=")
            out[k] = float(v)
    return out


def model(
    frames: list[bytes], seed: int, d: int, spec: str, expire: bool = False
) -> tuple[list, dict]:
    """What one direction (d: 0 towards the board, 1 from it) does to ``frames`` entering
    in this order, with the impairments of ``spec`` (loss, dup, reorder with depth and a
    hold reached only after the last frame, corrupt, fcs): the frames that go on, (bytes,
    bad FCS) each, in order, and the counts. ``expire``: the frames still held back at
    the end go on when their hold is up (in the order they came)."""
    p = settings(spec)
    key = splitmix64_at(seed, d)
    out: list[tuple[bytes, bool]] = []
    held: list[list] = []  # [frame, bad fcs, copies, frames left]
    n = dict(frames=0, lost=0, duplicated=0, reordered=0, corrupted=0, fcs_corrupted=0)
    for i, f in enumerate(frames):
        x = [splitmix64_at(key, 8 * i + k) for k in range(8)]
        n["frames"] += 1
        if unit(x[0]) < p.get("loss", 0):
            n["lost"] += 1
            continue
        f = f + bytes(max(0, 60 - len(f)))
        if unit(x[3]) < p.get("corrupt", 0):
            b = bytearray(f)
            b[14 + x[6] % (len(f) - 14)] ^= 1 + x[7] % 255
            f = bytes(b)
            n["corrupted"] += 1
        bad = unit(x[4]) < p.get("fcs", 0)
        n["fcs_corrupted"] += bad
        copies = 1
        if unit(x[1]) < p.get("dup", 0):
            copies = 2
            n["duplicated"] += 1
        if unit(x[2]) < p.get("reorder", 0):
            n["reordered"] += 1
            held.append([f, bad, copies, int(p.get("depth", 1))])
            continue
        out += [(f, bad)] * copies
        for h in held:
            h[3] -= 1
        out += [(h[0], h[1]) for h in held if h[3] == 0 for _ in range(h[2])]
        held = [h for h in held if h[3] > 0]
    if expire:
        out += [(h[0], h[1]) for h in held for _ in range(h[2])]
    return out, n


def test_splitmix64_reference() -> None:
    """SplitMix64 from state 0: the published first outputs."""
    assert splitmix64_at(0, 0) == 0xE220A8397B1DCDAF
    assert splitmix64_at(0, 1) == 0x6E789E6AA1B965F4


# --------------------------------------------------------------------------- runs without a TAP


def run(
    top: str,
    tmp: Path,
    frames: list[bytes],
    cycles: int,
    *args: str,
    times: list[int] | None = None,
) -> dict:
    """Run board ``top`` without a TAP on ``frames`` (--inject, or timed at ``times`` ns)
    for ``cycles``; the statistics with ``wire``: the pcap's records (t_ns, frame)."""
    tmp.mkdir(parents=True, exist_ok=True)
    inj, out, st = tmp / "in.pcap", tmp / "wire.pcap", tmp / "st.json"
    write_pcap(inj, frames, times)
    cmd = [str(build(top, quiet=True)), "--tap", "none", "--spin", "--inject", str(inj)]
    cmd += ["--run-cycles", str(cycles), "--pcap", str(out), "--stats-file", str(st)]
    cmd += ["--inject-timed"] if times is not None else []
    r = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    res = json.loads(st.read_text())
    res["wire"] = read_pcap(out)
    res["pcap"] = out
    return res


def lanes(wire: list[tuple[int, bytes]], rx: list[bytes]) -> tuple[list, list]:
    """The records of a run with vboard_macloop, whose echoes are the frames it received
    unchanged, split by direction given the frames expected towards the board: a record
    is the next of those if it is and starts at least 12 idle cycles after the previous
    one towards the board ended (an echo starts about 6 cycles after its frame's end);
    all the others are from the board."""
    to, fro = [], []
    free = 0
    for t, f in wire:
        if len(to) < len(rx) and f == rx[len(to)] and t >= free:
            to.append((t, f))
            free = t + (wire_cycles(len(f)) + 12) * 8
        else:
            fro.append((t, f))
    return to, fro


def seq_frames(n: int, lengths: list[int]) -> list[bytes]:
    """n frames from the PC to the board, numbered, of the given lengths in turn."""
    return [frame(PC_MAC, lengths[i % len(lengths)], i) for i in range(n)]


def wire_cycles(length: int) -> int:
    """Cycles a frame of ``length`` bytes (no FCS) occupies: preamble+SFD, frame, FCS."""
    return 8 + max(length, 60) + 4


def test_back_to_back_in_wire_time(tmp_path: Path) -> None:
    """Frames the link holds go on the wire back to back: each starts exactly 12 idle
    cycles after the one before ends, in the pcap's nanosecond stamps as tshark reads
    them; the MAC's echoes never closer; the record is a nanosecond pcap."""
    lengths = [14, 60, 61, 100, 577, 1514, 64, 1000]
    frames = seq_frames(400, lengths)
    res = run(MACLOOP, tmp_path, frames, 300000)
    assert res["pcap"].read_bytes()[:4] == struct.pack("<I", 0xA1B23C4D)
    padded = [f + bytes(max(0, 60 - len(f))) for f in frames]
    ins, outs = lanes(res["wire"], padded)
    assert [f for _, f in ins] == padded
    assert [f for _, f in outs] == [f for _, f in ins]  # echoed unchanged, in order
    for (t0, f0), (t1, _) in zip(ins, ins[1:], strict=False):
        assert t1 - t0 == (wire_cycles(len(f0)) + 12) * 8, (t0, t1, len(f0))
    for (t0, f0), (t1, _) in zip(outs, outs[1:], strict=False):  # the MAC's own spacing
        assert t1 - t0 >= (wire_cycles(len(f0)) + 12) * 8, (t0, t1, len(f0))
    # tshark's reading of the same stamps (nanosecond resolution)
    r = subprocess.run(
        ["tshark", "-r", str(res["pcap"]), "-T", "fields", "-e", "frame.time_epoch"],
        capture_output=True,
        text=True,
        check=True,
    )
    tt = [round(float(x) * 1e9) for x in r.stdout.split()]  # 1970 dates: exact in a double
    assert tt == [t for t, _ in res["wire"]]
    link = res["link"]
    assert link["queued"] == 400 and link["queue_drops"] == 0
    assert link["rx"]["frames"] == link["rx"]["delivered"] == 400
    assert res["counters"]["cnt_mac_rx_frames"] == 400
    assert res["counters"]["cnt_fifo_drop_full"] == 0
    assert res["pc"] is None  # no TAP


def test_timed_frames_and_delay_with_jitter(tmp_path: Path) -> None:
    """A frame injected at time T goes on the wire at T (wire time counts from the first
    cycle after reset); with delay=D and jitter=J it goes on at T + D + (x5 mod (J+1))."""
    frames = seq_frames(50, [100])
    times = [(1000 + 3000 * i) * 8 for i in range(50)]
    plain = run(MACLOOP, tmp_path / "a", frames, 200000, times=times)
    padded = [f + bytes(max(0, 60 - len(f))) for f in frames]
    assert [t for t, _ in lanes(plain["wire"], padded)[0]] == times
    d, j, seed = 700, 900, 5
    res = run(
        MACLOOP, tmp_path / "b", frames, 200000, f"--impair=rx:delay={d}:jitter={j}",
        f"--impair-seed={seed}", times=times,
    )  # fmt: skip
    key = splitmix64_at(seed, 0)
    want = [t + 8 * (d + splitmix64_at(key, 8 * i + 5) % (j + 1)) for i, t in enumerate(times)]
    assert [t for t, _ in lanes(res["wire"], padded)[0]] == want
    assert res["link"]["rx"]["delayed"] == 50


def occupancy(length: int, rate: float) -> int:
    """Cycles a frame takes on a link of ``rate`` Mbit/s, its 12-byte gap included."""
    return math.ceil((wire_cycles(length) + 12) * 1000 / rate)


@pytest.mark.parametrize("rate", [100, 333])
def test_rate_towards_the_board(tmp_path: Path, rate: int) -> None:
    """rx:rate=R: frames the link holds follow each other at R Mbit/s: each starts
    ceil((8 + L + 4 + 12) x 1000 / R) cycles after the one before."""
    frames = seq_frames(40, [100, 1514, 60])
    res = run(MACLOOP, tmp_path, frames, 600000, f"--impair=rx:rate={rate}")
    ins = lanes(res["wire"], frames)[0]
    assert len(ins) == 40
    for (t0, f0), (t1, _) in zip(ins, ins[1:], strict=False):
        assert t1 - t0 == occupancy(len(f0), rate) * 8, (t0, t1, len(f0))


def test_rate_from_the_board_and_its_queue(tmp_path: Path) -> None:
    """tx:rate=100 with queues of 20 frames: the MAC echoes 200 back-to-back frames at
    line rate; the frames that find the queue towards the TAP full are dropped, exactly
    as a queue of 20 drained at 100 Mbit/s would (each frame enters it the cycle after
    its last byte on the wire)."""
    frames = seq_frames(200, [1000])
    res = run(MACLOOP, tmp_path, frames, 2500000, "--impair=tx:rate=100", "--link-queue-frames=20")
    outs = lanes(res["wire"], frames)[1]
    assert len(outs) == 200
    queue: list[int] = []  # the cycles at which the queued frames go to the TAP
    free = drops = 0
    for t, f in outs:
        entry = t // 8 + wire_cycles(len(f))  # (its last byte's cycle + 1)
        queue = [d for d in queue if d >= entry]
        if len(queue) >= 20:
            drops += 1
            continue
        due = max(entry, free)
        free = due + occupancy(len(f), 100)
        queue.append(due)
    tx = res["link"]["tx"]
    assert drops > 100 and tx["queue_drops"] == drops
    assert tx["frames"] == 200 and tx["delivered"] == 200 - drops
    assert res["link"]["queue_drops"] == 0  # (the queue towards the board: none)


IMPAIR_SPEC = "rx:loss=0.1,dup=0.05,reorder=0.05:depth=3:hold=100000000,corrupt=0.05,fcs=0.05"


def test_impairments_towards_the_board_match_the_model(tmp_path: Path) -> None:
    """Every impairment at once with seed 1234 on 3000 frames: the frames on the board's
    wire are those the model predicts, byte for byte and in order; the counters equal the
    model's; the board's MAC drops exactly the frames sent with a bad FCS (its own FCS
    check) and echoes the others, corrupted ones too (their FCS was recomputed)."""
    frames = seq_frames(3000, [60, 200, 90, 333])
    res = run(MACLOOP, tmp_path, frames, 1500000, f"--impair={IMPAIR_SPEC}", "--impair-seed=1234")
    want, n = model(frames, 1234, 0, IMPAIR_SPEC)
    to, fro = lanes(res["wire"], [f for f, _ in want])
    assert [f for _, f in to] == [f for f, _ in want]
    rx = res["link"]["rx"]
    for k, v in n.items():
        assert rx[k] == v, k
    assert rx["delivered"] == len(want)
    rates = {"lost": "loss", "duplicated": "dup", "reordered": "reorder"}
    rates |= {"corrupted": "corrupt", "fcs_corrupted": "fcs"}
    for k, name in rates.items():  # and the counts agree with the rates
        p = settings(IMPAIR_SPEC)[name]
        assert abs(rx[k] - p * 3000) < 6 * (p * (1 - p) * 3000) ** 0.5, (k, rx[k])
    good = [f for f, bad in want if not bad]
    assert [f for _, f in fro] == good
    c = res["counters"]
    assert c["cnt_mac_rx_bad_fcs"] == sum(bad for _, bad in want)  # (copies of dups too)
    assert c["cnt_mac_rx_frames"] == len(good)


def test_same_seed_same_frames(tmp_path: Path) -> None:
    """The same seed gives the same wire record byte for byte; another seed another."""
    frames = seq_frames(500, [60, 200])
    args = ("--impair=both:loss=0.2,dup=0.1,reorder=0.1:depth=2,corrupt=0.1",)
    a = run(MACLOOP, tmp_path / "a", frames, 200000, *args, "--impair-seed=7")
    b = run(MACLOOP, tmp_path / "b", frames, 200000, *args, "--impair-seed=7")
    c = run(MACLOOP, tmp_path / "c", frames, 200000, *args, "--impair-seed=8")
    assert a["pcap"].read_bytes() == b["pcap"].read_bytes()
    assert a["link"] == b["link"]
    assert a["wire"] != c["wire"]
    assert a["link"]["tx"]["lost"] > 0 and a["link"]["tx"]["frames"] > 0


def test_pcap_clock_wall(tmp_path: Path) -> None:
    """--pcap-clock wall: nanosecond stamps from the wall clock while the run went on."""
    t0 = time.time_ns()
    res = run(MACLOOP, tmp_path, seq_frames(20, [100]), 20000, "--pcap-clock=wall")
    t1 = time.time_ns()
    assert len(res["wire"]) == 40
    assert all(t0 <= t <= t1 for t, _ in res["wire"])
    assert [t for t, _ in res["wire"]] == sorted(t for t, _ in res["wire"])
    assert len(rdpcap(str(res["pcap"]))) == 40


def test_bad_impairment_options() -> None:
    exe = str(build(MACLOOP, quiet=True))
    for spec, msg in [
        ("rx:loss=1.5", "probability"),
        ("up:loss=0.1", "direction"),
        ("rx:reorder=0.1:depth=0", "depth"),
        ("rx:delay=1.5", "whole"),
        ("rx:lose=0.1", "unknown impairment"),
        ("rx:loss=0.1:depth=2", "no option"),
        ("tx:rate=0", "rate: Mbit/s"),
    ]:
        r = subprocess.run([exe, "--tap", "none", "--impair", spec], capture_output=True, text=True)
        assert r.returncode != 0 and msg in r.stderr, (spec, r.stderr)


# --------------------------------------------------------------------------- with a TAP


def pc_counters(b: VirtualBoard) -> dict[str, int]:
    d = Path("/sys/class/net") / b.cfg.tap / "statistics"
    out = b.exec(
        ["sh", "-c", f"cd {d} && grep . tx_packets tx_dropped rx_packets"],
        capture_output=True,
        text=True,
        check=True,
    )
    return {k: int(v) for k, v in (ln.split(":") for ln in out.stdout.split())}


def wait_for(cond, timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    t_end = time.monotonic() + timeout
    while time.monotonic() < t_end:
        if cond():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_a_burst_larger_than_the_tap_queue_reaches_the_board(make_board) -> None:
    """3000 frames of 1514 bytes sent by the PC in quick groups (3 times the TAP's queue of
    1000): the harness takes them as they come, none is dropped by the kernel (the TAP's
    tx_dropped) or by the link, the link queue holds more than the TAP's queue could,
    and they reach the board back to back at line rate in wire time."""
    b = make_board("lq", top=MACLOOP, pcap="")
    assert b.wire_pcap == b.run_dir / "wire.pcap"
    s = raw_socket(b)
    src = tap_mac(b)
    before = pc_counters(b)
    n, length = 3000, 1514
    sent = [frame(src, length, i) for i in range(n)]
    for g in range(0, n, 250):
        for f in sent[g : g + 250]:
            s.send(f)
        time.sleep(0.005)
    handed = before["tx_packets"] + before["tx_dropped"] + n
    wait_for(lambda: sum(pc_counters(b)[k] for k in ("tx_packets", "tx_dropped")) >= handed)
    wait_for(lambda: b.stats()["from_board_frames"] >= b.stats()["link"]["queued"])
    st = b.stats()
    pc = pc_counters(b)
    assert pc["tx_dropped"] - before["tx_dropped"] == 0
    assert pc["tx_packets"] - before["tx_packets"] == n
    assert st["pc"]["tx_packets"] == pc["tx_packets"]  # the stats' pc object is sysfs's
    link = st["link"]
    assert link["queued"] == n and link["queue_drops"] == 0
    assert link["queue_peak_frames"] > 1000, link["queue_peak_frames"]
    b.stop()
    ins, outs = lanes(read_pcap(b.wire_pcap), sent)
    assert len(ins) == n and [f for _, f in outs] == sent
    gaps = [t1 - t0 for (t0, _), (t1, _) in zip(ins, ins[1:], strict=False)]
    line = (wire_cycles(length) + 12) * 8
    assert min(gaps) == line
    assert sum(g == line for g in gaps) > 0.9 * len(gaps), sorted(gaps)[-20:]


def test_link_queue_overflow_is_counted(make_board) -> None:
    """A link queue of 50 frames, and 600 frames waiting in the TAP's queue when the
    harness reads it (sent while the board's process was stopped): 50 are queued, the
    other 550 are counted as the link's drops, the kernel dropped none (the PC side's
    counters), and the board echoes exactly the queued ones."""
    b = make_board("lo", top=MACLOOP, extra_args=["--link-queue-frames=50"])
    s = raw_socket(b)
    src = tap_mac(b)
    before = pc_counters(b)
    n = 600
    pid = b.pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        for i in range(n):
            s.send(frame(src, 1514, i))
    finally:
        os.kill(pid, signal.SIGCONT)

    def echoed() -> bool:
        st = b.stats()
        return st["link"]["rx"]["frames"] >= n and st["from_board_frames"] >= st["link"]["queued"]

    wait_for(echoed)
    st = b.stats()
    link = st["link"]
    pc = pc_counters(b)
    taken = pc["tx_packets"] - before["tx_packets"]
    assert link["rx"]["frames"] == taken
    assert link["queued"] + link["queue_drops"] == taken
    assert link["queued"] == 50 and link["queue_drops"] == 550
    assert link["queue_peak_frames"] == 50 and pc["tx_dropped"] == before["tx_dropped"]
    assert st["counters"]["cnt_mac_rx_frames"] == link["queued"]
    assert st["from_board_frames"] == link["queued"]


def test_impairments_from_the_board_seen_by_the_kernel(make_board) -> None:
    """Impairments on the board's side (seed 99): the frames the PC's kernel receives are
    those the model predicts from the frames the board sent, byte for byte, in order, and
    the TAP's rx_packets count those the link delivered."""
    # a hold of 0.4 s in wire time: the frames held back after the last one go on at
    # the end (the board runs on while it holds frames), the others by depth
    spec = "tx:loss=0.1,dup=0.1,reorder=0.1:depth=2:hold=50000000,corrupt=0.1,fcs=0.1"
    b = make_board("ti", top=MACLOOP, impair=[spec], impair_seed=99)
    s = raw_socket(b)
    src = tap_mac(b)
    frames = [frame(src, 100 + i % 50, i) for i in range(300)]
    before = pc_counters(b)
    for f in frames:
        s.send(f)
    wait_for(lambda: b.stats()["from_board_frames"] >= 300)
    want, n = model(frames, 99, 1, spec, expire=True)
    want = [f for f, bad in want if not bad]  # a bad FCS: the PC's side drops it
    got = []
    while len(got) < len(want):
        f = recv_frame(s, ETYPE, timeout=5)
        if f is None:
            break
        got.append(f)
    assert recv_frame(s, ETYPE, timeout=0.5) is None
    assert got == want
    tx = b.stats()["link"]["tx"]
    for k, v in n.items():
        assert tx[k] == v, k
    assert tx["delivered"] == len(want) == pc_counters(b)["rx_packets"] - before["rx_packets"]


def test_run_dir_record_stats_and_impairments_at_run_time(make_board) -> None:
    """The wire record in the run directory can be read while the board runs (whole
    records within 100 ms); impairments change while it runs: rx:loss=1 loses every
    frame (counted), none afterwards; a bad setting is refused with the reason."""
    b = make_board("rt", top=MACLOOP, pcap="")
    s = raw_socket(b)
    src = tap_mac(b)
    for i in range(5):
        s.send(frame(src, 200, i))
        assert recv_frame(s, ETYPE) is not None
    time.sleep(0.3)
    recs = read_pcap(b.wire_pcap)
    assert len(recs) == 10
    link = b.set_impairments(["rx:loss=1"])
    assert link["rx"]["settings"]["loss"] == 1 and link["impair_changes"] == 1
    for i in range(5, 25):
        s.send(frame(src, 200, i))
    wait_for(lambda: b.stats()["link"]["rx"]["frames"] >= 25, timeout=30)
    assert b.stats()["link"]["rx"]["lost"] == 20
    link = b.set_impairments([])
    assert link["rx"]["settings"]["loss"] == 0
    s.send(frame(src, 200, 99))
    assert recv_frame(s, ETYPE) is not None
    with pytest.raises(BoardError, match="probability"):
        b.set_impairments(["rx:loss=2"])
    st = b.stats()
    assert st["link"]["rx"]["lost"] == 20 and st["link"]["impair_changes"] == 2
    assert st["to_board_frames"] == 6 and st["from_board_frames"] == 6


def test_cli_impairments_and_wire_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`wirecore board up --impair ... --impair-seed`, `board impair` while it runs,
    `board status`'s link line and `board stats`' link and pc objects; the wire record
    in the run directory."""
    from conftest import unique_name

    name = unique_name("cim")
    monkeypatch.setenv("WIRECORE_RUN_DIR", str(tmp_path / "run"))
    exe = [os.path.join(os.path.dirname(sys.executable), "wirecore"), "board"]

    def wc(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        r = subprocess.run([*exe, *args], capture_output=True, text=True, timeout=120)
        assert not check or r.returncode == 0, r.stdout + r.stderr
        return r

    try:
        r = wc(
            "up", "--name", name, "--top", MACLOOP, "--impair", "rx:loss=1", "--impair-seed", "3"
        )
        wire = tmp_path / "run" / name / "wire.pcap"
        assert f"wire record (sim time): {wire}" in r.stdout
        assert "impairments (seed 3): rx:loss=1" in r.stdout
        b = VirtualBoard.load(name)
        s = raw_socket(b)
        src = tap_mac(b)
        for i in range(7):
            s.send(frame(src, 100, i))
        wait_for(lambda: b.stats()["link"]["rx"]["frames"] >= 7, timeout=30)
        st = json.loads(wc("stats", "--name", name).stdout)
        assert st["link"]["seed"] == 3 and st["link"]["rx"]["settings"]["loss"] == 1
        assert st["link"]["rx"]["lost"] == 7 and st["to_board_frames"] == 0
        assert st["pc"]["interface"] == b.cfg.tap and st["pc"]["tx_packets"] >= 7
        r = wc("status", "--name", name)
        assert "link: 0 frames queued, 0 dropped (queue full); to board: lost 7" in r.stdout
        r = wc("impair", "--name", name, "--seed", "5", "tx:dup=0.5")
        assert r.stdout.splitlines() == ["to board: none", "from board: dup=0.5", "seed 5"]
        r = wc("impair", "--name", name, "rx:loss=7", check=False)
        assert r.returncode == 1 and "probability" in r.stderr
        s.send(frame(src, 100, 99))
        assert recv_frame(s, ETYPE) is not None
        # The board flushes the record every 100 ms of wall time; on a loaded machine the
        # echo can come back before the next flush.
        wait_for(lambda: len(read_pcap(wire)) >= 2, timeout=10)
    finally:
        r = wc("down", "--name", name, check=False)
    assert r.returncode == 0, r.stderr


def test_read_pcap_leaves_out_a_record_cut_short(tmp_path: Path) -> None:
    """A wire record read while the board writes it may end in part of a record: only
    the whole records are returned (scapy reads the same whole file alike)."""
    p = tmp_path / "w.pcap"
    frames = [bytes([i]) * (60 + i) for i in range(3)]
    write_pcap(p, frames, [8, 800, 8000])
    whole = p.read_bytes()
    assert [bytes(x) for x in rdpcap(str(p))] == [f for _, f in read_pcap(p)] == frames
    for cut in (1, 30, 16 + 62):
        p.write_bytes(whole[:-cut])
        assert read_pcap(p) == [(8, frames[0]), (800, frames[1])], cut


def test_corruption_reaches_the_full_boards_checksums(tmp_path: Path) -> None:
    """rx:corrupt=0.5 on UDP echo requests to the full board (seed chosen so that the
    first frame, the PC's ARP request, is intact): the board echoes exactly the intact
    datagrams; every corrupted one (its FCS recomputed, so the MAC passes it) fails the
    stack's checks and is counted once, those corrupted in the UDP payload as bad UDP
    checksums, and gets no reply."""
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import ARP, Ether
    from scapy.packet import Raw

    board, pc = "02:00:00:00:00:02", "02:00:00:00:00:01"
    arp = Ether(dst="ff:ff:ff:ff:ff:ff", src=pc) / ARP(
        op=1, hwsrc=pc, psrc="192.0.2.1", hwdst="00:00:00:00:00:00", pdst="192.0.2.2"
    )
    payloads = [i.to_bytes(2, "big") * 500 for i in range(60)]
    frames = [bytes(arp)] + [
        bytes(
            Ether(dst=board, src=pc)
            / IP(src="192.0.2.1", dst="192.0.2.2")
            / UDP(sport=40000 + i, dport=7)
            / Raw(p)
        )
        for i, p in enumerate(payloads)
    ]
    spec = "rx:corrupt=0.5"
    seed = next(s for s in range(1, 100) if not model(frames[:1], s, 0, spec)[1]["corrupted"])
    want, n = model(frames, seed, 0, spec)
    times = [(1000 + 20000 * i) * 8 for i in range(len(frames))]
    res = run(
        "vboard_top", tmp_path, frames, 20000 * len(frames) + 50000, f"--impair={spec}",
        f"--impair-seed={seed}", "--tick-every-cycles=250", times=times,
    )  # fmt: skip
    assert [f for t, f in res["wire"] if f[6:12] != BOARD_MAC] == [f for f, _ in want]
    pairs = list(zip((f for f, _ in want[1:]), frames[1:], payloads, strict=True))
    intact = [p for f, g, p in pairs if f == g]
    echoed = [
        bytes(e[UDP].payload)
        for e in map(Ether, (f for _, f in res["wire"] if f[6:12] == BOARD_MAC))
        if UDP in e and e[UDP].sport == 7
    ]
    assert echoed == intact and 0 < len(intact) < 60
    c = res["counters"]
    # (the echo turns a datagram around as it arrives and aborts the reply when the
    # checksum at its end is bad: the MAC aborts it, the harness drops it)
    assert c["STACK.UDPTX0_TX_ABORT"] == c["STACK.UDP_BAD_CSUM"] == res["from_board_aborted"]
    corrupted = [(f, g) for f, g, _ in pairs if f != g]
    assert len(corrupted) == n["corrupted"] == 60 - len(intact)
    in_payload = sum(next(k for k in range(len(f)) if f[k] != g[k]) >= 42 for f, g in corrupted)
    assert c["STACK.UDP_BAD_CSUM"] >= in_payload > 0
    drops = [k for k in c if k.startswith(("STACK.IP_", "STACK.UDP_", "STACK.ETH_")) and k not in (
        "STACK.IP_PACKETS", "STACK.ETH_FRAMES", "STACK.UDP_DATAGRAMS")]  # fmt: skip
    dropped = {k: c[k] for k in drops if c[k]}
    assert sum(dropped.values()) == len(corrupted), dropped
