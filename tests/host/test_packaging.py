"""The wirecore package as a user installs it: declared dependencies, light --help.

- Every third-party module that host/wirecore imports is a declared runtime dependency in
  pyproject.toml, and requirements.txt (the .venv's pinned set) pins every runtime and
  `dev` dependency.
- `wirecore --help` and every command's and subcommand's --help work and import none of
  the heavy libraries (numpy, matplotlib, rich, scapy, uhal, cocotb): in the project's
  environment, and in a clean virtual environment made with `pip install .`.
- The built wheel (python -m build) holds every module of host/wirecore, the generated
  uHAL address table (the same as `python -m wirecore.regmap` writes), the `wirecore`
  entry point, the package version and the declared runtime dependencies.
- `wirecore --version` names the package version and the register map it expects.
  (tests/system/test_wheel_board.py installs the wheel into a clean environment and
  drives the virtual board with it.)
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from pkg_build import build_wheel, clean_venv, pip_install, source_copy

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
    bindir = clean_venv(tmp_path / "venv")
    pip_install(bindir, str(source_copy(tmp_path / "src")))
    venv = bindir.parent
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


def test_wheel_contents(tmp_path: Path) -> None:
    from wirecore import regmap

    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        modules = {
            f"wirecore/{p.relative_to(ROOT / 'host' / 'wirecore')}"
            for p in (ROOT / "host" / "wirecore").rglob("*.py")
        }
        assert modules <= names, sorted(modules - names)
        table = z.read("wirecore/data/wirecore_address_table.xml").decode()
        assert table == regmap.gen_xml(), "the wheel's address table is not the map's"
        dist = f"wirecore-{PROJECT['version']}.dist-info"
        entry = z.read(f"{dist}/entry_points.txt").decode()
        meta = z.read(f"{dist}/METADATA").decode()
    assert re.search(r"^\[console_scripts\]\nwirecore = wirecore\.cli:main$", entry, re.M), entry
    assert re.search(rf"^Version: {re.escape(PROJECT['version'])}$", meta, re.M), meta[:500]
    requires = {
        canonicalize_name(Requirement(line.split(":", 1)[1]).name)
        for line in meta.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    }
    assert requires == declared(), requires ^ declared()


def test_version_names_the_register_map(capsys: pytest.CaptureFixture[str]) -> None:
    from wirecore import __version__
    from wirecore.cli import main

    assert __version__ == PROJECT["version"]
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out == (
        f"wirecore {PROJECT['version']}, for gateware with register map 2.3.0 "
        "(SYS.VERSION 0x00020300)\n"
    )
