"""The built wheel as a user installs it, driving the virtual board (needs root).

A clean virtual environment (python -m venv, no system site packages) installs the wheel
built from the repository (pip takes the runtime dependencies from the package index);
its `wirecore` script runs --help and --version, then, inside the board's namespace,
`wirecore reg status` (the reliable client: the board's register-map version is the one
this wirecore expects) and `wirecore reg read SYS.VERSION` through uHAL with the address
table shipped in the wheel: the gateware's own SYS.VERSION, 0x00020300 (map 2.3.0).

In make test-long: about 100 s of CPU and 210 s here with the board's Verilator build
(pip's install alone is in make test, tests/host/test_packaging.py).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from pkg_build import build_wheel, clean_env, clean_venv, pip_install
from wirecore import netns

PORT = 50001


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, capture_output=True, text=True, timeout=120, cwd=cwd, env=clean_env()
    )


@pytest.mark.long
def test_wheel_in_a_clean_venv_drives_the_board(make_board, tmp_path: Path) -> None:
    bindir = clean_venv(tmp_path / "venv")
    pip_install(bindir, str(build_wheel(tmp_path)))
    wirecore = str(bindir / "wirecore")
    r = run([wirecore, "--help"], tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("usage: wirecore"), r.stderr
    r = run([wirecore, "--version"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        "wirecore 0.1.0, for gateware with register map 2.3.0 (SYS.VERSION 0x00020300)\n"
    )
    b = make_board("whl")
    target = ["--target", f"ipbusudp-2.0://{b.cfg.ip}:{PORT}", "--timeout", "5000"]
    r = run(netns.exec_cmd(b.cfg.ns, [wirecore, "reg", "status", *target]), tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "register map      2.3.0 (this wirecore expects 2.3.0)" in r.stdout, r.stdout
    assert "WARNING" not in r.stderr, r.stderr
    r = run(netns.exec_cmd(b.cfg.ns, [wirecore, "reg", "read", "SYS.VERSION", *target]), tmp_path)
    assert (r.returncode, r.stdout) == (0, "0x00020300\n"), r.stdout + r.stderr
