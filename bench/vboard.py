"""Benchmark of the virtual board: simulation speed, and what Linux measures over the TAP.

Figures:
- simulated cycles per CPU second of the whole design, idle (no TAP, never sleeping),
  under injected load (no TAP: back-to-back 1472-byte UDP echo requests from a pcap,
  the board echoing every one it can), under paced injected load (one such request
  every 100 us of simulated time) and under load over the TAP (while a UDP echo run
  keeps it busy), goal >= 10 M cycles/s; each (but the TAP's) twice: the evaluation
  rate (--no-skip: every cycle evaluated) and the effective rate (the default
  fast-forward over quiescent cycles: simulated cycles, evaluated or skipped, per CPU
  second), with the share of cycles skipped; how the model was built (profile-guided
  or not, evaluations per cycle); idle and under injected load also the evaluation rate
  without the activity gating (--no-gate: every gated clock raised with clk), and the
  share of the gated clocks' possible edges that were raised;
- UDP echo datagrams/s and Mbit/s (payload, one way) for small and full-size datagrams,
  several in flight, every reply checked byte for byte;
- ping flood rate (pings/s) and ping round trip.

Prints a table and writes bench/results/vboard.json. Needs root (namespace and TAP).
Usage: python -m bench.vboard [--top vboard_top] [--seconds S]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from wirecore.commands.demo import ping, udp_echo  # noqa: E402
from wirecore.vboard import (  # noqa: E402
    DEFAULT_TOP,
    FIXTURE_TOPS,
    BoardConfig,
    VirtualBoard,
    build,
    build_info,
    training_frames,
    write_pcap,
)

PACED_CYCLES = 12_500  # paced injected load: one request every 100 us of simulated time


def idle_speed(
    top: str,
    seconds: float,
    inject: Path | None = None,
    skip: bool = True,
    timed: bool = False,
    gate: bool = True,
) -> dict:
    """Cycles per CPU second of the model without a TAP, never sleeping.

    Without ``inject`` no frame reaches the board (idle); with it the pcap's frames are
    sent to it over and over for the whole run: back to back, or with ``timed`` each
    round at the simulated time of the pcap's last frame after the previous one. Without
    ``skip`` every cycle is evaluated (``--no-skip``); without ``gate`` every gated clock
    rises with clk (``--no-gate``). ``cycles_per_cpu_s`` counts every
    simulated cycle, ``evaluated_per_cpu_s`` only those evaluated.
    """
    exe = build(top)
    with tempfile.TemporaryDirectory() as tmp:
        stats = Path(tmp) / "stats.json"
        cmd = [str(exe), "--tap", "none", "--spin", "--run-seconds", str(seconds)]
        cmd += ["--stats-file", str(stats)]
        if inject is not None:
            cmd += ["--inject", str(inject), "--inject-repeat", "1000000000"]
            if timed:
                cmd.append("--inject-timed")
        if not skip:
            cmd.append("--no-skip")
        if not gate:
            cmd.append("--no-gate")
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
        if r.returncode != 0 or not stats.exists():
            raise RuntimeError(f"the board failed:\n{r.stderr}")
        st = json.loads(stats.read_text())
    return {
        "skip": st["skip"],
        "cycles": st["cycles"],
        "cpu_s": round(st["cpu_s"], 3),
        "cycles_per_cpu_s": round(st["cycles_per_cpu_s"], 1),
        "cycles_evaluated": st["cycles_evaluated"],
        "evaluated_per_cpu_s": round(st["evaluated_per_cpu_s"], 1),
        "skipped_share": round(st["cycles_skipped"] / st["cycles"], 4) if st["cycles"] else 0.0,
        "evals_per_cycle": st.get("evals_per_cycle", 2),
        "fast_eval": st.get("fast_eval", False),
        "gate": st.get("gate", False),
        "gated_clocks": st.get("gated_clocks", 0),
        # share of the gated clocks' possible rising edges (evaluated cycles x clocks) raised
        "gated_edges_share": round(
            st["gated_edges"] / (st["cycles_evaluated"] * st["gated_clocks"]), 4
        )
        if st.get("gated_clocks") and st["cycles_evaluated"]
        else None,
        "to_board_frames": st["to_board_frames"],
        "from_board_frames": st["from_board_frames"],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--top", default=DEFAULT_TOP, help=f"virtual-board top (default {DEFAULT_TOP})")
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each run (3 s)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "vboard.json"))
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("bench/vboard.py needs root (network namespace and TAP)", file=sys.stderr)
        return 1
    res: dict[str, object] = {
        "benchmark": "vboard",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "top": a.top,
        "goal_cycles_per_s": 10e6,
        "load_average_before": os.getloadavg()[0],
        "cpus": os.cpu_count(),
    }
    # "*_cycles_per_cpu_s": the evaluation rate (every cycle evaluated, --no-skip);
    # "*_effective_cycles_per_cpu_s": simulated cycles per CPU second with the fast-forward
    idle = idle_speed(a.top, a.seconds, skip=False)
    res["build"] = build_info(a.top)
    res["evals_per_cycle"] = idle["evals_per_cycle"]
    res["fast_eval"] = idle["fast_eval"]
    res["idle"] = idle
    res["idle_cycles_per_cpu_s"] = idle["cycles_per_cpu_s"]
    gated = bool(idle["gate"])
    if gated:
        idle_ng = idle_speed(a.top, a.seconds, skip=False, gate=False)
        res["idle_no_gate"] = idle_ng
        res["idle_no_gate_cycles_per_cpu_s"] = idle_ng["cycles_per_cpu_s"]
    idle_ff = idle_speed(a.top, a.seconds)
    res["idle_skip"] = idle_ff
    res["idle_effective_cycles_per_cpu_s"] = idle_ff["cycles_per_cpu_s"]
    mac_only = idle_speed("vboard_macloop", a.seconds, skip=False)
    res["build_mac_only"] = build_info("vboard_macloop")
    res["idle_cycles_per_cpu_s_mac_only"] = mac_only["cycles_per_cpu_s"]
    if a.top not in FIXTURE_TOPS:
        with tempfile.TemporaryDirectory() as tmp:
            pcap = Path(tmp) / "echo1472.pcap"
            echo = [f for f in training_frames() if len(f) == 1514]
            write_pcap(pcap, echo)
            for key, skip in (("injected_load", False), ("injected_load_skip", True)):
                res[key] = idle_speed(a.top, a.seconds, inject=pcap, skip=skip)
            if gated:
                r = idle_speed(a.top, a.seconds, inject=pcap, skip=False, gate=False)
                res["injected_load_no_gate"] = r
                res["injected_load_no_gate_cycles_per_cpu_s"] = r["cycles_per_cpu_s"]
            paced = Path(tmp) / "echo1472_paced.pcap"
            write_pcap(paced, echo, [PACED_CYCLES * 8])
            for key, skip in (("paced_load", False), ("paced_load_skip", True)):
                res[key] = idle_speed(a.top, a.seconds, inject=paced, skip=skip, timed=True)
        for key in ("injected_load", "paced_load"):
            r0, r1 = res[key], res[key + "_skip"]
            assert isinstance(r0, dict) and isinstance(r1, dict)
            res[key + "_cycles_per_cpu_s"] = r0["cycles_per_cpu_s"]
            res[key + "_effective_cycles_per_cpu_s"] = r1["cycles_per_cpu_s"]
        res["paced_load_interval_cycles"] = PACED_CYCLES
    cfg = BoardConfig(name=f"bench{os.getpid()}", top=a.top)
    board = VirtualBoard(cfg)
    board.up(quiet=True)
    try:
        ns, ip, port = cfg.ns, cfg.ip, cfg.udp_echo_port
        echo = {}
        if a.top not in FIXTURE_TOPS:
            for size in (18, 64, 512, 1472):
                st0 = board.stats()
                e = udp_echo(ns, ip, port, size, duration=a.seconds, window=16)
                st1 = board.stats()
                busy = st1["busy_s"] - st0["busy_s"]
                cpu = st1["cpu_s"] - st0["cpu_s"]
                echo[size] = {
                    "datagrams_per_s": round(e.rate, 1),
                    "mbit_per_s": round(e.mbit_s, 3),
                    "sent": e.sent,
                    "received": e.received,
                    "bad": e.bad,
                    "lost": e.lost,
                    # effective: simulated cycles (the board runs with the fast-forward)
                    "cycles_per_cpu_s": round((st1["cycles"] - st0["cycles"]) / cpu, 1)
                    if cpu > 0
                    else 0.0,
                    "evaluated_per_cpu_s": round(
                        (st1["cycles_evaluated"] - st0["cycles_evaluated"]) / cpu, 1
                    )
                    if cpu > 0
                    else 0.0,
                    "cpu_fraction": round(cpu / (st1["wall_s"] - st0["wall_s"]), 3),
                    # the rate if the board had a whole CPU (others' load shares it)
                    "datagrams_per_board_cpu_s": round(e.received / cpu, 1) if cpu > 0 else 0.0,
                    "busy_fraction": round(busy / (st1["wall_s"] - st0["wall_s"]), 3),
                }
            res["udp_echo"] = echo
            res["load_effective_cycles_per_cpu_s"] = echo[1472]["cycles_per_cpu_s"]
            res["load_cycles_per_cpu_s"] = echo[1472]["evaluated_per_cpu_s"]
            for kind in ("", "effective_"):
                speeds = [res[f"idle_{kind}cycles_per_cpu_s"]]
                speeds += [res[f"injected_load_{kind}cycles_per_cpu_s"]]
                speeds += [res[f"load_{kind}cycles_per_cpu_s"]]
                met = all(float(v) >= 10e6 for v in speeds)  # type: ignore[arg-type]
                res["goal_met" + ("_effective" if kind else "")] = met
            pf = ping(ns, ip, 5000, flood=True)
            res["ping_flood_per_s"] = round(pf.rate, 1)
            res["ping_flood_received"] = f"{pf.received}/{pf.sent}"
            p = ping(ns, ip, 50, interval=0.01)
            res["ping_rtt_ms"] = {"min": p.rtt_min, "avg": p.rtt_avg, "max": p.rtt_max}
    finally:
        board.down()
    load_avg = f"load average {res['load_average_before']:.1f} on {res['cpus']} CPUs"
    b = res["build"]
    assert isinstance(b, dict)
    how = (
        f"{b.get('opt', '?')}{', PGO' if b.get('pgo') else ''}, {res['evals_per_cycle']} eval/cycle"
        f"{' in one pass' if res['fast_eval'] else ''}"
    )
    print(f"virtual board ({a.top}; {how}); {load_avg}")
    print("cycles per CPU second: evaluation rate (every cycle evaluated, --no-skip) and")
    print("effective rate (simulated cycles with the fast-forward, the default; share skipped)")
    print(f"{'figure':42} {'evaluation':>12} {'effective':>12} {'skipped':>8}")

    def row(label: str, key: str) -> None:
        ev, ef = res[f"{key}_cycles_per_cpu_s"], res[f"{key}_effective_cycles_per_cpu_s"]
        assert isinstance(ev, float) and isinstance(ef, float)
        ff = res.get(f"{key}_skip")
        share = f"{100 * ff['skipped_share']:.1f}%" if isinstance(ff, dict) else ""
        print(f"{label:42} {ev / 1e6:>10.2f} M {ef / 1e6:>10.2f} M {share:>8}")

    row("idle (no sleep, no traffic)", "idle")

    def row_ng(key: str) -> None:
        v = res.get(f"{key}_no_gate_cycles_per_cpu_s")
        g = res[key]
        if isinstance(v, float) and isinstance(g, dict):
            share = g.get("gated_edges_share")
            print(f"{'  without activity gating (--no-gate)':42} {v / 1e6:>10.2f} M", end="")
            print(f"   (gated run: clocks raised {100 * share:.1f}%)" if share is not None else "")

    row_ng("idle")
    mac = res["idle_cycles_per_cpu_s_mac_only"]
    assert isinstance(mac, float)
    print(f"{'  the MAC alone (vboard_macloop)':42} {mac / 1e6:>10.2f} M")
    if "injected_load" in res:
        row("injected 1472 B echo load, back to back", "injected_load")
        row_ng("injected_load")
        row("injected 1472 B echo load, every 100 us", "paced_load")
    if "udp_echo" in res:
        row("under UDP echo load over the TAP", "load")
        for size, e in echo.items():
            label = f"UDP echo {size} B: datagrams/s, Mbit/s"
            print(f"{label:42} {e['datagrams_per_s']:>12,.0f} {e['mbit_per_s']:>10.2f}")
            label = "  per CPU second of the board, CPU share"
            print(f"{label:42} {e['datagrams_per_board_cpu_s']:>12,.0f} {e['cpu_fraction']:>10.2f}")
        print(f"{'ping flood, pings/s':42} {res['ping_flood_per_s']:>24,.0f}")
        rtt = res["ping_rtt_ms"]
        assert isinstance(rtt, dict)
        trio = f"{rtt['min']:.3f} {rtt['avg']:.3f} {rtt['max']:.3f}"
        print(f"{'ping round trip min/avg/max, ms':42} {trio:>24}")
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
