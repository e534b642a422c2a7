"""Verilator --lint-only -Wall on every Verilog file (rtl/, sim/, the test benches in tests/tb/):
must be clean (no warning, no error)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from syn.verilator_build import lint_commands

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for d in ("rtl", "sim", "tests/tb") for p in (ROOT / d).rglob("*.v"))
LIBS = sorted({p.parent for p in FILES})


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_verilator_lint(path: Path) -> None:
    text = path.read_text()
    assert "`default_nettype none" in text, f"{path.name}: missing `default_nettype none"
    for program, env in lint_commands():
        cmd = [*program, "--lint-only", "-Wall", "--top-module", path.stem]
        for d in LIBS:
            cmd.append(f"-I{d}")
        cmd.append(str(path))
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        assert r.returncode == 0 and "%Warning" not in r.stderr, f"{program[0]}:\n{r.stderr}"


def test_one_module_per_file() -> None:
    import re

    bad = []
    for p in FILES:
        mods = re.findall(r"^\s*module\s+(\w+)", p.read_text(), flags=re.M)
        if mods != [p.stem]:
            bad.append(f"{p.relative_to(ROOT)}: {mods}")
    assert not bad, "one module per file, named like the file:\n" + "\n".join(bad)


def test_icarus_compiles_every_file() -> None:
    """Icarus 11 accepts every file as Verilog-2005 (-g2005)."""
    for p in FILES:
        cmd = ["iverilog", "-g2005", "-o", "/dev/null", "-s", p.stem]
        for d in LIBS:
            cmd += ["-y", str(d)]
        cmd.append(str(p))
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"{p.name}:\n{r.stderr}"


BOARD_FILES = sorted((ROOT / "boards").rglob("*.v"))
STUBS = ROOT / "tests" / "lint_stubs"
# board top levels: the vendor directory of their I/O adapters and primitives
BOARD_VENDOR = {"colorlight_i5": "ecp5", "nexys_video": "xilinx"}


def _stand_ins(vendor: str) -> Path:
    """Lint stand-ins of a vendor's primitives: tests/lint_stubs/<vendor>/, or the
    behavioural models the simulation uses (sim/<vendor>/)."""
    stubs = STUBS / vendor
    return stubs if stubs.is_dir() else ROOT / "sim" / vendor


@pytest.mark.parametrize("path", BOARD_FILES, ids=[str(p.relative_to(ROOT)) for p in BOARD_FILES])
def test_board_file_lint(path: Path) -> None:
    """Vendor files: -Wall clean against lint-only stand-ins of their vendor's primitives
    (tests/lint_stubs/<vendor>/ or the models in sim/<vendor>/), and Icarus -g2005 accepts
    them. Each vendor directory is checked alone: its modules share names with the generic
    models under rtl/. A board top (boards/<board>/) is checked with its vendor's directory
    ahead of rtl/, so the vendor's adapters stand in for the generic ones."""
    text = path.read_text()
    assert "`default_nettype none" in text, f"{path.name}: missing `default_nettype none"
    board = path.parent.name
    vendor = BOARD_VENDOR.get(board, board)
    stubs = _stand_ins(vendor)
    assert stubs.is_dir(), f"no lint stand-ins for vendor {vendor} in {STUBS} or sim/"
    dirs = [stubs]
    if board in BOARD_VENDOR:
        dirs = [ROOT / "boards" / vendor, stubs, *LIBS]
    for program, env in lint_commands():
        cmd = [*program, "--lint-only", "-Wall", "--top-module", path.stem]
        cmd += [f"-I{d}" for d in dirs] + [str(path)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        assert r.returncode == 0 and "%Warning" not in r.stderr, f"{program[0]}:\n{r.stderr}"
    cmd = ["iverilog", "-g2005", "-o", "/dev/null", "-s", path.stem]
    for d in dirs:
        cmd += ["-y", str(d)]
    r = subprocess.run([*cmd, str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
