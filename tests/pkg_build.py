"""The wirecore package as a user gets it: a copy of the repository as a clone has it, the
wheel built from it (``python -m build --wheel --no-isolation``: the project's pinned
build and setuptools, offline), and clean virtual environments to install it into
(``python -m venv``, no system site packages; pip takes the dependencies from the
package index)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# build products and caches, which a clone does not have
SKIP = shutil.ignore_patterns(
    ".venv", "build", "sim_build", ".git", "*.egg-info", "__pycache__", ".*_cache"
)


def source_copy(dest: Path) -> Path:
    """The repository without build products, as a clone has it."""
    shutil.copytree(ROOT, dest, ignore=SKIP)
    return dest


def build_wheel(tmp: Path) -> Path:
    """Build the wheel from a copy of the repository; its path."""
    src = source_copy(tmp / "src")
    out = tmp / "dist"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(out),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    wheels = sorted(out.glob("wirecore-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def clean_env() -> dict[str, str]:
    """The environment for programs of a clean virtual environment: no PYTHONPATH (they
    import wirecore from where it is installed)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def clean_venv(path: Path) -> Path:
    """A new virtual environment without the system's site packages; its bin directory."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=120)
    return path / "bin"


def pip_install(bindir: Path, *what: str) -> None:
    """pip install into the environment of ``bindir`` (the dependencies from the index)."""
    r = subprocess.run(
        [str(bindir / "pip"), "install", "-q", "--no-compile", *what],
        capture_output=True,
        text=True,
        timeout=900,
        env=clean_env(),
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
