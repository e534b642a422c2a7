"""`wirecore tcp`: the board's hardware TCP engine from the PC.

`wirecore tcp pingpong` opens one connection to the board's TCP echo (port 7) and, for
every size, makes --repeats round trips: one write (TCP_NODELAY, so one segment) and the
read of its echo. It reports the round trip at the PC (wall clock) per size. Against a
virtual board it also reports, from the board's wire record in simulated time, the
board's own turnaround per size (the request segment's last byte in to the echo's first
byte out, and first byte in to last byte out; requests and echoes matched by their
bytes), with a line fitted through the medians; and the TCP block's counters over IPbus
(segments in and out, retransmissions, drops) as differences over the run.

Run it where the board's address is reachable (for the virtual board: inside its
namespace, e.g. `ip netns exec wc-board wirecore tcp pingpong`).
"""

from __future__ import annotations

import argparse
import random
import socket
import time
from collections.abc import Callable

from wirecore import regmap as rm
from wirecore.daq import common, onwire

DEFAULT_SIZES = "1,64,256,512,1024,1460"
COUNTERS_SHOWN = (
    "RX_SEGMENTS",
    "SEG_SENT",
    "DATA_SEG_SENT",
    "REXMIT_SEG",
    "RTO",
    "RX_BAD_CSUM",
    "UNACCEPTABLE",
    "OUT_OF_ORDER",
    "ESTABLISHED",
    "CLOSED",
)


sizes_type = common.sizes_type(1, 1460, why=" (one segment at the board's MSS)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tcp",
        help="the board's TCP engine: ping-pong round trips and its counters",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    q = s.add_parser("pingpong", help="round trips of one segment each way through the echo")
    q.add_argument(
        "--target",
        type=common.ipv4_type,
        default=common.DEFAULT_TARGET,
        metavar="IP",
        help=f"the board's address (default {common.DEFAULT_TARGET}, the virtual board)",
    )
    q.add_argument("--port", type=common.port_type, default=7, help="TCP echo port (7)")
    q.add_argument("--ipbus-port", type=common.port_type, default=common.IPBUS_PORT)
    q.add_argument("--sizes", type=sizes_type, default=sizes_type(DEFAULT_SIZES), help="bytes")
    q.add_argument(
        "--repeats", type=common.int_range(1, 10**6), default=50, help="round trips per size"
    )
    q.add_argument(
        "--timeout", type=common.positive_float, default=5.0, help="seconds to wait for an echo"
    )
    q.add_argument("--seed", type=int, default=1, help="seed of the payload bytes")
    q.add_argument(
        "--save", type=common.out_path(".json", ".csv"), metavar="FILE", help="raw results"
    )
    q.add_argument("--quiet", action="store_true", help="no progress bar")
    q.add_argument("--no-wire", action="store_true", help="do not read the board's wire record")
    q.add_argument(
        "--no-counters", action="store_true", help="do not read the TCP counters over IPbus"
    )
    q.set_defaults(func=run_pingpong)


def pingpong(
    ip: str,
    port: int,
    sizes: list[int],
    repeats: int,
    timeout: float,
    seed: int,
    on_step: Callable[[], None] | None = None,
) -> tuple[list[tuple[int, float]], int]:
    """Round trips (size, µs) on one connection, and the connection's local port; raises
    OSError or RuntimeError when the connection fails or an echo differs."""
    rng = random.Random(seed)
    s = socket.create_connection((ip, port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    local_port = s.getsockname()[1]
    out: list[tuple[int, float]] = []
    try:
        for size in sizes:
            for _ in range(repeats):
                data = rng.randbytes(size)
                t0 = time.perf_counter_ns()
                s.sendall(data)
                got = bytearray()
                while len(got) < size:
                    chunk = s.recv(size - len(got))
                    if not chunk:
                        raise RuntimeError(f"the board closed the connection after {len(out)}")
                    got += chunk
                t1 = time.perf_counter_ns()
                if got != data:
                    raise RuntimeError(f"echo of {size} bytes differs (round trip {len(out)})")
                out.append((size, (t1 - t0) / 1e3))
                if on_step is not None:
                    on_step()
        s.shutdown(socket.SHUT_WR)
        s.settimeout(timeout)
        if s.recv(1) != b"":
            raise RuntimeError("data from the board after the last echo")
    finally:
        s.close()
    return out, local_port


def read_counters(ip: str, ipbus_port: int) -> dict[str, int] | None:
    """The TCP block's counters over IPbus (wirecore's client), or None if unreachable."""
    from wirecore.ipbus import Client

    try:
        c = Client(ip, ipbus_port, timeout=0.5, retries=4)
    except OSError:
        return None
    try:
        base = rm.find("TCP.RX_SEGMENTS")
        words = c.read(base, len(rm.TCP_COUNTERS))
        return {name: w for (name, _), w in zip(rm.TCP_COUNTERS, words, strict=True)}
    except Exception:  # noqa: BLE001 - the counters are extra; the figures go on without
        return None
    finally:
        c.close()


def settled_counters(
    ip: str, ipbus_port: int, before: dict[str, int], timeout: float = 5.0
) -> dict[str, int] | None:
    """The counters once the run's session has closed on the board (the last ACK of the
    FIN exchange taken: CLOSED has caught up with ESTABLISHED since ``before``), or as
    they are after ``timeout`` seconds."""
    t_end = time.monotonic() + timeout
    while True:
        c = read_counters(ip, ipbus_port)
        if c is None or time.monotonic() > t_end:
            return c
        d = {k: (c[k] - before[k]) & 0xFFFFFFFF for k in ("ESTABLISHED", "CLOSED")}
        if d["CLOSED"] >= d["ESTABLISHED"]:
            return c
        time.sleep(0.05)


def run_pingpong(args: argparse.Namespace) -> int:
    import numpy as np

    from wirecore.commands.latency import wire_section
    from wirecore.daq.analysis import summary

    con = common.console()
    sess, no_wire = onwire.open_session(args.target, not args.no_wire)
    c0 = None if args.no_counters else read_counters(args.target, args.ipbus_port)
    try:
        with common.progress(args.quiet) as prog:
            task = prog.add_task("pingpong", total=len(args.sizes) * args.repeats, info="")
            samples, local_port = pingpong(
                args.target,
                args.port,
                args.sizes,
                args.repeats,
                args.timeout,
                args.seed,
                lambda: prog.advance(task),
            )
    except (OSError, RuntimeError) as e:
        con.print(f"[red]tcp pingpong: {args.target}:{args.port}: {e}[/red]")
        con.print("Is the board up with its TCP echo, and is this the board's network?")
        return 1
    c1 = None if c0 is None else settled_counters(args.target, args.ipbus_port, c0)
    sz = np.array([s for s, _ in samples])
    us = np.array([u for _, u in samples])
    per = {int(x): summary(us[sz == x]) for x in np.unique(sz)}
    result: dict = {"target": args.target, "port": args.port, "per_size_us": per}
    # on the board's wire
    writes = [n for n, _ in samples]
    rows, result["wire"], _ = wire_section(
        sess,
        no_wire,
        lambda recs: onwire.tcp_echo_pairs(recs, args.port, local_port, writes, args.target),
    )
    # at the PC
    rows.append((onwire.SECTION_PC, ""))
    rows += [
        (f"{x} B", f"{v['median']:.1f} µs (min {v['min']:.1f}, p99 {v['p99']:.1f})")
        for x, v in per.items()
    ]
    # the board's counters
    if c0 is not None and c1 is not None:
        d = {k: (c1[k] - c0[k]) & 0xFFFFFFFF for k in c0}
        result["counters"] = d
        rows.append(("[bold]the board's TCP counters (over the run)[/bold]", ""))
        rows += [(k, f"{d[k]:,}") for k in COUNTERS_SHOWN]
    common.table(f"TCP ping-pong with {args.target}:{args.port}", rows)
    common.save(args.save, "tcp pingpong", result, [{"size": s, "rtt_us": u} for s, u in samples])
    return 0
