"""Ceiling of the PC receive path (wirecore.daq.rx) on loopback.

A plain software sender in another process (sendmmsg, 1472-byte datagrams in the DAQ
payload format) sends at a paced rate — 1 Gbit/s line rate (81 274 datagrams/s), twice
that — and then as fast as it can; the receiver counts what arrives and checks the
sequence numbers. For every run: datagrams sent, received, lost, the receive rate, and
the receiver's CPU time per datagram, whose inverse is the receiver's ceiling (the rate
at which it would use a whole core). A plain ``socket.recv_into`` loop is measured the
same way for comparison. Last, the receiver alone: 40 000 datagrams are queued in its
socket buffer while nobody reads, then drained — its rate without a sender competing for
the CPU.

Run: ``.venv/bin/python bench/pc_rx.py [--seconds 2]``; prints a table and writes
bench/results/pc_rx.json. On a shared machine the sender (which also pays for the
loopback's receive processing in the kernel) is usually the limit, not the receiver.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing as mp
import socket
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from wirecore.daq.analysis import line_rate_goodput, stream_stats  # noqa: E402
from wirecore.daq.rx import Capture, Receiver, SeqSender  # noqa: E402

LENGTH = 1472
LINE_RATE_PPS = line_rate_goodput(LENGTH) / LENGTH  # 1 Gbit/s


def sender(port: int, n: int, rate: float | None, ready, done) -> None:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
    s.connect(("127.0.0.1", port))
    tx = SeqSender(s, LENGTH, 0x5A)
    ready.wait()
    seq = 0
    t0 = time.perf_counter()
    step = 16 if rate else 64
    while seq < n:
        k = min(step, n - seq)
        if rate:
            due = t0 + seq / rate
            while time.perf_counter() < due:
                pass
        got = tx.send(seq, k, 0)
        if got == 0:
            time.sleep(0.00005)
        seq += got
    done.value = time.perf_counter() - t0
    s.close()


def run_one(n: int, rate: float | None, plain: bool) -> dict:
    rx = Receiver(("127.0.0.1", 0), rcvbuf=64 << 20)
    ready = mp.Event()
    done = mp.Value("d", 0.0)
    p = mp.Process(target=sender, args=(rx.port, n, rate, ready, done))
    p.start()
    time.sleep(0.2)
    cpu0 = time.process_time()
    ready.set()
    if plain:
        cap = _plain(rx, n)
    else:
        cap = rx.collect(packets=n, idle=0.5, first_timeout=5.0)
    cpu = time.process_time() - cpu0
    p.join()
    rx.close()
    st = stream_stats(cap, sent=n)
    got = len(cap)
    cpu_per = cpu / got if got else float("nan")
    return {
        "receiver": "plain recv_into" if plain else "wirecore.daq.rx (recvmmsg)",
        "paced_rate_pps": rate,
        "sent": n,
        "sender_pps": n / done.value if done.value else None,
        "received": got,
        "lost": st.lost,
        "rx_pps": st.packets_per_s,
        "rx_MBps": st.mbytes_per_s,
        "rx_cpu_us_per_datagram": cpu_per * 1e6,
        "rx_ceiling_pps": 1 / cpu_per if got else None,
        "rx_ceiling_Gbps_wire": (1 / cpu_per) * 1538 * 8 / 1e9 if got else None,
        "rcvbuf": rx.rcvbuf,
    }


def _plain(rx: Receiver, n: int) -> Capture:
    """The simplest receive loop: one recv_into per datagram, one timestamp each."""
    s = rx.sock
    s.settimeout(0.5)
    buf = bytearray(2048)
    seqs = np.zeros(n, np.uint64)
    ts = np.zeros(n, np.int64)
    k = 0
    first = True
    while k < n:
        try:
            m = s.recv_into(buf)
        except TimeoutError:
            if first:
                continue
            break
        first = False
        seqs[k] = int.from_bytes(buf[:8], "big")
        ts[k] = time.time_ns()
        k += 1
    z = np.zeros(k)
    return Capture(
        seqs[:k],
        z.astype(np.uint64),
        np.full(k, LENGTH if m else 0, np.uint32),
        ts[:k],
        z.astype(np.uint32),
        z.astype(np.uint16),
    )


def drain(n: int, plain: bool) -> dict:
    """The receiver alone: n datagrams wait in the socket buffer (sent while nobody
    reads), then the receiver drains them; its rate is its ceiling without a sender
    competing for the CPU."""
    rx = Receiver(("127.0.0.1", 0), rcvbuf=256 << 20)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect(("127.0.0.1", rx.port))
    tx = SeqSender(s, LENGTH, 0x5A)
    seq = 0
    while seq < n:
        got = tx.send(seq, min(64, n - seq), 0)
        if got == 0:
            break  # the buffer is full
        seq += got
    s.close()
    t0 = time.perf_counter()
    if plain:
        cap = _plain(rx, seq)
    else:
        cap = rx.collect(packets=seq, idle=0.2, first_timeout=1.0)
    dt = time.perf_counter() - t0
    rx.close()
    return {
        "receiver": "plain recv_into" if plain else "wirecore.daq.rx (recvmmsg)",
        "queued": seq,
        "received": len(cap),
        "drain_pps": len(cap) / dt if dt else 0.0,
        "drain_MBps": len(cap) * LENGTH / dt / 1e6 if dt else 0.0,
        "x_line_rate": len(cap) / dt / LINE_RATE_PPS if dt else 0.0,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of each paced run")
    args = ap.parse_args()
    if not 0.1 <= args.seconds <= 60:
        ap.error("--seconds must be 0.1..60")
    runs = []
    for rate in (LINE_RATE_PPS, 2 * LINE_RATE_PPS):
        runs.append(run_one(int(rate * args.seconds), rate, plain=False))
    n_max = int(2 * LINE_RATE_PPS * args.seconds)
    runs.append(run_one(n_max, None, plain=False))
    runs.append(run_one(int(LINE_RATE_PPS * args.seconds), LINE_RATE_PPS, plain=True))
    runs.append(run_one(n_max, None, plain=True))
    print(
        f"{'receiver':<28} {'paced pps':>10} {'sender pps':>10} {'sent':>7} {'lost':>6} "
        f"{'rx pps':>8} {'rx MB/s':>8} {'cpu µs/dg':>9} {'ceiling pps':>11} {'Gbit/s':>6}"
    )
    for r in runs:
        paced = f"{r['paced_rate_pps']:.0f}" if r["paced_rate_pps"] else "max"
        print(
            f"{r['receiver']:<28} {paced:>10} {r['sender_pps'] or 0:>10.0f} {r['sent']:>7} "
            f"{r['lost']:>6} {r['rx_pps']:>8.0f} {r['rx_MBps']:>8.1f} "
            f"{r['rx_cpu_us_per_datagram']:>9.2f} {r['rx_ceiling_pps'] or 0:>11.0f} "
            f"{r['rx_ceiling_Gbps_wire'] or 0:>6.2f}"
        )
    drains = [drain(40000, plain=False), drain(40000, plain=True)]
    print(f"{'receiver alone (drain)':<28} {'queued':>8} {'received':>8} {'pps':>9} {'MB/s':>8}")
    for d in drains:
        print(
            f"{d['receiver']:<28} {d['queued']:>8} {d['received']:>8} {d['drain_pps']:>9.0f} "
            f"{d['drain_MBps']:>8.1f}  ({d['x_line_rate']:.1f} x 1 Gbit/s)"
        )
    line = runs[0]
    best = max(r["rx_pps"] for r in runs[:3] if r["lost"] == 0) if runs else 0
    ceiling = min(r["rx_ceiling_pps"] or 0 for r in runs[:3])
    if any(r["lost"] for r in runs[:3]):
        verdict = "LOSS in the batch receiver"
    elif best >= 0.98 * LINE_RATE_PPS:
        verdict = f"no loss up to {best:.0f} datagrams/s, above 1 Gbit/s line rate"
    else:
        verdict = (
            f"no loss at any rate the sender reached (at most {best:.0f} datagrams/s, "
            f"{100 * best / LINE_RATE_PPS:.0f} % of 1 Gbit/s: the sender is the limit on this "
            f"machine); receiver CPU ceiling {ceiling:.0f} datagrams/s "
            f"({ceiling / LINE_RATE_PPS:.1f} x 1 Gbit/s line rate)"
        )
    verdict += (
        f"; draining its buffer alone the batch receiver takes {drains[0]['drain_pps']:.0f} "
        f"datagrams/s ({drains[0]['x_line_rate']:.1f} x 1 Gbit/s; a plain recv loop "
        f"{drains[1]['drain_pps']:.0f})"
    )
    print(verdict)
    doc = {
        "benchmark": "pc_rx",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "payload": LENGTH,
        "line_rate_pps": LINE_RATE_PPS,
        "verdict": verdict,
        "runs": runs,
        "drain": drains,
    }
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "pc_rx.json").write_text(json.dumps(doc, indent=1) + "\n")
    return 0 if line["lost"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
