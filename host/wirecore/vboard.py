"""The virtual board: build the Verilator model, and run boards in network namespaces.

:func:`build` compiles ``sim/vboard.cpp`` with a virtual-board top (``sim/vboard_top.v``
by default) into ``build/vboard/<top>[-trace]/vboard``, only when a source changed.

:class:`VirtualBoard` brings a board up (namespace with IPv6 off, TAP, the PC side's
address, the board process detached with its pid file, log and statistics file in a run
directory), tells whether it is up, reads its statistics and tears it all down. Its state
lives in ``<run dir>/<name>/board.json`` so that another process (``wirecore board
down``) finds it. Several boards can share one namespace: the first creates a Linux
bridge that holds the PC side's address, and every board's TAP joins it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import ipaddress
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from wirecore import netns

ROOT = Path(__file__).resolve().parent.parent.parent
SIM = ROOT / "sim"
BUILD = ROOT / "build" / "vboard"
DEFAULT_TOP = "vboard_top"
FIXTURE_TOP = "vboard_reflect"  # test fixture: reflects every frame, no stack
# test fixtures (no stack, so no ARP): vboard_reflect, and the real MAC looped back
FIXTURE_TOPS = (FIXTURE_TOP, "vboard_macloop")


class BoardError(RuntimeError):
    """Something about a virtual board went wrong (the message says what to do)."""


# --------------------------------------------------------------------------- build


def _find_top(top: str) -> Path:
    for base in (SIM, ROOT / "rtl"):
        hits = sorted(base.rglob(f"{top}.v"))
        if hits:
            return hits[0]
    raise BoardError(f"no Verilog file {top}.v under sim/ or rtl/")


def _digest(paths: list[Path]) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.exists()}


def _used_sources(obj: Path) -> list[Path]:
    """The Verilog files Verilator read in the last build (from its dependency file)."""
    dep = obj / "Vtop__ver.d"
    if not dep.exists():
        return []
    text = dep.read_text().split(":", 1)[-1]
    return sorted({Path(w) for w in text.split() if w.endswith((".v", ".sv", ".vh"))})


def counters_of(top_file: Path) -> list[str]:
    """The ``cnt_*`` output ports of a top, in declaration order."""
    text = re.sub(r"//[^\n]*", "", top_file.read_text())
    names = re.findall(r"\boutput\s+(?:wire|reg)?\s*(?:\[\s*31\s*:\s*0\s*\])?\s*(cnt_\w+)", text)
    return list(dict.fromkeys(names))


# The model's C++ is compiled at -O2 (Verilator's default -Os runs it slower), and the
# full board's is compiled twice, profile-guided (GCC PGO): once instrumented, run for
# PGO_TRAIN_CYCLES cycles without a TAP, then again with the profile, so that GCC lays
# out the hot paths of the every-cycle code and moves the cold ones (reset branches)
# aside. -fprofile-partial-training keeps code the training did not run (traffic paths)
# optimized as usual. Measured by bench/vboard.py (docs/virtual-board.md): about +25%
# cycles per CPU second; -O3, --x-assign/--x-initial fast, -Os were no faster, and
# --threads 2 is far slower on a shared 2-core machine.
OPT = "-O2"
PGO_GEN = "-fprofile-generate -fprofile-update=single"
PGO_USE = "-fprofile-use -fprofile-partial-training -Wno-missing-profile"
PGO_TRAIN_CYCLES = 1_000_000
PGO_TRAIN_REPEAT = 40  # times the training frames are sent (about 40% of the cycles busy)
# the version of the headers generated from the verilated model (vboard_model.h): part of
# the build's recipe, so that a change of the generator rebuilds the boards
MODEL_GEN = 4


def _verilator_cmd(top: str, top_file: Path, out: Path, exe: Path, trace: bool) -> list[str]:
    """Verilate ``top`` into ``out/obj`` (the C++ is compiled by :func:`_make_cmd`)."""
    libdirs = sorted({p.parent for p in (ROOT / "rtl").rglob("*.v")} | {SIM})
    gen = out / "gen"
    cmd = [
        "verilator",
        "--cc",
        "--exe",
        "-O3",
        # unroll loops of up to 256 iterations (default 64): tx_prepend's header-byte
        # AND-OR over a 70-byte header (icmp_unreach) otherwise stays a run-time loop of
        # 69 iterations with variable shifts, evaluated every cycle (about 10% of the time)
        "--unroll-count",
        "256",
        "-Wno-fatal",
        "-Wno-lint",
        "-Wno-style",
        "--prefix",
        "Vtop",
        "--top-module",
        top,
        "--Mdir",
        str(out / "obj"),
        "-CFLAGS",
        f"-I{gen}",
        "-o",
        str(exe),
    ]
    if trace:
        cmd.append("--trace")
    for d in libdirs:
        cmd += ["-y", str(d)]
    cmd += [str(top_file), str(SIM / "vboard.cpp")]
    return cmd


def _make_cmd(out: Path, flags: str = "", ldflags: str = "") -> list[str]:
    """Compile and link the verilated model with ``OPT`` plus ``flags``."""
    opt = f"{OPT} {flags}".strip()
    cmd = ["make", "-s", "-j", "2", "-C", str(out / "obj"), "-f", "Vtop.mk"]
    cmd += [f"OPT_FAST={opt}", f"OPT_GLOBAL={opt}"]
    if ldflags:
        cmd.append(f"LDFLAGS={ldflags}")
    return cmd


def _csum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def training_frames(
    mac: str = "02:00:00:00:00:02", ip: str = "192.0.2.2", echo_port: int = 7
) -> list[bytes]:
    """Frames to the board for the profile training run (harness defaults' addresses).

    A little of everything the board meets: ARP requests, pings of two sizes, UDP echo
    of four sizes, IPbus reads, writes and a read-modify-write (the memory and the
    register file), an IPbus status request, a datagram to a closed port, and frames for
    another MAC and another EtherType (dropped).
    """
    board_mac, pc_mac = bytes.fromhex(mac.replace(":", "")), bytes.fromhex("020000000001")
    board_ip, pc_ip = ipaddress.IPv4Address(ip).packed, ipaddress.IPv4Address("192.0.2.1").packed

    def eth(payload: bytes, etype: int = 0x0800, dst: bytes = board_mac) -> bytes:
        return dst + pc_mac + struct.pack("!H", etype) + payload

    def ipv4(proto: int, payload: bytes, ident: int) -> bytes:
        hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, 0x4000, 64,
                          proto, 0, pc_ip, board_ip)  # fmt: skip
        return hdr[:10] + struct.pack("!H", _csum(hdr)) + hdr[12:] + payload

    def udp(sport: int, dport: int, data: bytes, ident: int) -> bytes:
        n = 8 + len(data)
        pseudo = pc_ip + board_ip + struct.pack("!BBH", 0, 17, n)
        csum = _csum(pseudo + struct.pack("!HHHH", sport, dport, n, 0) + data) or 0xFFFF
        return eth(ipv4(17, struct.pack("!HHHH", sport, dport, n, csum) + data, ident))

    def ping(size: int, seq: int) -> bytes:
        body = struct.pack("!HH", 0x1234, seq) + bytes(i & 0xFF for i in range(size))
        msg = struct.pack("!BBH", 8, 0, 0) + body
        return eth(ipv4(1, msg[:2] + struct.pack("!H", _csum(msg)) + msg[4:], seq))

    arp = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 1, pc_mac, pc_ip, bytes(6), board_ip)
    frames = [eth(arp, 0x0806, b"\xff" * 6), eth(arp, 0x0806)]
    frames += [ping(56, 1), ping(1000, 2)]
    for i, n in enumerate((18, 64, 512, 1472)):
        frames.append(udp(40000, echo_port, bytes((i + k) & 0xFF for k in range(n)), 10 + i))
    from wirecore import ipbus, regmap

    mem = regmap.MEM_BASE
    requests = [
        [ipbus.Transaction(ipbus.READ, 0x0, words=4)],
        [ipbus.Transaction(ipbus.WRITE, mem, words=16, data=list(range(16)), tid=1)],
        [ipbus.Transaction(ipbus.READ, mem, words=16, tid=2)],
        [ipbus.Transaction(ipbus.RMW_SUM, mem, masks=[5], tid=3)],
    ]
    for pid, req in enumerate(requests, 1):
        frames.append(udp(40001, 50001, ipbus.build_request(pid, req), 20 + pid))
    frames.append(udp(40001, 50001, ipbus.status_request(), 30))
    frames.append(udp(40002, 9, bytes(32), 31))  # closed port
    frames.append(bytes.fromhex("020000000099") + frames[4][6:])  # for another MAC
    frames.append(eth(bytes(46), 0x88B5))  # another EtherType
    return frames


def write_pcap(path: Path, frames: list[bytes], times_ns: list[int] | None = None) -> None:
    """Write ``frames`` (Ethernet, no FCS) as a pcap file.

    With ``times_ns`` (one per frame) the file has nanosecond timestamps: the simulated
    time at which the board program's ``--inject-timed`` sends each frame (cycle = time /
    8 ns); without, every timestamp is 0.
    """
    if times_ns is not None and len(times_ns) != len(frames):
        raise ValueError("write_pcap: one time per frame")
    magic = 0xA1B23C4D if times_ns is not None else 0xA1B2C3D4
    out = [struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 65535, 1)]
    for i, f in enumerate(frames):
        t = times_ns[i] if times_ns is not None else 0
        out.append(struct.pack("<IIII", t // 10**9, t % 10**9, len(f), len(f)) + f)
    path.write_bytes(b"".join(out))


def read_pcap(path: Path) -> list[tuple[int, bytes]]:
    """The records of a little-endian pcap file: (timestamp in ns, frame) each.

    Reads what the board program writes (``--pcap``; with ``--pcap-cycles`` the
    timestamps are simulated time, the cycle of the frame's first byte x 8 ns).
    """
    data = path.read_bytes()
    magic = struct.unpack_from("<I", data)[0]
    if magic not in (0xA1B2C3D4, 0xA1B23C4D):
        raise ValueError(f"{path}: not a little-endian pcap file")
    scale = 1 if magic == 0xA1B23C4D else 1000
    out, pos = [], 24
    while pos + 16 <= len(data):
        sec, frac, n, _ = struct.unpack_from("<IIII", data, pos)
        out.append((sec * 10**9 + frac * scale, data[pos + 16 : pos + 16 + n]))
        pos += 16 + n
    return out


def _uses_pgo(top: str, trace: bool) -> bool:
    """Profile-guided builds for the boards with a stack (fixtures and traces are plain)."""
    return not trace and top not in FIXTURE_TOPS


def build(top: str = DEFAULT_TOP, trace: bool = False, quiet: bool = False) -> Path:
    """Compile the virtual board for ``top``; return the program's path.

    Rebuilds only when the options or a source changed: the harness, the top, or any
    Verilog file Verilator read for it last time (its dependency file lists them). Prints
    a progress message when it compiles unless ``quiet``. Concurrent builds of the same
    top wait for each other (a lock file).
    """
    top_file = _find_top(top)
    out = BUILD / (top + ("-trace" if trace else ""))
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(top, top_file, out, trace, quiet)


def build_info(top: str = DEFAULT_TOP, trace: bool = False) -> dict:
    """How the last build of ``top`` was compiled (``{}`` before the first build)."""
    stamp = BUILD / (top + ("-trace" if trace else "")) / "stamp.json"
    try:
        return dict(json.loads(stamp.read_text()).get("build", {}))
    except (OSError, ValueError):
        return {}


def _run(cmd: list[str], out: Path, what: str, timeout: float | None = None) -> None:
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise BoardError(f"{what} did not finish within {timeout} s") from e
    if r.returncode != 0:
        log = out / "build.log"
        log.write_text(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-20:])
        raise BoardError(f"{what} failed (full log {log}):\n{tail}")


def _clean_objects(obj: Path, exe: Path, profiles: bool) -> None:
    for pattern in ("*.o", "*.a") + (("*.gcda",) if profiles else ()):
        for f in obj.glob(pattern):
            f.unlink()
    exe.unlink(missing_ok=True)


def _model_triggers(obj: Path) -> str:
    """The verilated model's triggers, for the harness's one-evaluation-per-cycle scheme.

    ``VBOARD_TRIGGERS``: how many 'act' triggers the model has; ``VBOARD_POSEDGE_ONLY``:
    1 when every one is a rising clock edge (read from the trigger descriptions Verilator
    5 writes into its debug functions); ``VBOARD_EDGE_PREV(X)``: X(member) for each
    trigger's previous-sample member (``__Vtrigrprev__*``), which the harness clears before
    each evaluation; ``VBOARD_GATES``: the width of the top's ``sim_gclk`` input (the
    gated clocks, 0 without one); ``VBOARD_INPUTS(X)``: the top's inputs but the clocks;
    ``VBOARD_STATE(X)``: the root's data members that ``--gate-verify`` compares.
    """
    kinds: dict[int, str] = {}
    for f in sorted(obj.glob("Vtop___024root__*Slow.cpp")):
        text = f.read_text()
        for m in re.finditer(r"'act' region trigger index (\d+) is active: (.*?)\\n", text):
            kinds[int(m.group(1))] = m.group(2)
    root_h = obj / "Vtop___024root.h"
    prev = sorted(set(re.findall(r"\b(__Vtrigrprev__\w+);", root_h.read_text())))
    posedge = bool(kinds) and all(k.startswith("@(posedge ") for k in kinds.values())
    posedge = posedge and len(prev) == len(kinds)
    top_h = (obj / "Vtop.h").read_text()
    m = re.search(r"VL_IN\w*\(&sim_gclk,(\d+),0\)", top_h)
    gates = int(m.group(1)) + 1 if m else 0
    inputs = [n for n in re.findall(r"VL_IN\w*\(&(\w+),", top_h) if n not in ("clk", "sim_gclk")]
    # the root's data members, and those that --gate-verify leaves out: the gated clocks
    # and their samples, the scheduler's trigger flags and the scratch of non-blocking
    # memory writes and bounds (written only when their clock's logic runs, never read
    # across cycles)
    members = re.findall(
        r"^\s+(?:[CSIQ]Data|VlWide<\d+>|VlUnpacked<.*>|VlTriggerVec<\d+>)(?:/\*[^*]*\*/)?"
        r"\s+(\w+);",
        root_h.read_text(),
        re.M,
    )
    gated = [p.removeprefix("__Vtrigrprev__TOP__") for p in prev if p != "__Vtrigrprev__TOP__clk"]
    excl = re.compile(
        r"^(sim_gclk|__Vtrigrprev__\w+|__V\w*Triggered|__V\w*IterCount|"
        r"__VactContinue|__Vdlyv\w+|__Vlvbound\w*)$"
    )
    skip = [n for n in members if excl.match(n) or n in gated]
    keep = [n for n in members if n not in skip]
    return (
        f"#define VBOARD_TRIGGERS {len(kinds)}\n"
        f"#define VBOARD_POSEDGE_ONLY {int(posedge)}\n"
        "#define VBOARD_EDGE_PREV(X) " + " ".join(f"X({p})" for p in prev) + "\n"
        f"#define VBOARD_GATES {gates}\n"
        "#define VBOARD_INPUTS(X) " + " ".join(f"X({n})" for n in inputs) + "\n"
        "#define VBOARD_STATE(X) " + " ".join(f"X({n})" for n in keep) + "\n"
    ) + _fast_eval(obj, prev, posedge)


def _functions(text: str) -> dict[str, str]:
    """The top-level function definitions of a verilated C++ file: name -> body."""
    out: dict[str, str] = {}
    for m in re.finditer(r"^(?:VL_INLINE_OPT |VL_ATTR_COLD )?void (\w+)\([^)]*\) \{\n(.*?)^\}\n",
                         text, re.M | re.S):  # fmt: skip
        out[m.group(1)] = m.group(2)
    return out


_BOILERPLATE = re.compile(
    r"^\s*(?:if \(false && vlSelf\) \{\}.*|Vtop__Syms\* const .*|VL_DEBUG_IF\(.*|// Body)$"
)


def _fast_eval(obj: Path, prev: list[str], posedge: bool) -> str:
    """The harness's fast evaluation of one rising edge, when the model allows it.

    Verilator 5.006's ``_eval`` runs loops until no trigger fires: the input
    combinational region ('ico') until settled, then the 'act' triggers, then the 'nba'
    region, then the triggers again. When every trigger is a rising edge of a clock that
    only the 'ico' region assigns (clocks that are inputs or derived from inputs alone),
    the 'act' region does nothing and no region can fire a trigger again, so one pass is
    the whole evaluation: 'ico' once, the triggers once, the 'nba' functions of the fired
    triggers once, and the loops' second rounds (which find nothing) and their
    bookkeeping can be left out. ``VBOARD_FAST_EVAL`` is 1 when that holds (checked on
    the generated code; ``VBOARD_FAST_ICO`` 0 when the model has no input region);
    ``vboard_act(vlSelf)`` is the model's ``_eval_triggers__act``
    returning the fired triggers as a bit mask (bit i: trigger i) instead of setting its
    trigger vector, and ``vboard_nba(vlSelf, m)`` its ``_eval_nba`` with the trigger flags
    read from that mask.
    """
    funcs: dict[str, str] = {}
    for f in sorted(obj.glob("Vtop___024root__DepSet_*.cpp")):
        if not f.name.endswith("__Slow.cpp"):
            funcs.update(_functions(f.read_text()))
    off = "#define VBOARD_FAST_EVAL 0\n"
    need = ("Vtop___024root___eval_nba", "Vtop___024root___eval_act",
            "Vtop___024root___eval_triggers__act")  # fmt: skip
    ico = ("Vtop___024root___eval_ico", "Vtop___024root___eval_triggers__ico")
    if not posedge or not prev or any(n not in funcs for n in need):
        return off
    has_ico = all(n in funcs for n in ico)  # a model without input logic has no 'ico' region
    if not has_ico and any(n in funcs for n in ico):
        return off
    if any(not _BOILERPLATE.match(ln) for ln in funcs[need[1]].splitlines() if ln.strip()):
        return off  # the 'act' region does something
    # every clock that triggers is assigned only in the 'ico' region
    for p in prev:
        sig = p.removeprefix("__Vtrigrprev__TOP__")
        assign = re.compile(rf"vlSelf->{re.escape(sig)}\s*=(?!=)")
        for name, body in funcs.items():
            if assign.search(body) and "___ico_" not in name:
                return off
    body = re.sub(r"vlSelf->__VnbaTriggered\.at\((\d+)U\)", r"((m >> \1) & 1U)", funcs[need[0]])
    lines = [ln for ln in body.splitlines() if ln.strip() and not _BOILERPLATE.match(ln)]
    called = sorted(set(re.findall(r"\b(Vtop___024root___\w+)\(vlSelf\);", body)))
    rest = re.sub(r"\b(Vtop___024root___\w+)\(vlSelf\);|\(\(m >> \d+\) & 1U\)", "", body)
    if "vlSelf" in "\n".join(ln for ln in rest.splitlines() if not _BOILERPLATE.match(ln)):
        return off  # something other than trigger tests and calls
    # the triggers, as a bit mask: 'act' trigger i = its expression (a rising edge: the
    # clock and not its previous sample); then the clocks' new samples
    trig = re.sub(r"#ifdef VL_DEBUG.*?#endif", "", funcs[need[2]], flags=re.S)
    act_re = r"vlSelf->__VactTriggered\.at\((\d+)U\) = ([^;]*);"
    sample_re = r"(vlSelf->__Vtrigrprev__\w+\s*=[^;]*;)"
    act = re.findall(act_re, trig)
    samples = re.findall(sample_re, trig)
    left = re.sub(f"{act_re}|{sample_re}", "", trig)
    if sorted(int(i) for i, _ in act) != list(range(len(prev))) or len(samples) != len(prev):
        return off
    if any(not _BOILERPLATE.match(ln) for ln in left.splitlines() if ln.strip()):
        return off
    protos = "".join(f"void {c}(Vtop___024root* vlSelf);\n" for c in called)
    protos += "".join(f"void {n}(Vtop___024root* vlSelf);\n" for n in ico if has_ico)
    clk = next((int(i) for i, e in act if "vlSelf->__Vtrigrprev__TOP__clk)" in e), -1)
    return (
        f"#define VBOARD_FAST_EVAL 1\n#define VBOARD_FAST_ICO {int(has_ico)}\n"
        + protos
        + "static inline unsigned vboard_act(Vtop___024root* vlSelf) {\n    unsigned m = 0;\n"
        + "".join(f"    m |= (unsigned({e.strip()}) & 1U) << {i};\n" for i, e in act)
        + "".join(f"    {a.strip()}\n" for a in samples)
        + "    return m;\n}\n"
        + "static inline void vboard_nba(Vtop___024root* vlSelf, unsigned m) {\n"
        + _nba_cases(body, len(prev), clk)
        + "\n".join(lines)
        + "\n}\n"
    )


_NBA_STEP = re.compile(r"\s*if \(([()m>&|\s\dU]*)\) \{\s*(Vtop___024root___\w+)\(vlSelf\);\s*\}")


def _nba_cases(body: str, ntrig: int, clk: int) -> str:
    """A straight-line dispatch for each trigger mask that has clk's bit set.

    ``_eval_nba`` tests each region function's condition (an OR of trigger bits) in
    turn: some 40-60 tests and branches per evaluation, most of them false when few
    clocks rise. With clk rising at every evaluation (the one-evaluation harness) and at
    most 10 triggers, the masks that can occur are at most 512: for each, the calls its
    conditions select, in the same order, as a case of a switch (a jump and the calls);
    any other mask falls through to the tests. Empty when the body is anything but a
    sequence of ``if (condition) { call; }`` (the tests alone are then the dispatch).
    """
    steps: list[tuple[int, str]] = []
    pos = 0
    lines = "\n".join(ln for ln in body.splitlines() if ln.strip() and not _BOILERPLATE.match(ln))
    for mt in _NBA_STEP.finditer(lines):
        if lines[pos : mt.start()].strip():
            return ""
        bits = [int(b) for b in re.findall(r"\(m >> (\d+)\) & 1U", mt.group(1))]
        if not bits or re.sub(r"\(\(m >> \d+\) & 1U\)|[()|\s]", "", mt.group(1)):
            return ""
        steps.append((sum(1 << b for b in set(bits)), mt.group(2)))
        pos = mt.end()
    if lines[pos:].strip() or not steps or clk < 0 or ntrig > 10:
        return ""
    out = ["    switch (m) {"]
    for mask in range(1 << ntrig):
        if mask >> clk & 1:
            calls = "".join(f" {f}(vlSelf);" for need, f in steps if need & mask)
            out.append(f"    case {mask:#x}U:{calls} return;")
    out.append("    default: break;\n    }")
    return "\n".join(out) + "\n"


def _build_locked(top: str, top_file: Path, out: Path, trace: bool, quiet: bool) -> Path:
    exe = out / "vboard"
    stamp = out / "stamp.json"
    obj = out / "obj"
    cmd = _verilator_cmd(top, top_file, out, exe, trace)
    pgo = _uses_pgo(top, trace)
    recipe = [
        cmd,
        _make_cmd(out),
        OPT,
        pgo and (PGO_GEN, PGO_USE, PGO_TRAIN_CYCLES, PGO_TRAIN_REPEAT),
        MODEL_GEN,
    ]
    key = hashlib.sha256(repr(recipe).encode()).hexdigest()
    if exe.exists() and stamp.exists():
        try:
            old = json.loads(stamp.read_text())
        except ValueError:
            old = {}
        files = [Path(f) for f in old.get("files", {})]
        if old.get("key") == key and files and _digest(files) == old["files"]:
            return exe
    if shutil.which("verilator") is None:
        raise BoardError("verilator is not installed (`make setup` installs it as root)")
    if not quiet:
        print(
            f"vboard: compiling the virtual board ({top}) with Verilator, "
            f"this takes {'a few minutes' if pgo else 'a minute'} the first time...",
            file=sys.stderr,
            flush=True,
        )
    out.mkdir(parents=True, exist_ok=True)
    gen = out / "gen"
    gen.mkdir(exist_ok=True)
    cnts = counters_of(top_file)
    (gen / "vboard_counters.h").write_text(
        "// generated by wirecore.vboard.build() from the cnt_* ports of "
        f"{top_file.name}\n#define VBOARD_COUNTERS(X) " + " ".join(f"X({c})" for c in cnts) + "\n"
    )
    stamp.unlink(missing_ok=True)
    _run(cmd, out, "verilating the virtual board")
    # The harness's fast-forward compares the root object's memory: only valid when the
    # root class holds the whole state (every module inlined, as -O3 does here).
    classes = {p.name for p in obj.glob("Vtop*.h")}
    root_only = classes <= {"Vtop.h", "Vtop__Syms.h", "Vtop___024root.h", "Vtop__Dpi.h"}
    (gen / "vboard_model.h").write_text(
        "// generated by wirecore.vboard.build() from the verilated model's classes\n"
        f"#define VBOARD_ROOT_ONLY {int(root_only)}\n" + _model_triggers(obj)
    )
    _clean_objects(obj, exe, profiles=True)
    info: dict[str, object] = {"opt": OPT, "pgo": False}
    if pgo:
        # instrumented build, a training run without a TAP, then the profile-guided build
        _run(_make_cmd(out, PGO_GEN, PGO_GEN), out, "building the instrumented board")
        pcap = out / "train.pcap"
        write_pcap(pcap, training_frames())
        train = [str(exe), "--tap", "none", "--spin", "--run-cycles", str(PGO_TRAIN_CYCLES)]
        train += ["--inject", str(pcap), "--inject-repeat", str(PGO_TRAIN_REPEAT)]
        _run(train, out, "the profile training run", timeout=600)
        if not any(obj.glob("*.gcda")):
            raise BoardError(f"the profile training run left no profile in {obj}")
        _clean_objects(obj, exe, profiles=False)
        _run(_make_cmd(out, PGO_USE), out, "building the board with its profile")
        info.update(pgo=True, pgo_train_cycles=PGO_TRAIN_CYCLES, pgo_train_repeat=PGO_TRAIN_REPEAT)
    else:
        _run(_make_cmd(out), out, "building the virtual board")
    if not exe.exists():
        raise BoardError(f"building the virtual board made no program {exe}")
    files = [SIM / "vboard.cpp", top_file, *_used_sources(obj)]
    stamp.write_text(json.dumps({"key": key, "build": info, "files": _digest(files)}, indent=1))
    return exe


# --------------------------------------------------------------------------- boards


def run_root() -> Path:
    """Where boards keep their pid file, log and statistics."""
    env = os.environ.get("WIRECORE_RUN_DIR")
    if env:
        return Path(env)
    return Path("/run/wirecore") if os.geteuid() == 0 else ROOT / "build" / "run"


@dataclass
class BoardConfig:
    name: str = "wc0"
    ns: str = ""  # namespace; default "wc-<name>"
    tap: str = "tap0"
    ip: str = "192.0.2.2"
    host_ip: str = "192.0.2.1"
    prefix_len: int = 24
    mac: str = "02:00:00:00:00:02"
    gateway: str = ""  # default: host_ip
    udp_echo_port: int = 7
    pcap: str = ""
    trace: str = ""
    top: str = DEFAULT_TOP
    bridge: str = ""  # join this bridge (several boards in one namespace)
    stats_interval: float = 0.0
    extra_args: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.ns:
            self.ns = f"wc-{self.name}"
        if not self.gateway:
            self.gateway = self.host_ip
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", self.name):
            raise BoardError(f"board name {self.name!r}: letters, digits, '_', '.', '-' only")
        if len(self.tap) > 15:
            raise BoardError(f"interface name {self.tap!r} is longer than 15 characters")
        for a in (self.ip, self.host_ip, self.gateway):
            ipaddress.IPv4Address(a)


class VirtualBoard:
    """One virtual board: a process simulating the RTL, attached to a TAP in a namespace."""

    def __init__(self, cfg: BoardConfig) -> None:
        self.cfg = cfg
        self.dir = run_root() / cfg.name

    # state --------------------------------------------------------------
    @classmethod
    def load(cls, name: str) -> VirtualBoard:
        f = run_root() / name / "board.json"
        if not f.exists():
            raise BoardError(f"no board named {name} is up (no {f})")
        data = json.loads(f.read_text())
        data.pop("owns_ns", None)
        board = cls(BoardConfig(**data["config"]))
        board._owns_ns = bool(data.get("owns_ns", True))
        return board

    @staticmethod
    def names() -> list[str]:
        root = run_root()
        if not root.exists():
            return []
        return sorted(p.parent.name for p in root.glob("*/board.json"))

    _owns_ns = True

    @property
    def pid_file(self) -> Path:
        return self.dir / "pid"

    @property
    def log_file(self) -> Path:
        return self.dir / "board.log"

    @property
    def stats_file(self) -> Path:
        return self.dir / "stats.json"

    def pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text())
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        try:  # a dead child of ours that nobody has waited for is a zombie: not running
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return None
        if state == "Z":
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
            return None
        return pid

    def running(self) -> bool:
        return self.pid() is not None

    def _save(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        data = {"config": asdict(self.cfg), "owns_ns": self._owns_ns}
        (self.dir / "board.json").write_text(json.dumps(data, indent=1))

    # lifecycle ------------------------------------------------------------
    def up(self, wait: str = "auto", timeout: float = 60.0, quiet: bool = False) -> None:
        """Bring the board up; on any failure tear down what was made and re-raise.

        ``wait``: "arp" (until it answers arping), "start" (until the process runs), or
        "auto" (arp unless the top is a test fixture without a stack).
        """
        netns.require_root()
        c = self.cfg
        exe = build(c.top, trace=bool(c.trace), quiet=quiet)
        if (self.dir / "board.json").exists():
            if self.running():
                raise BoardError(f"board {c.name} is up already (`wirecore board down {c.name}`)")
            VirtualBoard.load(c.name).down()  # left over from a board that died: clean up
        self.dir.mkdir(parents=True, exist_ok=True)
        self._owns_ns = not netns.exists(c.ns)
        self._save()
        try:
            if self._owns_ns:
                netns.create(c.ns)
            netns.add_tap(c.ns, c.tap)
            addr = f"{c.host_ip}/{c.prefix_len}"
            if c.bridge:
                links = netns.run(["ip", "-n", c.ns, "-o", "link", "show"])
                if f": {c.bridge}:" not in links and f": {c.bridge}@" not in links:
                    netns.run(["ip", "-n", c.ns, "link", "add", c.bridge, "type", "bridge"])
                    netns.run(["ip", "-n", c.ns, "addr", "add", addr, "dev", c.bridge])
                    netns.run(["ip", "-n", c.ns, "link", "set", c.bridge, "up"])
                netns.run(["ip", "-n", c.ns, "link", "set", c.tap, "master", c.bridge])
            else:
                netns.run(["ip", "-n", c.ns, "addr", "add", addr, "dev", c.tap])
            netns.run(["ip", "-n", c.ns, "link", "set", c.tap, "up"])
            self._start(exe)
            self._wait(wait, timeout)
        except BaseException:
            with contextlib.suppress(Exception):
                self.down()
            raise

    def _start(self, exe: Path) -> None:
        c = self.cfg
        args = [
            str(exe),
            "--tap",
            c.tap,
            "--mac",
            c.mac,
            "--ip",
            c.ip,
            "--netmask",
            str(ipaddress.IPv4Network(f"0.0.0.0/{c.prefix_len}").netmask),
            "--gateway",
            c.gateway,
            "--udp-echo-port",
            str(c.udp_echo_port),
            "--stats-file",
            str(self.stats_file),
        ]
        if c.pcap:
            args += ["--pcap", str(Path(c.pcap).resolve())]
        if c.trace:
            args += ["--trace", str(Path(c.trace).resolve())]
        if c.stats_interval:
            args += ["--stats-interval", str(c.stats_interval)]
        args += c.extra_args
        self.stats_file.unlink(missing_ok=True)
        log = open(self.log_file, "wb")  # noqa: SIM115 - handed to the child
        try:
            proc = subprocess.Popen(
                netns.exec_cmd(c.ns, args),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()
        self.pid_file.write_text(str(proc.pid))
        self._proc = proc

    def _wait(self, wait: str, timeout: float) -> None:
        c = self.cfg
        if wait == "auto":
            wait = "start" if c.top in FIXTURE_TOPS else "arp"
        t_end = time.monotonic() + timeout
        while time.monotonic() < t_end:
            if not self.running():
                raise BoardError(f"the board process exited:\n{self.log_tail()}")
            if "vboard: running" in self.log_file.read_text(errors="replace"):
                break
            time.sleep(0.05)
        else:
            raise BoardError(f"the board did not start within {timeout} s:\n{self.log_tail()}")
        if wait != "arp":
            return
        dev = c.bridge or c.tap
        while time.monotonic() < t_end:
            r = subprocess.run(
                netns.exec_cmd(
                    c.ns, ["arping", "-q", "-c", "1", "-C", "1", "-w", "1", "-i", dev, c.ip]
                ),
                capture_output=True,
                text=True,
            )
            if r.returncode == 0:
                return
            if not self.running():
                raise BoardError(f"the board process exited:\n{self.log_tail()}")
        raise BoardError(
            f"the board did not answer ARP for {c.ip} within {timeout} s:\n{self.log_tail()}"
        )

    def log_tail(self, n: int = 20) -> str:
        try:
            lines = self.log_file.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-n:])

    def stats(self, timeout: float = 5.0) -> dict:
        """The board's statistics now (it writes them on SIGUSR1), or the last ones."""
        pid = self.pid()
        if pid is not None:
            before = self.stats_file.stat().st_mtime_ns if self.stats_file.exists() else 0
            os.kill(pid, signal.SIGUSR1)
            t_end = time.monotonic() + timeout
            while time.monotonic() < t_end:
                if self.stats_file.exists() and self.stats_file.stat().st_mtime_ns != before:
                    break
                time.sleep(0.02)
        if not self.stats_file.exists():
            raise BoardError(f"board {self.cfg.name} has written no statistics")
        return json.loads(self.stats_file.read_text())

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the board process (SIGTERM, then SIGKILL); it writes its final statistics."""
        pid = self.pid()
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        t_end = time.monotonic() + timeout
        proc = getattr(self, "_proc", None)
        while time.monotonic() < t_end:
            if proc is not None:
                if proc.poll() is not None:
                    break
            elif self.pid() is None:
                break
            time.sleep(0.02)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            if proc is not None:
                proc.wait(timeout=5)
        self.pid_file.unlink(missing_ok=True)

    def down(self) -> None:
        """Stop the process, delete the TAP (and the namespace if this board made it)."""
        c = self.cfg
        self.stop()
        if netns.exists(c.ns):
            netns.run(["ip", "-n", c.ns, "link", "del", c.tap], check=False)
            if self._owns_ns:
                netns.delete(c.ns)
        (self.dir / "board.json").unlink(missing_ok=True)

    def exec(self, cmd: list[str], **kw: object) -> subprocess.CompletedProcess:
        """Run ``cmd`` inside the board's namespace."""
        return subprocess.run(netns.exec_cmd(self.cfg.ns, cmd), **kw)  # type: ignore[call-overload]


def enter_board_network(name: str | None = None) -> BoardConfig | None:
    """Move this process's main thread into the namespace of a virtual board that is up.

    For PC tools whose default target is the virtual board: with ``name`` None the only
    board that is up is used (None is returned, and nothing changes, when no board or
    more than one is up, or without root). Call before starting threads.
    """
    names = VirtualBoard.names()
    if name is None:
        if len(names) != 1:
            return None
        name = names[0]
    board = VirtualBoard.load(name)
    if os.geteuid() != 0 or not board.running():
        return None
    netns.enter(board.cfg.ns)
    return board.cfg
