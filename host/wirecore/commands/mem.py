"""`wirecore mem`: read, write, load and save the board's memory window over IPbus.

Offsets and counts are in 32-bit words from the start of the memory window
(``MEM``, word address 0x10000, 64 KiB = 16384 words by default). Files are raw binary,
32-bit words little-endian unless ``--big-endian``.
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path
from typing import Any

from wirecore import regmap as rm
from wirecore.commands.reg import AccessError, Device, add_common, parse_int


def _check_range(offset: int, count: int, size: int) -> None:
    if offset < 0 or count < 0 or offset + count > size:
        raise AccessError(
            f"words {offset}..{offset + count - 1} outside the memory (0..{size - 1}); see --size"
        )


def cmd_read(args: argparse.Namespace) -> int:
    off, n = parse_int(args.offset), parse_int(args.count)
    _check_range(off, n, args.size)
    dev = Device(args.target, args.reliable, args.timeout)
    try:
        vals = dev.read(rm.MEM_BASE + off, n)
    finally:
        dev.close()
    for i in range(0, n, 8):
        row = " ".join(f"{v:08x}" for v in vals[i : i + 8])
        print(f"{off + i:05x}: {row}")
    return 0


def cmd_write(args: argparse.Namespace) -> int:
    off = parse_int(args.offset)
    vals = [parse_int(v) for v in args.values]
    _check_range(off, len(vals), args.size)
    dev = Device(args.target, args.reliable, args.timeout)
    try:
        dev.write(rm.MEM_BASE + off, vals)
    finally:
        dev.close()
    return 0


def cmd_load(args: argparse.Namespace) -> int:
    data = Path(args.file).read_bytes()
    if len(data) % 4:
        data += bytes(4 - len(data) % 4)
    fmt = ">" if args.big_endian else "<"
    vals = list(struct.unpack(f"{fmt}{len(data) // 4}I", data))
    off = parse_int(args.offset)
    _check_range(off, len(vals), args.size)
    dev = Device(args.target, args.reliable, args.timeout)
    try:
        dev.write(rm.MEM_BASE + off, vals)
        if args.verify and dev.read(rm.MEM_BASE + off, len(vals)) != vals:
            raise AccessError("verify failed: memory differs from the file")
    finally:
        dev.close()
    print(f"loaded {len(vals)} words at offset {off}")
    return 0


def cmd_save(args: argparse.Namespace) -> int:
    off, n = parse_int(args.offset), parse_int(args.count)
    _check_range(off, n, args.size)
    dev = Device(args.target, args.reliable, args.timeout)
    try:
        vals = dev.read(rm.MEM_BASE + off, n)
    finally:
        dev.close()
    fmt = ">" if args.big_endian else "<"
    Path(args.file).write_bytes(struct.pack(f"{fmt}{n}I", *vals))
    print(f"saved {n} words from offset {off} to {args.file}")
    return 0


def _wrap(fn: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except (AccessError, OSError) as e:
            print(f"wirecore mem: {e}", file=sys.stderr)
            return 1

    return run


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mem",
        help="read, write, load and save the memory window over IPbus",
        description="The board's memory window (MEM in docs/registers.md) over IPbus "
        "(uHAL by default). Offsets and counts in 32-bit words.",
    )
    s = p.add_subparsers(dest="mem_command", metavar="ACTION")

    def common(q: argparse.ArgumentParser) -> None:
        add_common(q)
        q.add_argument(
            "--size", type=int, default=rm.MEM_WORDS, help="memory size in words (%(default)s)"
        )

    r = s.add_parser("read", help="print COUNT words from OFFSET")
    r.add_argument("offset")
    r.add_argument("count")
    common(r)
    r.set_defaults(func=_wrap(cmd_read))
    w = s.add_parser("write", help="write words from OFFSET")
    w.add_argument("offset")
    w.add_argument("values", nargs="+")
    common(w)
    w.set_defaults(func=_wrap(cmd_write))
    ld = s.add_parser("load", help="write a binary file into the memory")
    ld.add_argument("file")
    ld.add_argument("--offset", default="0")
    ld.add_argument("--big-endian", action="store_true", help="file words are big-endian")
    ld.add_argument("--verify", action="store_true", help="read back and compare")
    common(ld)
    ld.set_defaults(func=_wrap(cmd_load))
    sv = s.add_parser("save", help="read COUNT words into a binary file")
    sv.add_argument("file")
    sv.add_argument("--offset", default="0")
    sv.add_argument("--count", default=str(rm.MEM_WORDS))
    sv.add_argument("--big-endian", action="store_true", help="write big-endian words")
    common(sv)
    sv.set_defaults(func=_wrap(cmd_save))
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])
