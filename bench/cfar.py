"""CA-CFAR accelerator (rtl/accel/cfar_accel.v) throughput and latency, counted in clock
cycles in an Icarus simulation, against the supply of a 1 Gbit/s line.

Measures, at 8 bits (SKIP = 42: Ethernet/IPv4/UDP frames of 1074 bytes without FCS):
- cycles per 1024-sample block: the engine's time per block (FFT and CFAR; the result
  leaves while the next block's FFT runs), which is the latency from a block's last
  input byte to its result's first byte with the engine idle, for a usual window
  (2 guard, 16 training cells, 4 detections) and the widest (15 guard, 127 training
  cells, threshold 0: 64 detections listed);
- latency to the result's last byte; the interval between the results of two blocks
  sent back to back at line rate (the line's pace when the engine is faster);
- blocks per second at 125 MHz, against a 1 Gbit/s line's supply (two frames of 1074 +
  4 FCS + 8 preamble + 12 gap bytes per block: 2,196 cycles at 8 bits per cycle);
- blocks sent back to back at line rate, at both windows: how many the accelerator
  takes (any others are dropped busy and counted).

Prints tables and writes bench/results/cfar.json.
Usage: python -m bench.cfar [--blocks N] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests", ROOT / "host"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from bench.common import print_table, write_result  # noqa: E402

CLOCK_HZ = 125e6
SKIP = 42
WIRE_OVERHEAD = 4 + 8 + 12  # FCS, preamble + SFD, inter-frame gap (bytes)


def measure(blocks: int) -> dict[str, object]:
    from cocotb_run import run

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "out.json"
        run(
            "cfar_accel",
            "bench.cfar_tb",
            parameters={"SKIP": SKIP, "MAX_DET": 64},
            extra_env={
                "CFAR_BENCH_OUT": str(path),
                "CFAR_BENCH_BLOCKS": str(blocks),
                "CFAR_SKIP": str(SKIP),
                "CFAR_MAX_DET": "64",
            },
        )
        return json.loads(path.read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=10, help="blocks sent at line rate (10)")
    ap.add_argument("--out", help="result file (default bench/results/cfar.json)")
    a = ap.parse_args(argv)
    m = measure(a.blocks)
    frame_bytes = SKIP + 1032
    line_cycles = 2 * (frame_bytes + WIRE_OVERHEAD)  # one byte per cycle at 125 MHz
    line_blocks_s = CLOCK_HZ / line_cycles
    rows = []
    for c in m["cases"]:  # type: ignore[union-attr]
        c["cycles_per_block"] = c["latency_last_in_to_first_out"]
        c["blocks_per_s_125mhz"] = round(CLOCK_HZ / c["cycles_per_block"])
        c["share_of_line_supply"] = round(line_cycles / c["cycles_per_block"], 3)
        rows.append(
            [
                c["guard"],
                c["train"],
                c["detections_listed"],
                c["cycles_per_block"],
                c["blocks_per_s_125mhz"],
                round(100 * c["share_of_line_supply"], 1),
                c["latency_last_in_to_last_out"],
                c["result_interval_at_line_rate"],
            ]
        )
    print_table(
        f"CFAR accelerator, 8 bits at 125 MHz (1 Gbit/s supplies a block every "
        f"{line_cycles} cycles: {line_blocks_s:,.0f} blocks/s)",
        [
            "guard",
            "train",
            "listed",
            "cycles/block",
            "blocks/s",
            "% of line supply",
            "latency to last byte",
            "result interval at line rate",
        ],
        rows,
    )
    lr = m["line_rate"]
    print_table(
        "Blocks back to back at 1 Gbit/s",
        ["guard", "train", "sent", "taken", "dropped busy", "dropped order", "cycles"],
        [
            [
                r["guard"],
                r["train"],
                r["blocks_sent"],
                r["blocks_taken"],
                r["frames_dropped_busy"],
                r["frames_dropped_order"],
                r["cycles_to_send"],
            ]
            for r in lr  # type: ignore[union-attr]
        ],
    )
    figures = {
        "clock_hz": CLOCK_HZ,
        "frame_bytes": frame_bytes,
        "line_cycles_per_block": line_cycles,
        "line_blocks_per_s": round(line_blocks_s),
        "cases": m["cases"],
        "line_rate": lr,
    }
    path = write_result("cfar", figures, Path(a.out) if a.out else None)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
