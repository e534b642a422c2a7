"""IPbus target latency and throughput in simulation, counted in clock cycles.

``ipbus_ctrl`` (IPbus target + interconnect + register file + memory, DATA_W 8 and 64) runs
under Icarus; requests are driven into its UDP application port and replies taken with
the reply path always ready. Figures, per request kind:

- ``latency``: cycles from the request's last payload byte to the reply's first payload
  byte (the UDP transmitter starts the frame on the header handshake, one cycle
  earlier: ``hdr_latency``);
- ``duration``: cycles from the request's last byte to the reply's last byte;
- ``total``: cycles from the request's header to the reply's last byte, and the data
  rate of the transfer over that time (words x 4 bytes / total) at 125 MHz;
- for a burst of 16 requests sent back to back (as uHAL does), transactions per second
  at 125 MHz from the first request byte to the last reply byte.

Block rates are given at 125 MHz (1 Gbit/s GMII byte clock). Over the virtual board
(Linux, uHAL) the figures need sim/vboard_top.v with ipbus_ctrl wired in.

Run: ``.venv/bin/python bench/ipbus.py`` (prints a table, writes bench/results/ipbus.json).
The same file is the cocotb test module it runs.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLOCK_HZ = 125e6
for _p in (ROOT / "tests" / "unit" / "ctrl", ROOT / "host"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

try:
    import cocotb
    from cocotb.triggers import ClockCycles
except ImportError:  # pragma: no cover - the driver needs only the standard library
    cocotb = None  # type: ignore[assignment]

if cocotb is not None:
    from ipbus_tb import IPbusTB
    from wirecore import regmap as rm
    from wirecore.ipbus import NI_READ, READ, WRITE, Transaction, build_request

    @cocotb.test()
    async def measure(dut) -> None:
        for name in ("m_user_reg_ack", "m_user_reg_err", "m_user_reg_rdata"):
            getattr(dut, name).value = 0
        tb = IPbusTB(dut, None, tick_period=1000)
        await tb.start()
        mem = rm.MEM_BASE
        # memory contents are undefined until written: fill what the reads touch
        await tb.send(build_request(0, [Transaction(WRITE, mem, 255, data=list(range(255)))]))
        await tb.wait_replies(1)
        cases = [
            ("single read (register)", [Transaction(READ, rm.find("SYS.MAGIC"), 1)], 1),
            (
                "single write (register)",
                [Transaction(WRITE, rm.find("SYS.SCRATCH"), 1, data=[1])],
                1,
            ),
            ("single read (memory)", [Transaction(READ, mem, 1)], 1),
            ("block read 255 words", [Transaction(READ, mem, 255)], 255),
            ("block write 255 words", [Transaction(WRITE, mem, 255, data=list(range(255)))], 255),
            ("non-incr read 255 words", [Transaction(NI_READ, mem, 255)], 255),
        ]
        rows = []
        for label, ts, words in cases:
            pkt = build_request(0, ts, little_endian=True)
            n = len(tb.replies)
            t0 = tb.cycle
            await tb.send(pkt)
            await tb.wait_replies(n + 1)
            await ClockCycles(dut.clk, 20)
            last_in = tb.last_in_cycle
            lat = tb.first_byte_cycles[n] - last_in
            rows.append(
                {
                    "request": label,
                    "request_bytes": len(pkt),
                    "reply_bytes": len(tb.replies[n].payload),
                    "latency_cycles": lat,
                    "hdr_latency_cycles": tb.first_out_cycles[n] - last_in,
                    "duration_cycles": tb.last_byte_cycles[n] - last_in,
                    "total_cycles": tb.last_byte_cycles[n] - t0,
                    "words": words,
                }
            )
        # a burst of 16 single-read requests back to back
        n = len(tb.replies)
        start = tb.cycle
        pkt = build_request(0, [Transaction(READ, rm.find("SYS.MAGIC"), 1)], little_endian=True)
        for _ in range(16):
            await tb.send(pkt)
        await tb.wait_replies(n + 16)
        await ClockCycles(dut.clk, 20)
        cycles = tb.last_byte_cycles[n + 15] - start
        burst = {
            "requests": 16,
            "cycles": cycles,
            "transactions_per_s_at_125MHz": 16 * CLOCK_HZ / cycles,
        }
        Path(os.environ["IPBUS_BENCH_OUT"]).write_text(json.dumps({"rows": rows, "burst16": burst}))


def main() -> int:
    sys.path.insert(0, str(ROOT / "tests"))
    import cocotb_run

    out = ROOT / "build" / "bench" / "ipbus_part.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    pypath = os.pathsep.join(
        str(p) for p in (ROOT / "bench", ROOT / "tests" / "unit" / "ctrl", ROOT / "host")
    )
    rows: list[dict] = []
    bursts: dict[str, dict] = {}
    for data_w in (8, 64):
        cocotb_run.run(
            "ipbus_ctrl",
            "ipbus",
            parameters={"MEM_AW": 14, "DATA_W": data_w},
            extra_env={"IPBUS_BENCH_OUT": str(out), "PYTHONPATH": pypath},
            test_dir=ROOT / "bench",
        )
        part = json.loads(out.read_text())
        for r in part["rows"]:
            r["data_w"] = data_w
            rows.append(r)
        bursts[str(data_w)] = part["burst16"]
    print(
        f"{'W':>2} {'request':<26} {'req B':>6} {'rep B':>6} {'latency':>8} {'hdr lat':>8} "
        f"{'duration':>9} {'total':>6} {'MB/s@125MHz':>12}"
    )
    for r in rows:
        mbps = r["words"] * 4 * CLOCK_HZ / r["total_cycles"] / 1e6
        r["MBps_at_125MHz"] = round(mbps, 2)
        print(
            f"{r['data_w']:>2} {r['request']:<26} {r['request_bytes']:>6} {r['reply_bytes']:>6} "
            f"{r['latency_cycles']:>8} {r['hdr_latency_cycles']:>8} {r['duration_cycles']:>9} "
            f"{r['total_cycles']:>6} {mbps:>12.2f}"
        )
    for w, b in bursts.items():
        print(
            f"DATA_W {w}: burst of 16 single reads: {b['cycles']} cycles, "
            f"{b['transactions_per_s_at_125MHz']:.0f} transactions/s at 125 MHz"
        )
    doc = {
        "benchmark": "ipbus",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "where": "ipbus_ctrl (DATA_W 8 and 64) under Icarus, UDP application port, reply "
        "path ready",
        "clock_hz": CLOCK_HZ,
        "results": rows,
        "burst16": bursts,
        "virtual_board": "not measured: sim/vboard_top.v does not include ipbus_ctrl yet",
    }
    res = ROOT / "bench" / "results"
    res.mkdir(parents=True, exist_ok=True)
    (res / "ipbus.json").write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
