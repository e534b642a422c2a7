"""`wirecore duplex`: full-duplex echo: the PC sends N datagrams as fast as it can to the
board's UDP echo, which sends each one back; both directions' rates and the success
ratio (distinct datagrams echoed / datagrams sent), from the sequence numbers.

Against a virtual board it also reports, from the board's wire record in simulated time,
the board's receive and transmit rates (the requests that reached its port and the echoes
that left it), what the board did not echo, and the drops by place: the PC side (the TAP
interface's counters), the link (the harness's queue towards the board, impairments) and
the board (its counters).
"""

from __future__ import annotations

import argparse
import threading
import time
from typing import TYPE_CHECKING

from wirecore.daq import common, onwire
from wirecore.daq.fmt import HEADER_LEN

if TYPE_CHECKING:
    from wirecore.daq.rx import Receiver


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "duplex",
        help="PC -> board echo -> PC at full speed: both rates and the success ratio",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common.add_common(p)
    p.add_argument(
        "--packets", type=common.int_range(1, 10**9), default=100000, help="datagrams to send"
    )
    p.add_argument(
        "--length", type=common.int_range(16, 1472), default=1472, help="payload bytes (16..1472)"
    )
    p.add_argument("--fill", type=common.int_range(0, 255), default=0x5A, help="constant byte")
    p.add_argument(
        "--rate",
        type=common.positive_float,
        help="limit the PC's sending rate (datagrams/s); default: as fast as it can",
    )
    p.add_argument(
        "--rcvbuf", type=common.int_range(65536), default=64 << 20, help="socket buffer bytes"
    )
    p.set_defaults(func=run)


def _resolve(rx: Receiver) -> None:
    """One short datagram and its echo before the burst: the PC's kernel learns the
    board's MAC address, so that the burst is not cut to the few datagrams it holds while
    it resolves it (those it discards are counted nowhere per interface)."""
    rx.sock.send(b"\0")
    rx.recv_batch(timeout=1.0)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from wirecore.daq.analysis import stream_stats
    from wirecore.daq.rx import Receiver, SeqSender

    with common.boards_of(args) as boards:
        b = boards[0]
        rx = Receiver(("0.0.0.0", 0), rcvbuf=args.rcvbuf)
        sess, no_wire = onwire.open_session(b.ip, not (args.no_wire or args.standin))
        try:
            rx.sock.connect((b.ip, b.echo_port))
            _resolve(rx)
            sender = SeqSender(rx.sock, args.length, args.fill)
            tx_times: list[tuple[int, int]] = []  # (datagrams in a batch, time ns)
            done = threading.Event()
            t_send: list[float] = [0.0, 0.0]

            def send() -> None:
                seq = 0
                t_send[0] = time.perf_counter()
                nxt = time.perf_counter()
                while seq < args.packets:
                    n = min(64, args.packets - seq)
                    if args.rate:
                        n = min(n, 8)
                        nxt += n / args.rate
                        while time.perf_counter() < nxt:
                            time.sleep(0)
                    got = sender.send(seq, n, time.time_ns())
                    if got:
                        tx_times.append((got, time.time_ns()))
                    else:
                        time.sleep(0.0001)
                    seq += got
                t_send[1] = time.perf_counter()
                done.set()

            th = threading.Thread(target=send, daemon=True)
            with common.progress(args.quiet) as prog:
                task = prog.add_task("duplex", total=args.packets, info="")

                def on_batch(n: int, nbytes: int) -> None:
                    prog.update(task, completed=n, info=f"{nbytes / 1e6:.1f} MB back")

                th.start()
                cap = rx.collect(
                    packets=args.packets,
                    idle=1.0,
                    first_timeout=5.0,
                    on_batch=on_batch,
                    min_length=HEADER_LEN,
                )
                th.join()
        except ConnectionRefusedError:
            common.console().print(f"[red]duplex: {b.ip}:{b.echo_port} refused (no echo)[/red]")
            return 1
        finally:
            port = rx.port
            rx.close()
    wire_rows, wire_sum, wire_t = _wire(sess, no_wire, b.echo_port, port, args)
    tx_s = max(t_send[1] - t_send[0], 1e-9)
    tx_pps = args.packets / tx_s
    st = stream_stats(cap, sent=args.packets)
    common.table(
        f"duplex with {b.ip}:{b.echo_port}: {args.length}-byte payloads",
        wire_rows
        + [
            (onwire.SECTION_PC, ""),
            ("sent", f"{args.packets}"),
            ("echoed back", f"{st.unique}"),
            ("success", f"{100 * st.success:.4f} %"),
            ("PC -> board", f"{tx_pps * args.length / 1e6:.2f} MB/s, {tx_pps:.0f} pkt/s"),
            ("board -> PC", f"{st.mbytes_per_s:.2f} MB/s, {st.packets_per_s:.0f} pkt/s"),
            ("duplicates / late", f"{st.duplicates} / {st.late}"),
        ],
    )
    summary = {
        "target": b.ip,
        "length": args.length,
        "sent": args.packets,
        "tx_seconds": tx_s,
        "tx_mbytes_per_s": tx_pps * args.length / 1e6,
        "tx_packets_per_s": tx_pps,
        "rx_mbytes_per_s": st.mbytes_per_s,
        "rx_packets_per_s": st.packets_per_s,
    }
    summary.update({k: v for k, v in st.to_dict().items() if k not in summary})
    summary["wire"] = wire_sum
    if args.save:
        rows = [
            {"seq": s, "t_ns": t} for s, t in zip(cap.seq.tolist(), cap.t_ns.tolist(), strict=True)
        ]
        common.save(args.save, "duplex", summary, rows)
    if args.plot:
        from wirecore.daq.plots import duplex_plot

        counts = np.array([n for n, _ in tx_times], dtype=np.int64)
        tx_t = np.repeat(np.array([t for _, t in tx_times], dtype=np.int64), counts)
        duplex_plot(args.plot, tx_t, cap.t_ns, wire_t=wire_t)
        common.console().print(f"plot {args.plot}")
    return 0


def _wire(
    sess: onwire.Session | None, why: str, echo_port: int, port: int, args: argparse.Namespace
) -> tuple[list[tuple[str, str]], dict, tuple[list[int], list[int]] | None]:
    """Rows, summary and (requests', echoes') stamps of the run on the board's wire."""
    from wirecore import wire
    from wirecore.daq.analysis import line_rate_goodput
    from wirecore.wire import Direction

    if sess is None:
        return [], {"available": False, "why": why}, None
    recs, drops, simulated = sess.finish()
    if not simulated:
        return [("on the board's wire", onwire.WALL_CLOCK)], {"available": False}, None
    ins, outs = [], []
    for r in recs:
        u = r.udp()
        if u is None:
            continue
        if len(u.payload) != args.length:
            continue  # the datagram that resolved the address
        if r.direction == Direction.TO_BOARD and (u.src_port, u.dst_port) == (port, echo_port):
            ins.append(r)
        elif r.direction == Direction.FROM_BOARD and (u.src_port, u.dst_port) == (echo_port, port):
            outs.append(r)
    ins.sort(key=lambda r: r.t_ns)
    outs.sort(key=lambda r: r.t_ns)
    echoed = len(onwire.echo_pairs(sorted(ins + outs, key=lambda r: r.t_ns), echo_port))
    ideal = line_rate_goodput(args.length) / 1e6
    rows = [
        (onwire.SECTION_WIRE, ""),
        *onwire.flow_rows("into the board (requests)", ins, ideal),
        *onwire.flow_rows("out of the board (echoes)", outs, ideal),
        ("sent by the PC, not on the board's wire", f"{args.packets - len(ins)}"),
        ("on the wire into the board, not echoed", f"{len(ins) - echoed}"),
        *drops.rows(),
    ]
    summ = {
        "available": True,
        "in_frames": len(ins),
        "out_frames": len(outs),
        "echoed": echoed,
        "in_rate": wire.rate(ins).to_dict(),
        "out_rate": wire.rate(outs).to_dict(),
        "in_payload_mbytes_per_s": onwire.payload_mbytes_per_s(ins),
        "out_payload_mbytes_per_s": onwire.payload_mbytes_per_s(outs),
        "drops": drops.to_dict(),
        "board_counters": drops.counters,
    }
    return rows, summ, ([r.t_ns for r in ins], [r.t_ns for r in outs])
