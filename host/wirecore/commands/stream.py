"""`wirecore stream`: FPGA -> PC streaming: rate, loss, sequence gaps, inter-arrival jitter.

The board's packet generator (PKTGEN registers, over IPbus) sends datagrams in the DAQ
payload format (docs/daq.md) to this PC; the PC receives them with the batch receiver
(wirecore.daq.rx) and reports the payload rate, the loss from the sequence numbers
against the board's own count of datagrams sent, the distribution of gaps and the
inter-arrival times (kernel timestamps).

Against a virtual board it also reports the generator's frames on the board's own wire,
in simulated time (from the board's wire record): their rate, the exact histograms of
their spacing and of the idle cycles between them, the sequence gaps on the wire, and
where frames were dropped (PC side, link, board).
"""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from wirecore import ipbus, regmap
from wirecore.daq import common, onwire
from wirecore.daq.fmt import HEADER_LEN, check_fill

if TYPE_CHECKING:  # numpy's users, imported when the command runs
    from wirecore.daq.analysis import StreamStats
    from wirecore.daq.rx import Capture, Receiver


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "stream",
        help="FPGA -> PC streaming: rate, loss, gaps, jitter",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common.add_common(p)
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--packets", type=common.int_range(1, 2**32 - 1), help="datagrams to send (default 100000)"
    )
    g.add_argument("--seconds", type=common.positive_float, help="stream for this long")
    p.add_argument(
        "--length",
        type=common.int_range(16, 1472),
        default=1472,
        help="payload bytes per datagram (16..1472, default 1472)",
    )
    p.add_argument("--gap", type=common.int_range(0, 2**32 - 1), default=0, help="idle cycles")
    p.add_argument("--lfsr", action="store_true", help="LFSR payload (default: constant byte)")
    p.add_argument("--fill", type=common.int_range(0, 255), default=0, help="constant byte")
    p.add_argument(
        "--port",
        type=common.int_range(0, 65535),
        default=0,
        help="local UDP port (the first of --destinations consecutive ones; 0: any free)",
    )
    p.add_argument(
        "--destinations",
        type=common.int_range(1, 16),
        default=1,
        help="receive on this many local ports, which the generator uses in turn (1..16); "
        "each checks its own sequence",
    )
    p.add_argument(
        "--warmup",
        type=common.int_range(0, 65535),
        default=20,
        help="ms between the generator's ARP primers and the first datagram (default 20; "
        "0: no primers, the first datagrams may be lost while the board resolves this PC)",
    )
    p.add_argument(
        "--rcvbuf", type=common.int_range(65536), default=64 << 20, help="socket buffer bytes"
    )
    p.add_argument(
        "--line-gbps",
        type=common.positive_float,
        default=1.0,
        help="the link's bit rate, for the line-rate maximum (default 1)",
    )
    p.add_argument(
        "--clock-mhz",
        type=common.positive_float,
        default=125.0,
        help="the generator's clock, for its timestamps (default 125: 1 Gbit/s, 8 bits)",
    )
    p.add_argument(
        "--verify",
        type=common.int_range(0),
        default=100,
        help="check the fill of the first N datagrams (default 100)",
    )
    p.set_defaults(func=run)


def _configure(cli: ipbus.Client, args: argparse.Namespace, ip: str, ports: list[int]) -> None:
    f = regmap.find
    cli.write(f("PKTGEN.CTRL"), [2])  # stop a run left over
    cli.write(f("PKTGEN.LENGTH"), [args.length])
    cli.write(f("PKTGEN.COUNT"), [0 if args.seconds else args.packets])
    cli.write(f("PKTGEN.GAP"), [args.gap])
    cli.write(f("PKTGEN.NUM_DEST"), [len(ports)])
    cli.write(f("PKTGEN.PAYLOAD"), [(args.fill << 1) | int(args.lfsr)])
    ip_value = int.from_bytes(bytes(map(int, ip.split("."))), "big")
    for i, port in enumerate(ports):
        cli.write(f(f"PKTGEN.DEST_IP{i}"), [ip_value])
        cli.write(f(f"PKTGEN.DEST_PORT{i}"), [port])
    cli.write(f("PKTGEN.WARMUP_MS"), [args.warmup])


def _share(total: int, n: int, i: int) -> int:
    """Datagrams destination i of n gets out of ``total`` sent in turn from destination 0."""
    return total // n + (1 if i < total % n else 0)


def _receive(
    rxs: list[Receiver], args: argparse.Namespace, start: Callable[[], None], quiet: bool
) -> list[Capture]:
    """Collect on every receiver at once (one thread each; recvmmsg releases the GIL)."""
    from wirecore.daq.rx import Capture

    n = len(rxs)
    caps: list[Capture] = [Capture.empty()] * n
    done = [0] * n
    volume = [0] * n
    lock = threading.Lock()
    with common.progress(quiet) as prog:
        task = prog.add_task("stream", total=args.packets, info="")

        def work(i: int) -> None:
            def on_batch(k: int, nbytes: int) -> None:
                with lock:
                    done[i], volume[i] = k, nbytes
                    prog.update(task, completed=sum(done), info=f"{sum(volume) / 1e6:.1f} MB")

            caps[i] = rxs[i].collect(
                packets=_share(args.packets, n, i) if args.packets else None,
                seconds=args.seconds,
                idle=1.0,
                first_timeout=5.0 + args.warmup / 1000,
                on_batch=on_batch,
                min_length=HEADER_LEN,
            )

        threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(n)]
        for t in threads:
            t.start()
        start()
        for t in threads:
            t.join()
    return caps


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from wirecore.daq.analysis import (
        delay_variation_us,
        inter_arrival_us,
        line_rate_goodput,
        stream_stats,
    )
    from wirecore.daq.analysis import summary as sample_summary
    from wirecore.daq.rx import Capture, Receiver, rmem_max

    if args.packets is None and args.seconds is None:
        args.packets = 100000
    n = args.destinations
    if args.port and args.port + n - 1 > 65535:
        raise SystemExit(f"stream: ports {args.port}..{args.port + n - 1} do not all exist")
    with common.boards_of(args) as boards:
        b = boards[0]
        local = common.local_ip_for(b.ip)
        rxs: list[Receiver] = []
        try:
            for i in range(n):
                port = args.port + i if args.port else 0
                rxs.append(
                    Receiver(("0.0.0.0", port), rcvbuf=args.rcvbuf, keep_payloads=args.verify)
                )
        except OSError as e:
            for r in rxs:
                r.close()
            common.console().print(f"[red]stream: cannot open a receive socket: {e}[/red]")
            return 1
        ports = [r.port for r in rxs]
        rcvbuf = min(r.rcvbuf for r in rxs)
        sess, no_wire = onwire.open_session(b.ip, not (args.no_wire or args.standin))
        if rcvbuf < args.rcvbuf:
            common.console().print(
                f"[yellow]receive buffer {rcvbuf} bytes < {args.rcvbuf} asked: raise "
                f"net.core.rmem_max (now {rmem_max()}) or run as root[/yellow]"
            )
        try:
            with ipbus.Client(b.ip, b.ipbus_port, timeout=0.3) as cli:
                _configure(cli, args, local, ports)
                # the board's counters run on (start does not clear them): take differences
                sent0 = cli.read(regmap.find("PKTGEN.SENT_PACKETS"))[0]
                arp_miss0 = cli.read(regmap.find("PKTGEN.ARP_MISS"))[0]
                try:
                    caps = _receive(
                        rxs, args, lambda: cli.write(regmap.find("PKTGEN.CTRL"), [1]), args.quiet
                    )
                except BaseException:  # interrupted: never leave the generator running
                    with contextlib.suppress(Exception):
                        cli.write(regmap.find("PKTGEN.CTRL"), [2])
                    raise
                if args.seconds:
                    cli.write(regmap.find("PKTGEN.CTRL"), [2])
                    caps = [
                        Capture.concat([c, r.collect(idle=0.3, first_timeout=0.3)])
                        for c, r in zip(caps, rxs, strict=True)
                    ]
                # the generator's counters are final only once it is idle (bounded wait)
                t_idle = time.monotonic() + 2.0
                while cli.read(regmap.find("PKTGEN.STATUS"))[0] & 1:
                    if time.monotonic() > t_idle:
                        break
                    time.sleep(0.01)
                sent = (cli.read(regmap.find("PKTGEN.SENT_PACKETS"))[0] - sent0) & 0xFFFFFFFF
                arp_miss = (cli.read(regmap.find("PKTGEN.ARP_MISS"))[0] - arp_miss0) & 0xFFFFFFFF
        except ipbus.IPbusTimeout as e:
            common.console().print(
                f"[red]stream: the board at {b.ip}:{b.ipbus_port} does not answer IPbus "
                f"({e}); is it up (wirecore board up) and the address right?[/red]"
            )
            return 1
        finally:
            truncated = sum(r.truncated for r in rxs)
            for r in rxs:
                r.close()
    wire_rows, wire_sum, spacing = _wire(sess, no_wire, ports, args, sent, caps)
    if sum(len(c) for c in caps) == 0:
        common.console().print(
            f"[red]stream: nothing received (the board says it sent {sent})[/red]"
        )
        return 1
    per = [stream_stats(c, sent=_share(sent, n, i)) for i, c in enumerate(caps)]
    cap = Capture.concat(caps)
    order = np.argsort(cap.t_ns, kind="stable")
    cap = Capture(*(getattr(cap, f)[order] for f in _FIELDS), payloads=cap.payloads)
    st = stream_stats(cap, sent=sent) if n == 1 else _combine(per, cap, sent)
    checked = [p for p in cap.payloads if len(p) >= HEADER_LEN]  # primers are empty
    bad_fill = sum(not check_fill(p, args.lfsr, args.fill) for p in checked)
    ia = inter_arrival_us(cap)
    dv = delay_variation_us(cap, args.clock_mhz * 1e6)
    dvs = sample_summary(dv) if len(dv) else {}
    ideal = line_rate_goodput(args.length, args.line_gbps * 1e9) / 1e6
    rows = [
        (onwire.SECTION_PC, ""),
        ("sent (board counter)", f"{sent}"),
        ("received", f"{st.received}"),
        ("lost", f"{st.lost} (board: {arp_miss} not sent for want of ARP)"),
        ("success", f"{100 * st.success:.4f} %"),
        ("duplicates / late", f"{st.duplicates} / {st.late}"),
        ("gap events", f"{st.gap_events}"),
        (
            "rate",
            f"{st.mbytes_per_s:.2f} MB/s ({100 * st.mbytes_per_s / ideal:.1f} % of the "
            f"{ideal:.1f} MB/s line-rate maximum at {args.line_gbps:g} Gbit/s)",
        ),
        ("packets/s", f"{st.packets_per_s:.0f}"),
        ("inter-arrival p50 / p99", _ia(st.jitter)),
        (
            "one-way delay variation p50 / p99 / max",
            f"{dvs['median']:.1f} / {dvs['p99']:.1f} / {dvs['max']:.1f} µs" if dvs else "-",
        ),
        ("fill checked / bad", f"{len(checked)} / {bad_fill}"),
        ("receive buffer", f"{rcvbuf} bytes, {truncated} truncated"),
    ]
    if n > 1:
        rows += [
            (f"destination {i} (port {ports[i]})", f"{p.received} received, {p.lost} lost")
            for i, p in enumerate(per)
        ]
    common.table(f"stream from {b.ip}: {args.length}-byte payloads", wire_rows + rows)
    summary = {
        "target": b.ip,
        "length": args.length,
        "sent": sent,
        "arp_miss": arp_miss,
        "fill_bad": bad_fill,
    }
    summary.update(st.to_dict())
    summary["delay_variation_us"] = dvs
    summary["line_rate_max_mbytes_per_s"] = ideal
    summary["wire"] = wire_sum
    if n > 1:
        summary["destinations"] = [
            {"port": port, **p.to_dict()} for port, p in zip(ports, per, strict=True)
        ]
    if args.save:
        rows_out = []
        for i, c in enumerate(caps):
            cols = [c.seq.tolist(), c.length.tolist(), c.t_ns.tolist(), c.fpga_ts.tolist()]
            rows_out += [
                {"dest": i, "seq": s_, "length": ln, "t_ns": t, "fpga_ts": f_}
                for s_, ln, t, f_ in zip(*cols, strict=True)
            ]
        common.save(args.save, "stream", summary, rows_out)
    if args.plot:
        from wirecore.daq.plots import stream_plot

        stream_plot(
            args.plot,
            ia,
            st,
            f"stream from {b.ip}, {args.length} B",
            delays=dv,
            wire_spacing=spacing,
        )
        common.console().print(f"plot {args.plot}")
    return 0 if bad_fill == 0 else 1


_FIELDS = ("seq", "fpga_ts", "length", "t_ns", "src_ip", "src_port")


def _combine(per: list[StreamStats], cap: Capture, sent: int) -> StreamStats:
    """Loss summed over the destinations; rate and jitter from all arrivals together."""
    from wirecore.daq.analysis import StreamStats, stream_stats

    whole = stream_stats(cap)
    gaps: dict[int, int] = {}
    for p in per:
        for k, v in p.gap_hist.items():
            gaps[k] = gaps.get(k, 0) + v
    found = sum(p.expected - p.lost for p in per)
    return StreamStats(
        received=sum(p.received for p in per),
        ignored=sum(p.ignored for p in per),
        unique=sum(p.unique for p in per),
        duplicates=sum(p.duplicates for p in per),
        late=sum(p.late for p in per),
        first_seq=min(p.first_seq for p in per),
        last_seq=max(p.last_seq for p in per),
        expected=sent,
        lost=sum(p.lost for p in per),
        success=found / sent if sent else 1.0,
        gap_events=sum(p.gap_events for p in per),
        gap_hist=dict(sorted(gaps.items())),
        bytes=whole.bytes,
        duration_s=whole.duration_s,
        mbytes_per_s=whole.mbytes_per_s,
        packets_per_s=whole.packets_per_s,
        jitter=whole.jitter,
    )


def _ia(j: dict[str, float]) -> str:
    if not j:
        return "-"
    return f"{j['p50_us']:.2f} / {j['p99_us']:.2f} µs"


def _wire(
    sess: onwire.Session | None,
    why: str,
    ports: list[int],
    args: argparse.Namespace,
    sent: int,
    caps: list[Capture],
) -> tuple[list[tuple[str, str]], dict, dict[int, int] | None]:
    """Rows, summary and the spacing histogram of the generator's frames on the wire."""
    from wirecore.daq.analysis import line_rate_goodput

    if sess is None:
        return [], {"available": False, "why": why}, None
    recs, drops, simulated = sess.finish()
    if not simulated:
        return [("on the board's wire", onwire.WALL_CLOCK)], {"available": False}, None
    frames = sorted(onwire.generator_frames(recs, ports), key=lambda r: r.t_ns)
    if not frames:
        rows = [(onwire.SECTION_WIRE, ""), ("generator frames", "none on the wire")]
        return rows, {"available": True, "frames": 0, "drops": drops.to_dict()}, None
    g = onwire.generator_figures(frames)
    ideal = line_rate_goodput(args.length, args.line_gbps * 1e9) / 1e6
    got = sum(int((c.length >= 16).sum()) for c in caps)
    rows = [
        (onwire.SECTION_WIRE, ""),
        ("generator frames", f"{g.frames} of {sent} sent (board counter)"),
        (
            "rate",
            f"{g.payload_mbytes_per_s:.2f} MB/s payload ({100 * g.payload_mbytes_per_s / ideal:.1f}"
            f" % of the line-rate maximum), {g.rate.frames_per_s:,.0f} frames/s",
        ),
        ("line use", f"{g.rate.line_fraction:.4f} of back to back at the minimum gap"),
        ("spacing, start to start (cycles ×frames)", onwire.hist_text(g.spacing)),
        ("idle cycles between frames", onwire.hist_text(g.idle)),
        ("sequence gaps on the wire", f"{g.seq_gap_events} ({g.seq_lost} missing)"),
        ("generator timestamp to first byte (cycles)", onwire.hist_text(g.to_wire)),
        ("on the wire, not received by the PC", f"{max(g.frames - got, 0)}"),
        *drops.rows(),
    ]
    summ = {"available": True, **g.to_dict(), "gap_config": args.gap, "drops": drops.to_dict()}
    return rows, summ, g.spacing
