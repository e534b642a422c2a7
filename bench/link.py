"""Chip-to-chip link: latency and payload efficiency, in simulated cycles (Icarus), converted
to time at a lane rate.

Runs bench/link_tb.py on tests/tb/link_pair.v: two nodes (link_layer over a 4-lane link_tx /
link_rx each), lanes joined straight, one clock. Each lane carries one 10-bit code-group
per cycle, so at LANE_GBPS Gbit/s per lane a cycle is 10 / LANE_GBPS ns (1.6 ns at 6.25
Gbit/s) and the four lanes carry 4 payload bytes per cycle at most (20 Gbit/s of data).
The serializer, deserializer and the fibre are not modelled: their latency adds to these.

Figures:
- word latency: a word taken by A's link_tx to the same word out of B's link_rx (the lanes
  alone: encoder, lane alignment and decoding, deskew, elastic buffer);
- a 160-bit transfer (20 bytes, the seed's packet) through the link layer: first beat in
  on A's s_axis to last beat out on B's m_axis, and last beat in to last beat out;
- back-to-back transfers per size: payload bytes per cycle against the 4-byte capacity
  (efficiency), and the framing bound (header, CRC and END words, the ordered sets: the
  round trips for READY/START and the ACK are what the measured figure adds).

Prints tables and writes bench/results/link.json.
Usage: python -m bench.link [--sizes 20,64,...] [--lane-gbps 6.25] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from bench.common import print_table, write_result  # noqa: E402

SIZES = [20, 64, 256, 1024, 4096, 16384]
PARAMS = {"CC_INTERVAL": 2048, "MAX_WORDS": 4096, "TIMEOUT": 1024}
SET_WORDS = 6  # the ordered set: /K/ /A/ and 4 skips every CC_INTERVAL cycles


def measure(sizes: list[int]) -> dict[str, object]:
    from cocotb_run import run

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "out.json"
        run(
            "link_pair",
            "bench.link_tb",
            parameters=PARAMS,
            extra_env={
                "LINK_BENCH_OUT": str(path),
                "LINK_BENCH_SIZES": ",".join(map(str, sizes)),
            },
        )
        return json.loads(path.read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--sizes",
        help="transfer sizes in bytes, comma-separated (default %(default)s)",
        default=",".join(map(str, SIZES)),
    )
    ap.add_argument("--lane-gbps", type=float, default=6.25, help="line rate per lane")
    ap.add_argument("--out", help="result file (default bench/results/link.json)")
    a = ap.parse_args(argv)
    sizes = [int(s) for s in a.sizes.split(",")]
    ns = 10 / a.lane_gbps
    m = measure(sizes)
    single = m["single"]  # type: ignore[index]
    lat = single["word_latency_cycles"]  # type: ignore[index]
    rows = [
        [
            "word: A link_tx in -> B link_rx out",
            f"{min(lat)}-{max(lat)}" if len(lat) > 1 else lat[0],
            round(max(lat) * ns, 1),
        ],
        [
            "160-bit transfer: first beat in -> last beat out",
            single["first_in_to_last_out_cycles"],
            round(single["first_in_to_last_out_cycles"] * ns, 1),
        ],
        [
            "160-bit transfer: last beat in -> last beat out",
            single["last_in_to_last_out_cycles"],
            round(single["last_in_to_last_out_cycles"] * ns, 1),
        ],
    ]
    print_table(
        f"Link latency (4 lanes, {a.lane_gbps} Gbit/s each, {ns:.2f} ns per cycle)",
        ["path", "cycles", "ns"],
        rows,
    )
    eff_rows = []
    results = []
    for r in m["back_to_back"]:  # type: ignore[union-attr]
        words = -(-r["transfer_bytes"] // 4)
        bound = r["transfer_bytes"] / (4 * (words + 3)) * (1 - SET_WORDS / PARAMS["CC_INTERVAL"])
        eff = r["payload_bytes_per_cycle"] / 4
        gbps = r["payload_bytes_per_cycle"] * 8 / ns
        results.append({**r, "efficiency": eff, "framing_bound": bound, "payload_gbps": gbps})
        eff_rows.append(
            [
                r["transfer_bytes"],
                r["transfers"],
                round(r["cycles_per_transfer"], 1),
                round(100 * eff, 1),
                round(100 * bound, 1),
                round(gbps, 2),
            ]
        )
    print_table(
        "Back-to-back transfers A -> B (payload % of the 4 lanes' 20 Gbit/s of data)",
        ["bytes", "transfers", "cycles each", "efficiency %", "framing bound %", "payload Gbit/s"],
        eff_rows,
    )
    figures = {
        "lane_gbps": a.lane_gbps,
        "lanes": 4,
        "ns_per_cycle": ns,
        "parameters": PARAMS,
        "link_up_cycles_after_reset": m["link_up_cycle"],
        "word_latency_cycles": lat,
        "word_latency_ns": max(lat) * ns,
        "transfer_160bit": {
            **single,
            "first_in_to_last_out_ns": single["first_in_to_last_out_cycles"] * ns,
            "last_in_to_last_out_ns": single["last_in_to_last_out_cycles"] * ns,
        },
        "back_to_back": results,
        "not_modelled": "serializer, deserializer and fibre latency",
    }
    path = write_result("link", figures, Path(a.out) if a.out else None)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
