"""The virtual-board harness and its TAP bridge, tested with the reflecting fixture.

``sim/vboard_reflect.v`` sends every frame it receives on GMII back unchanged (or damaged
on request), so what comes back from the TAP shows exactly what the harness put on the
wire: padding, FCS, preamble handling, jumbo frames, dropping of bad frames, the pcap,
idle sleeping and the wall-clock millisecond tick.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from injected_runs import TICK_CYCLES, assert_same_run, result, run
from machine_skip import skip_machine
from scapy.utils import rdpcap
from tap_frames import (
    BOARD_MAC,
    ETYPE,
    ETYPE_CMD,
    frame,
    raw_socket,
    recv_frame,
    tap_mac,
)
from wirecore import netns
from wirecore.vboard import (
    FIXTURE_TOP,
    VirtualBoard,
    build,
    build_info,
    training_frames,
    write_pcap,
)


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


MACLOOP = "vboard_macloop"  # the real MAC looped back through a frame FIFO


@pytest.mark.parametrize("top", [FIXTURE_TOP, MACLOOP])
def test_reflect_roundtrip_sizes_and_pcap(make_board, top: str) -> None:
    """Frames of 14..1514 bytes come back byte-exact, short ones padded with zeros to 60."""
    b = make_board("rf", top=top)
    s = raw_socket(b)
    src = tap_mac(b)
    rng = random.Random(1)
    sizes = [14, 15, 42, 59, 60, 61, 63, 64, 65, 128, 500, 1000, 1499, 1513, 1514]
    sizes += [rng.randint(14, 1514) for _ in range(40)]
    sent = []
    for i, n in enumerate(sizes):
        f = frame(src, n, i, rng=rng)
        s.send(f)
        got = recv_frame(s, ETYPE)
        assert got is not None, f"frame {i} of {n} bytes did not come back"
        want = f + bytes(max(0, 60 - n))
        assert got == want, f"frame {i} of {n} bytes came back different"
        sent.append(want)
    st = b.stats()
    assert st["to_board_frames"] == len(sizes)
    assert st["from_board_frames"] == len(sizes)
    pre = "cnt_" if top == FIXTURE_TOP else "cnt_mac_"
    assert st["counters"][pre + "rx_frames"] == len(sizes)
    assert st["counters"][pre + "tx_frames"] == len(sizes)
    for k in ("from_board_bad_fcs", "from_board_aborted", "from_board_runt", "tap_write_errors"):
        assert st[k] == 0, k
    pcap = b.cfg.pcap
    b.down()
    pkts = [bytes(p) for p in rdpcap(pcap)]
    assert len(pkts) == 2 * len(sizes)
    for i, want in enumerate(sent):  # each frame in, then the same frame out
        assert pkts[2 * i] == want
        assert pkts[2 * i + 1] == want
    r = subprocess.run(["tshark", "-r", pcap, "-q", "-z", "expert"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "Malformed" not in r.stdout


def test_bad_fcs_and_aborted_frames_are_dropped_and_counted(make_board) -> None:
    b = make_board("bad", top=FIXTURE_TOP)
    s = raw_socket(b)
    src = tap_mac(b)
    n_fcs, n_abort = 5, 7
    for i in range(n_fcs + n_abort):
        cmd = 1 if i < n_fcs else 2
        f = BOARD_MAC + src + struct.pack("!HB", ETYPE_CMD, cmd) + bytes(range(100))
        s.send(f)
        time.sleep(0.02)  # one at a time: the fixture drops a frame that arrives while busy
    # a good frame after them still comes back: the bridge recovered
    good = frame(src, 200, 99)
    s.send(good)
    assert recv_frame(s, ETYPE) == good
    assert recv_frame(s, ETYPE_CMD, timeout=0.3) is None  # no damaged frame reached Linux
    st = b.stats()
    assert st["from_board_bad_fcs"] == n_fcs
    assert st["from_board_aborted"] == n_abort
    assert st["from_board_frames"] == 1
    assert st["to_board_frames"] == n_fcs + n_abort + 1
    assert st["counters"]["cnt_tx_frames"] == n_fcs + n_abort + 1


@pytest.mark.parametrize("top", [FIXTURE_TOP, MACLOOP])
def test_jumbo_frame(make_board, top: str) -> None:
    """With a 9000-byte MTU a 9014-byte frame crosses the bridge both ways intact."""
    b = make_board("jb", top=top)
    netns.run(["ip", "-n", b.cfg.ns, "link", "set", b.cfg.tap, "mtu", "9000"])
    s = raw_socket(b)
    f = frame(tap_mac(b), 9014, 7)
    s.send(f)
    assert recv_frame(s, ETYPE) == f
    assert b.stats()["from_board_oversize"] == 0


def test_mac_aborted_frames_are_dropped_and_counted(make_board) -> None:
    """Frames the real MAC aborts (tuser: inverted FCS and gmii_tx_er) never reach Linux."""
    b = make_board("mab", top=MACLOOP)
    s = raw_socket(b)
    src = tap_mac(b)
    n = 6
    for i in range(n):
        s.send(BOARD_MAC + src + struct.pack("!HB", ETYPE_CMD, 2) + bytes(range(60 + i)))
    good = frame(src, 300, 5)
    s.send(good)
    assert recv_frame(s, ETYPE) == good
    assert recv_frame(s, ETYPE_CMD, timeout=0.3) is None
    st = b.stats()
    assert st["from_board_aborted"] == n
    assert st["from_board_frames"] == 1
    assert st["counters"]["cnt_mac_tx_abort"] == n
    assert st["counters"]["cnt_mac_rx_frames"] == n + 1
    assert st["counters"]["cnt_mac_rx_bad_fcs"] == 0


def test_idle_sleeps_and_ticks_follow_the_wall_clock(make_board) -> None:
    b = make_board("idle", top=FIXTURE_TOP)
    pid = b.pid()
    assert pid is not None
    time.sleep(0.3)
    st0, cpu0, t0 = b.stats(), cpu_seconds(pid), time.monotonic()
    time.sleep(2.0)
    st1, cpu1, t1 = b.stats(), cpu_seconds(pid), time.monotonic()
    wall = t1 - t0
    assert (cpu1 - cpu0) / wall < 0.5, f"idle board used {(cpu1 - cpu0) / wall:.0%} of a CPU"
    ticks = st1["ticks"] - st0["ticks"]
    ms = (st1["wall_s"] - st0["wall_s"]) * 1000
    assert 0.9 * ms <= ticks <= 1.02 * ms + 2, f"{ticks} ticks in {ms:.0f} ms"
    # the simulation did advance while idle (the RTL saw every tick)
    assert st1["cycles"] > st0["cycles"]


def test_sigterm_prints_final_statistics(make_board) -> None:
    b = make_board("sig", top=FIXTURE_TOP)
    s = raw_socket(b)
    f = frame(tap_mac(b), 100, 1)
    s.send(f)
    assert recv_frame(s, ETYPE) == f
    b.stop()
    log = b.log_file.read_text()
    assert "vboard: final cycles" in log
    assert "to board 1 frames" in log and "from board 1 frames" in log
    assert "cnt_rx_frames=1" in log


@pytest.mark.root
def test_without_root_a_clear_error() -> None:
    """Run as an unprivileged user, the board says that it needs root (it cannot open the TUN)."""
    if shutil.which("setpriv") is None:
        skip_machine("setpriv (util-linux) is not installed")
    exe = build(FIXTURE_TOP, quiet=True)
    d = tempfile.mkdtemp(prefix="vboard-", dir="/tmp")
    try:
        os.chmod(d, 0o755)
        copy = os.path.join(d, "vboard")
        shutil.copy(exe, copy)
        os.chmod(copy, 0o755)
        r = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", copy, "--tap", "x"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    finally:
        shutil.rmtree(d)
    assert r.returncode == 2
    assert "/dev/net/tun" in r.stderr and "root" in r.stderr


@pytest.mark.tap
def test_cli_up_status_exec_down(tmp_path) -> None:
    """The `wirecore board` command end to end: up, status, stats, exec, down."""
    from conftest import unique_name

    name = unique_name("cli")
    env = dict(os.environ, WIRECORE_RUN_DIR=str(tmp_path / "run"))
    exe = [os.path.join(os.path.dirname(sys.executable), "wirecore"), "board"]

    def wc(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        r = subprocess.run([*exe, *args], capture_output=True, text=True, env=env, timeout=120)
        assert not check or r.returncode == 0, r.stdout + r.stderr
        return r

    ns = f"wc-{name}"
    try:
        r = wc(
            "up", "--name", name, "--top", FIXTURE_TOP, "--pcap", str(tmp_path / "c.pcap"),
            "--board-arg=--idle-tick-ms=2",
        )  # fmt: skip
        assert f"board {name} is up" in r.stdout
        assert netns.exists(ns)
        pid = (tmp_path / "run" / name / "pid").read_text().strip()
        cmdline = open(f"/proc/{pid}/cmdline").read().split("\0")
        assert "--idle-tick-ms=2" in cmdline and "--pcap" in cmdline
        r = wc("status", "--name", name)
        assert "running" in r.stdout and "cnt_rx_frames=" in r.stdout
        r = wc("exec", "--name", name, "--", "ip", "-o", "addr", "show", "dev", "tap0")
        assert "192.0.2.1/24" in r.stdout
        r = wc("exec", "--name", name, "--", "cat", "/proc/sys/net/ipv6/conf/tap0/disable_ipv6")
        assert r.stdout.strip() == "1"
        r = wc("stats", "--name", name)
        assert "from_board_frames" in r.stdout
        r = wc("up", "--name", name, "--top", FIXTURE_TOP, check=False)
        assert r.returncode == 1 and "up already" in r.stderr  # no second board of that name
        assert "running" in wc("status", "--name", name).stdout  # and the first one is intact
    finally:
        r = wc("down", "--name", name, check=False)
    assert r.returncode == 0, r.stderr
    assert f"board {name} down" in r.stdout
    assert not netns.exists(ns)
    r = wc("status", "--name", name, check=False)
    assert r.returncode == 1


def test_enter_board_network(make_board) -> None:
    """A PC tool can move itself into the board's network and see the TAP."""
    b = make_board("en", top=FIXTURE_TOP)
    code = (
        "import sys; from wirecore.vboard import enter_board_network as e; "
        f"c = e({b.cfg.name!r}); print(c.ip); print(open('/proc/self/net/dev').read())"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=30,
        env=dict(os.environ),
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == b.cfg.ip
    assert f"{b.cfg.tap}:" in r.stdout
    assert f"{b.cfg.tap}:" not in open("/proc/self/net/dev").read()  # we did not move


def test_burst_back_to_back_through_the_mac(make_board) -> None:
    """A burst crosses the bridge back to back: every frame returns in order and intact,
    and the MAC's frames are never closer than the 12-cycle inter-frame gap."""
    b = make_board("bu", top=MACLOOP)
    s = raw_socket(b)
    src = tap_mac(b)
    n = 40
    frames = [frame(src, 800, 1000 + i) for i in range(n)]  # equal sizes: equal spacing
    for f in frames:  # written faster than the board takes them: they queue in the TAP
        s.send(f)
    got = [recv_frame(s, ETYPE) for _ in range(n)]
    assert got == frames
    st = b.stats()
    assert st["from_board_frames"] == n
    assert st["counters"]["cnt_fifo_drop_full"] == 0
    assert 12 <= st["from_board_min_gap"] <= 16, st["from_board_min_gap"]


def test_up_again_after_the_board_died(make_board) -> None:
    """A board whose process was killed leaves its namespace; `up` again cleans it up."""
    b = make_board("cr", top=FIXTURE_TOP)
    pid = b.pid()
    assert pid is not None
    os.kill(pid, 9)
    t_end = time.monotonic() + 5
    while b.running() and time.monotonic() < t_end:
        time.sleep(0.05)
    assert not b.running() and netns.exists(b.cfg.ns)
    again = VirtualBoard(b.cfg)
    again.up(quiet=True)
    try:
        assert again.running()
        s = raw_socket(again)
        f = frame(tap_mac(again), 100, 3)
        s.send(f)
        assert recv_frame(s, ETYPE) == f
    finally:
        again.down()
    assert not netns.exists(b.cfg.ns)


@pytest.mark.root
def test_cli_without_root_a_clear_error() -> None:
    if shutil.which("setpriv") is None:
        skip_machine("setpriv (util-linux) is not installed")
    exe = os.path.join(os.path.dirname(sys.executable), "wirecore")
    if not os.access(exe, os.X_OK) or (os.stat(os.path.dirname(exe)).st_mode & 0o005) != 0o005:
        skip_machine("the virtual environment is not readable by other users")
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    for args in (["board", "up"], ["demo"]):
        r = subprocess.run([*drop, exe, *args], capture_output=True, text=True, timeout=60)
        assert r.returncode == 1, r.stdout + r.stderr
        assert "needs root" in r.stderr and "/dev/net/tun" in r.stderr, r.stderr


def run_injected(exe: str, frames: list[bytes], tmp: Path, cycles: int, *args: str) -> dict:
    """Run a board program without a TAP on ``frames`` (a pcap) for ``cycles`` cycles."""
    pcap, stats, out = tmp / "in.pcap", tmp / "stats.json", tmp / "out.pcap"
    write_pcap(pcap, frames)
    cmd = [exe, "--tap", "none", "--spin", "--inject", str(pcap), "--run-cycles", str(cycles)]
    cmd += ["--stats-file", str(stats), "--pcap", str(out), *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    st = json.loads(stats.read_text())
    st["wire"] = [bytes(p) for p in rdpcap(str(out))]  # both ways, in the order on the wire
    return st


def test_inject_full_board_counts_exactly(tmp_path: Path) -> None:
    """--inject drives the full board without a TAP: the profile-training frames (ARP,
    pings, UDP echo, IPbus, a closed port, another MAC and EtherType) once, every one
    counted where it belongs, every UDP echo reply carrying the request's payload."""
    from scapy.layers.inet import UDP
    from scapy.layers.l2 import Ether

    exe = build(quiet=True)
    info = build_info()
    assert info.get("pgo") is True and info.get("opt") == "-O2"
    frames = training_frames()
    st = run_injected(str(exe), frames, tmp_path, 200_000)
    c = st["counters"]
    assert st["to_board_frames"] == len(frames)
    assert c["MAC.RX_FRAMES"] == len(frames) and c["MAC.RX_BAD_FCS"] == 0
    assert c["MAC.RX_DROPPED_FULL"] == 0
    assert c["ARP.REQ_RX"] == 2 and c["ARP.REPLY_TX"] == 2
    assert c["STACK.ICMP_ECHO"] == 2
    assert c["STACK.ECHO_DATAGRAMS"] == 4
    assert c["STACK.UDP_CLOSED_PORT"] == 1
    assert c["STACK.ETH_BAD_MAC"] == 1 and c["STACK.ETH_BAD_ETHERTYPE"] == 1
    for k in ("from_board_bad_fcs", "from_board_aborted", "from_board_runt"):
        assert st[k] == 0, k
    sent = {
        bytes(Ether(f)[UDP].payload) for f in frames if UDP in Ether(f) and Ether(f)[UDP].dport == 7
    }
    echoed = {
        bytes(e[UDP].payload) for e in map(Ether, st["wire"]) if UDP in e and e[UDP].sport == 7
    }
    assert echoed == sent and len(sent) == 4


PKTGEN = (50002).to_bytes(2, "big")  # the generator's source port


def fast_forward_traffic() -> tuple[list[bytes], list[int], int]:
    """Frames for the full board at simulated times (ns), with long idle gaps in which
    only ticks happen, and the run's length in cycles. The generator (started by IPbus
    writes) is what asks ARP; in simulated milliseconds of TICK_CYCLES cycles:
    at 1 ms a datagram to an absent host (a broadcast request, 3 retries 1000 ms apart,
    then the entry times out); at 4500 ms an ARP request from the PC (the board learns
    it), a ping, a UDP echo and 3 datagrams to the PC (1000 cycles apart, each with its
    timestamp); at 50000 ms a datagram on the aged entry (sent, and a unicast
    re-validation request nobody answers); the entry expires at 64500 ms; at 65000 ms a
    datagram (missed: a broadcast request), the PC's ARP reply, and one sent again."""
    from scapy.layers.inet import ICMP, IP, UDP
    from scapy.layers.l2 import ARP, Ether
    from scapy.packet import Raw
    from wirecore import ipbus, regmap

    board_mac, pc_mac = "02:00:00:00:00:02", "02:00:00:00:00:01"
    board_ip, pc_ip = "192.0.2.2", "192.0.2.1"

    def to_board(payload) -> bytes:  # type: ignore[no-untyped-def]
        return bytes(Ether(dst=board_mac, src=pc_mac) / IP(src=pc_ip, dst=board_ip) / payload)

    def generate(pid: int, dest_ip: int, count: int) -> bytes:
        writes = [
            ("PKTGEN.DEST_IP0", dest_ip),
            ("PKTGEN.DEST_PORT0", 9000),
            ("PKTGEN.LENGTH", 32),
            ("PKTGEN.COUNT", count),
            ("PKTGEN.GAP", 1000),
            ("PKTGEN.NUM_DEST", 1),
            ("PKTGEN.WARMUP_MS", 0),
            ("PKTGEN.CTRL", 1),
        ]
        req = [
            ipbus.Transaction(ipbus.WRITE, regmap.find(name), data=[v], tid=i)
            for i, (name, v) in enumerate(writes)
        ]
        return to_board(UDP(sport=40100, dport=50001) / Raw(ipbus.build_request(pid, req)))

    arp_req = bytes(
        Ether(dst="ff:ff:ff:ff:ff:ff", src=pc_mac)
        / ARP(op=1, hwsrc=pc_mac, psrc=pc_ip, hwdst="00:00:00:00:00:00", pdst=board_ip)
    )
    arp_reply = bytes(
        Ether(dst=board_mac, src=pc_mac)
        / ARP(op=2, hwsrc=pc_mac, psrc=pc_ip, hwdst=board_mac, pdst=board_ip)
    )
    pc, absent = 0xC0000201, 0xC000024D  # 192.0.2.1, 192.0.2.77
    plan = [
        (1, generate(1, absent, 1)),
        (4500, arp_req),
        (4501, to_board(ICMP(id=0x77, seq=1) / Raw(bytes(range(56))))),
        (4502, to_board(UDP(sport=40001, dport=7) / Raw(bytes(range(100))))),
        (4503, generate(2, pc, 3)),
        (50000, generate(3, pc, 1)),
        (65000, generate(4, pc, 1)),
        (65010, arp_reply),
        (65020, generate(5, pc, 1)),
    ]
    times = [ms * TICK_CYCLES * 8 for ms, _ in plan]
    return [f for _, f in plan], times, 65100 * TICK_CYCLES


def test_fast_forward_is_exact(tmp_path: Path) -> None:
    """The fast-forward over quiescent cycles changes nothing: the full board fed the same
    frames at the same cycles, with ticks in simulated time (--tick-every-cycles), with
    and without --no-skip, sends the same frames byte for byte at the same cycles (pcap
    timestamps in simulated time) and ends with the same counters, while the default
    run skips most of the cycles (the long gaps, ARP retries and aging between)."""
    exe = build(quiet=True)
    frames, times, cycles = fast_forward_traffic()
    pcap = tmp_path / "in.pcap"
    write_pcap(pcap, frames, times)
    runs = {}
    for skip in (True, False):
        d = tmp_path / ("skip" if skip else "noskip")
        r = run(exe, pcap, cycles, d, *(() if skip else ("--no-skip",)))
        assert r.returncode == 0, r.stderr
        runs[skip] = result(d)
    ff, ref = runs[True], runs[False]
    # the reference evaluated every cycle, the default skipped most of them
    assert ref["skip"] is False and ref["cycles_skipped"] == 0
    assert ref["cycles_evaluated"] == ref["cycles"]
    assert ff["skip"] is True and ff["fixed_points"] > 0
    assert ff["cycles_evaluated"] + ff["cycles_skipped"] == ff["cycles"]
    assert ff["cycles_skipped"] > 0.5 * ff["cycles"], ff["cycles_skipped"] / ff["cycles"]
    # identical behaviour: every frame each way, byte-exact, at the same cycle
    assert_same_run(ff, ref)
    assert ff["from_board_min_gap"] == ref["from_board_min_gap"]
    # and the traffic did what it is meant to exercise
    c = ff["counters"]
    assert ff["to_board_frames"] == len(frames) and ff["ticks"] >= 65000
    assert c["ARP.TIMEOUT"] == 1  # the absent host: requested 4 times, given up
    assert c["ARP.EXPIRED"] == 1  # the PC's entry, 60 s after it was learnt
    assert c["ARP.REQ_TX"] >= 4 + 1 + 1  # 4 tries, the re-validation, after expiry
    assert c["ARP.REPLY_RX"] == 1 and c["ARP.REPLY_TX"] == 1
    # the absent host's and the expired entry's (the generator's port; the others none)
    assert (
        c["PKTGEN.ARP_MISS"] == 2 and c["STACK.UDPTX0_ARP_MISS"] == c["STACK.UDPTX1_ARP_MISS"] == 0
    )
    assert c["STACK.ICMP_ECHO"] == 1 and c["STACK.ECHO_DATAGRAMS"] == 1
    for k in ("from_board_bad_fcs", "from_board_aborted", "from_board_runt"):
        assert ff[k] == 0, k
    # the generator's timestamps count cycles from the end of reset, as wire time does,
    # taken before its datagram's first byte is on the wire
    gen = [(t // 8, f) for t, f in ff["wire"] if f[12:14] == b"\x08\x00" and f[34:36] == PKTGEN]
    assert len(gen) == 3 + 1 + 1
    stamps = [int.from_bytes(f[42 + 8 : 42 + 16], "big") for _, f in gen]
    for (cyc, _), ts in zip(gen, stamps, strict=True):
        assert 0 < cyc - ts < 1000, (cyc, ts)
    assert stamps[1] - stamps[0] > 1000 and stamps[2] - stamps[1] == stamps[1] - stamps[0]
