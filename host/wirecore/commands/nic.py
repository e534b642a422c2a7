"""`wirecore nic rules`: the smart network interface's rules and counters over IPbus.

The board must be built with the NIC (wirecore_node NIC = 1: the virtual board's
vboard_top); its classifier's register window is NIC_RULES in the register map
(docs/nic.md "On the board"). ``add`` builds a rule from named header fields (IPv4, and
UDP when a port is named); a rule commits in one cycle, so no frame sees half of it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from wirecore import nic
from wirecore.commands.reg import AccessError, Device, add_common


class NicError(RuntimeError):
    """A request the board cannot carry out (no NIC, a rule index out of range)."""


def _device(args: argparse.Namespace) -> tuple[Device, nic.Info]:
    dev = Device(args.target, reliable=args.reliable, timeout_ms=args.timeout)
    try:
        inf = nic.info(dev)
    except AccessError as e:
        dev.close()
        raise NicError(
            f"{e}: no rule window answers; is the board built with the NIC "
            "(wirecore_node NIC = 1, the virtual board's vboard_top)?"
        ) from e
    return dev, inf


def _index(i: int, inf: nic.Info) -> int:
    if not 0 <= i < inf.rules:
        raise NicError(f"rule {i}: the board has rules 0..{inf.rules - 1}")
    return i


def cmd_list(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    dev, inf = _device(args)
    try:
        t = Table(title=f"NIC rules ({inf.rules} rules over the first {inf.k} bytes)")
        for col in ("rule", "state", "match", "action", "copy", "port"):
            t.add_column(col)
        for i in range(inf.rules):
            r = nic.read_rule(dev, i, inf.k)
            if not r.enabled and not args.all:
                continue
            t.add_row(
                str(i),
                "on" if r.enabled else "off",
                r.fields(),
                r.action,
                "yes" if r.copy else "",
                str(r.port) if r.action == "accel" else "",
            )
        default = dev.read(nic.base() + nic.OFF_DEFAULT, 1)[0]
        d = nic.Rule.from_word(default, b"", b"")
        Console().print(t)
        print(f"default action: {d.action}" + (" + copy to host" if d.copy else ""))
    finally:
        dev.close()
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    dev, inf = _device(args)
    try:
        if args.port >= inf.accel_ports and args.action == "accel":
            raise NicError(f"accelerator port {args.port}: the board has 0..{inf.accel_ports - 1}")
        try:
            rule = nic.match_rule(
                inf.k,
                proto=args.proto,
                src_ip=args.src_ip,
                dst_ip=args.dst_ip,
                src_port=args.src_port,
                dst_port=args.dst_port,
                action=args.action,
                copy=args.copy,
                port=args.port,
            )
        except ValueError as e:
            raise NicError(str(e)) from e
        nic.write_rule(dev, _index(args.index, inf), rule, inf.k)
        print(f"rule {args.index}: {rule.fields()} -> {rule.action}")
    finally:
        dev.close()
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    dev, inf = _device(args)
    try:
        nic.delete_rule(dev, _index(args.index, inf))
        print(f"rule {args.index}: off")
    finally:
        dev.close()
    return 0


def cmd_counters(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from wirecore import regmap as rm

    dev, _ = _device(args)
    try:
        desc = {r.name: r.desc for r in rm.NIC.regs}
        t = Table(title="NIC counters")
        t.add_column("counter")
        t.add_column("value", justify="right")
        t.add_column("meaning")
        for name, v in nic.counters(dev).items():
            if v or args.all:
                t.add_row(f"NIC.{name}", str(v), desc[name])
        Console().print(t)
    finally:
        dev.close()
    return 0


def _wrap(fn: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except (AccessError, NicError) as e:
            print(f"wirecore nic: {e}", file=sys.stderr)
            return 1

    return run


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "nic",
        help="the smart network interface: classifier rules and counters",
        description="The smart network interface of a board built with it (docs/nic.md): "
        "its classifier's rules (match on the first K bytes of a frame, steer to the "
        "host, an accelerator or nowhere) and its counters, over IPbus.",
    )
    s = p.add_subparsers(dest="nic_command", metavar="ACTION")
    rules = s.add_parser("rules", help="list, add and delete rules; read the counters")
    rs = rules.add_subparsers(dest="rules_command", metavar="ACTION")
    ls = rs.add_parser("list", help="the rules that are on (--all: every rule)")
    ls.add_argument("--all", action="store_true", help="list the rules that are off too")
    add_common(ls)
    ls.set_defaults(func=_wrap(cmd_list))
    a = rs.add_parser(
        "add",
        help="write a rule over IPv4 header fields (UDP when a port is named)",
        description="Write rule INDEX: IPv4 frames whose named fields match; a lower "
        "index wins when several rules match.",
    )
    a.add_argument("index", type=int, help="rule number (0 = highest priority)")
    a.add_argument("--proto", type=int, help="IPv4 protocol (default 17 when a port is named)")
    a.add_argument("--src-ip", help="IPv4 source address")
    a.add_argument("--dst-ip", help="IPv4 destination address")
    a.add_argument("--src-port", type=int, help="UDP source port")
    a.add_argument("--dst-port", type=int, help="UDP destination port")
    a.add_argument(
        "--action", choices=nic.ACTIONS, default="accel", help="where it goes (%(default)s)"
    )
    a.add_argument("--copy", action="store_true", help="also send a copy to the host")
    a.add_argument("--port", type=int, default=0, help="accelerator port (%(default)s)")
    add_common(a)
    a.set_defaults(func=_wrap(cmd_add))
    d = rs.add_parser("delete", help="turn a rule off")
    d.add_argument("index", type=int, help="rule number")
    add_common(d)
    d.set_defaults(func=_wrap(cmd_delete))
    c = rs.add_parser("counters", help="the NIC's counters (non-zero ones; --all: every one)")
    c.add_argument("--all", action="store_true", help="show the counters that are 0 too")
    add_common(c)
    c.set_defaults(func=_wrap(cmd_counters))
    rules.set_defaults(func=lambda _a: (rules.print_help(), 2)[1])
    p.set_defaults(func=lambda _a: (p.print_help(), 2)[1])
