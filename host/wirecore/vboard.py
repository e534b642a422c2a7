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


def _verilator_cmd(top: str, top_file: Path, out: Path, exe: Path, trace: bool) -> list[str]:
    libdirs = sorted({p.parent for p in (ROOT / "rtl").rglob("*.v")} | {SIM})
    gen = out / "gen"
    cmd = [
        "verilator",
        "--cc",
        "--exe",
        "--build",
        "-O3",
        "-j",
        "2",
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
        # Verilator's default is -Os for the model; -O2 runs it faster.
        "-MAKEFLAGS",
        "OPT_FAST=-O2",
        "-MAKEFLAGS",
        "OPT_GLOBAL=-O2",
        "-o",
        str(exe),
    ]
    if trace:
        cmd.append("--trace")
    for d in libdirs:
        cmd += ["-y", str(d)]
    cmd += [str(top_file), str(SIM / "vboard.cpp")]
    return cmd


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


def _build_locked(top: str, top_file: Path, out: Path, trace: bool, quiet: bool) -> Path:
    exe = out / "vboard"
    stamp = out / "stamp.json"
    cmd = _verilator_cmd(top, top_file, out, exe, trace)
    key = hashlib.sha256(repr(cmd).encode()).hexdigest()
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
            "this takes a minute the first time...",
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
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not exe.exists():
        log = out / "build.log"
        log.write_text(r.stdout + r.stderr)
        tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-20:])
        raise BoardError(f"building the virtual board failed (full log {log}):\n{tail}")
    files = [SIM / "vboard.cpp", top_file, *_used_sources(out / "obj")]
    stamp.write_text(json.dumps({"key": key, "files": _digest(files)}, indent=1))
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
