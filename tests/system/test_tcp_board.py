"""The virtual board's TCP echo (port 7, tcp_core in udp_stack) against the Linux kernel.

Linux connects with ordinary sockets from the board's namespace, sends random sizes,
gets every byte back in order, half-closes (shutdown of its sending side: the board's
FIN follows the echoed bytes), and closes; several connections in turn and at once. A
closed port is refused (RST). tshark reads the capture: no malformed segment, no bad
IPv4 or TCP checksum, and on this lossless link no retransmission at all.
"""

from __future__ import annotations

import random
import socket
import struct
import subprocess
import threading
import time

import pytest
from tshark_check import assert_tshark_clean
from wirecore import netns
from wirecore.vboard import VirtualBoard

ECHO = 7


def _echo_session(b: VirtualBoard, rng: random.Random, rounds: int, max_size: int) -> int:
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10.0)
    s.connect((b.cfg.ip, ECHO))
    sent = bytearray()
    got = bytearray()
    for _ in range(rounds):
        data = rng.randbytes(rng.randrange(1, max_size + 1))
        s.sendall(data)
        sent += data
        while len(got) < len(sent):
            chunk = s.recv(65536)
            assert chunk, f"connection closed after {len(got)} of {len(sent)} bytes"
            got += chunk
    assert got == sent, "echo differs"
    s.shutdown(socket.SHUT_WR)  # half-close: the board echoes what is left, then FIN
    assert s.recv(100) == b"", "data after the echo"
    s.close()
    return len(sent)


def _tshark_count(pcap: str, flt: str, *opts: str) -> int:
    """Frames of the capture that match the display filter."""
    r = subprocess.run(
        ["tshark", "-r", pcap, *opts, "-Y", flt, "-T", "fields", "-e", "frame.number"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return len(r.stdout.split())


def _retransmissions(pcap: str) -> int:
    return _tshark_count(pcap, "tcp.analysis.retransmission")


def test_tcp_echo_linux(make_board) -> None:
    b = make_board("tcp")
    rng = random.Random(30)
    total = 0
    for _ in range(4):  # connections in turn (slots are reused)
        total += _echo_session(b, rng, rounds=25, max_size=3000)
    # several at once
    errors: list[BaseException] = []
    sizes: list[int] = []

    def worker(seed: int) -> None:
        try:
            sizes.append(_echo_session(b, random.Random(seed), rounds=15, max_size=2000))
        except BaseException as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert len(sizes) == 4
    total += sum(sizes)
    # a closed port: refused
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5.0)
    with pytest.raises(ConnectionRefusedError):
        s.connect((b.cfg.ip, 9999))
    s.close()
    # every session closed (TIME_WAIT is 100 ms): the idle board reaches a fixed point
    # again, so its fast-forward skips cycles (the TCP engine does not keep it busy)
    time.sleep(0.5)
    st0 = b.stats()
    time.sleep(1.0)
    st1 = b.stats()
    assert st1["cycles_skipped"] > st0["cycles_skipped"], "idle board with TCP never quiescent"
    pcap = b.cfg.pcap
    b.down()
    assert total > 100_000
    assert_tshark_clean(pcap, "-o", "tcp.check_checksum:TRUE")
    assert _retransmissions(pcap) == 0


def test_tcp_churn_bulk_ping_reset(make_board) -> None:
    """User-reported failures 6, 7 and 8: 60 connections opened and closed in turn (the
    close path, slots reused), a 1 MB transfer read by its own thread while ping floods
    the board (retransmission-free, byte-exact), Linux resetting a connection in the
    middle of a transfer (SO_LINGER 0) and a new connection working after it."""
    b = make_board("tcb")
    rng = random.Random(31)
    for _ in range(60):
        _echo_session(b, rng, rounds=1, max_size=300)
    ping = subprocess.Popen(
        netns.exec_cmd(b.cfg.ns, ["ping", "-f", "-c", "3000", "-s", "200", b.cfg.ip]),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    data = rng.randbytes(1 << 20)
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(20.0)
    s.connect((b.cfg.ip, ECHO))
    got = bytearray()

    def reader() -> None:
        while len(got) < len(data):
            chunk = s.recv(65536)
            if not chunk:
                return
            got.extend(chunk)

    t = threading.Thread(target=reader)
    t.start()
    s.sendall(data)
    t.join(timeout=300)
    assert bytes(got) == data, f"bulk echo: {len(got)} of {len(data)} bytes, or differs"
    s.close()
    assert ping.wait(timeout=120) == 0, "ping flood lost replies"
    # Linux aborts a connection in the middle of a transfer
    r = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    r.settimeout(10.0)
    r.connect((b.cfg.ip, ECHO))
    r.sendall(rng.randbytes(20000))
    r.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    r.close()
    assert _echo_session(b, rng, rounds=10, max_size=2000) > 0
    pcap = b.cfg.pcap
    b.down()
    assert_tshark_clean(pcap, "-o", "tcp.check_checksum:TRUE")


def test_tcp_echo_under_impairments(make_board) -> None:
    """The link loses, duplicates, reorders and corrupts frames in both directions (the
    harness's impairments, fixed seed): every echo still comes back byte-exact and in
    order, so both ends dropped the corrupted segments (bad checksums, seen by tshark in
    the wire record) and recovered the lost ones by retransmission."""
    b = make_board(
        "tci",
        impair=["both:loss=0.03,dup=0.03,reorder=0.03,corrupt=0.03"],
        impair_seed=30,
    )
    rng = random.Random(32)
    total = 0
    for _ in range(3):
        total += _echo_session(b, rng, rounds=20, max_size=4000)
    link = b.stats()["link"]
    pcap = b.cfg.pcap
    b.down()
    for d in ("rx", "tx"):  # every impairment happened in both directions
        for k in ("lost", "duplicated", "reordered", "corrupted"):
            assert link[d][k] > 0, (d, k, link[d])
    assert total > 100_000
    # the wire record holds the corrupted frames as they were on the wire: tshark must
    # see bad TCP checksums, and retransmissions from both ends
    bad = _tshark_count(pcap, "tcp.checksum.status == 0", "-o", "tcp.check_checksum:TRUE")
    assert bad > 0, "no corrupted segment on the wire"
    for end in ("ip.src", "ip.dst"):
        assert _tshark_count(pcap, f"tcp.analysis.retransmission && {end} == {b.cfg.ip}") > 0


def test_tcp_counters_and_config_over_ipbus(make_board) -> None:
    """The TCP block of the register map (docs/registers.md, TCP) over IPbus: after echo
    sessions and a refused connection the counters agree with the segments tshark counts
    in the wire record; TCP.LISTEN_PORT moves the listening port at run time."""
    from wirecore import ipbus
    from wirecore import regmap as rm

    b = make_board("tcr")
    with netns.entered(b.cfg.ns):
        c = ipbus.Client(b.cfg.ip, 50001, timeout=0.5, retries=10)

    def reg(name: str) -> int:
        return c.read(rm.find(name))[0]

    assert reg("TCP.LISTEN_PORT") == ECHO and reg("TCP.MSS") == 1460
    rng = random.Random(35)
    for _ in range(3):
        _echo_session(b, rng, rounds=5, max_size=3000)
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5.0)
    with pytest.raises(ConnectionRefusedError):
        s.connect((b.cfg.ip, 9999))
    s.close()
    c.write(rm.find("TCP.LISTEN_PORT"), [8007])
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5.0)
    with pytest.raises(ConnectionRefusedError):
        s.connect((b.cfg.ip, ECHO))
    s.close()
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10.0)
    s.connect((b.cfg.ip, 8007))
    s.sendall(b"moved")
    assert s.recv(100) == b"moved"
    s.shutdown(socket.SHUT_WR)
    assert s.recv(100) == b""
    s.close()
    t_end = time.monotonic() + 10  # the last ACK of each close reaches the board
    while reg("TCP.CLOSED") < 4 and time.monotonic() < t_end:
        time.sleep(0.05)
    names = [n for n, _ in rm.TCP_COUNTERS]
    cnt = {n: reg(f"TCP.{n}") for n in names}
    pcap = b.cfg.pcap
    b.down()
    to_board = _tshark_count(pcap, f"tcp && ip.dst == {b.cfg.ip}")
    from_board = _tshark_count(pcap, f"tcp && ip.src == {b.cfg.ip}")
    assert cnt["ESTABLISHED"] == 4 and cnt["CLOSED"] == 4, cnt
    assert cnt["RST_NO_SESSION"] == 2, cnt  # port 9999, then port 7 once moved
    assert cnt["RX_SEGMENTS"] == to_board, (cnt, to_board)
    assert cnt["TX_FRAMES"] == cnt["SEG_SENT"] + cnt["RST_NO_SESSION"] == from_board, (
        cnt,
        from_board,
    )
    assert cnt["DATA_SEG_SENT"] == _tshark_count(pcap, f"tcp.len > 0 && ip.src == {b.cfg.ip}")
    bad = ("RX_BAD_LEN", "RX_BAD_CSUM", "RX_ERR_IN", "RTO", "ABORTED", "REXMIT_SEG")
    assert all(cnt[n] == 0 for n in bad), cnt


def test_tcp_pingpong_tool(make_board, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`wirecore tcp pingpong` in the board's namespace: every round trip's echo found on
    the wire, the board's counters over the run agree with the segments in the record
    (none retransmitted, one session opened and closed), and the board's turnaround
    grows with the size."""
    import json
    import os
    import sys
    from pathlib import Path

    b = make_board("tpp")
    out = tmp_path / "pp.json"
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run(
        netns.exec_cmd(
            b.cfg.ns,
            [
                sys.executable,
                "-m",
                "wirecore.cli",
                "tcp",
                "pingpong",
                "--target",
                b.cfg.ip,
                "--sizes",
                "1,512,1460",
                "--repeats",
                "10",
                "--save",
                str(out),
                "--quiet",
            ],
        ),  # fmt: skip
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=str(root / "host")),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads(out.read_text())["summary"]
    assert s["wire"]["available"] and s["wire"]["pairs"] == 30, s["wire"]
    c = s["counters"]
    assert c["REXMIT_SEG"] == 0 and c["RTO"] == 0, c
    assert c["ESTABLISHED"] == 1 and c["CLOSED"] == 1, c
    med = s["wire"]["per_size_cycles"]["last_in_first_out"]
    assert med["1"]["median"] < med["512"]["median"] < med["1460"]["median"], med
    pcap = b.cfg.pcap
    b.down()  # the only data on TCP in the record is the tool's
    assert c["DATA_SEG_SENT"] == _tshark_count(pcap, f"tcp.len > 0 && ip.src == {b.cfg.ip}")
    assert c["RX_SEGMENTS"] == _tshark_count(pcap, f"tcp && ip.dst == {b.cfg.ip}")


def test_tcp_zero_window_linux(make_board) -> None:
    """A PC reader that stops reading (issue 30): Linux's receive buffer fills and it
    advertises a zero window, the board's send buffer then fills (the echo stops), its
    receive buffer too and it advertises a zero window to Linux; while stalled the board
    sends persist probes (TCP.PERSIST_PROBES over IPbus) and Linux answers them, the
    session stays up; once the PC reads again everything arrives byte-exact."""
    from wirecore import ipbus
    from wirecore import regmap as rm

    b = make_board("tzw")
    with netns.entered(b.cfg.ns):
        c = ipbus.Client(b.cfg.ip, 50001, timeout=0.5, retries=10)
    data = random.Random(36).randbytes(200_000)
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    s.settimeout(60.0)
    s.connect((b.cfg.ip, ECHO))
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            s.sendall(data)
        except BaseException as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    t = threading.Thread(target=writer)
    t.start()
    # the PC does not read: wait (bounded) for the board's probes
    t_end = time.monotonic() + 30
    while c.read(rm.find("TCP.PERSIST_PROBES"))[0] < 3 and time.monotonic() < t_end:
        time.sleep(0.2)
    probes = c.read(rm.find("TCP.PERSIST_PROBES"))[0]
    assert probes >= 3, f"{probes} persist probes while the PC did not read"
    assert t.is_alive(), "the writer finished although nothing was read"
    got = bytearray()
    while len(got) < len(data):
        chunk = s.recv(65536)
        assert chunk, f"connection closed after {len(got)} of {len(data)} bytes"
        got += chunk
    t.join(timeout=60)
    assert not errors, errors
    assert bytes(got) == data, "echo differs"
    s.shutdown(socket.SHUT_WR)
    assert s.recv(100) == b""
    s.close()
    assert c.read(rm.find("TCP.ABORTED"))[0] == 0
    pcap = b.cfg.pcap
    b.down()
    assert_tshark_clean(pcap, "-o", "tcp.check_checksum:TRUE")
    # both ends advertised a zero window on the wire
    for end in ("ip.src", "ip.dst"):
        assert _tshark_count(pcap, f"tcp.analysis.zero_window && {end} == {b.cfg.ip}") > 0, end
