"""`wirecore demo`: bring a virtual board up, measure it with Linux tools, tear it down.

The table shows what the PC measured (wall clock) and, from the board's wire record, the
board's own turnaround for ping and UDP echo in simulated time (cycles of 8 ns).

Also holds the measurements the demo, the benchmarks and the system tests share: ARP and
ping round trips (from ``arping`` and ``ping``), a ping flood, and UDP echo exchanges
through ordinary sockets with several datagrams in flight.
"""

from __future__ import annotations

import argparse
import re
import select
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from wirecore import netns
from wirecore.vboard import ROOT, BoardConfig, BoardError, VirtualBoard

# --------------------------------------------------------------------------- measurements


def payload(seq: int, size: int) -> bytes:
    """Datagram ``seq`` of ``size`` bytes: the sequence number, then a pattern of it."""
    head = seq.to_bytes(4, "big")
    body = bytes((seq * 7 + i * 13) & 0xFF for i in range(max(0, size - 4)))
    return (head + body)[:size]


@dataclass
class EchoResult:
    size: int
    sent: int
    received: int
    bad: int  # replies that differ from what was sent
    lost: int  # requests without a reply within the timeout
    seconds: float

    @property
    def rate(self) -> float:
        return self.received / self.seconds if self.seconds > 0 else 0.0

    @property
    def mbit_s(self) -> float:
        """UDP payload bits echoed per second (one way)."""
        return self.rate * self.size * 8 / 1e6


def udp_echo(
    ns: str,
    ip: str,
    port: int,
    size: int,
    count: int | None = None,
    duration: float | None = None,
    window: int = 8,
    timeout: float = 1.0,
) -> EchoResult:
    """Send datagrams of ``size`` bytes to ``ip:port`` from namespace ``ns`` and check echoes.

    Keeps up to ``window`` datagrams in flight (1 for sizes below 4, which cannot carry a
    sequence number). Stops after ``count`` datagrams or ``duration`` seconds (whichever
    is given; both bound the run), or when no reply has come for ``timeout`` seconds: the
    requests still in flight then count as lost.
    """
    if count is None and duration is None:
        raise ValueError("give count or duration")
    if size < 4:
        window = 1
    s = netns.socket_in(ns, socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 21)
    s.connect((ip, port))
    s.setblocking(False)
    pending: dict[int, float] = {}
    order: list[int] = []
    seq = sent = received = bad = lost = 0
    t0 = time.monotonic()
    t_stop = t0 + duration if duration is not None else float("inf")
    last_progress = t0
    try:
        while True:
            now = time.monotonic()
            more = (count is None or sent < count) and now < t_stop
            while more and len(pending) < window:
                s.send(payload(seq, size))
                pending[seq] = now
                order.append(seq)
                seq += 1
                sent += 1
                more = (count is None or sent < count) and now < t_stop
            if not pending:
                break
            r, _, _ = select.select([s], [], [], 0.05)
            if r:
                while True:
                    try:
                        data = s.recv(65536)
                    except BlockingIOError:
                        break
                    if size >= 4 and len(data) >= 4:
                        got = int.from_bytes(data[:4], "big")
                    else:
                        got = order[0] if order else -1
                    if got in pending and data == payload(got, size):
                        del pending[got]
                        order.remove(got)
                        received += 1
                    else:
                        bad += 1
                    last_progress = time.monotonic()
            elif time.monotonic() - last_progress > timeout:
                # nothing came back for a whole timeout: the board stopped answering
                lost += len(pending)
                break
    finally:
        s.close()
    return EchoResult(size, sent, received, bad, lost, time.monotonic() - t0)


def _ns_run(ns: str, cmd: list[str], timeout: float) -> str:
    r = subprocess.run(netns.exec_cmd(ns, cmd), capture_output=True, text=True, timeout=timeout)
    return r.stdout + r.stderr


def arping_rtts(ns: str, dev: str, ip: str, count: int = 5) -> list[float]:
    """ARP round trips in ms, from arping (the first request broadcast, then unicast)."""
    out = _ns_run(ns, ["arping", "-c", str(count), "-w", str(count + 2), "-i", dev, ip], 30)
    rtts = []
    for v, unit in re.findall(r"time=([\d.]+) (usec|msec|sec)", out):
        rtts.append(float(v) * {"usec": 1e-3, "msec": 1.0, "sec": 1e3}[unit])
    return rtts


@dataclass
class PingResult:
    sent: int
    received: int
    rtt_min: float
    rtt_avg: float
    rtt_max: float
    seconds: float

    @property
    def rate(self) -> float:
        return self.received / self.seconds if self.seconds > 0 else 0.0


def ping(
    ns: str, ip: str, count: int, size: int = 56, flood: bool = False, interval: float = 0.01
) -> PingResult:
    """Run Linux ping from namespace ``ns``; parse the summary."""
    cmd = ["ping", "-n", "-q", "-c", str(count), "-s", str(size), "-W", "1"]
    if flood:  # -w bounds the run: the flood stops there even if replies are missing
        cmd += ["-f", "-w", str(max(10, count // 200 + 10))]
    else:  # -w: wait for every reply (up to the deadline), not only 2 x the longest RTT
        cmd += ["-i", str(interval), "-w", str(int(count * interval) + 10)]
    cmd.append(ip)
    t0 = time.monotonic()
    out = _ns_run(ns, cmd, timeout=count * (interval + 1.0) + 60)
    secs = time.monotonic() - t0
    m = re.search(r"(\d+) packets transmitted, (\d+) received", out)
    if not m:
        raise BoardError(f"ping gave no summary:\n{out}")
    t = re.search(r"time (\d+)ms", out)
    if t and flood:
        secs = int(t.group(1)) / 1000
    r = re.search(r"= ([\d.]+)/([\d.]+)/([\d.]+)/", out)
    mn, av, mx = (float(x) for x in r.groups()) if r else (0.0, 0.0, 0.0)
    return PingResult(int(m.group(1)), int(m.group(2)), mn, av, mx, secs)


# --------------------------------------------------------------------------- the demo


def registers(ns: str, ip: str, port: int = 50001, reads: int = 200) -> list[tuple[str, str, str]]:
    """Registers over IPbus (the reliable client): identity, scratch, a read rate, counters."""
    from wirecore import ipbus, regmap

    with netns.entered(ns):
        cli = ipbus.Client(ip, port, timeout=0.5)
    with cli:
        ident = cli.read(regmap.find("SYS.ID"))[0]
        name = ident.to_bytes(4, "big").decode("ascii", "replace")
        token = int(time.time()) & 0xFFFFFFFF
        cli.write(regmap.find("SYS.SCRATCH"), [token])
        echoed = cli.read(regmap.find("SYS.SCRATCH"))[0]
        t0 = time.monotonic()
        for _ in range(reads):
            cli.read(regmap.find("SYS.MAGIC"))
        rate = reads / (time.monotonic() - t0)
        rx, tx = (cli.read(regmap.find(f"MAC.{r}"))[0] for r in ("RX_FRAMES", "TX_FRAMES"))
    ok = "matches" if echoed == token else f"MISMATCH (read {echoed:#010x})"
    return [
        (
            "registers over IPbus",
            f"ID {ident:#010x} ('{name}')",
            f"SCRATCH write/read {ok}; MAC counters: {rx:,} frames in, {tx:,} out",
        ),
        ("IPbus single reads", f"{rate:,.0f} round trips/s", f"{reads} reads, reliable client"),
    ]


def run_demo(a: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    out_dir = Path(a.out or ROOT / "build" / "demo")
    out_dir.mkdir(parents=True, exist_ok=True)
    pcap = out_dir / "vboard-demo.pcap"
    cfg = BoardConfig(name=a.name, udp_echo_port=a.udp_echo_port, pcap=str(pcap))
    board = VirtualBoard(cfg)
    con.print(f"[bold]wirecore demo[/]: virtual board {cfg.ip} (MAC {cfg.mac}), PC {cfg.host_ip}")
    rows: list[tuple[str, str, str]] = []
    try:
        if cfg.name in VirtualBoard.names():  # left over from an interrupted run
            VirtualBoard.load(cfg.name).down()
        if netns.exists(cfg.ns):
            raise BoardError(f"namespace {cfg.ns} exists: `ip netns del {cfg.ns}` first")
        t0 = time.monotonic()
        board.up()
        con.print(f"board up in {time.monotonic() - t0:.1f} s (namespace {cfg.ns}, TAP {cfg.tap})")
        ns, ip = cfg.ns, cfg.ip
        arp = arping_rtts(ns, cfg.tap, ip, 5)
        if arp:
            rows.append(
                (
                    "ARP round trip (arping)",
                    f"{min(arp):.3f} / {sum(arp) / len(arp):.3f} ms",
                    f"{len(arp)}/5 replies",
                )
            )
        else:
            rows.append(("ARP round trip (arping)", "no reply", "0/5 replies"))
        p = ping(ns, ip, 20, interval=0.02)
        rows.append(
            (
                "ping round trip (56 bytes)",
                f"{p.rtt_min:.3f} / {p.rtt_avg:.3f} ms",
                f"{p.received}/{p.sent} replies",
            )
        )
        pf = ping(ns, ip, a.flood, flood=True)
        rows.append(("ping flood", f"{pf.rate:,.0f} pings/s", f"{pf.received}/{pf.sent} replies"))
        for size in (64, 1472):
            e = udp_echo(ns, ip, cfg.udp_echo_port, size, duration=a.seconds, window=a.window)
            rows.append(
                (
                    f"UDP echo, {size}-byte datagrams",
                    f"{e.rate:,.0f} datagrams/s, {e.mbit_s:.2f} Mbit/s",
                    f"{e.received}/{e.sent} echoed byte-exact, {e.bad} bad, {e.lost} lost",
                )
            )
        rows += registers(ns, ip)
        st = board.stats()
        rows.append(
            (
                "simulation speed",
                f"{st['cycles_per_cpu_s'] / 1e6:.2f} M cycles per CPU second",
                f"{st['cycles']:,} cycles in {st['cpu_s']:.1f} s of CPU, "
                f"{st['wall_s']:.1f} s of wall time",
            )
        )
        drops = {k: v for k, v in st["counters"].items() if v and "drop" in k}
        bad = st["from_board_bad_fcs"] + st["from_board_aborted"]
        rows.append(
            (
                "frames dropped",
                f"{bad} bad from the board",
                ", ".join(f"{k}={v}" for k, v in drops.items()) or "none in the board",
            )
        )
    except (BoardError, netns.NetnsError) as e:
        con.print(f"[red]demo failed:[/] {e}")
        return 1
    finally:
        board.down()
    rows += wire_rows(pcap, cfg.mac, cfg.udp_echo_port)
    table = Table(
        title="wirecore virtual board: measured at the PC over a Linux TAP, and on the board's wire"
    )
    table.add_column("what")
    table.add_column("measured", justify="right")
    table.add_column("detail")
    for r in rows:
        table.add_row(*r)
    con.print(table)
    con.print(f"every frame on the wire: {pcap} (open it with Wireshark, or `tshark -r {pcap}`)")
    return 0


def wire_rows(pcap: Path, mac: str, echo_port: int) -> list[tuple[str, str, str]]:
    """The board's turnaround on its wire (simulated time): ping and UDP echo per size,
    from a request's last byte in to the reply's first byte out."""
    from wirecore import wire
    from wirecore.daq import onwire

    try:
        data = pcap.read_bytes()
        hdr = wire.parse_header(data)
        recs = wire.parse_records(data, hdr, wire.mac_bytes(mac))[0]
    except (OSError, ValueError) as e:
        return [("on the board's wire", "not available", f"{pcap}: {e}")]
    if not wire.simulated_time(hdr, recs):
        return [("on the board's wire", "not available", onwire.WALL_CLOCK)]
    groups: dict[str, list[int]] = {}
    for req, rep in onwire.ping_pairs(recs):
        ip = req.ipv4()
        k = f"ping ({len(ip[3]) - 8 if ip else 0}-byte data)"
        groups.setdefault(k, []).append((rep.t_ns - req.last_byte_ns) // wire.NS_PER_CYCLE)
    for p in onwire.echo_pairs(recs, echo_port):
        groups.setdefault(f"UDP echo, {p.payload}-byte datagrams", []).append(p.last_in_first_out)
    out = []
    for what, cyc in groups.items():
        cyc.sort()
        med = cyc[len(cyc) // 2]
        out.append(
            (
                f"wire turnaround, {what}",
                f"{med:,} cycles = {med * wire.NS_PER_CYCLE:,} ns",
                f"median of {len(cyc)}, min {cyc[0]:,}, max {cyc[-1]:,} cycles: request's last "
                "byte in to reply's first byte out, simulated time",
            )
        )
    return out


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="bring up the virtual board: ping, UDP echo, registers, figures",
        description="Bring up a virtual board in its own network namespace, measure ARP and "
        "ping round trips, a ping flood and UDP echo rates with Linux tools and sockets, "
        "print a table, save the capture, and tear everything down. Needs root.",
    )
    p.add_argument("--name", default="demo", help="board name (namespace wc-NAME)")
    p.add_argument("--udp-echo-port", type=int, default=7, help="UDP echo port (default 7)")
    p.add_argument("--seconds", type=float, default=2.0, help="length of each UDP run (2 s)")
    p.add_argument("--flood", type=int, default=2000, help="pings in the flood (2000)")
    p.add_argument("--window", type=int, default=8, help="UDP datagrams in flight (8)")
    p.add_argument("--out", help="directory for the capture (default build/demo)")

    def run(a: argparse.Namespace) -> int:
        try:
            netns.require_root("the demo")
        except netns.NetnsError as e:
            print(f"wirecore demo: {e}", file=sys.stderr)
            return 1
        return run_demo(a)

    p.set_defaults(func=run)
