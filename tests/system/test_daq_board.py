"""DAQ tools on the virtual board: the PC's received and lost counts against the board's
own counters.

Needs the full board (sim/vboard_top.v with pktgen on the IPbus register map, and the UDP
echo for duplex/latency) and root; skipped until they are there. Each tool runs as a
separate process inside the board's namespace (as a user would run it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from wirecore import ipbus, netns
from wirecore import regmap as rm
from wirecore.vboard import SIM, VirtualBoard

TOP = SIM / "vboard_top.v"
ROOT = Path(__file__).resolve().parents[2]
_TEXT = TOP.read_text() if TOP.exists() else ""
pytestmark = pytest.mark.skipif(
    not ("pktgen" in _TEXT and "ipbus_ctrl" in _TEXT),
    reason="sim/vboard_top.v with pktgen and ipbus_ctrl is not there yet",
)
needs_echo = pytest.mark.skipif("udp_echo" not in _TEXT, reason="no udp_echo in the board")


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


@needs_echo
def test_duplex_and_latency(make_board, tmp_path: Path) -> None:
    b = make_board("dqd")
    out = tmp_path / "d.json"
    r = tool(b, "duplex", "--target", b.cfg.ip, "--packets", "2000", "--length", "512",
             "--rate", "2000", "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    assert s["sent"] == 2000 and s["unique"] == 2000 and s["duplicates"] == 0
    out = tmp_path / "l.json"
    r = tool(b, "latency", "--target", b.cfg.ip, "--sizes", "16,512,1472", "--repeats", "20",
             "--save", str(out))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    assert s["timed_out"] == 0
    assert s["slope_us_per_byte"] > 0  # serialization through a simulated 1 Gbit/s link
