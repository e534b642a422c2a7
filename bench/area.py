"""Area of every synthesizable top: Yosys 0.23 for iCE40 (synth_ice40) and Xilinx 7-series
(synth_xilinx -family xc7).

For each top in syn/tops.py (gathered from every syn/tops_<area>.py) it reports, per
family: LUTs (SB_LUT4 / LUT1..LUT6), flip-flops, block RAMs (SB_RAM40_4K / RAMB18/36),
distributed RAM cells (Xilinx LUTRAM/SRL) and carry cells. Prints a table and writes
bench/results/area.json.

--synth-opt adds an option to the synthesis command (repeatable, e.g. --synth-opt=-abc9);
the options are recorded in the JSON (``synth_options``). Without it the tools' default
synthesis runs: the figures of record.

Usage: python -m bench.area [--only NAME ...] [--family ice40|xilinx|both] [--synth-opt OPT]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.common import print_table, write_result
from syn.synth import synthesize
from syn.tops import TOPS, Top

FAMILIES = ("ice40", "xilinx")


def select(tops: list[Top], only: list[str] | None) -> list[Top]:
    """Tops whose name contains one of ``only`` (all tops when ``only`` is empty)."""
    if not only:
        return list(tops)
    return [t for t in tops if any(o in t.name for o in only)]


def measure(top: Top, family: str, options: tuple[str, ...] = ()) -> dict[str, object]:
    t0 = time.monotonic()
    try:
        r = synthesize(top, family, options=options)
    except (RuntimeError, OSError, ValueError) as e:
        return {"top": top.name, "family": family, "error": str(e)[-500:]}
    return {
        "top": top.name,
        "module": top.module,
        "params": dict(top.params),
        "family": family,
        "luts": r.luts,
        "ffs": r.ffs,
        "bram": r.ram_bits_blocks,
        "lutram": r.lutram,
        "carry": r.carry,
        "seconds": round(time.monotonic() - t0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", action="append", help="only tops whose name contains this")
    ap.add_argument("--family", choices=(*FAMILIES, "both"), default="both")
    ap.add_argument(
        "--synth-opt",
        action="append",
        metavar="OPT",
        help="extra synthesis option (repeatable; write --synth-opt=-abc9)",
    )
    ap.add_argument("--out", help="result file (default bench/results/area.json)")
    a = ap.parse_args(argv)
    opts = tuple(a.synth_opt or ())
    tops = select(TOPS, a.only)
    if not tops:
        print(f"no top matches {a.only}; tops: {', '.join(t.name for t in TOPS)}", file=sys.stderr)
        return 2
    fams = FAMILIES if a.family == "both" else (a.family,)
    rows_out: list[dict[str, object]] = []
    for t in tops:
        for f in fams:
            rows_out.append(measure(t, f, opts))
    by = {(r["top"], r["family"]): r for r in rows_out}
    cols = ["top"]
    for f in fams:
        cols += [f"{f} LUT", f"{f} FF", f"{f} BRAM"] + (["LUTRAM"] if f == "xilinx" else [])
    rows = []
    for t in tops:
        row: list[object] = [t.name]
        for f in fams:
            r = by[(t.name, f)]
            n = 4 if f == "xilinx" else 3
            if "error" in r:
                row += ["error"] + ["-"] * (n - 1)
            else:
                row += [r["luts"], r["ffs"], r["bram"]] + ([r["lutram"]] if f == "xilinx" else [])
        rows.append(row)
    print_table("Area (yosys 0.23" + (f", {' '.join(opts)})" if opts else ")"), cols, rows)
    path = write_result(
        "area",
        {
            "tool": "yosys 0.23",
            "families": list(fams),
            "synth_options": list(opts),
            "results": rows_out,
        },
        Path(a.out) if a.out else None,
    )
    print(f"wrote {path}")
    errors = [r for r in rows_out if "error" in r]
    for r in errors:
        print(f"{r['top']} ({r['family']}): {r['error']}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
