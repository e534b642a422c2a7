"""Receive goodput and latency of the integrated stack (udp_stack), in Verilator.

For UDP payloads 1..1472 (every size to 64, then sampled) at DATA_W 8 and 64, a batch of
valid UDP/IPv4 frames is offered on the MAC user side at line rate (each frame in its
slot: frame + FCS + preamble + inter-frame gap, one byte per byte-time), every consumer
always ready. Figures per size:
  goodput  - delivered rate against the offered stream: the whole cycles the line-rate
             ideal takes (frames 1..N-1 at byte-time granularity, rounded up to a whole
             cycle, as the offered frames' ends are) over the cycles measured between the
             first and the last datagram's end on the application port (1.0 = 100 %:
             every datagram out as fast as the wire brings it)
  goodput_raw - the same against the fractional ideal (at 64 bits up to one cycle less
             than any whole-cycle measurement can show, so just under 1.0 for small batches)
  lat_first - cycles from the first frame byte in to the first payload byte out
  lat_last  - cycles from the frame's last byte in to the datagram's last byte out
  stall     - cycles the stack held off a beat (0 = the MAC never had to wait)
Prints a table (a subset of sizes) and writes bench/results/stack_rx.json.
Usage: python -m bench.stack_rx [--width 8|64|both] [--frames N] [--out FILE]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import print_table, write_result  # noqa: E402
from syn import verilator_build  # noqa: E402

DRIVER = ROOT / "bench" / "stack_rx_tb.cpp"
SIZES = list(range(1, 65)) + list(range(80, 1472, 48)) + [1471, 1472]


def build(width: int) -> Path:
    return verilator_build.build(
        "udp_stack",
        [DRIVER],
        params={"DATA_W": width, "NUM_PORTS": 1},
        defines={"DATA_W": width},
        name="bench_stack_rx",
    )


def measure(width: int, frames: int) -> list[dict[str, object]]:
    exe = build(width)
    r = verilator_build.run(exe, frames, *SIZES, timeout=3600)
    rows = []
    for line in r.stdout.split("\n"):
        if not line.strip():
            continue
        p, n, ideal, meas, lat_first, lat_last, stall = line.split()
        rows.append(
            {
                "width": width,
                "payload": int(p),
                "frames": int(n),
                "ideal_cycles": float(ideal),
                "measured_cycles": int(meas),
                "offered_cycles": math.ceil(float(ideal) - 1e-6),
                "goodput": round(min(math.ceil(float(ideal) - 1e-6) / int(meas), 1.0), 4)
                if int(meas)
                else 0.0,
                "goodput_raw": round(float(ideal) / int(meas), 4) if int(meas) else 0.0,
                "lat_first": int(lat_first),
                "lat_last": int(lat_last),
                "stall": int(stall),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--width", choices=("8", "64", "both"), default="both")
    ap.add_argument("--frames", type=int, default=64, help="frames per payload size")
    ap.add_argument(
        "--out", type=Path, default=None, help="result file (default bench/results/stack_rx.json)"
    )
    a = ap.parse_args(argv)
    widths = [8, 64] if a.width == "both" else [int(a.width)]
    results: list[dict[str, object]] = []
    summary = {}
    for w in widths:
        rows = measure(w, a.frames)
        results += rows
        g = [float(r["goodput"]) for r in rows]  # type: ignore[arg-type]
        summary[str(w)] = {
            "min_goodput": min(g),
            "min_goodput_raw": min(float(r["goodput_raw"]) for r in rows),  # type: ignore[arg-type]
            "sizes_below_100pct": [r["payload"] for r in rows if float(r["goodput"]) < 1.0],  # type: ignore[arg-type]
            "total_stall_cycles": sum(int(r["stall"]) for r in rows),  # type: ignore[call-overload]
        }
        show = [r for r in rows if r["payload"] in (1, 2, 18, 19, 26, 64, 512, 1024, 1472)]
        print_table(
            f"udp_stack receive, DATA_W={w} (line-rate offered load, consumers always ready)",
            ["payload", "goodput", "lat_first", "lat_last", "stall"],
            [
                [
                    r["payload"],
                    f"{100 * float(r['goodput']):.1f} %",
                    r["lat_first"],  # type: ignore[arg-type]
                    r["lat_last"],
                    r["stall"],
                ]
                for r in show
            ],
        )
        print(
            f"DATA_W={w}: min goodput {100 * min(g):.2f} %, stall cycles "
            f"{summary[str(w)]['total_stall_cycles']}"
        )
    path = write_result(
        "stack_rx", {"frames_per_size": a.frames, "summary": summary, "results": results}, a.out
    )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
