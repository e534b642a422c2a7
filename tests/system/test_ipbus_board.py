"""IPbus on the virtual board: unmodified uHAL and wirecore's tools against the RTL.

Runs the virtual board (ipbus_ctrl on UDP port 50001) at both speeds (sim/vboard_top.v,
GMII and the 8-bit stack; sim/vboard_top_10g.v, XGMII and the 64-bit stack) in a network
namespace; needs root. uHAL runs in its
own process inside the board's namespace (`wirecore reg selftest`: single registers,
masked fields, block transfers of 2048 words, non-incrementing, RMW, bus errors, little-
and big-endian); the reliable client runs 10,000 transactions through 5 % loss and
reordering (the board's own link impairments, seeded) and must execute each exactly once.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from board_speeds import at_speed
from wirecore import ipbus, netns
from wirecore import regmap as rm
from wirecore.vboard import SPEED_TOPS, VirtualBoard

ROOT = Path(__file__).resolve().parents[2]
PORT = 50001


@pytest.fixture
def make_board(make_board, speed_top):
    """conftest's make_board, its boards at the speed of the test's parameter."""
    return at_speed(make_board, speed_top)


def wirecore(b: VirtualBoard, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    return subprocess.run(
        netns.exec_cmd(b.cfg.ns, [sys.executable, "-m", "wirecore.cli", *args]),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def target(b: VirtualBoard) -> str:
    return f"ipbusudp-2.0://{b.cfg.ip}:{PORT}"


def test_uhal_selftest(make_board) -> None:
    b = make_board("ipb")
    r = wirecore(b, "reg", "selftest", "--target", target(b), "--timeout", "5000")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all checks passed" in r.stdout


def test_reg_and_mem_commands(make_board, tmp_path: Path) -> None:
    b = make_board("ipc")
    t = ["--target", target(b), "--timeout", "5000"]
    r = wirecore(b, "reg", "read", "NET.IP", *t)
    assert r.stdout.strip() == "0xc0000202", r.stdout + r.stderr
    data = random.Random(3).randbytes(4 * 4096)
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(data)
    assert wirecore(b, "mem", "load", str(src), "--verify", *t).returncode == 0
    assert wirecore(b, "mem", "save", str(dst), "--count", "4096", *t).returncode == 0
    assert dst.read_bytes() == data
    r = wirecore(b, "reg", "read", "0x3f0", *t)
    assert r.returncode == 1 and "wirecore reg:" in r.stderr
    r = wirecore(b, "reg", "dump", "IPBUS", *t)
    assert r.returncode == 0 and "RX_PACKETS" in r.stdout


@pytest.mark.parametrize(
    "speed_top",
    [
        pytest.param(SPEED_TOPS["1g"], id="1g"),
        # the same client through the same harness: the 64-bit board's IPbus path is
        # covered by the other tests at 10g, so this volume run is in make test-long
        pytest.param(SPEED_TOPS["10g"], id="10g", marks=pytest.mark.long),
    ],
)
def test_reliable_client_lossy(make_board) -> None:
    """10,000 read-modify-write sums through the board's own link impairments (5 % loss
    and 5 % reordering each way, a fixed seed): each executes exactly once."""
    b = make_board("ipn", impair=["both:loss=0.05,reorder=0.05:depth=2"], impair_seed=29)
    packets, per = 200, 50  # 10,000 transactions
    with netns.entered(b.cfg.ns):
        c = ipbus.Client(b.cfg.ip, PORT, timeout=0.3, retries=30)
    with c:
        start = c.rmw_sum(rm.MEM_BASE, 0)
        for _ in range(packets):
            ts = [ipbus.Transaction(ipbus.RMW_SUM, rm.MEM_BASE, 1, masks=(1,)) for _ in range(per)]
            replies = c.run(ts)
            assert [r.data[0] for r in replies] == [start + i for i in range(per)]
            start += per
        assert c.read(rm.MEM_BASE)[0] == start
        assert c.recoveries > 0, "nothing was lost: the test proved nothing"
    link = b.stats()["link"]
    for d in ("rx", "tx"):
        assert link[d]["lost"] > 0 and link[d]["reordered"] > 0, (d, link[d])
        # about 5 % of each direction's frames (binomial: well within 6 sigma)
        n = link[d]["frames"]
        assert abs(link[d]["lost"] - 0.05 * n) < 6 * (0.05 * 0.95 * n) ** 0.5, (d, link[d])
