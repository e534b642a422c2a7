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

Block rates are given at 125 MHz (1 Gbit/s GMII byte clock). As root it also brings up the
virtual board (sim/vboard_top.v, ipbus_ctrl on UDP port 50001) and measures from Linux
through uHAL and the reliable client: round trips per second, batched reads per second,
block write and read MB/s (these depend on the simulation's speed, not on the RTL's cycle
counts). ``--no-board`` skips that part.

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


def uhal_client(host: str, port: int) -> dict:
    """Figures measured from the PC side (run inside the board's network namespace)."""
    import time

    import uhal
    from wirecore import ipbus
    from wirecore import regmap as rm

    uhal.setLogLevelTo(uhal.LogLevel.ERROR)
    hw = uhal.getDevice(
        "b", f"ipbusudp-2.0://{host}:{port}", "file://" + str(rm.address_table_path())
    )
    hw.setTimeoutPeriod(10000)
    node = hw.getNode("SYS.MAGIC")
    out: dict[str, float] = {}
    n = 300
    t0 = time.perf_counter()
    for _ in range(n):
        node.read()
        hw.dispatch()
    dt = time.perf_counter() - t0
    out["uhal_single_read_round_trips_per_s"] = n / dt
    out["uhal_single_read_rtt_us"] = dt / n * 1e6
    batches, per = 30, 100
    t0 = time.perf_counter()
    for _ in range(batches):
        vals = [node.read() for _ in range(per)]
        hw.dispatch()
    dt = time.perf_counter() - t0
    assert all(int(v) == 0xA5A55A5A for v in vals)
    out["uhal_batched_reads_per_s"] = batches * per / dt
    mem = hw.getNode("MEM")
    words = rm.MEM_WORDS
    data = list(range(words))
    t0 = time.perf_counter()
    for _ in range(3):
        mem.writeBlock(data)
        hw.dispatch()
    out["uhal_block_write_MBps"] = 3 * words * 4 / (time.perf_counter() - t0) / 1e6
    t0 = time.perf_counter()
    for _ in range(3):
        got = mem.readBlock(words)
        hw.dispatch()
    out["uhal_block_read_MBps"] = 3 * words * 4 / (time.perf_counter() - t0) / 1e6
    assert [int(x) for x in got] == data
    with ipbus.Client(host, port, timeout=1.0) as c:
        t0 = time.perf_counter()
        for _ in range(n):
            c.read(rm.find("SYS.MAGIC"))
        out["reliable_single_read_round_trips_per_s"] = n / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        assert c.read(rm.MEM_BASE, words) == data
        out["reliable_block_read_MBps"] = words * 4 / (time.perf_counter() - t0) / 1e6
    return {k: round(v, 2) for k, v in out.items()}


def board_figures() -> dict:
    """Bring up a virtual board carrying ipbus_ctrl and measure it through Linux and uHAL."""
    import subprocess

    from wirecore import netns
    from wirecore.vboard import BoardConfig, VirtualBoard

    top = "vboard_top"
    cfg = BoardConfig(name=f"ipbench{os.getpid() % 10000}", top=top)
    board = VirtualBoard(cfg)
    board.up(quiet=True)
    try:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--uhal-client", cfg.ip, "50001"]
        r = subprocess.run(
            netns.exec_cmd(cfg.ns, cmd), capture_output=True, text=True, timeout=600, env=env
        )
        if r.returncode != 0:
            raise RuntimeError(r.stdout + r.stderr)
        figures = json.loads(r.stdout.strip().splitlines()[-1])
        st = board.stats()
        figures["board_cycles_per_s_busy"] = round(st["cycles"] / max(st["busy_s"], 1e-9), 1)
    finally:
        board.down()
    figures["top"] = top
    return figures


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--uhal-client":
        print(json.dumps(uhal_client(sys.argv[2], int(sys.argv[3]))))
        return 0
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
    }
    if os.geteuid() == 0 and "--no-board" not in sys.argv:
        vb = board_figures()
        doc["virtual_board"] = vb
        print(
            f"virtual board ({vb['top']}, Verilator at {vb['board_cycles_per_s_busy'] / 1e6:.1f} M "
            "cycles/s while busy):"
        )
        for k, v in vb.items():
            if k not in ("top", "board_cycles_per_s_busy"):
                print(f"  {k:42} {v:>12}")
    else:
        doc["virtual_board"] = "not measured (needs root; or --no-board given)"
    res = ROOT / "bench" / "results"
    res.mkdir(parents=True, exist_ok=True)
    (res / "ipbus.json").write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
