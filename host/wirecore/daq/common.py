"""What the DAQ commands share: target options, the stand-in, saving, progress, tables.

The option parsing here is light: rich and the stand-in (numpy) are imported when a
command runs, so `wirecore --help` loads neither.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import functools
import json
import socket
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from wirecore.daq.peer import BoardAddr

DEFAULT_TARGET = "192.0.2.2"  # the virtual board
IPBUS_PORT = 50001
ECHO_PORT = 7


@functools.cache
def console() -> Console:
    """The commands' messages console (standard error)."""
    from rich.console import Console

    return Console(stderr=True)


class UsageError(Exception):
    """A bad argument value: the command prints it and exits with status 2."""


def port_type(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 < v < 65536:
        raise argparse.ArgumentTypeError(f"port {v} is not in 1..65535")
    return v


def ipv4_type(text: str) -> str:
    try:
        socket.inet_aton(text)
    except OSError:
        try:
            return socket.gethostbyname(text)
        except OSError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an IPv4 address or host") from None
    if text.count(".") != 3:
        raise argparse.ArgumentTypeError(f"{text!r} is not a dotted IPv4 address")
    return text


def int_range(lo: int, hi: int | None = None) -> Callable[[str], int]:
    def conv(text: str) -> int:
        try:
            v = int(text, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if v < lo or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(
                f"{v} is out of range ({lo}..{hi})" if hi is not None else f"{v} must be >= {lo}"
            )
        return v

    return conv


def sizes_type(lo: int, hi: int, at_least: int = 1, why: str = "") -> Callable[[str], list[int]]:
    """argparse type: comma-separated sizes, each lo..hi bytes, at least ``at_least``
    different ones; sorted, without repeats."""

    def parse(text: str) -> list[int]:
        try:
            v = sorted({int(x, 0) for x in text.split(",") if x.strip()})
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: give sizes like {lo},{hi}") from None
        if len(v) < at_least:
            n = {2: "two"}.get(at_least, str(at_least))
            raise argparse.ArgumentTypeError(f"give at least {n} different sizes")
        bad = [x for x in v if not lo <= x <= hi]
        if not v or bad:
            raise argparse.ArgumentTypeError(f"sizes must be {lo}..{hi} bytes{why}: {bad}")
        return v

    return parse


def positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{v} must be > 0")
    return v


def out_path(*suffixes: str) -> Callable[[str], Path]:
    def conv(text: str) -> Path:
        p = Path(text)
        if p.suffix.lower() not in suffixes:
            raise argparse.ArgumentTypeError(
                f"{text!r}: the file name must end in {' or '.join(suffixes)}"
            )
        if p.parent and not p.parent.exists():
            raise argparse.ArgumentTypeError(f"{text!r}: directory {p.parent} does not exist")
        return p

    return conv


def add_common(p: argparse.ArgumentParser, multi: bool = False) -> None:
    if multi:
        p.add_argument(
            "--boards",
            type=lambda s: [ipv4_type(x) for x in s.split(",") if x],
            default=[DEFAULT_TARGET],
            metavar="IP,IP,...",
            help=f"the boards' addresses (default {DEFAULT_TARGET})",
        )
    else:
        p.add_argument(
            "--target",
            type=ipv4_type,
            default=DEFAULT_TARGET,
            metavar="IP",
            help=f"the board's address (default {DEFAULT_TARGET}, the virtual board)",
        )
    p.add_argument("--ipbus-port", type=port_type, default=IPBUS_PORT, help="IPbus UDP port")
    p.add_argument("--echo-port", type=port_type, default=ECHO_PORT, help="echo UDP port")
    p.add_argument(
        "--standin",
        action="store_true",
        help="run against the software stand-in board(s) on loopback instead of hardware "
        "(tests this PC; python -m wirecore.daq.peer runs one by itself)",
    )
    p.add_argument(
        "--save", type=out_path(".json", ".csv"), metavar="FILE", help="raw results (.json/.csv)"
    )
    p.add_argument("--plot", type=out_path(".png"), metavar="FILE.png", help="write a plot")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--no-wire",
        action="store_true",
        help="do not read a virtual board's wire record (its figures in simulated time)",
    )


@contextlib.contextmanager
def boards_of(args: argparse.Namespace, n: int = 1) -> Iterator[list[BoardAddr]]:
    """The boards to talk to: the stand-in (started here) or the given addresses."""
    from wirecore.daq.peer import BoardAddr, standin

    if args.standin:
        with standin(n) as b:
            yield b
        return
    ips = args.boards if hasattr(args, "boards") else [args.target]
    yield [BoardAddr(ip, args.ipbus_port, args.echo_port) for ip in ips]


def local_ip_for(target: str) -> str:
    """Our address on the route to ``target``."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect((target, 9))
        return s.getsockname()[0]
    finally:
        s.close()


def progress(quiet: bool) -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console(),
        disable=quiet,
        transient=True,
    )


def save(path: Path | None, command: str, summary: dict, rows: Sequence[dict]) -> None:
    """Write the summary and the per-sample rows (.json), or the rows (.csv)."""
    if path is None:
        return
    if path.suffix.lower() == ".csv":
        with path.open("w", newline="") as f:
            if rows:
                w = csv.DictWriter(f, fieldnames=list(rows[0]))
                w.writeheader()
                w.writerows(rows)
    else:
        doc = {
            "command": command,
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "summary": summary,
            "rows": list(rows),
        }
        path.write_text(json.dumps(doc, indent=1) + "\n")
    console().print(f"saved {path}")


def table(title: str, rows: Sequence[tuple[str, str]]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=title, show_header=False)
    t.add_column("what")
    t.add_column("value", justify="right")
    for k, v in rows:
        t.add_row(k, v)
    Console().print(t)
