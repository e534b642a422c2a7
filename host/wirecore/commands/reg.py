"""`wirecore reg`: read, write and dump registers over IPbus, and generate the map files.

By default the board is reached through uHAL (``ipbusudp-2.0://``, the address table in
``host/wirecore/data``); ``--reliable`` uses wirecore's own client instead, which numbers
its packets and recovers from lost datagrams (status and resend). Registers are named
``BLOCK.REG`` (or ``BLOCK.REG.FIELD``) as in docs/registers.md, or given as a word
address (``0x82``).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from wirecore import regmap as rm

DEFAULT_TARGET = "ipbusudp-2.0://192.0.2.2:50001"


class AccessError(RuntimeError):
    """A register access failed (bus error, timeout, unknown name)."""


def parse_target(uri: str) -> tuple[str, int]:
    m = re.fullmatch(r"(?:ipbusudp-2\.0://)?([^:/]+):(\d+)", uri)
    if not m:
        raise AccessError(f"bad target {uri!r}: expected ipbusudp-2.0://host:port")
    return m.group(1), int(m.group(2))


def parse_int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError as e:
        raise AccessError(f"not a number: {text!r}") from e


class Device:
    """Register/memory access by name or address, through uHAL or the reliable client."""

    def __init__(self, target: str, reliable: bool = False, timeout_ms: int = 1000) -> None:
        self.target = target
        self.reliable = reliable
        host, port = parse_target(target)
        if target == DEFAULT_TARGET:
            # the virtual board lives in its own network namespace: join it if one is up
            try:
                from wirecore.vboard import enter_board_network

                enter_board_network()
            except Exception:  # no board, no root: talk to the address as it is
                pass
        self._hw: Any = None
        self._client: Any = None
        if reliable:
            from wirecore.ipbus import Client

            self._client = Client(host, port, timeout=timeout_ms / 1000)
        else:
            try:
                import uhal
            except ImportError as e:
                raise AccessError("uHAL is not installed (pip install uhal); or --reliable") from e
            uhal.setLogLevelTo(uhal.LogLevel.ERROR)
            uri = f"ipbusudp-2.0://{host}:{port}"
            self._hw = uhal.getDevice("wirecore", uri, "file://" + str(rm.address_table_path()))
            self._hw.setTimeoutPeriod(timeout_ms)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    # -- names --------------------------------------------------------------------------
    @staticmethod
    def resolve(name: str) -> tuple[int, int, int]:
        """(address, mask, shift) of 'BLOCK.REG[.FIELD]' or of a number."""
        if re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)", name):
            return int(name, 0), 0xFFFFFFFF, 0
        parts = name.upper().split(".")
        for b, r in rm.all_regs():
            if parts[:2] == [b.name, r.name]:
                mask = (1 << r.width) - 1
                if len(parts) == 2:
                    return rm.address(b, r), mask, 0
                for f in r.fields:
                    if len(parts) == 3 and f.name == parts[2]:
                        return rm.address(b, r), ((1 << f.width) - 1) << f.lsb, f.lsb
        raise AccessError(f"no register {name!r} (see docs/registers.md or `wirecore reg dump`)")

    def _run(self, fn: Any) -> Any:
        try:
            return fn()
        except Exception as e:  # uHAL raises its own exception types
            raise AccessError(f"{self.target}: {e}") from e

    # -- raw words ----------------------------------------------------------------------
    def read(self, addr: int, n: int = 1, incr: bool = True) -> list[int]:
        if self._client is not None:
            return self._run(lambda: self._client.read(addr, n, incr))

        def go() -> list[int]:
            c = self._hw.getClient()
            if n == 1:
                v = c.read(addr)
                self._hw.dispatch()
                return [int(v)]
            import uhal

            mode = (
                uhal.BlockReadWriteMode.INCREMENTAL
                if incr
                else uhal.BlockReadWriteMode.NON_INCREMENTAL
            )
            v = c.readBlock(addr, n, mode)
            self._hw.dispatch()
            return [int(x) for x in v]

        return self._run(go)

    def write(self, addr: int, values: list[int], incr: bool = True) -> None:
        if self._client is not None:
            self._run(lambda: self._client.write(addr, values, incr))
            return

        def go() -> None:
            c = self._hw.getClient()
            if len(values) == 1:
                c.write(addr, values[0])
            else:
                import uhal

                mode = (
                    uhal.BlockReadWriteMode.INCREMENTAL
                    if incr
                    else uhal.BlockReadWriteMode.NON_INCREMENTAL
                )
                c.writeBlock(addr, values, mode)
            self._hw.dispatch()

        self._run(go)

    # -- named, masked ------------------------------------------------------------------
    def read_named(self, name: str) -> int:
        addr, mask, shift = self.resolve(name)
        return (self.read(addr)[0] & mask) >> shift

    def write_named(self, name: str, value: int) -> None:
        addr, mask, shift = self.resolve(name)
        if (value << shift) & ~mask & 0xFFFFFFFF or value < 0:
            raise AccessError(f"value 0x{value:x} does not fit {name}")
        if mask == 0xFFFFFFFF or (mask == (1 << mask.bit_length()) - 1 and shift == 0):
            self.write(addr, [value])  # whole register
            return
        # a field: read-modify-write bits, as uHAL does for masked nodes
        if self._client is not None:
            self._run(lambda: self._client.rmw_bits(addr, ~mask & 0xFFFFFFFF, value << shift))
        else:
            c = self._hw.getClient()
            self._run(
                lambda: (c.rmw_bits(addr, ~mask & 0xFFFFFFFF, value << shift), self._hw.dispatch())
            )


def _device(args: argparse.Namespace) -> Device:
    return Device(args.target, reliable=args.reliable, timeout_ms=args.timeout)


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--target",
        default=DEFAULT_TARGET,
        help="board address (default: %(default)s, the virtual board)",
    )
    p.add_argument(
        "--reliable",
        action="store_true",
        help="use wirecore's reliable client (packet IDs, status, resend) instead of uHAL",
    )
    p.add_argument("--timeout", type=int, default=1000, help="reply timeout in ms (%(default)s)")


def cmd_read(args: argparse.Namespace) -> int:
    dev = _device(args)
    try:
        if args.count > 1:
            addr = Device.resolve(args.name)[0]
            for i, v in enumerate(dev.read(addr, args.count)):
                print(f"0x{addr + i:05x}  0x{v:08x}")
        else:
            v = dev.read_named(args.name)
            print(f"0x{v:08x}" if not args.decimal else str(v))
    finally:
        dev.close()
    return 0


def cmd_write(args: argparse.Namespace) -> int:
    dev = _device(args)
    try:
        dev.write_named(args.name, parse_int(args.value))
    finally:
        dev.close()
    return 0


def cmd_dump(args: argparse.Namespace) -> int:
    blocks = [
        b for b in rm.REG_BLOCKS if not args.blocks or b.name in [x.upper() for x in args.blocks]
    ]
    if not blocks:
        raise AccessError(
            f"no block among {args.blocks}; blocks: {[b.name for b in rm.REG_BLOCKS]}"
        )
    dev = _device(args)
    try:
        for b in blocks:
            print(f"{b.name}  (0x{b.base:03x})  {b.desc}")
            regs = [r for r in b.regs if r.kind != rm.STB]
            # read each block in as few packets as possible: contiguous runs
            for r in regs:
                a = rm.address(b, r)
                try:
                    v = dev.read(a)[0] & ((1 << r.width) - 1)
                    text = f"0x{v:08x}  {v}"
                except AccessError as e:
                    text = f"error: {e}"
                print(f"  0x{a:03x}  {r.name:<24} {text}")
    finally:
        dev.close()
    return 0


def selftest(target: str, timeout_ms: int = 1000, words: int = 2048, seed: int = 1) -> list[str]:
    """Exercise a target through uHAL (ID 0, little-endian) and through the reliable client
    (packet IDs, big-endian): constants, scratch, masked field, block and non-incrementing
    transfers on the memory, read-modify-write, bus errors, status. Returns the failures
    (empty = all good); prints one line per check."""
    import random

    import uhal

    from wirecore import ipbus

    rng = random.Random(seed)
    failures: list[str] = []

    def check(name: str, ok: bool, detail: str = "") -> None:
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ""))
        if not ok:
            failures.append(name)

    host, port = parse_target(target)
    uhal.setLogLevelTo(uhal.LogLevel.FATAL)  # the bus errors provoked below are expected
    hw = uhal.getDevice(
        "wirecore", f"ipbusudp-2.0://{host}:{port}", "file://" + str(rm.address_table_path())
    )
    hw.setTimeoutPeriod(timeout_ms)
    c = hw.getClient()
    ident = hw.getNode("SYS.ID").read()
    magic = hw.getNode("SYS.MAGIC").read()
    hw.dispatch()
    check("uhal: SYS.ID and SYS.MAGIC", (int(ident), int(magic)) == (0x77697265, 0xA5A55A5A))
    v = rng.getrandbits(32)
    hw.getNode("SYS.SCRATCH").write(v)
    back = hw.getNode("SYS.SCRATCH").read()
    hw.dispatch()
    check("uhal: scratch write/read", int(back) == v)
    en = hw.getNode("NET.ENABLES")
    before = en.read()
    hw.dispatch()
    hw.getNode("NET.ENABLES.RAW").write(0)
    f0 = en.read()
    hw.dispatch()
    hw.getNode("NET.ENABLES.RAW").write(1)
    f1 = hw.getNode("NET.ENABLES.RAW").read()
    en.write(int(before))
    hw.dispatch()
    check("uhal: masked field (RMW bits)", int(f0) == int(before) & ~0x8 and int(f1) == 1)
    data = [rng.getrandbits(32) for _ in range(words)]
    mem = hw.getNode("MEM")
    mem.writeBlock(data)
    hw.dispatch()
    got = mem.readBlock(words)
    hw.dispatch()
    check(f"uhal: block write/read {words} words", [int(x) for x in got] == data)
    ni = c.readBlock(rm.MEM_BASE + 5, 16, uhal.BlockReadWriteMode.NON_INCREMENTAL)
    hw.dispatch()
    check("uhal: non-incrementing read", [int(x) for x in ni] == [data[5]] * 16)
    c.writeBlock(rm.MEM_BASE + 7, [1, 2, 3, 4], uhal.BlockReadWriteMode.NON_INCREMENTAL)
    after = c.read(rm.MEM_BASE + 7)
    nxt = c.read(rm.MEM_BASE + 8)
    hw.dispatch()
    check("uhal: non-incrementing write", (int(after), int(nxt)) == (4, data[8]))
    c.write(rm.MEM_BASE, 0x0F0F0F0F)
    old1 = c.rmw_bits(rm.MEM_BASE, 0xFFFF0000, 0x00000033)
    old2 = c.rmw_sum(rm.MEM_BASE, 0x100)
    res = c.read(rm.MEM_BASE)
    hw.dispatch()
    check(
        "uhal: RMW bits and sum",
        (int(old1), int(old2), int(res)) == (0x0F0F0F0F, 0x0F0F0033, 0x0F0F0133),
    )
    for name, fn in (
        ("uhal: unmapped read -> bus error", lambda: c.read(0x3F0)),
        ("uhal: read-only write -> bus error", lambda: c.write(rm.find("SYS.ID"), 0)),
    ):
        try:
            fn()
            hw.dispatch()
            check(name, False, "no exception")
        except Exception as e:  # uHAL's exception types are not importable by name
            check(name, "rror" in str(e) or "xception" in type(e).__name__, str(e))
    with ipbus.Client(host, port, timeout=timeout_ms / 1000, little_endian=False) as rc:
        st = rc.status()
        check("reliable: status reply", st.mtu >= 1400 and st.nbuf >= 1, str(st))
        base = rc.rmw_sum(rm.MEM_BASE + 1, 0)
        for _ in range(50):
            rc.rmw_sum(rm.MEM_BASE + 1, 1)
        check("reliable: 50 RMW sums (big-endian)", rc.read(rm.MEM_BASE + 1)[0] == base + 50)
        blk = [rng.getrandbits(32) for _ in range(words)]
        rc.write(rm.MEM_BASE + 64, blk)
        check(f"reliable: block {words} words", rc.read(rm.MEM_BASE + 64, words) == blk)
        try:
            rc.read(0x3F0)
            check("reliable: unmapped read -> bus error", False, "no error")
        except ipbus.IPbusError as e:
            check("reliable: unmapped read -> bus error", e.info == ipbus.BUS_ERR_READ)
    return failures


def cmd_selftest(args: argparse.Namespace) -> int:
    try:
        failures = selftest(args.target, args.timeout, args.words)
    except ImportError as e:
        raise AccessError(f"selftest needs uHAL: {e}") from e
    except Exception as e:
        raise AccessError(f"{args.target}: {e}") from e
    print("all checks passed" if not failures else f"{len(failures)} check(s) failed")
    return 1 if failures else 0


HISTORY = {
    0x10: "control",
    0x11: "status",
    0x12: "resend",
    0x20: "control, wrong ID (dropped)",
    0x22: "resend of a reply no longer kept",
    0x3F: "bad packet header",
}


def cmd_status(args: argparse.Namespace) -> int:
    from wirecore.ipbus import Client, IPbusTimeout

    host, port = parse_target(args.target)
    try:
        with Client(host, port, timeout=args.timeout / 1000) as c:
            st = c.status()
            ident, word = c.read(rm.find("SYS.ID"), 2)  # SYS.ID, SYS.VERSION
    except (IPbusTimeout, OSError) as e:
        raise AccessError(f"{args.target}: {e}") from e
    expected = rm.version_word(rm.MAP_VERSION)
    print(f"target            {host}:{port}")
    want = rm.version_text(expected)
    print(f"register map      {rm.version_text(word)} (this wirecore expects {want})")
    print(f"MTU               {st.mtu} bytes")
    print(f"replies kept      {st.nbuf}")
    print(f"next packet ID    {st.next_id}")
    events = [(w >> (8 * i)) & 0xFF for w in st.history for i in range(4)]
    print("recent requests   (newest first)")
    for e in events:
        if e:
            print(f"  0x{e:02x}  {HISTORY.get(e, 'unknown')}")
    print("last control      " + " ".join(f"{h:08x}" for h in st.rx_headers))
    print("last replies      " + " ".join(f"{h:08x}" for h in st.tx_headers))
    return version_check(ident, word, expected)


def version_check(ident: int, word: int, expected: int) -> int:
    """0 when the board's SYS.ID and SYS.VERSION are the ones this wirecore expects, else
    1 with a warning on stderr that says what to do."""
    from wirecore import __version__

    if ident != rm.DESIGN_ID:
        print(
            f"wirecore reg: WARNING: SYS.ID reads {ident:#010x}, not 'wire' "
            f"({rm.DESIGN_ID:#010x}): the target is not wirecore gateware, "
            "or its register map starts elsewhere",
            file=sys.stderr,
        )
        return 1
    if word != expected:
        print(
            f"wirecore reg: WARNING: the board's register map is {rm.version_text(word)}, "
            f"this wirecore {__version__} expects {rm.version_text(expected)}: registers and "
            "counters may be at other addresses. Use the wirecore package released with the "
            "board's gateware, or load the gateware built from this wirecore's sources "
            "(make bitstream, or the virtual board).",
            file=sys.stderr,
        )
        return 1
    return 0


def cmd_gen(args: argparse.Namespace) -> int:
    stale = rm.generate(check=args.check)
    for rel in stale:
        print(("stale: " if args.check else "wrote: ") + rel)
    return 1 if args.check and stale else 0


def _wrap(fn: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except AccessError as e:
            print(f"wirecore reg: {e}", file=sys.stderr)
            return 1

    return run


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "reg",
        help="read, write and dump registers over IPbus",
        description="Registers of a board over IPbus (uHAL by default). Names as in "
        "docs/registers.md: BLOCK.REG or BLOCK.REG.FIELD, or a word address.",
    )
    s = p.add_subparsers(dest="reg_command", metavar="ACTION")
    r = s.add_parser("read", help="read a register or field (or --count words from an address)")
    r.add_argument("name", help="BLOCK.REG[.FIELD] or word address")
    r.add_argument("--count", type=int, default=1, help="words to read (default 1)")
    r.add_argument("--decimal", action="store_true", help="print in decimal")
    add_common(r)
    r.set_defaults(func=_wrap(cmd_read))
    w = s.add_parser("write", help="write a register or field (fields: read-modify-write)")
    w.add_argument("name", help="BLOCK.REG[.FIELD] or word address")
    w.add_argument("value", help="value (0x.. or decimal)")
    add_common(w)
    w.set_defaults(func=_wrap(cmd_write))
    d = s.add_parser("dump", help="read every register of the map (or of some blocks)")
    d.add_argument("blocks", nargs="*", help="block names (default: all)")
    add_common(d)
    d.set_defaults(func=_wrap(cmd_dump))
    st = s.add_parser("status", help="the IPbus target's status (next ID, recent requests)")
    st.add_argument("--target", default=DEFAULT_TARGET, help="board (default: %(default)s)")
    st.add_argument("--timeout", type=int, default=1000, help="reply timeout in ms (%(default)s)")
    st.set_defaults(func=_wrap(cmd_status))
    t = s.add_parser(
        "selftest",
        help="exercise a target through uHAL and the reliable client (bring-up check)",
    )
    t.add_argument("--target", default=DEFAULT_TARGET, help="board (default: %(default)s)")
    t.add_argument("--timeout", type=int, default=1000, help="reply timeout in ms (%(default)s)")
    t.add_argument("--words", type=int, default=2048, help="block size in words (%(default)s)")
    t.set_defaults(func=_wrap(cmd_selftest))
    g = s.add_parser(
        "gen", help="regenerate docs/registers.md, the uHAL table and the Verilog from the map"
    )
    g.add_argument("--check", action="store_true", help="only check they are up to date")
    g.set_defaults(func=_wrap(cmd_gen))
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])
