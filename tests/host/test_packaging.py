"""The wirecore package as a user installs it: declared dependencies, light --help.

- Every third-party module that host/wirecore imports is a declared runtime dependency in
  pyproject.toml, and requirements.txt (the .venv's pinned set) pins every runtime and
  `dev` dependency.
- `wirecore --help` and every command's and subcommand's --help work and import none of
  the heavy libraries (numpy, matplotlib, rich, scapy, uhal, cocotb): in the project's
  environment, and in a clean virtual environment made with `pip install .`.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).resolve().parent / "cli_help_check.py"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def declared(group: str | None = None) -> set[str]:
    reqs = PROJECT["dependencies"] if group is None else PROJECT["optional-dependencies"][group]
    return {canonicalize_name(Requirement(r).name) for r in reqs}


def imported_distributions() -> set[str]:
    """The distributions that provide the third-party modules host/wirecore imports."""
    mods: set[str] = set()
    for py in (ROOT / "host" / "wirecore").rglob("*.py"):
        for node in ast.walk(ast.parse(py.read_text())):
            if isinstance(node, ast.Import):
                mods |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods.add(node.module.split(".")[0])
    mods -= set(sys.stdlib_module_names) | {"wirecore", "__future__"}
    dists = importlib.metadata.packages_distributions()
    missing = sorted(m for m in mods if m not in dists)
    assert not missing, f"imported but installed by no distribution: {missing}"
    return {canonicalize_name(d) for m in mods for d in dists[m]}


def test_runtime_imports_are_declared() -> None:
    deps = declared()
    assert imported_distributions() <= deps, sorted(imported_distributions() - deps)


def test_requirements_pin_every_declared_dependency() -> None:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            r = Requirement(line)
            pins[canonicalize_name(r.name)] = r
    for name in declared() | declared("dev"):
        assert name in pins, f"{name} is declared in pyproject.toml, not pinned"
        assert re.fullmatch(r"==\S+", str(pins[name].specifier)), f"{name} is not pinned"
    for req in [*PROJECT["dependencies"], *PROJECT["optional-dependencies"]["dev"]]:
        r = Requirement(req)
        version = str(pins[canonicalize_name(r.name)].specifier)[2:]
        assert r.specifier.contains(version), f"the pin {r.name}=={version} is outside {r}"


def help_check(python: Path | str) -> dict[str, list[str]]:
    r = subprocess.run(
        [str(python), str(CHECK)], capture_output=True, text=True, timeout=120, cwd="/"
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout)


def assert_help_works(res: dict[str, list[str]]) -> None:
    assert not res["failed"], res["failed"]
    assert not res["heavy"], f"imported at --help: {res['heavy']}"
    # the commands the README lists, each with its subcommands
    for name in ("board up", "demo", "reg read", "mem write", "stream", "duplex", "latency"):
        assert f"wirecore {name}" in res["ok"], res["ok"]
    assert "wirecore daq" in res["ok"]


def test_help_in_the_project_environment() -> None:
    assert_help_works(help_check(sys.executable))


def test_pip_install_into_a_clean_venv(tmp_path: Path) -> None:
    """`pip install .` (the dependencies from the package index) into a new virtual
    environment: the installed `wirecore` script and every command's --help work there."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    src = tmp_path / "src"  # a copy without build products, as a clone has it
    skip = shutil.ignore_patterns(".venv", "build", ".git", "*.egg-info", "__pycache__")
    shutil.copytree(ROOT, src, ignore=skip)
    r = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--no-compile", str(src)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    res = help_check(venv / "bin" / "python")
    assert_help_works(res)
    # the console script itself, and the uHAL address table shipped as package data
    r = subprocess.run(
        [str(venv / "bin" / "wirecore"), "reg", "--help"], capture_output=True, text=True
    )
    assert r.returncode == 0 and r.stdout.startswith("usage: wirecore reg"), r.stderr
    table = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "from wirecore import regmap; print(regmap.address_table_path().is_file())"],
        capture_output=True, text=True, cwd="/",
    )  # fmt: skip
    assert table.stdout.strip() == "True", table.stdout + table.stderr


@pytest.fixture(autouse=True)
def _no_stray_pythonpath(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks import wirecore from the environment under test, not from host/."""
    monkeypatch.delenv("PYTHONPATH", raising=False)
