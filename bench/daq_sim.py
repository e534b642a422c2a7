"""Generator goodput in simulation, counted in cycles, at 8 and 64 bits.

``rtl/app/pktgen_loopback.v`` (pktgen feeding seq_sink) runs under Icarus with a
cycle-exact model of an Ethernet line between them: a datagram of L payload bytes
occupies ``wire_bytes(L)`` = preamble 8 + Ethernet/IPv4/UDP headers 42 + L + FCS 4 +
inter-frame gap 12 byte times (frames padded to 64 bytes), KEEP_W byte times per clock;
the line takes the next header as soon as it is free, the first frame byte leaves the
cycle after, and each payload beat is taken just in time for its bytes to leave. The
generator is at full rate when the line never idles waiting for a header and never
starves in a payload. Goodput fraction = datagrams x wire_bytes(L) / byte times the line
was busy from the first frame to the end of the last: 1.000 means the theoretical
maximum. Loss and errors are the sink's own counters (sequence check and payload check).

There is no integrated stack top yet (rtl/top/udp_stack.v), so the line model stands in
for it at the generator's port.

Run: ``.venv/bin/python bench/daq_sim.py`` (prints a table, writes
bench/results/daq_sim.json). The same file is the cocotb test module it runs.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LENGTHS = (1472, 64)
PREFIX = 8 + 14 + 20 + 8  # bytes on the wire before the first payload byte


def wire_bytes(payload: int) -> int:
    return 8 + max(14 + 20 + 8 + payload + 4, 64) + 12


try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, RisingEdge
except ImportError:  # pragma: no cover - the benchmark driver needs only the standard library
    cocotb = None  # type: ignore[assignment]

if cocotb is not None:

    @cocotb.test()
    async def goodput(dut) -> None:
        kw = int(dut.DATA_W.value) // 8
        cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
        results = []
        for length in LENGTHS:
            target_cycles = 40000 if kw == 1 else 12000
            n = max(20, target_cycles * kw // wire_bytes(length))
            for name in ("start", "stop", "tick_1ms", "clear", "wire_hdr_ready", "wire_tready"):
                getattr(dut, name).value = 0
            dut.rst.value = 1
            dut.cfg_len.value = length
            dut.cfg_count.value = n
            dut.cfg_gap.value = 0
            dut.cfg_lfsr.value = 1
            dut.cfg_fill.value = 0
            await ClockCycles(dut.clk, 3)
            dut.rst.value = 0
            await RisingEdge(dut.clk)
            dut.start.value = 1
            await RisingEdge(dut.clk)
            dut.start.value = 0
            c = 0
            free_byte = 0  # wire byte position where the line is free again
            first_start = None
            start_byte = 0
            consumed = 0
            in_frame = False
            frame_len = 0
            underflows = 0
            late_bytes = 0
            frames = 0
            last_end = 0
            while frames < n:
                # readies for cycle c
                hdr_ready = (not in_frame) and free_byte < (c + 2) * kw
                tready = in_frame and c * kw >= start_byte + PREFIX + consumed - kw
                dut.wire_hdr_ready.value = int(hdr_ready)
                dut.wire_tready.value = int(tready)
                await RisingEdge(dut.clk)
                if int(dut.mon_hdr_fire.value):
                    s = max(free_byte, (c + 1) * kw)
                    if first_start is None:
                        first_start = s
                    else:
                        late_bytes += s - free_byte
                    start_byte = s
                    frame_len = int(dut.mon_hdr_len.value)
                    free_byte = s + wire_bytes(frame_len)
                    consumed = 0
                    in_frame = True
                elif tready:
                    if int(dut.mon_beat_fire.value):
                        consumed += kw
                        if int(dut.mon_tlast.value):
                            in_frame = False
                            frames += 1
                            last_end = free_byte
                    else:
                        underflows += 1
                c += 1
                if c > 50 * target_cycles:
                    raise AssertionError("generator stalled")
            await ClockCycles(dut.clk, 4)
            busy = last_end - (first_start or 0)
            gen = int(dut.gen_cnt_packets.value)
            res = {
                "data_w": 8 * kw,
                "payload": length,
                "datagrams": n,
                "generator_sent": gen,
                "sink_received": int(dut.sink_cnt_packets.value),
                "sink_lost": int(dut.sink_cnt_lost.value),
                "sink_payload_errors": int(dut.sink_cnt_payload_err.value),
                "sink_other_errors": sum(
                    int(getattr(dut, f"sink_cnt_{k}").value)
                    for k in ("gaps", "ooo", "bad", "len_err", "short")
                ),
                "cycles": c,
                "line_idle_bytes": late_bytes,
                "payload_underflows": underflows,
                "goodput_fraction": n * wire_bytes(length) / busy if busy else 0.0,
                # at the line's clock: 125 MHz x 8 bits (1 Gbit/s), 156.25 MHz x 64 (10 Gbit/s)
                "line_clock_MHz": 125.0 if kw == 1 else 156.25,
                "goodput_MBps": (
                    n * length / (busy / kw / (125e6 if kw == 1 else 156.25e6)) / 1e6
                    if busy
                    else 0.0
                ),
            }
            results.append(res)
        Path(os.environ["DAQ_SIM_OUT"]).write_text(json.dumps(results))


def main() -> int:
    sys.path.insert(0, str(ROOT / "tests"))
    import cocotb_run

    rows: list[dict] = []
    out = ROOT / "build" / "bench" / "daq_sim_part.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    for data_w in (8, 64):
        cocotb_run.run(
            "pktgen_loopback",
            "daq_sim",
            parameters={"DATA_W": data_w},
            extra_env={"DAQ_SIM_OUT": str(out), "PYTHONPATH": str(ROOT / "bench")},
            test_dir=ROOT / "bench",
        )
        rows += json.loads(out.read_text())
    hdr = f"{'width':>5} {'payload':>7} {'datagrams':>9} {'goodput':>8} {'MB/s':>7} "
    hdr += f"{'lost':>5} {'errors':>6} {'idle B':>6} {'underflow':>9}"
    print(hdr)
    for r in rows:
        print(
            f"{r['data_w']:>5} {r['payload']:>7} {r['datagrams']:>9} "
            f"{r['goodput_fraction']:>8.4f} {r['goodput_MBps']:>7.1f} "
            f"{r['generator_sent'] - r['sink_received'] + r['sink_lost']:>5} "
            f"{r['sink_payload_errors'] + r['sink_other_errors']:>6} "
            f"{r['line_idle_bytes']:>6} {r['payload_underflows']:>9}"
        )
    doc = {
        "benchmark": "daq_sim",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "where": "pktgen -> line model -> seq_sink (rtl/app/pktgen_loopback.v), Icarus",
        "results": rows,
    }
    res_dir = ROOT / "bench" / "results"
    res_dir.mkdir(parents=True, exist_ok=True)
    (res_dir / "daq_sim.json").write_text(json.dumps(doc, indent=1) + "\n")
    ok = all(
        r["goodput_fraction"] > 0.9999
        and r["sink_received"] == r["generator_sent"] == r["datagrams"]
        and r["sink_lost"] == 0
        and r["sink_payload_errors"] + r["sink_other_errors"] == 0
        for r in rows
    )
    print("full rate, zero loss" if ok else "BELOW FULL RATE OR LOSS")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
