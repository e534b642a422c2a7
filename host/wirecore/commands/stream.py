"""`wirecore stream`: FPGA -> PC streaming: rate, loss, sequence gaps, inter-arrival jitter.

The board's packet generator (PKTGEN registers, over IPbus) sends datagrams in the DAQ
payload format (docs/daq.md) to this PC; the PC receives them with the batch receiver
(wirecore.daq.rx) and reports the payload rate, the loss from the sequence numbers
against the board's own count of datagrams sent, the distribution of gaps and the
inter-arrival times (kernel timestamps).
"""

from __future__ import annotations

import argparse

from wirecore import ipbus, regmap
from wirecore.daq import common
from wirecore.daq.analysis import inter_arrival_us, line_rate_goodput, stream_stats
from wirecore.daq.fmt import HEADER_LEN, check_fill
from wirecore.daq.rx import Capture, Receiver, rmem_max


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
    p.add_argument("--port", type=common.int_range(0, 65535), default=0, help="local UDP port")
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
        "--verify",
        type=common.int_range(0),
        default=100,
        help="check the fill of the first N datagrams (default 100)",
    )
    p.set_defaults(func=run)


def _configure(cli: ipbus.Client, args: argparse.Namespace, ip: str, port: int) -> None:
    f = regmap.find
    cli.write(f("PKTGEN.CTRL"), [2])  # stop a run left over
    cli.write(f("PKTGEN.LENGTH"), [args.length])
    cli.write(f("PKTGEN.COUNT"), [0 if args.seconds else args.packets])
    cli.write(f("PKTGEN.GAP"), [args.gap])
    cli.write(f("PKTGEN.NUM_DEST"), [1])
    cli.write(f("PKTGEN.PAYLOAD"), [(args.fill << 1) | int(args.lfsr)])
    cli.write(f("PKTGEN.DEST_IP0"), [int.from_bytes(bytes(map(int, ip.split("."))), "big")])
    cli.write(f("PKTGEN.DEST_PORT0"), [port])
    cli.write(f("PKTGEN.WARMUP_MS"), [args.warmup])


def run(args: argparse.Namespace) -> int:
    if args.packets is None and args.seconds is None:
        args.packets = 100000
    with common.boards_of(args) as boards:
        b = boards[0]
        local = common.local_ip_for(b.ip)
        rx = Receiver(("0.0.0.0", args.port), rcvbuf=args.rcvbuf, keep_payloads=args.verify)
        if rx.rcvbuf < args.rcvbuf:
            common.console.print(
                f"[yellow]receive buffer {rx.rcvbuf} bytes < {args.rcvbuf} asked: raise "
                f"net.core.rmem_max (now {rmem_max()}) or run as root[/yellow]"
            )
        try:
            with ipbus.Client(b.ip, b.ipbus_port, timeout=0.3) as cli:
                _configure(cli, args, local, rx.port)
                total = args.packets or 0
                with common.progress(args.quiet) as prog:
                    task = prog.add_task(
                        "stream", total=total if total else None, info="", start=True
                    )

                    def on_batch(n: int, nbytes: int) -> None:
                        prog.update(task, completed=n, info=f"{nbytes / 1e6:.1f} MB")

                    cli.write(regmap.find("PKTGEN.CTRL"), [1])
                    cap = rx.collect(
                        packets=args.packets,
                        seconds=args.seconds,
                        idle=1.0,
                        first_timeout=5.0 + args.warmup / 1000,
                        on_batch=on_batch,
                        min_length=HEADER_LEN,
                    )
                    if args.seconds:
                        cli.write(regmap.find("PKTGEN.CTRL"), [2])
                        rest = rx.collect(idle=0.3, first_timeout=0.3)
                        cap = Capture.concat([cap, rest])
                sent = cli.read(regmap.find("PKTGEN.SENT_PACKETS"))[0]
                arp_miss = cli.read(regmap.find("PKTGEN.ARP_MISS"))[0]
        except ipbus.IPbusTimeout as e:
            common.console.print(
                f"[red]stream: the board at {b.ip}:{b.ipbus_port} does not answer IPbus "
                f"({e}); is it up (wirecore board up) and the address right?[/red]"
            )
            return 1
        finally:
            rx.close()
    if len(cap) == 0:
        common.console.print(f"[red]stream: nothing received (the board says it sent {sent})[/red]")
        return 1
    st = stream_stats(cap, sent=sent)
    checked = [p for p in cap.payloads if len(p) >= HEADER_LEN]  # primers are empty
    bad_fill = sum(not check_fill(p, args.lfsr, args.fill) for p in checked)
    ia = inter_arrival_us(cap)
    ideal = line_rate_goodput(args.length) / 1e6
    common.table(
        f"stream from {b.ip}: {args.length}-byte payloads",
        [
            ("sent (board counter)", f"{sent}"),
            ("received", f"{st.received}"),
            ("lost", f"{st.lost} (board: {arp_miss} not sent for want of ARP)"),
            ("success", f"{100 * st.success:.4f} %"),
            ("duplicates / late", f"{st.duplicates} / {st.late}"),
            ("gap events", f"{st.gap_events}"),
            ("rate", f"{st.mbytes_per_s:.2f} MB/s ({100 * st.mbytes_per_s / ideal:.1f} % of 1G)"),
            ("packets/s", f"{st.packets_per_s:.0f}"),
            ("inter-arrival p50 / p99", _ia(st.jitter)),
            ("fill checked / bad", f"{len(checked)} / {bad_fill}"),
            ("receive buffer", f"{rx.rcvbuf} bytes, {rx.truncated} truncated"),
        ],
    )
    summary = {
        "target": b.ip,
        "length": args.length,
        "sent": sent,
        "arp_miss": arp_miss,
        "fill_bad": bad_fill,
    }
    summary.update(st.to_dict())
    if args.save:
        cols = [cap.seq.tolist(), cap.length.tolist(), cap.t_ns.tolist(), cap.fpga_ts.tolist()]
        rows = [
            {"seq": s, "length": n, "t_ns": t, "fpga_ts": f}
            for s, n, t, f in zip(*cols, strict=True)
        ]
        common.save(args.save, "stream", summary, rows)
    if args.plot:
        from wirecore.daq.plots import stream_plot

        stream_plot(args.plot, ia, st, f"stream from {b.ip}, {args.length} B")
        common.console.print(f"plot {args.plot}")
    return 0 if bad_fill == 0 else 1


def _ia(j: dict[str, float]) -> str:
    if not j:
        return "-"
    return f"{j['p50_us']:.2f} / {j['p99_us']:.2f} µs"
