"""Transmit goodput of one UDP application port (udp_tx) per checksum mode, in Verilator.

For payloads 1..1472 (sampled) at DATA_W 8 and 64, an always-ready application sends
datagrams back to back through ``rtl/udp/udp_tx.v`` (udp_tx_csum + udp_ip_tx, 2 KiB
mode-1 buffer) into a cycle-exact MAC model: a frame's bytes leave DATA_W/8 per cycle,
then padding to 60 bytes, FCS 4, inter-frame gap 12 and the next preamble 8; the MAC takes
a beat only when the line can send it (bench/udp_tx_goodput_tb.cpp). Every frame's UDP
checksum and payload are checked. Figures per mode and size:
  goodput   - line-rate time of the frames / time the line took (1.0 = back to back,
              only the inter-frame gap between frames)
  max_idle  - longest idle time between two frames beyond the gap, in byte times
  underflow - cycles the MAC wanted a beat mid-frame and had none (must be 0)
Mode 1 (checksum computed) is the one that stores the datagram; mode 0 (checksum 0)
passes straight through and is the reference.
Prints a table and writes bench/results/udp_tx_goodput.json (or --out).
Usage: python -m bench.udp_tx_goodput [--width 8|64|both] [--modes 1,0] [--frames N] [--out F]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import print_table, write_result  # noqa: E402
from syn import verilator_build  # noqa: E402

DRIVER = ROOT / "bench" / "udp_tx_goodput_tb.cpp"
SIZES = [1, 2, 18, 19, 64, 65, 128, 256, 512, 1000, 1024, 1400, 1471, 1472]


def build(width: int, buf: int) -> Path:
    return verilator_build.build(
        "udp_tx",
        [DRIVER],
        params={"DATA_W": width, "BUF_BYTES": buf},
        defines={"DATA_W": width},
        name="bench_udp_tx_goodput",
    )


def measure(width: int, mode: int, frames: int, buf: int) -> list[dict[str, object]]:
    exe = build(width, buf)
    r = verilator_build.run(exe, mode, frames, *SIZES, timeout=3600)
    rows: list[dict[str, object]] = []
    for line in r.stdout.split("\n"):
        if not line.strip():
            continue
        p, n, ideal, busy, idle, under, bad = (int(x) for x in line.split())
        rows.append(
            {
                "width": width,
                "mode": mode,
                "payload": p,
                "frames": n,
                "line_bytes": ideal,
                "busy_bytes": busy,
                "goodput": round(ideal / busy, 4) if busy else 0.0,
                "max_idle": idle,
                "underflow": under,
                "bad_frames": bad,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--width", choices=("8", "64", "both"), default="both")
    ap.add_argument("--modes", default="1,0", help="checksum modes, comma-separated")
    ap.add_argument("--frames", type=int, default=32, help="frames per payload size")
    ap.add_argument("--buf", type=int, default=2048, help="udp_tx BUF_BYTES")
    ap.add_argument("--out", type=Path, help="result file (default bench/results/...)")
    a = ap.parse_args(argv)
    widths = [8, 64] if a.width == "both" else [int(a.width)]
    modes = [int(m) for m in a.modes.split(",")]
    results: list[dict[str, object]] = []
    summary: dict[str, dict[str, object]] = {}
    for w in widths:
        for m in modes:
            rows = measure(w, m, a.frames, a.buf)
            results += rows
            g = {int(r["payload"]): float(r["goodput"]) for r in rows}  # type: ignore[call-overload]
            summary[f"w{w}_mode{m}"] = {
                "min_goodput": min(g.values()),
                "goodput_1472": g.get(1472),
                "sizes_below_99_9pct": [p for p, v in g.items() if v < 0.999],
                "underflows": sum(int(r["underflow"]) for r in rows),  # type: ignore[call-overload]
                "bad_frames": sum(int(r["bad_frames"]) for r in rows),  # type: ignore[call-overload]
            }
            print_table(
                f"udp_tx transmit, DATA_W={w}, checksum mode {m}, {a.frames} frames per size",
                ["payload", "goodput", "max_idle", "underflow", "bad"],
                [
                    [
                        r["payload"],
                        f"{100 * float(r['goodput']):.2f} %",  # type: ignore[arg-type]
                        r["max_idle"],
                        r["underflow"],
                        r["bad_frames"],
                    ]
                    for r in rows
                ],
            )
    figures = {"frames_per_size": a.frames, "buf_bytes": a.buf, "summary": summary}
    path = write_result("udp_tx_goodput", {**figures, "results": results}, a.out)
    print(f"wrote {path}")
    for k, v in summary.items():
        print(
            f"{k}: goodput at 1472 {100 * float(v['goodput_1472'] or 0):.2f} %, "  # type: ignore[arg-type]
            f"min {100 * float(v['min_goodput']):.2f} %"
        )  # type: ignore[arg-type]
    bad = any(int(v["underflows"]) or int(v["bad_frames"]) for v in summary.values())  # type: ignore[call-overload]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
