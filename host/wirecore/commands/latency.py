"""`wirecore latency`: request/response round trip against payload size.

The PC sends one datagram at a time to the board's UDP echo and waits for it to come
back; for every payload size it keeps every round trip (µs, measured with the PC's
monotonic clock around the send and the receive), then fits a line through the
medians: the slope (µs per byte: serialization in both directions plus any
store-and-forward) and the intercept (fixed cost of the PC, the network and the board).

Against a virtual board it also reports the board's own turnaround per payload size from
its wire record, in simulated time: from the request's last byte in to the echo's first
byte out, and from the request's first byte in to the echo's last byte out, each with a
line fitted through the medians (slope in ns/byte, intercept in ns).
"""

from __future__ import annotations

import argparse
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from wirecore import wire
from wirecore.daq import common, onwire
from wirecore.daq.fmt import build_payload, parse_header

if TYPE_CHECKING:
    from wirecore.daq.analysis import LinFit

DEFAULT_SIZES = "16,64,128,256,512,768,1024,1280,1472"


sizes_type = common.sizes_type(16, 1472, at_least=2)  # a fit needs two


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "latency",
        help="request/response round trip against payload size: slope and intercept",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common.add_common(p)
    p.add_argument("--sizes", type=sizes_type, default=sizes_type(DEFAULT_SIZES), help="bytes")
    p.add_argument(
        "--repeats", type=common.int_range(1, 10**6), default=200, help="round trips per size"
    )
    p.add_argument(
        "--timeout", type=common.positive_float, default=0.2, help="seconds to wait for a reply"
    )
    p.set_defaults(func=run)


def measure(
    ip: str,
    port: int,
    sizes: list[int],
    repeats: int,
    timeout: float,
    on_step: Callable[[], None] | None = None,
) -> tuple[list[tuple[int, int, float]], int]:
    """Round trips: list of (size, seq, µs) and the number of requests that timed out."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect((ip, port))
    s.settimeout(timeout)
    out: list[tuple[int, int, float]] = []
    lost = 0
    seq = 0
    try:
        for size in sizes:
            for _ in range(repeats):
                p = build_payload(seq, 0, size, False, 0xA5)
                t0 = time.perf_counter_ns()
                s.send(p)
                deadline = time.monotonic() + timeout
                while True:
                    try:
                        r = s.recv(2048)
                    except (TimeoutError, ConnectionRefusedError):
                        lost += 1
                        break
                    t1 = time.perf_counter_ns()
                    h = parse_header(r)
                    if h is not None and h[0] == seq and r == p:
                        out.append((size, seq, (t1 - t0) / 1e3))
                        break
                    if time.monotonic() > deadline:  # only stale replies came
                        lost += 1
                        break
                seq += 1
                if on_step is not None:
                    on_step()
    finally:
        s.close()
    return out, lost


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from wirecore.daq.analysis import linfit, summary

    with common.boards_of(args) as boards:
        b = boards[0]
        sess, no_wire = onwire.open_session(b.ip, not (args.no_wire or args.standin))
        with common.progress(args.quiet) as prog:
            task = prog.add_task("latency", total=len(args.sizes) * args.repeats, info="")
            samples, lost = measure(
                b.ip,
                b.echo_port,
                args.sizes,
                args.repeats,
                args.timeout,
                lambda: prog.advance(task),
            )
    wire_rows, wire_sum, wire_pts = wire_section(
        sess, no_wire, lambda recs: onwire.echo_pairs(recs, b.echo_port)
    )
    if len({s for s, _, _ in samples}) < 2:
        common.console().print(
            f"[red]latency: no replies from {b.ip}:{b.echo_port} ({lost} timed out)[/red]"
        )
        return 1
    sz = np.array([s for s, _, _ in samples])
    us = np.array([u for _, _, u in samples])
    per = {int(x): summary(us[sz == x]) for x in np.unique(sz)}
    med = {x: v["median"] for x, v in per.items()}
    fit = linfit(list(med), list(med.values()))
    rows = [(onwire.SECTION_PC, "")]
    rows += [
        (f"{x} B", f"{v['median']:.1f} µs (min {v['min']:.1f}, p99 {v['p99']:.1f})")
        for x, v in per.items()
    ]
    rows += [
        ("slope", f"{fit.slope * 1e3:.3f} ns/byte ({fit.slope:.6f} µs/byte)"),
        ("intercept", f"{fit.intercept:.2f} µs"),
        ("r²", f"{fit.r2:.4f}"),
        ("timed out", f"{lost} of {len(args.sizes) * args.repeats}"),
    ]
    common.table(f"round trip to {b.ip}:{b.echo_port}", wire_rows + rows)
    result = {
        "target": b.ip,
        "slope_us_per_byte": fit.slope,
        "intercept_us": fit.intercept,
        "r2": fit.r2,
        "timed_out": lost,
        "per_size": {str(k): v for k, v in per.items()},
        "wire": wire_sum,
    }
    common.save(
        args.save,
        "latency",
        result,
        [{"size": s, "seq": q, "rtt_us": u} for s, q, u in samples],
    )
    if args.plot:
        from wirecore.daq.plots import latency_plot

        latency_plot(args.plot, sz, us, med, fit, wire=wire_pts)
        common.console().print(f"plot {args.plot}")
    return 0


def wire_turnaround(
    pairs: list[onwire.EchoPair],
) -> tuple[dict[str, dict], dict[str, LinFit] | None]:
    """Per payload size and measure (cycles): exact histogram, median; a fit (ns) of the
    medians against the size for each measure, given two sizes or more."""
    import numpy as np

    from wirecore.daq.analysis import linfit

    measures = ("last_in_first_out", "first_in_last_out")
    per: dict[str, dict] = {m: {} for m in measures}
    for m in measures:
        for size in sorted({p.payload for p in pairs}):
            v = [getattr(p, m) for p in pairs if p.payload == size]
            per[m][size] = {"median": float(np.median(v)), "histogram": wire.histogram(v)}
    if len(per[measures[0]]) < 2:
        return per, None
    fits = {m: linfit(list(per[m]), [8 * x["median"] for x in per[m].values()]) for m in measures}
    return per, fits


def wire_section(
    sess: onwire.Session | None,
    why: str,
    pairs_of: Callable[[list[wire.Record]], list[onwire.EchoPair]],
) -> tuple[list[tuple[str, str]], dict, dict | None]:
    """The run's figures on the board's wire: rows, summary, and points for a plot;
    ``pairs_of`` matches the requests with their echoes in the run's frames."""
    if sess is None:
        return [], {"available": False, "why": why}, None
    recs, drops, simulated = sess.finish()
    if not simulated:
        return [("on the board's wire", onwire.WALL_CLOCK)], {"available": False}, None
    rows, summ, per, fits = wire_report(pairs_of(recs), drops)
    pts = {m: {k: 8 * v["median"] for k, v in d.items()} for m, d in per.items()}
    return rows, summ, {"medians_ns": pts, "fits": fits} if fits else None


def wire_report(
    pairs: list[onwire.EchoPair], drops: onwire.Drops
) -> tuple[list[tuple[str, str]], dict, dict[str, dict], dict[str, LinFit] | None]:
    """The board's turnaround per size from request/echo pairs: the table's rows, the
    summary for --save, the figures per size and the fits (None under two sizes)."""
    per, fits = wire_turnaround(pairs)
    rows = [(onwire.SECTION_WIRE, "")]
    lifo, filo = per["last_in_first_out"], per["first_in_last_out"]
    for size in lifo:
        rows.append(
            (
                f"{size} B: last in -> first out / first in -> last out",
                f"{onwire.hist_text(lifo[size]['histogram'], 3)} / "
                f"{onwire.hist_text(filo[size]['histogram'], 3)} cycles",
            )
        )
    summ: dict = {
        "available": True,
        "pairs": len(pairs),
        "per_size_cycles": {
            m: {
                str(k): {
                    "median": v["median"],
                    "histogram": {str(a): b for a, b in v["histogram"].items()},
                }
                for k, v in d.items()
            }
            for m, d in per.items()
        },
        "drops": drops.to_dict(),
    }
    if fits is not None:
        for m, f in fits.items():
            label = m.replace("_", " ").replace(" in ", " in -> ", 1)
            rows.append((f"fit, {label}", f"{f.slope:.3f} ns/byte, {f.intercept:,.1f} ns"))
            summ[m] = {"slope_ns_per_byte": f.slope, "intercept_ns": f.intercept, "r2": f.r2}
    rows += drops.rows()
    return rows, summ, per, fits
