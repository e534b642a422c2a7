"""Run every benchmark: each module bench/<name>.py that defines ``main()``.

Each runs as ``python -m bench.<name>`` in its own process (from the repository root),
so one failing or needing root does not stop the others; a summary table follows.

Usage: python -m bench.run_all [--only NAME ...] [--list]
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import time

from bench.common import ROOT, print_table

SKIP = {"__init__", "common", "run_all"}


def benchmarks() -> list[str]:
    """Names of the bench/*.py modules with a top-level ``main`` function."""
    out = []
    for p in sorted((ROOT / "bench").glob("*.py")):
        if p.stem in SKIP:
            continue
        tree = ast.parse(p.read_text(), filename=str(p))
        if any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body):
            out.append(p.stem)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", action="append", help="run only this benchmark (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    a = ap.parse_args(argv)
    names = benchmarks()
    if a.list:
        print("\n".join(names))
        return 0
    if a.only:
        unknown = [o for o in a.only if o not in names]
        if unknown:
            print(f"unknown benchmark(s) {unknown}; have: {', '.join(names)}", file=sys.stderr)
            return 2
        names = [n for n in names if n in a.only]
    rows = []
    worst = 0
    for n in names:
        print(f"== bench.{n}", flush=True)
        t0 = time.monotonic()
        r = subprocess.run([sys.executable, "-m", f"bench.{n}"], cwd=ROOT)
        rows.append(
            [n, "ok" if r.returncode == 0 else f"exit {r.returncode}", time.monotonic() - t0]
        )
        worst = max(worst, r.returncode)
    print_table("Benchmarks", ["benchmark", "status", "seconds"], rows)
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
