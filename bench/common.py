"""Helpers shared by the benchmarks: result files and tables.

Every benchmark writes ``bench/results/<name>.json``: a dict with

- ``benchmark``: the name;
- ``date``: UTC, ISO 8601, seconds;
- ``commit``: the git commit of the tree measured (``-dirty`` if it had changes);
- ``host``: machine and Python, so figures can be compared;
- the benchmark's own figures (usually ``results``: a list of dicts, one per row).
"""

from __future__ import annotations

import datetime
import json
import platform
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def git_commit() -> str:
    """Short commit of the working tree, with ``-dirty`` if tracked files changed."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "diff", "--quiet", "HEAD", "--", "rtl", "syn", "bench"], cwd=ROOT
        ).returncode
        return sha + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def write_result(name: str, figures: Mapping[str, object], out: Path | None = None) -> Path:
    """Write ``figures`` with the standard header to bench/results/<name>.json."""
    data: dict[str, object] = {
        "benchmark": name,
        "date": now(),
        "commit": git_commit(),
        "host": {"machine": platform.machine(), "python": platform.python_version()},
    }
    data.update(figures)
    path = out or RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def print_table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    console: Console | None = None,
) -> None:
    """Print rows as a rich table; numbers are right-aligned, floats to 1 decimal."""
    table = Table(title=title)
    numeric = [
        all(isinstance(r[i], int | float) or r[i] in ("", "-", None) for r in rows) and rows
        for i in range(len(columns))
    ]
    for i, c in enumerate(columns):
        table.add_column(c, justify="right" if numeric[i] else "left")
    for r in rows:
        table.add_row(*(f"{v:.1f}" if isinstance(v, float) else str(v) for v in r))
    if console is None:
        # a pipe or a log file gets a wide table rather than rich's 80 columns
        console = Console() if sys.stdout.isatty() else Console(width=200)
    console.print(table)
