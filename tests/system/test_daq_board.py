"""DAQ tools on the virtual board: the PC's received and lost counts against the board's
own counters.

The full board (sim/vboard_top.v: pktgen on the IPbus register map, the UDP echo for
duplex/latency); needs root. Each tool runs as a separate process inside the board's
namespace (as a user would run it).
"""

from __future__ import annotations

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
    assert s["unique"] == delta("STACK.UDP_DATAGRAMS") > 0
    assert s["unique"] + s["lost"] == 3000
    taken = st["to_board_frames"] - before_frames
    # frames into the board = echoed + dropped by the FIFO (+ a few ARP frames)
    assert 0 <= taken - s["unique"] - delta("MAC.RX_DROPPED_FULL") <= 4


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
