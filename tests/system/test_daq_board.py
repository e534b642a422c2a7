"""DAQ tools on the virtual board: the PC's received and lost counts against the board's
own counters.

The full board (sim/vboard_top.v: pktgen on the IPbus register map, the UDP echo for
duplex/latency); needs root. Each tool runs as a separate process inside the board's
namespace (as a user would run it).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

from wirecore import ipbus, netns
from wirecore import regmap as rm
from wirecore.vboard import VirtualBoard

ROOT = Path(__file__).resolve().parents[2]


def tool(b: VirtualBoard, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    return subprocess.run(
        netns.exec_cmd(b.cfg.ns, [sys.executable, "-m", "wirecore.cli", *args, "--quiet"]),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def board_counter(b: VirtualBoard, name: str) -> int:
    with netns.entered(b.cfg.ns):
        c = ipbus.Client(b.cfg.ip, 50001, timeout=0.5)
    with c:
        return c.read(rm.find(name))[0]


def test_stream_counts_match_board(make_board, tmp_path: Path) -> None:
    b = make_board("dqs")
    out = tmp_path / "s.json"
    r = tool(b, "stream", "--target", b.cfg.ip, "--packets", "5000", "--length", "1472",
             "--lfsr", "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    sent = board_counter(b, "PKTGEN.SENT_PACKETS")
    assert s["sent"] == sent == 5000
    assert s["received"] + s["lost"] == sent
    assert board_counter(b, "PKTGEN.SENT_BYTES") == 5000 * 1472
    assert s["fill_bad"] == 0
    assert s["duplicates"] == 0
    # the simulated board is far slower than the wire: nothing may be lost
    assert s["lost"] == 0, s


def test_stream_seconds_then_stop(make_board, tmp_path: Path) -> None:
    b = make_board("dqt")
    out = tmp_path / "t.json"
    r = tool(b, "stream", "--target", b.cfg.ip, "--seconds", "1", "--length", "256",
             "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    assert board_counter(b, "PKTGEN.STATUS") == 0, "the generator still runs after the tool"
    assert s["sent"] == board_counter(b, "PKTGEN.SENT_PACKETS") > 0
    assert s["received"] + s["lost"] == s["sent"]


def test_duplex_and_latency(make_board, tmp_path: Path) -> None:
    b = make_board("dqd")
    out = tmp_path / "d.json"
    # paced below what the simulated board echoes (a few hundred datagrams/s): no loss
    r = tool(b, "duplex", "--target", b.cfg.ip, "--packets", "300", "--length", "512",
             "--rate", "100", "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    assert s["sent"] == 300 and s["unique"] == 300 and s["duplicates"] == 0
    rows = json.loads(out.read_text())["rows"]
    assert sorted(r["seq"] for r in rows) == list(range(300))
    out = tmp_path / "l.json"
    r = tool(b, "latency", "--target", b.cfg.ip, "--sizes", "16,512,1472", "--repeats", "20",
             "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    assert s["timed_out"] == 0
    assert s["slope_us_per_byte"] > 0  # serialization through a simulated 1 Gbit/s link


def test_duplex_full_speed_against_board_counters(make_board, tmp_path: Path) -> None:
    """As fast as the PC can: the simulated board drops most (its receive FIFO fills);
    every datagram the PC got back is one the board's UDP layer delivered to the echo,
    and every one the board took in was either echoed or dropped by that FIFO."""
    b = make_board("dqf")
    before = b.stats()["counters"]
    before_frames = b.stats()["to_board_frames"]
    out = tmp_path / "f.json"
    r = tool(b, "duplex", "--target", b.cfg.ip, "--packets", "3000", "--length", "512",
             "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    st = b.stats()
    after = st["counters"]

    def delta(k: str) -> int:
        return (after[k] - before[k]) % 2**32

    assert s["sent"] == 3000
    assert s["duplicates"] == 0
    # the tool's first datagram (one byte, before the burst) resolves the board's address
    assert s["unique"] + 1 == delta("STACK.UDP_DATAGRAMS") > 1
    assert s["unique"] + s["lost"] == 3000
    taken = st["to_board_frames"] - before_frames
    # frames into the board = echoed + dropped by the FIFO + that datagram (+ ARP frames)
    assert 0 <= taken - s["unique"] - 1 - delta("MAC.RX_DROPPED_FULL") <= 4


def test_duplex_full_speed_on_the_wire(make_board, tmp_path: Path) -> None:
    """As fast as the PC can, 1472-byte datagrams: every request that reached the board's
    wire is echoed on it and comes back to the PC; every one the PC sent that did not reach
    the wire is counted in a drop counter of the PC side (the TAP) or the link; both
    directions run at the line rate on the wire in simulated time."""
    b = make_board("dqx")
    out = tmp_path / "x.json"
    r = tool(b, "duplex", "--target", b.cfg.ip, "--packets", "2000", "--length", "1472",
             "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    w = s["wire"]
    assert w["available"], w
    assert w["in_frames"] == w["echoed"] == w["out_frames"] == s["unique"] > 0, (w, s)
    missing = s["sent"] - w["in_frames"]
    counted = sum(w["drops"]["pc"].values()) + sum(w["drops"]["link"].values())
    assert missing == counted, w["drops"]
    assert w["drops"]["board"] == {}
    for d in ("in_rate", "out_rate"):
        assert w[d]["line_fraction"] > 0.99, w[d]


def test_latency_on_the_wire(make_board, tmp_path: Path) -> None:
    """The board's echo turnaround on its wire: the receive FIFO holds a whole frame before
    the stack sees it, so from the request's last byte to the echo's first byte the time
    grows by exactly one cycle (8 ns) per payload byte; first in to last out adds both
    frames' serialization: 3 cycles per byte."""
    b = make_board("dql")
    out = tmp_path / "l.json"
    r = tool(b, "latency", "--target", b.cfg.ip, "--sizes", "18,256,1024,1472",
             "--repeats", "5", "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    w = json.loads(out.read_text())["summary"]["wire"]
    assert w["available"] and w["pairs"] == 20, w
    assert abs(w["last_in_first_out"]["slope_ns_per_byte"] - 8.0) < 1e-6, w
    assert abs(w["first_in_last_out"]["slope_ns_per_byte"] - 24.0) < 1e-6, w


def test_daq_event_building_over_three_boards(make_board, tmp_path: Path) -> None:
    """Three boards on one bridge: every event complete, in both modes, for n = 1..3."""
    first = make_board("dqm", bridge="wcbrdq", tap="wcdq1")
    ips = [first.cfg.ip]
    for i in (2, 3):
        b = make_board(
            f"dqm{i}",
            ns=first.cfg.ns,
            bridge="wcbrdq",
            tap=f"wcdq{i}",
            ip=f"192.0.2.{i + 1}",
            mac=f"02:00:00:00:00:0{i + 1}",
        )
        ips.append(b.cfg.ip)
    out = tmp_path / "q.json"
    r = tool(first, "daq", "--boards", ",".join(ips), "--events", "20", "--save", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    assert s["boards"] == ips
    assert s["incomplete"] == 0
    for mode in ("sequential", "grouped"):
        assert [s["results"][mode][str(n)]["n"] for n in (1, 2, 3)] == [20, 20, 20]
    # board i is asked in every event over n >= i boards, in both modes
    for i, ip in enumerate(ips, start=1):
        w = s["wire"][ip]
        assert w["available"] and w["requests"] == 2 * 20 * (4 - i), (ip, w)
    medians = {s["wire"][ip]["service_cycles"]["median"] for ip in ips}
    assert len(medians) == 1, "the same design serves in the same time"


def test_stream_spacing_on_the_wire(make_board, tmp_path: Path) -> None:
    """The generator's frames on the board's wire, in simulated time: at gap 0 back to back
    at the line rate (8 + 14 + 20 + 8 + L + 4 + 12 cycles apart, by IEEE 802.3 framing);
    at a gap G that the line does not limit, the generator keeps its period P = L + G + 1
    (pktgen: the next header G + 1 cycles after the last of L payload beats; checksum mode
    1 stores each datagram, so nothing downstream reaches its pacing) and every frame
    reaches the wire a fixed time C after the generator's stamp of it, plus one cycle when
    the board's frame before it on the wire came from another source (eth_tx_arb's grant
    was parked there: a request from another input waits one cycle), and not before that
    frame's end plus the 12-cycle gap. So consecutive frames are exactly P apart, except
    around another source's frame: P - 1 out of a frame delayed by the switch (the first
    of a run, after the IPbus reply to `start`, when no primer went out since), P + 1 into
    one."""
    from wirecore import wire
    from wirecore.daq.analysis import line_rate_goodput
    from wirecore.daq.onwire import seq_of

    b = make_board("dqw")
    tail = wire.Tail(b.wire_pcap, b.cfg.mac)
    for length, gap in ((1472, 0), (256, 0), (1472, 1000)):
        out = tmp_path / f"w{length}_{gap}.json"
        tail.mark()
        r = tool(b, "stream", "--target", b.cfg.ip, "--packets", "300", "--length", str(length),
                 "--gap", str(gap), "--save", str(out))  # fmt: skip
        assert r.returncode == 0, r.stdout + r.stderr
        s = json.loads(out.read_text())["summary"]
        w = s["wire"]
        assert w["available"] and w["frames"] == s["sent"] == 300, w
        assert w["seq_lost"] == 0 and w["seq_gap_events"] == 0
        spacing = {int(k): v for k, v in w["spacing_cycles"].items()}
        if gap == 0:
            frame = 8 + 14 + 20 + 8 + length + 4 + 12
            assert spacing == {frame: 299}, (length, spacing)
            assert w["idle_cycles"] == {"12": 299}
            assert w["rate"]["line_fraction"] == 1.0
            ideal = line_rate_goodput(length) / 1e6
            assert abs(w["payload_mbytes_per_s"] - ideal) < 1e-9 * ideal
        else:
            tail.settle()
            sent = wire.of(tail.read(), wire.Direction.FROM_BOARD)
            gen_port = {
                f.udp().src_port for f in sent if f.udp() and len(f.udp().payload) == length
            }
            assert len(gen_port) == 1, gen_port
            # the generator's frames (its primers included: the same arbiter input)
            ours = [i for i, f in enumerate(sent) if f.udp() and f.udp().src_port in gen_port]
            counted = [i for i in ours if seq_of(sent[i].udp().payload) is not None]
            assert len(counted) == 300 and counted[0] > 0, counted
            stamps = [int.from_bytes(sent[i].udp().payload[8:16], "big") for i in counted]
            period = length + gap + 1
            assert [y - x for x, y in itertools.pairwise(stamps)] == [period] * 299
            starts = [sent[i].cycle for i in counted]
            other = [sent[i - 1].udp() is None or sent[i - 1].udp().src_port not in gen_port
                     for i in counted]  # fmt: skip
            ready = [sent[i - 1].end_ns // wire.NS_PER_CYCLE + wire.IFG for i in counted]
            # C: the stamp-to-wire time of the frames after one of the generator's own on
            # a free wire, one value
            free = {
                a - t
                for a, t, o, e in zip(starts, stamps, other, ready, strict=True)
                if not o and a > e
            }
            assert len(free) == 1, free
            c = free.pop()
            want = [max(t + c + o, e) for t, o, e in zip(stamps, other, ready, strict=True)]
            assert starts == want, [
                (k, a, x, o)
                for k, (a, x, o) in enumerate(zip(starts, want, other, strict=True))
                if a != x
            ]
            got = wire.histogram(y - x for x, y in itertools.pairwise(starts))
            assert spacing == got, (spacing, got)
            assert w["rate"]["span_ns"] == (starts[-1] - starts[0]) * 8
        assert "on the board's wire (simulated time)" in r.stdout


def test_echo_turnaround_equals_benchmark(make_board, tmp_path: Path) -> None:
    """A 1472-byte echo's turnaround on the board's wire (request's last byte in to the
    reply's first byte out, from the wire record) equals the in-simulation benchmark's
    figure for the same design (bench.tx_latency's virtual-board row: sim/vboard_top.v,
    checksum mode 1, GMII to GMII, run under Icarus by the benchmark's own code), in the
    same conditions: the board's previous frame was an echo reply (the transmit arbiter's
    grant parked on the echo's port; after another source's frame it takes one cycle
    more, the benchmark's turnaround_after_other_source). Both count a byte at the edge
    that samples it, the wire record's convention (docs/virtual-board.md)."""
    from wirecore import wire
    from wirecore.daq import onwire

    from bench.tx_latency import board_echo_turnaround

    want = board_echo_turnaround([1472])[0]["turnaround_last_in_to_first_out"]
    b = make_board("dqe")
    # (the tool fits a line, so it needs two sizes; the comparison takes the 1472-byte
    # pairs, each after an echo: the 64-byte ones go first, nothing else is sent between)
    r = tool(b, "latency", "--target", b.cfg.ip, "--sizes", "64,1472", "--repeats", "5")
    assert r.returncode == 0, r.stdout + r.stderr
    data = b.wire_pcap.read_bytes()
    recs = wire.parse_records(data, wire.parse_header(data), wire.mac_bytes(b.cfg.mac))[0]
    pairs = onwire.echo_pairs(recs, b.cfg.udp_echo_port)
    got = [p.last_in_first_out for p in pairs if p.payload == 1472]
    assert len(got) >= 5, got
    # the conditions: the board's frame before each of those replies is an echo reply
    out = wire.of(recs, wire.Direction.FROM_BOARD)
    replies = [p.reply for p in pairs]
    for p in pairs:
        if p.payload == 1472:
            i = out.index(p.reply)
            assert i > 0 and out[i - 1] in replies, out[i - 1 : i + 1]
    assert set(got) == {want}, (got, want)
