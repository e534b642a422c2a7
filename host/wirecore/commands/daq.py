"""`wirecore daq`: event building over N boards, sequential against grouped requests.

An "event" is one request to each of the first n boards (their UDP echo) and every
reply back. Sequential: ask board 1, wait for its reply, ask board 2, ...; grouped:
send all n requests at once, then collect the n replies. The event-building time runs
from the first request out to the last reply in; the tool measures it for n = 1..N in
both modes and reports the median, minimum and 99th percentile against n.

Against virtual boards it also reports each board's service time from its wire record,
in simulated time: from a request's last byte in to the reply's first byte out.
"""

from __future__ import annotations

import argparse
import socket
import time

from wirecore.daq import common, onwire
from wirecore.daq.fmt import build_payload, parse_header


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "daq",
        help="event building over N boards: sequential against grouped requests",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common.add_common(p, multi=True)
    p.add_argument(
        "--standin-boards",
        type=common.int_range(1, 64),
        default=4,
        help="number of stand-in boards with --standin (default 4)",
    )
    p.add_argument(
        "--events", type=common.int_range(1, 10**6), default=200, help="events per point"
    )
    p.add_argument(
        "--size", type=common.int_range(16, 1472), default=64, help="request payload bytes"
    )
    p.add_argument(
        "--timeout", type=common.positive_float, default=0.2, help="seconds to wait for replies"
    )
    p.set_defaults(func=run)


class EventBuilder:
    def __init__(self, targets: list[tuple[str, int]], size: int, timeout: float) -> None:
        self.targets = targets
        self.size = size
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("0.0.0.0", 0))
        self.seq = 0
        self.incomplete = 0

    def close(self) -> None:
        self.sock.close()

    def _wait(self, want: set[int], deadline: float) -> bool:
        """Collect replies whose sequence numbers are in ``want`` (removed as they come)."""
        while want:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(2048)
            except (TimeoutError, ConnectionRefusedError):
                continue
            h = parse_header(data)
            if h is not None:
                want.discard(h[0])
        return True

    def event(self, n: int, grouped: bool) -> float | None:
        """One event over the first n boards; its time in µs, or None if a reply was lost."""
        reqs = []
        for i in range(n):
            reqs.append((self.seq, build_payload(self.seq, i, self.size, False, 0x3C)))
            self.seq += 1
        deadline = time.monotonic() + self.timeout
        t0 = time.perf_counter_ns()
        ok = True
        if grouped:
            for (_, p), t in zip(reqs, self.targets, strict=False):
                self.sock.sendto(p, t)
            ok = self._wait({q for q, _ in reqs}, deadline)
        else:
            for (q, p), t in zip(reqs, self.targets, strict=False):
                self.sock.sendto(p, t)
                if not self._wait({q}, deadline):
                    ok = False
                    break
        t1 = time.perf_counter_ns()
        if not ok:
            self.incomplete += 1
            return None
        return (t1 - t0) / 1e3


def run(args: argparse.Namespace) -> int:
    from wirecore.daq.analysis import linfit, summary

    n_boards = args.standin_boards if args.standin else len(args.boards)
    with common.boards_of(args, n_boards) as boards:
        targets = [(b.ip, b.echo_port) for b in boards]
        ns = list(range(1, len(targets) + 1))
        sessions = {
            b.ip: onwire.open_session(b.ip, not (args.no_wire or args.standin)) for b in boards
        }
        eb = EventBuilder(targets, args.size, args.timeout)
        times: dict[str, dict[int, list[float]]] = {"sequential": {}, "grouped": {}}
        try:
            with common.progress(args.quiet) as prog:
                task = prog.add_task("daq", total=2 * len(ns) * args.events, info="")
                for n in ns:
                    for mode in ("sequential", "grouped"):
                        prog.update(task, info=f"{n} boards, {mode}")
                        ts = times[mode].setdefault(n, [])
                        for _ in range(args.events):
                            t = eb.event(n, mode == "grouped")
                            if t is not None:
                                ts.append(t)
                            prog.advance(task)
        finally:
            eb.close()
    if any(not times[m][n] for m in times for n in ns):
        common.console().print(
            f"[red]daq: some boards never answered ({eb.incomplete} events incomplete); "
            f"check the addresses {', '.join(b.ip for b in boards)}[/red]"
        )
        return 1
    wire_rows, wire_sum = _wire(sessions, boards[0].echo_port)
    res = {m: {n: summary(times[m][n]) for n in ns} for m in times}
    rows = [(onwire.SECTION_PC, "")]
    for n in ns:
        s, g = res["sequential"][n], res["grouped"][n]
        rows.append(
            (f"{n} board{'s' if n > 1 else ''}", f"{s['median']:.1f} / {g['median']:.1f} µs")
        )
    slopes = {}
    if len(ns) >= 2:
        for m in times:
            f = linfit(ns, [res[m][n]["median"] for n in ns])
            slopes[m] = {"per_board_us": f.slope, "intercept_us": f.intercept}
            rows.append((f"{m}: per board", f"{f.slope:.1f} µs"))
    rows.append(("incomplete events", f"{eb.incomplete}"))
    common.table("event building, median sequential / grouped", wire_rows + rows)
    summ = {
        "boards": [b.ip for b in boards],
        "size": args.size,
        "events": args.events,
        "incomplete": eb.incomplete,
        "results": {m: {str(n): v for n, v in r.items()} for m, r in res.items()},
        "fit": slopes,
        "wire": wire_sum,
    }
    common.save(
        args.save,
        "daq",
        summ,
        [{"mode": m, "boards": n, "us": t} for m in times for n in ns for t in times[m][n]],
    )
    if args.plot:
        from wirecore.daq.plots import daq_plot

        served = {
            ip: w["service_cycles"]
            for ip, w in wire_sum.items()
            if w.get("available") and w.get("requests")
        }
        daq_plot(args.plot, ns, res, wire=served or None)
        common.console().print(f"plot {args.plot}")
    return 0


def _wire(
    sessions: dict[str, tuple[onwire.Session | None, str]], echo_port: int
) -> tuple[list[tuple[str, str]], dict]:
    """Each board's service time on its wire (cycles, last in -> first out)."""
    from wirecore import wire
    from wirecore.daq.analysis import summary

    rows: list[tuple[str, str]] = []
    out: dict = {}
    for ip, (sess, why) in sessions.items():
        if sess is None:
            out[ip] = {"available": False, "why": why}
            continue
        recs, drops, simulated = sess.finish()
        if not simulated:
            rows.append((f"board {ip}", onwire.WALL_CLOCK))
            out[ip] = {"available": False}
            continue
        pairs = onwire.echo_pairs(recs, echo_port, ip)
        cyc = [p.last_in_first_out for p in pairs]
        s = summary(cyc)
        text = (
            f"{len(pairs)} requests; median {onwire.ns_text(s['median'])}, "
            f"min {s['min']:,.0f}, max {s['max']:,.0f} cycles"
            if pairs
            else "no request answered on the wire"
        )
        rows.append((f"board {ip}: service time, last in -> first out", text))
        out[ip] = {
            "available": True,
            "requests": len(pairs),
            "service_cycles": s,
            "service_histogram": {str(k): v for k, v in wire.histogram(cyc).items()},
            "drops": drops.to_dict(),
        }
    if rows:
        rows.insert(0, (onwire.SECTION_WIRE, ""))
    return rows, out
