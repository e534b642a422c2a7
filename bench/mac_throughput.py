"""1 Gbit/s MAC throughput in simulation, both directions at once, plus its area and Fmax.

eth_mac_gmii runs under Icarus (cocotb). N frames of L bytes on the wire (FCS included:
64 and 1518) are queued at once on both sides: cocotbext-axi feeds the transmitter with
s_axis_tvalid held high, cocotbext-eth's GmiiSource feeds the receiver back to back at
the minimum gap (12 idle bytes). A cycle monitor records when each frame starts on
gmii_tx_en and when each received frame's first byte reaches m_axis. Line rate is one
frame every L + 8 (preamble) + 12 (gap) byte times, so

    fraction of line rate = (L + 20) x (N - 1) / cycles from the first to the last start

for each direction (goal 1.000). The MAC's event strobes (counted by the bench, as a
counter block would count them) must show N good frames each way and no error.

Sweep: the Verilator C++ driver tests/unit/mac/eth_mac_gmii_fuzz.cpp sends every frame
length 14..1514 bytes (payload 0..1500, padded to 60 on the wire) plus jumbo frames of
4000 and 9014 bytes through both directions at once, back to back, and checks the exact
wire image, the 12-byte gap, the received data and the strobes; its fraction is the
same ratio over the whole run (goal 1.000 exactly).

Area: Yosys 0.23 (syn/synth.py) for eth_mac_gmii (its strobes: the counters live in the
design's stat_counters) and the TX and RX cores alone, on Xilinx 7-series and iCE40.
Fmax: nextpnr-ice40 on HX8K (ct256), three placement seeds, for the TX and RX cores and
for the whole eth_mac_gmii (wrapped: its strobes registered per clock domain).

Prints tables and writes bench/results/mac_throughput.json.
Usage: python -m bench.mac_throughput [--frames N] [--no-sweep] [--no-area] [--no-fmax]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT, ROOT / "tests"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import cocotb  # noqa: E402
from cocotb.clock import Clock  # noqa: E402
from cocotb.triggers import ClockCycles, RisingEdge  # noqa: E402

from bench.common import print_table, write_result  # noqa: E402

LENGTHS = (64, 1518)


@cocotb.test()
async def bench_throughput(dut) -> None:
    from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource
    from cocotbext.eth import GmiiFrame, GmiiSource

    length = int(os.environ["MAC_BENCH_LEN"])
    n = int(os.environ["MAC_BENCH_N"])
    cocotb.start_soon(Clock(dut.tx_clk, 8, "ns").start())
    cocotb.start_soon(Clock(dut.rx_clk, 8, "ns").start())
    dut.tx_rst.value = 1
    dut.rx_rst.value = 1
    dut.cfg_ifg.value = 12
    dut.cfg_max_len.value = 1518
    dut.s_axis_tuser.value = 0
    src = GmiiSource(dut.gmii_rxd, dut.gmii_rx_er, dut.gmii_rx_dv, dut.rx_clk)
    src.ifg = 12
    axis = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.tx_clk, dut.tx_rst)
    await ClockCycles(dut.tx_clk, 8)
    dut.tx_rst.value = 0
    dut.rx_rst.value = 0
    await ClockCycles(dut.tx_clk, 4)

    user = length - 4
    frames = [bytes([0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, i & 0xFF, 0x88, 0xB5])
              + bytes((i + k) & 0xFF for k in range(user - 14)) for i in range(n)]  # fmt: skip
    tx_starts: list[int] = []
    rx_starts: list[int] = []
    rx_bytes = 0

    async def monitor() -> None:
        nonlocal rx_bytes
        cyc = 0
        prev_en = 0
        in_rx = False
        while True:
            await RisingEdge(dut.tx_clk)
            cyc += 1
            en = int(dut.gmii_tx_en.value)
            if en and not prev_en:
                tx_starts.append(cyc)
            prev_en = en
            if int(dut.m_axis_tvalid.value):
                rx_bytes += 1
                if not in_rx:
                    rx_starts.append(cyc)
                in_rx = not int(dut.m_axis_tlast.value)

    cocotb.start_soon(monitor())
    from unit.mac.mac_tb import MacEvents

    ev = MacEvents(dut, "tx_clk", "tx_rst", "rx_clk", "rx_rst")  # the MAC's strobes, counted
    for f in frames:
        src.send_nowait(GmiiFrame.from_payload(f))
        await axis.send(AxiStreamFrame(f))
    budget = n * (length + 20) + 200
    for _ in range(budget):
        await RisingEdge(dut.tx_clk)
        if len(rx_starts) >= n and len(tx_starts) >= n and ev.counts()["rx_frames"] == n:
            break
    await ClockCycles(dut.tx_clk, 20)
    counters = ev.counts()
    out = {
        "frame_bytes": length,
        "frames": n,
        "tx_starts": tx_starts,
        "rx_starts": rx_starts,
        "rx_user_bytes": rx_bytes,
        "counters": counters,
    }
    Path(os.environ["MAC_BENCH_OUT"]).write_text(json.dumps(out))


def simulate(length: int, n: int) -> dict[str, object]:
    from cocotb_run import run

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "out.json"
        run(
            "eth_mac_gmii",
            "bench.mac_throughput",
            testcase="bench_throughput",
            extra_env={
                "MAC_BENCH_OUT": str(path),
                "MAC_BENCH_LEN": str(length),
                "MAC_BENCH_N": str(n),
            },  # fmt: skip
        )
        raw = json.loads(path.read_text())
    slot = length + 20
    row: dict[str, object] = {"frame_bytes": length, "frames": n}
    c = raw["counters"]
    ok = (c["tx_frames"] == n and c["rx_frames"] == n and c["tx_bytes"] == n * length
          and c["rx_bytes"] == n * length and raw["rx_user_bytes"] == n * (length - 4)
          and not any(c[k] for k in ("rx_bad_fcs", "rx_runt", "rx_oversize", "rx_er",
                                     "tx_underflow", "tx_abort")))  # fmt: skip
    row["all_frames_good"] = ok
    for side in ("tx", "rx"):
        starts = raw[f"{side}_starts"]
        if len(starts) < n:
            row[f"{side}_fraction"] = 0.0
            continue
        span = starts[n - 1] - starts[0]
        row[f"{side}_cycles_per_frame"] = span / (n - 1)
        row[f"{side}_fraction"] = round(slot * (n - 1) / span, 4)
        # one byte per 8 ns cycle is 1000 Mbit/s; goodput counts user bytes (no FCS)
        row[f"{side}_goodput_mbps"] = round(1000.0 * (length - 4) * (n - 1) / span, 1)
    return row


def sweep() -> dict[str, object]:
    """Every frame length through the Verilator driver (built under build/verilator)."""
    from unit.mac.test_eth_mac_gmii_fuzz import build, run_driver

    return run_driver(build(), "sweep")


def area() -> list[dict[str, object]]:
    from syn.synth import synthesize
    from syn.tops import TOPS

    rows = []
    for t in TOPS:
        if t.name not in ("mac_gmii", "mac_tx", "mac_rx"):
            continue
        for fam in ("xilinx", "ice40"):
            r = synthesize(t, fam)
            rows.append({"top": t.name, "module": t.module, "family": fam, "luts": r.luts,
                         "ffs": r.ffs, "lutram": r.lutram, "carry": r.carry})  # fmt: skip
    return rows


# For place and route eth_mac_gmii sits in this wrapper, which registers its event
# strobes and lengths in their own clock domains (as a counter block would take them).
WRAPPER = """`default_nettype none
module eth_mac_gmii_pnr (
    input wire tx_clk, input wire rx_clk, input wire tx_rst, input wire rx_rst,
    input wire [7:0] s_tdata, input wire s_tvalid, output wire s_tready,
    input wire s_tlast, input wire s_tuser,
    output wire [7:0] m_tdata, output wire m_tvalid, output wire m_tlast, output wire m_tuser,
    output wire [7:0] gmii_txd, output wire gmii_tx_en, output wire gmii_tx_er,
    input wire [7:0] gmii_rxd, input wire gmii_rx_dv, input wire gmii_rx_er,
    output reg [3:0] ev_tx, output reg [15:0] len_tx, output reg [5:0] ev_rx,
    output reg [15:0] len_rx
);
    wire [9:0] ev;
    wire [31:0] len;
    eth_mac_gmii u (.tx_clk(tx_clk), .tx_rst(tx_rst), .rx_clk(rx_clk), .rx_rst(rx_rst),
        .s_axis_tdata(s_tdata), .s_axis_tvalid(s_tvalid), .s_axis_tready(s_tready),
        .s_axis_tlast(s_tlast), .s_axis_tuser(s_tuser), .m_axis_tdata(m_tdata),
        .m_axis_tvalid(m_tvalid), .m_axis_tlast(m_tlast), .m_axis_tuser(m_tuser),
        .gmii_txd(gmii_txd), .gmii_tx_en(gmii_tx_en), .gmii_tx_er(gmii_tx_er),
        .gmii_rxd(gmii_rxd), .gmii_rx_dv(gmii_rx_dv), .gmii_rx_er(gmii_rx_er),
        .cfg_ifg(8'd12), .cfg_max_len(16'd1518), .cnt_ev(ev), .cnt_ev_len(len));
    always @(posedge tx_clk) begin
        ev_tx <= ev[3:0];
        len_tx <= len[15:0];
    end
    always @(posedge rx_clk) begin
        ev_rx <= ev[9:4];
        len_rx <= len[31:16];
    end
endmodule
"""

FMAX_RE = re.compile(r"Max frequency for clock '([A-Za-z0-9_]+?)\$[^']*': ([0-9.]+) MHz")


def fmax(seeds: tuple[int, ...] = (1, 2, 3)) -> list[dict[str, object]]:
    """nextpnr-ice40 HX8K Fmax (MHz) per clock and placement seed: the TX and RX cores,
    and the whole eth_mac_gmii with its strobes registered (in WRAPPER)."""
    if not shutil.which("nextpnr-ice40"):
        return [{"error": "nextpnr-ice40 not found"}]
    rows: list[dict[str, object]] = []
    files = sorted((ROOT / "rtl").rglob("*.v"))
    with tempfile.TemporaryDirectory() as d:
        wrapper = Path(d) / "eth_mac_gmii_pnr.v"
        wrapper.write_text(WRAPPER)
        for top in ("eth_mac_tx", "eth_mac_rx", "eth_mac_gmii_pnr"):
            js = Path(d) / f"{top}.json"
            script = [f"read_verilog -defer {f}" for f in [*files, wrapper]]
            script += [f"hierarchy -check -top {top}", f"synth_ice40 -top {top} -json {js}"]
            ys = Path(d) / f"{top}.ys"
            ys.write_text("\n".join(script) + "\n")
            subprocess.run(["yosys", "-q", "-s", str(ys)], check=True, capture_output=True)
            found: dict[str, list[float]] = {}
            for seed in seeds:
                cmd = ["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", str(js),
                       "--freq", "125", "--seed", str(seed)]  # fmt: skip
                r = subprocess.run(cmd, capture_output=True, text=True)
                last: dict[str, float] = {}
                for clk, mhz in FMAX_RE.findall(r.stderr):
                    last[clk] = float(mhz)  # the final (post-route) report comes last
                for clk, mhz in last.items():
                    found.setdefault(clk, []).append(mhz)
            for clk, vals in sorted(found.items()):
                rows.append({"top": top, "clock": clk, "device": "iCE40 HX8K ct256",
                             "seeds": list(seeds), "fmax_mhz": vals,
                             "min_mhz": min(vals)})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--frames", type=int, default=0,
                    help="frames per size (default 40 at 64 bytes, 8 at 1518)")  # fmt: skip
    ap.add_argument("--no-sweep", action="store_true", help="skip the Verilator length sweep")
    ap.add_argument("--no-area", action="store_true", help="skip the Yosys area figures")
    ap.add_argument("--no-fmax", action="store_true", help="skip nextpnr Fmax")
    a = ap.parse_args(argv)
    rows = [simulate(ln, a.frames or (40 if ln == 64 else 8)) for ln in LENGTHS]
    print_table(
        "eth_mac_gmii throughput, both directions at once (fraction of line rate)",
        ["frame bytes", "frames", "TX fraction", "RX fraction", "TX Mbit/s", "RX Mbit/s", "good"],
        [[r["frame_bytes"], r["frames"], f"{r['tx_fraction']:.4f}", f"{r['rx_fraction']:.4f}",
          r.get("tx_goodput_mbps", 0.0), r.get("rx_goodput_mbps", 0.0), r["all_frames_good"]]
         for r in rows],
    )  # fmt: skip
    figures: dict[str, object] = {"results": rows}
    if not a.no_sweep:
        sw = sweep()
        figures["sweep_all_lengths"] = sw
        print_table(
            "Every frame length 14..1514 + jumbo (Verilator), both directions at once",
            ["frames", "cycles", "TX fraction", "RX fraction", "failures"],
            [[sw.get("tx_frames", 0), sw.get("cycles", 0), f"{sw.get('tx_fraction', 0):.6f}",
              f"{sw.get('rx_fraction', 0):.6f}", sw.get("failures", "-")]],
        )  # fmt: skip
    if not a.no_area:
        ar = area()
        figures["area"] = ar
        print_table("Area (Yosys 0.23)", ["top", "family", "LUTs", "FFs", "LUTRAM", "carry"],
                    [[r["top"], r["family"], r["luts"], r["ffs"], r["lutram"], r["carry"]]
                     for r in ar])  # fmt: skip
    if not a.no_fmax:
        fm = fmax()
        figures["fmax"] = fm
        print_table("Fmax, nextpnr-ice40 HX8K (MHz per seed)", ["top", "clock", "Fmax", "min"],
                    [[r.get("top", "-"), r.get("clock", "-"),
                      ", ".join(f"{x:.1f}" for x in r.get("fmax_mhz", [])),
                      r.get("min_mhz", 0.0)] for r in fm])  # fmt: skip
    path = write_result("mac_throughput", figures)
    print(f"wrote {path.relative_to(ROOT)}")
    bad = [r for r in rows if not r["all_frames_good"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
