"""Run the full virtual board without a TAP on a timed pcap (--inject-timed) for a set
number of cycles, and compare two such runs: the machinery of the fast-forward's
exactness test (test_vboard_harness.py: the fast-forward against --no-skip)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from wirecore.vboard import read_pcap

TICK_CYCLES = 250  # --tick-every-cycles: one simulated millisecond is 250 cycles here


def run(exe: Path, pcap: Path, cycles: int, d: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``exe`` on ``pcap`` for ``cycles`` cycles, writing out.pcap and st.json in ``d``."""
    d.mkdir()
    cmd = [str(exe), "--tap", "none", "--inject", str(pcap), "--inject-timed"]
    cmd += ["--run-cycles", str(cycles), "--tick-every-cycles", str(TICK_CYCLES)]
    cmd += ["--pcap", str(d / "out.pcap"), "--stats-file", str(d / "st.json")]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=600)


def result(d: Path) -> dict:
    """A run's statistics, with ``wire``: every frame on the wire, (time, bytes)."""
    st = json.loads((d / "st.json").read_text())
    st["wire"] = read_pcap(d / "out.pcap")
    return st


def assert_same_run(a: dict, b: dict) -> None:
    """The same frames both ways, byte for byte at the same cycles, the same totals and
    the same counters."""
    assert len(a["wire"]) == len(b["wire"])
    for i, (x, y) in enumerate(zip(a["wire"], b["wire"], strict=True)):
        assert x == y, f"record {i}: {x[0] // 8} vs {y[0] // 8} cycles"
    for k in ("cycles", "ticks", "to_board_frames", "from_board_frames", "from_board_bytes"):
        assert a[k] == b[k], k
    assert a["counters"] == b["counters"]
