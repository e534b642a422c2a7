"""The batch receiver and senders on loopback: every field of every datagram."""

from __future__ import annotations

import socket
import struct
import time

import numpy as np
from wirecore.daq import fmt
from wirecore.daq.rx import Receiver, SeqSender, set_rcvbuf


def test_receiver_fields_and_order() -> None:
    with Receiver(("127.0.0.1", 0), batch=8, keep_payloads=3) as rx:
        tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        tx.bind(("127.0.0.1", 0))
        sport = tx.getsockname()[1]
        sent = [
            fmt.build_payload(7, 100, 64),
            fmt.build_payload(8, 101, 1472, lfsr=True),
            b"\x01\x02\x03",  # shorter than the header
            fmt.build_payload(2**63 + 1, 2**64 - 1, 16),
        ] + [fmt.build_payload(20 + i, i, 100) for i in range(13)]
        t0 = time.time_ns()
        for p in sent:
            tx.sendto(p, ("127.0.0.1", rx.port))
        cap = rx.collect(packets=len(sent), idle=0.5)
        t1 = time.time_ns()
        tx.close()
    assert len(cap) == len(sent)
    assert cap.length.tolist() == [len(p) for p in sent]
    want_seq = [fmt.parse_header(p)[0] if len(p) >= 16 else 0 for p in sent]
    assert cap.seq.tolist() == want_seq
    assert cap.fpga_ts.tolist()[:4] == [100, 101, 0, 2**64 - 1]
    assert (cap.src_port == sport).all()
    assert (cap.src_ip == 0x7F000001).all()
    assert (cap.t_ns >= t0 - 10**9).all() and (cap.t_ns <= t1).all()
    assert (np.diff(cap.t_ns) >= 0).all()
    assert cap.payloads == sent[:3]
    assert rx.calls >= 3  # batches of at most 8


def test_receiver_timeout_returns_none() -> None:
    with Receiver(("127.0.0.1", 0)) as rx:
        t = time.monotonic()
        assert rx.recv_batch(0.05) is None
        assert time.monotonic() - t < 1.0
        empty = rx.collect(first_timeout=0.1)
        assert len(empty) == 0


def test_seq_sender_and_echo_batch() -> None:
    with Receiver(("127.0.0.1", 0)) as rx, Receiver(("127.0.0.1", 0)) as echo:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        s.connect(("127.0.0.1", echo.port))
        sender = SeqSender(s, 200, fill=0x5A)
        n = 0
        while n < 100:
            n += sender.send(1000 + n, 100 - n, ts=42)
        echoed = 0
        while echoed < 100:
            k = echo.echo_batch(0.5)
            assert k > 0
            echoed += k
        s.settimeout(1.0)
        back = [s.recv(2048) for _ in range(100)]
        s.close()
        assert back == [fmt.build_payload(1000 + i, 42, 200, fill=0x5A) for i in range(100)]
        assert rx.port != echo.port


def test_rcvbuf_granted() -> None:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    got = set_rcvbuf(s, 1 << 20)
    s.close()
    assert got >= 100_000
    assert struct.calcsize("ll") == 16
