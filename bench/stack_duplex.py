"""Goodput of the integrated stack (udp_stack) in both directions at once, in Verilator.

For UDP payloads 1..1472 (every size to 64, then sampled) at DATA_W 8 and 64, the driver
(bench/stack_rx_tb.cpp with -d) first lets the stack answer the peer's ARP request, so the
peer is in the ARP cache; then, at the same time:
  receive  - a batch of valid UDP/IPv4 frames from the peer to application port 0 is
             offered on the MAC user side at line rate (each frame in its slot: frame + FCS
             + preamble + inter-frame gap), the port's consumer always ready; every
             datagram is checked byte for byte;
  transmit - application port 0 sends as many datagrams of the same size back to back to
             the peer (checksum mode 1: computed by the stack, through its 2 KiB ring),
             each resolved through the ARP cache, into a cycle-exact MAC model that takes
             a beat only when the line can send it; every frame is checked (destination
             MAC from the cache, IPv4 header and its checksum, UDP checksum, payload).
Figures per size and direction:
  rx goodput - the offered stream's span (line-rate ideal, rounded up to a whole cycle)
               over the measured span between the first and the last datagram's end
  tx goodput - line-rate time of the frames / time the line took (1.0 = back to back,
               only the inter-frame gap between frames)
  stall      - cycles the stack held off a received beat (0 = the MAC never waited)
  max_idle   - longest idle time between two sent frames beyond the gap, in byte times
  underflow  - cycles the MAC wanted a beat mid-frame and had none (must be 0)
  bad        - datagrams delivered wrong / frames sent wrong (must be 0)
Prints a table (a subset of sizes) and writes bench/results/stack_duplex.json (or --out).
Usage: python -m bench.stack_duplex [--width 8|64|both] [--frames N] [--out FILE]
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import print_table, write_result  # noqa: E402
from bench.stack_rx import SIZES, build  # noqa: E402


def measure(width: int, frames: int) -> list[dict[str, object]]:
    exe = build(width)
    r = subprocess.run(
        [str(exe), "-d", str(frames), *map(str, SIZES)],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if r.returncode != 0:
        raise RuntimeError(f"driver failed: {r.stderr[-2000:]}")
    rows: list[dict[str, object]] = []
    for line in r.stdout.split("\n"):
        if not line.strip():
            continue
        f = line.split()
        p, n, ideal, meas, stall = int(f[0]), int(f[1]), float(f[2]), int(f[3]), int(f[6])
        line_b, busy, max_idle, under, tx_bad, rx_bad = map(int, f[7:13])
        offered = math.ceil(ideal - 1e-6)
        rows.append(
            {
                "width": width,
                "payload": p,
                "frames": n,
                "rx_offered_cycles": offered,
                "rx_measured_cycles": meas,
                "rx_goodput": round(min(offered / meas, 1.0), 4) if meas else 0.0,
                "rx_goodput_raw": round(ideal / meas, 4) if meas else 0.0,
                "rx_stall": stall,
                "rx_bad": rx_bad,
                "tx_line_bytes": line_b,
                "tx_busy_bytes": busy,
                "tx_goodput": round(line_b / busy, 4) if busy else 0.0,
                "tx_max_idle": max_idle,
                "tx_underflows": under,
                "tx_bad": tx_bad,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--width", choices=("8", "64", "both"), default="both")
    ap.add_argument("--frames", type=int, default=64, help="frames per payload size and direction")
    ap.add_argument(
        "--out",
        type=Path,
        default=None,
        help="result file (default bench/results/stack_duplex.json)",
    )
    a = ap.parse_args(argv)
    widths = [8, 64] if a.width == "both" else [int(a.width)]
    results: list[dict[str, object]] = []
    summary: dict[str, dict[str, object]] = {}
    failed = False
    for w in widths:
        rows = measure(w, a.frames)
        results += rows

        def col(k: str, rows: list[dict[str, object]] = rows) -> list[float]:
            return [float(r[k]) for r in rows]  # type: ignore[arg-type]

        summary[str(w)] = {
            "min_rx_goodput": min(col("rx_goodput")),
            "min_rx_goodput_raw": min(col("rx_goodput_raw")),
            "min_tx_goodput": min(col("tx_goodput")),
            "rx_stall_cycles": int(sum(col("rx_stall"))),
            "tx_underflows": int(sum(col("tx_underflows"))),
            "bad": int(sum(col("rx_bad")) + sum(col("tx_bad"))),
        }
        failed |= summary[str(w)]["bad"] != 0 or summary[str(w)]["tx_underflows"] != 0
        show = [r for r in rows if r["payload"] in (1, 2, 18, 19, 26, 64, 512, 1024, 1472)]
        print_table(
            f"udp_stack both directions at once, DATA_W={w} (line rate each way)",
            ["payload", "rx goodput", "rx stall", "tx goodput", "tx max idle", "bad"],
            [
                [
                    r["payload"],
                    f"{100 * float(r['rx_goodput']):.2f} %",  # type: ignore[arg-type]
                    r["rx_stall"],
                    f"{100 * float(r['tx_goodput']):.2f} %",  # type: ignore[arg-type]
                    r["tx_max_idle"],
                    int(r["rx_bad"]) + int(r["tx_bad"]),  # type: ignore[call-overload]
                ]
                for r in show
            ],
        )
        s = summary[str(w)]
        print(
            f"DATA_W={w}: min goodput receive {100 * float(s['min_rx_goodput']):.2f} %, "  # type: ignore[arg-type]
            f"transmit {100 * float(s['min_tx_goodput']):.2f} %; receive stall cycles "  # type: ignore[arg-type]
            f"{s['rx_stall_cycles']}, transmit underflows {s['tx_underflows']}, bad {s['bad']}"
        )
    path = write_result(
        "stack_duplex", {"frames_per_size": a.frames, "summary": summary, "results": results}, a.out
    )
    print(f"wrote {path}")
    if failed:
        print("error: data delivered or sent wrong, or a transmit underflow (see the JSON)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
