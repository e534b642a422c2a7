"""Transmit-side latency and throughput, counted in clock cycles (Icarus simulation).

Measures, at DATA_W 8 and 64:
- udp_ip_tx: cycles from the header handshake to the first frame byte (goal: 1), and
  back-to-back goodput for payloads 1..1472 (sampled): cycles taken against the ideal
  (every beat carrying frame bytes, no idle cycle), and the payload share of the
  datapath's capacity;
- icmp_echo and udp_echo (udp_echo_tx, checksum mode 0): turnaround, from the request's
  last byte in (had it arrived at line rate, its header taken at edge t0) to the reply's
  first byte out: negative means the reply started before the request ended;
- the virtual board's UDP echo (sim/vboard_top.v as the harness builds it: checksum mode
  1, the MAC and the receive frame FIFO included), GMII to GMII: from the request's last
  byte (FCS) in to the reply's first preamble byte out, the figure the board's wire
  record gives (tests/system compare them): in a stream of echoes, and right after the
  board sent a frame from another source (its ARP reply: the transmit arbiter's grant
  moves, one cycle more);
- udp_tx_min: cycles from the payload's first offer to the first frame byte (goal: 0).

Prints tables and writes bench/results/tx_latency.json.
Usage: python -m bench.tx_latency [--width 8|64|both] [--out FILE]
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


def measure(top: str, case: str, params: dict[str, int]) -> dict[str, object]:
    from cocotb_run import run

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "out.json"
        run(
            top,
            "bench.tx_latency_tb",
            parameters=params,
            testcase=case,
            extra_env={"TX_BENCH_OUT": str(path)},
        )
        return json.loads(path.read_text())


BOARD_ROW = "vboard_top 8-bit (the virtual board: udp_echo, checksum mode 1, GMII to GMII)"


def board_echo_turnaround(sizes: list[int] | None = None) -> list[dict[str, int]]:
    """The virtual board's UDP echo turnaround (sim/vboard_top.v with the parameters the
    harness builds, ECHO_CSUM_MODE = 1), from the request's last byte in on gmii_rx to
    the reply's first preamble byte on gmii_tx, per payload size (cycles): rows of
    message_bytes, turnaround_last_in_to_first_out (the board's previous frame an echo
    reply) and turnaround_after_other_source (its previous frame an ARP reply)."""
    import os

    env_sizes = ",".join(str(n) for n in sizes) if sizes else ""
    old = os.environ.get("TX_BENCH_SIZES")
    os.environ["TX_BENCH_SIZES"] = env_sizes
    try:
        return measure("vboard_top", "bench_vboard_echo", {})["udp_echo"]  # type: ignore[return-value]
    finally:
        if old is None:
            del os.environ["TX_BENCH_SIZES"]
        else:
            os.environ["TX_BENCH_SIZES"] = old


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--width", choices=("8", "64", "both"), default="both")
    ap.add_argument("--out", help="result file (default bench/results/tx_latency.json)")
    a = ap.parse_args(argv)
    widths = [8, 64] if a.width == "both" else [int(a.width)]
    res: dict[str, object] = {}
    start_rows = []
    turn_rows = []
    for w in widths:
        tx = measure("udp_ip_tx", "bench_udp_ip_tx", {"DATA_W": w})
        icmp = measure("icmp_echo", "bench_icmp", {"DATA_W": w})
        echo = measure("udp_echo_tx", "bench_udp_echo", {"DATA_W": w, "CSUM_MODE": 0})
        res[f"udp_ip_tx_{w}"] = tx
        res[f"icmp_echo_{w}"] = icmp
        res[f"udp_echo_{w}"] = echo
        start_rows.append([f"udp_ip_tx {w}-bit", ", ".join(map(str, tx["request_to_first_byte"]))])
        print_table(
            f"udp_ip_tx {w}-bit: back-to-back frames",
            ["payload", "frames", "cycles", "ideal", "idle added", "payload % of datapath"],
            [
                [
                    r["payload"],
                    r["frames"],
                    r["cycles"],
                    r["ideal_cycles"],
                    r["idle_cycles_added"],
                    round(100 * r["goodput_of_datapath"], 1),
                ]
                for r in tx["goodput"]  # type: ignore[index]
            ],
        )
        for name, d in (("icmp_echo", icmp["icmp_echo"]), ("udp_echo", echo["udp_echo"])):
            for r in d:  # type: ignore[union-attr]
                turn_rows.append(
                    [
                        f"{name} {w}-bit",
                        r["message_bytes"],
                        r["header_to_first_byte_out"],
                        r["turnaround_last_in_to_first_out"],
                    ]
                )
    if 8 in widths:
        board = board_echo_turnaround()
        res["vboard_top_udp_echo"] = {"design": BOARD_ROW, "udp_echo": board}
        for r in board:
            turn_rows.append(
                [BOARD_ROW, r["message_bytes"], "", r["turnaround_last_in_to_first_out"]]
            )
        for r in board:
            turn_rows.append(
                [
                    BOARD_ROW + ", after an ARP reply",
                    r["message_bytes"],
                    "",
                    r["turnaround_after_other_source"],
                ]
            )
        mn = measure("udp_tx_min", "bench_min", {})
        res["udp_tx_min"] = mn
        start_rows.append(["udp_tx_min 8-bit", ", ".join(map(str, mn["offer_to_first_byte"]))])
    print_table("Request to first frame byte (cycles)", ["transmitter", "cycles"], start_rows)
    print_table(
        "Echo turnaround (cycles; negative = reply starts before the request ends)",
        ["responder", "message bytes", "header to first out", "last in to first out"],
        turn_rows,
    )
    path = write_result("tx_latency", {"results": res}, Path(a.out) if a.out else None)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
