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
import subprocess
import threading

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


def _retransmissions(pcap: str) -> int:
    r = subprocess.run(
        [
            "tshark",
            "-r",
            pcap,
            "-Y",
            "tcp.analysis.retransmission",
            "-T",
            "fields",
            "-e",
            "frame.number",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return len(r.stdout.split())


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
    pcap = b.cfg.pcap
    b.down()
    assert total > 100_000
    assert_tshark_clean(pcap, "-o", "tcp.check_checksum:TRUE")
    assert _retransmissions(pcap) == 0
