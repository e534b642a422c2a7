"""cocotb measurements for bench/cfar.py (run under Icarus by that script): the CFAR
accelerator's latency and block period, and the share of blocks it takes when the blocks
arrive back to back at 1 Gbit/s. Writes its figures as JSON to $CFAR_BENCH_OUT.

Cycle stamps: the falling edge before the rising edge that takes a byte (in or out)."""

from __future__ import annotations

import json
import os

import cocotb
from unit.accel.test_cfar_accel import IFG, Tb
from wirecore import cfar

# (guard, train, threshold factor, scene seed, targets): few detections at the usual
# window; the widest window with the most detections listed (threshold 0)
CASES = [(2, 16, 8.0, 11, 4), (15, 127, 0.0, 12, 4)]
LINE_BLOCKS = int(os.environ.get("CFAR_BENCH_BLOCKS", "10"))


@cocotb.test()
async def bench_cfar(dut) -> None:
    tb = Tb(dut)
    await tb.reset()
    rows = []
    for guard, train, factor, seed, targets in CASES:
        tb.config(guard, train, factor)
        xs = [cfar.random_scene(seed + i, count=targets).samples() for i in range(2)]
        base = len(tb.results)
        # one block, the accelerator idle: latency from its last input byte
        await tb.send(tb.block_frames(2 * seed, xs[0]))
        last_in = tb.last_in
        await tb.wait_results(base + 1)
        # two blocks back to back at line rate: the interval between their results
        await tb.send(tb.block_frames(2 * seed + 2, xs[0]) + tb.block_frames(2 * seed + 4, xs[1]))
        await tb.wait_results(base + 3)
        result_bytes = len(tb.results[base])
        rows.append(
            {
                "guard": guard,
                "train": train,
                "detections_listed": cfar.parse_result(tb.results[base])[2].__len__(),
                "result_bytes": result_bytes,
                "latency_last_in_to_first_out": tb.first_out[base] - last_in,
                "latency_last_in_to_last_out": tb.last_out[base] - last_in,
                "result_interval_at_line_rate": tb.first_out[base + 2] - tb.first_out[base + 1],
            }
        )
    # blocks back to back at line rate, at each window: how many the accelerator takes
    line = []
    for guard, train, factor, seed, targets in CASES:
        tb.config(guard, train, factor)
        counts0 = tb.mon.counts()
        frames = []
        for i in range(LINE_BLOCKS):
            x = cfar.random_scene(seed * 100 + i, count=targets).samples()
            frames += tb.block_frames(2 * (seed * 100 + i), x)
        t0 = tb.cycle
        await tb.send(frames)
        t1 = tb.cycle
        counts = tb.mon.counts()
        taken = counts["block"] - counts0["block"]
        await tb.wait_results(len(tb.results) + taken - (counts["result"] - counts0["result"]))
        line.append(
            {
                "guard": guard,
                "train": train,
                "blocks_sent": LINE_BLOCKS,
                "blocks_taken": taken,
                "frames_dropped_busy": counts["busy"] - counts0["busy"],
                "frames_dropped_order": counts["order"] - counts0["order"],
                "cycles_to_send": t1 - t0 + IFG,
                "ifg_cycles": IFG,
            }
        )
    with open(os.environ["CFAR_BENCH_OUT"], "w") as f:
        json.dump({"cases": rows, "line_rate": line}, f)
