"""`wirecore board`: run virtual boards (the simulated FPGA on a TAP in a namespace)."""

from __future__ import annotations

import argparse
import ipaddress
import json
import subprocess
import sys

from wirecore import netns
from wirecore.vboard import (
    DEFAULT_TOP,
    PCAP_LIMIT,
    SPEED_TOPS,
    BoardConfig,
    BoardError,
    VirtualBoard,
    build,
)


def _nth_mac(base: str, i: int) -> str:
    v = int(base.replace(":", ""), 16) + i
    return ":".join(f"{(v >> (8 * k)) & 0xFF:02x}" for k in range(5, -1, -1))


def _top(a: argparse.Namespace) -> str:
    """The top module: --top, else the one of --speed (1g: vboard_top, 10g: vboard_top_10g)."""
    if a.top and a.speed != "1g":
        raise BoardError("--top and --speed: give one of them")
    return a.top or SPEED_TOPS[a.speed]


def _configs(a: argparse.Namespace) -> list[BoardConfig]:
    n = a.boards
    if n < 1 or n > 16:
        raise BoardError("--boards: 1..16")
    ip0 = ipaddress.IPv4Address(a.ip)
    common = dict(
        host_ip=a.host_ip,
        prefix_len=a.prefix_len,
        gateway=a.gateway or "",
        udp_echo_port=a.udp_echo_port,
        top=_top(a),
        stats_interval=a.stats_interval,
        pcap_clock=a.pcap_clock,
        pcap_limit=a.pcap_limit,
        impair=list(a.impair or []),
        impair_seed=a.impair_seed,
        extra_args=list(a.board_arg or []),
    )
    if a.ns and netns.exists(a.ns) and not a.bridge:
        raise BoardError(
            f"namespace {a.ns} exists: a second board there needs a bridge; bring the first "
            "up with --bridge wcbr0 (or use --boards N), then this one with --bridge wcbr0 "
            "and its own --tap, --ip and --mac"
        )
    if n == 1 and not a.bridge:
        return [
            BoardConfig(
                name=a.name,
                ns=a.ns or "",
                tap=a.tap,
                ip=a.ip,
                mac=a.mac,
                pcap=a.pcap or "",
                trace=a.trace or "",
                **common,  # type: ignore[arg-type]
            )
        ]
    ns = a.ns or f"wc-{a.name}"
    out = []
    for i in range(n):
        name = a.name if n == 1 else f"{a.name}-{i + 1}"
        pcap = ""
        if a.pcap:
            pcap = a.pcap if n == 1 else a.pcap.replace(".pcap", "") + f"-{i + 1}.pcap"
        out.append(
            BoardConfig(
                name=name,
                ns=ns,
                tap=f"wctap{i + 1}" if n > 1 else a.tap,
                ip=str(ip0 + i),
                mac=_nth_mac(a.mac, i),
                pcap=pcap,
                bridge=a.bridge or "wcbr0",
                **common,  # type: ignore[arg-type]
            )
        )
    return out


def cmd_up(a: argparse.Namespace) -> int:
    cfgs = _configs(a)
    up: list[VirtualBoard] = []
    try:
        for c in cfgs:
            b = VirtualBoard(c)
            b.up(wait=a.wait, timeout=a.timeout)
            up.append(b)
    except BaseException:
        for b in reversed(up):
            b.down()
        raise
    for b in up:
        c = b.cfg
        print(f"board {c.name} is up: {c.ip} (MAC {c.mac}) on {c.tap} in namespace {c.ns}")
        print(f"  pid {b.pid()}, log {b.log_file}, statistics {b.stats_file}")
        print(f"  wire record ({c.pcap_clock} time): {b.wire_pcap}")
        if c.impair:
            print(f"  impairments (seed {c.impair_seed}): {' '.join(c.impair)}")
    c = cfgs[0]
    print(f"the PC side is {c.host_ip}/{c.prefix_len} in namespace {c.ns}; try:")
    print(f"  wirecore board exec --name {c.name} -- ping -c 3 {c.ip}")
    print(f"  ip netns exec {c.ns} bash      # a shell on the board's network")
    print(f"  wirecore board down --name {c.name}")
    return 0


def _targets(a: argparse.Namespace) -> list[VirtualBoard]:
    if getattr(a, "all", False):
        return [VirtualBoard.load(n) for n in VirtualBoard.names()]
    names = VirtualBoard.names()
    if a.name in names:
        return [VirtualBoard.load(a.name)]
    group = [n for n in names if n.startswith(a.name + "-")]
    if group:
        return [VirtualBoard.load(n) for n in group]
    raise BoardError(f"no board named {a.name} is up (up: {', '.join(names) or 'none'})")


def cmd_down(a: argparse.Namespace) -> int:
    netns.require_root()
    boards = _targets(a)
    # boards that share a namespace: the one that made it goes last
    boards.sort(key=lambda b: b._owns_ns)
    for b in boards:
        b.down()
        s = b.stats_file
        if s.exists():
            st = json.loads(s.read_text())
            print(
                f"board {b.cfg.name} down: {st['cycles']} cycles, "
                f"{st['to_board_frames']} frames in, {st['from_board_frames']} out"
            )
        else:
            print(f"board {b.cfg.name} down")
    return 0


def cmd_status(a: argparse.Namespace) -> int:
    names = VirtualBoard.names()
    if not names:
        print("no virtual board is up")
        return 1
    rc = 0
    for n in names:
        if a.name and a.name != "wc0" and not (n == a.name or n.startswith(a.name + "-")):
            continue
        b = VirtualBoard.load(n)
        c = b.cfg
        state = f"running (pid {b.pid()})" if b.running() else "NOT running"
        print(f"{c.name}: {state}, {c.ip} ({c.mac}) on {c.tap} in {c.ns}, top {c.top}")
        if b.running():
            try:
                st = b.stats()
            except BoardError as e:
                print(f"  {e}")
                continue
            print(
                f"  {st['cycles']} cycles, {st['to_board_frames']} frames in, "
                f"{st['from_board_frames']} out; dropped from board: bad FCS "
                f"{st['from_board_bad_fcs']}, aborted {st['from_board_aborted']}"
            )
            print("  " + _link_line(st))
            if st["counters"]:
                print("  " + " ".join(f"{k}={v}" for k, v in st["counters"].items()))
        else:
            rc = 1
    return rc


def _link_line(st: dict) -> str:
    """The link's and the PC side's drops in one line."""
    ln, pc = st["link"], st.get("pc") or {}
    out = f"link: {ln['queued']} frames queued, {ln['queue_drops']} dropped (queue full)"
    for d, what in (("rx", "to board"), ("tx", "from board")):
        n = ln[d]
        parts = [f"{k} {n[k]}" for k in IMPAIR_COUNTS if n[k]]
        if parts:
            out += f"; {what}: " + ", ".join(parts)
    if pc:
        out += f"; PC side ({pc['interface']}): tx_dropped {pc.get('tx_dropped', '?')}"
    return out


IMPAIR_COUNTS = (
    "lost",
    "duplicated",
    "reordered",
    "corrupted",
    "fcs_corrupted",
    "delayed",
    "queue_drops",
)


def cmd_impair(a: argparse.Namespace) -> int:
    b = _targets(a)[0]
    link = b.set_impairments(list(a.spec), a.seed)
    for d, what in (("rx", "to board"), ("tx", "from board")):
        st = link[d]["settings"]
        on = {k: v for k, v in st.items() if v and k not in ("depth", "hold")}
        print(f"{what}: " + (" ".join(f"{k}={v}" for k, v in on.items()) or "none"))
    print(f"seed {link['seed']}")
    return 0


def cmd_stats(a: argparse.Namespace) -> int:
    b = _targets(a)[0]
    print(json.dumps(b.stats(), indent=1))
    return 0


def cmd_exec(a: argparse.Namespace) -> int:
    cmd = list(a.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        raise BoardError(
            "exec: give a command after --, e.g. `wirecore board exec -- ping -c 1 192.0.2.2`"
        )
    b = _targets(a)[0]
    return subprocess.run(netns.exec_cmd(b.cfg.ns, cmd)).returncode


def cmd_build(a: argparse.Namespace) -> int:
    print(build(_top(a), trace=a.trace))
    return 0


def _wrap(func):  # noqa: ANN001, ANN202
    def run(a: argparse.Namespace) -> int:
        try:
            return func(a)
        except (BoardError, netns.NetnsError) as e:
            print(f"wirecore board: {e}", file=sys.stderr)
            return 1

    return run


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "board",
        help="run the virtual board (simulated FPGA on a TAP in a network namespace)",
        description="Run virtual boards: the RTL compiled with Verilator, its GMII port on a "
        "Linux TAP interface inside a network namespace. Needs root.",
    )
    bs = p.add_subparsers(dest="board_cmd", metavar="ACTION")

    up = bs.add_parser("up", help="bring a board up (namespace, TAP, board process)")
    up.add_argument("--name", default="wc0", help="board name (default wc0)")
    up.add_argument("--ns", help="namespace (default wc-NAME; an existing one is shared)")
    up.add_argument("--tap", default="tap0", help="TAP interface name (default tap0)")
    up.add_argument("--ip", default="192.0.2.2", help="board address (default 192.0.2.2)")
    up.add_argument("--host-ip", default="192.0.2.1", help="PC side address (192.0.2.1)")
    up.add_argument("--prefix-len", type=int, default=24, help="subnet prefix length (24)")
    up.add_argument("--mac", default="02:00:00:00:00:02", help="board MAC address")
    up.add_argument("--gateway", help="board's gateway (default: the PC side's address)")
    up.add_argument("--udp-echo-port", type=int, default=7, help="UDP echo port (default 7)")
    up.add_argument(
        "--pcap", help="the wire record's path (default: wire.pcap in the board's run directory)"
    )
    up.add_argument(
        "--pcap-clock",
        choices=("sim", "wall"),
        default="sim",
        help="the wire record's stamps: sim (default) the simulated time of each frame's "
        "first byte on the board's port, wall the wall clock",
    )
    up.add_argument(
        "--pcap-limit",
        type=int,
        default=PCAP_LIMIT,
        metavar="BYTES",
        help=f"the wire record stops growing at BYTES (default {PCAP_LIMIT}; 0: no limit)",
    )
    up.add_argument(
        "--impair",
        action="append",
        metavar="SPEC",
        help="impair the link, DIR:ITEM[,ITEM...] with DIR rx (towards the board), tx or "
        "both, ITEM loss=P, dup=P, reorder=P[:depth=N][:hold=CYCLES], corrupt=P, fcs=P, "
        "delay=CYCLES[:jitter=CYCLES], rate=MBIT/S (repeatable; docs/virtual-board.md)",
    )
    up.add_argument("--impair-seed", type=int, default=1, help="the impairments' seed (default 1)")
    up.add_argument("--trace", help="write a VCD trace to this file (slow)")
    up.add_argument("--stats-interval", type=float, default=0.0, help="log stats every S s")
    up.add_argument(
        "--boards", type=int, default=1, help="N boards on one bridge (names NAME-1..NAME-N)"
    )
    up.add_argument("--bridge", help="put the TAP on this Linux bridge (made if missing)")
    up.add_argument("--top", help=f"top module (default: that of --speed, {DEFAULT_TOP})")
    up.add_argument(
        "--speed",
        choices=tuple(SPEED_TOPS),
        default="1g",
        help="the board's link: 1g (GMII, 8-bit stack, default) or 10g (XGMII, 64-bit stack)",
    )
    up.add_argument(
        "--board-arg",
        action="append",
        metavar="ARG",
        help="pass ARG to the board program, e.g. --board-arg=--idle-tick-ms=1 (repeatable)",
    )
    up.add_argument(
        "--wait", choices=("auto", "arp", "start"), default="auto", help="what 'up' means"
    )
    up.add_argument("--timeout", type=float, default=60.0, help="give up after S s (60)")
    up.set_defaults(board_func=_wrap(cmd_up))

    down = bs.add_parser("down", help="stop a board and delete its namespace")
    down.add_argument("--name", default="wc0", help="board (or group) name (default wc0)")
    down.add_argument("--all", action="store_true", help="every board that is up")
    down.set_defaults(board_func=_wrap(cmd_down))

    st = bs.add_parser("status", help="which boards are up, with their statistics")
    st.add_argument("--name", default="wc0", help="only this board (or group)")
    st.set_defaults(board_func=_wrap(cmd_status))

    imp = bs.add_parser(
        "impair",
        help="change a running board's impairments: impair [SPEC ...] (none: no impairment)",
    )
    imp.add_argument("--name", default="wc0", help="board name (default wc0)")
    imp.add_argument("--seed", type=int, help="a new seed (default: keep it)")
    imp.add_argument("spec", nargs="*", help="DIR:ITEM[,ITEM...] as for `up --impair`")
    imp.set_defaults(board_func=_wrap(cmd_impair))

    sts = bs.add_parser("stats", help="a board's statistics as JSON")
    sts.add_argument("--name", default="wc0", help="board name (default wc0)")
    sts.set_defaults(board_func=_wrap(cmd_stats))

    ex = bs.add_parser("exec", help="run a command in a board's namespace: exec -- CMD ...")
    ex.add_argument("--name", default="wc0", help="board name (default wc0)")
    ex.add_argument("cmd", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    ex.set_defaults(board_func=_wrap(cmd_exec))

    b = bs.add_parser("build", help="compile the virtual board (done by 'up' when needed)")
    b.add_argument("--top", help=f"top module (default: that of --speed, {DEFAULT_TOP})")
    b.add_argument("--speed", choices=tuple(SPEED_TOPS), default="1g", help="1g or 10g")
    b.add_argument("--trace", action="store_true", help="with VCD tracing")
    b.set_defaults(board_func=_wrap(cmd_build))

    def dispatch(a: argparse.Namespace) -> int:
        func = getattr(a, "board_func", None)
        if func is None:
            p.print_help()
            return 2
        return func(a)

    p.set_defaults(func=dispatch)
