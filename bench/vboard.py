"""Benchmark of the virtual board: simulation speed, and what Linux measures over the TAP.

Figures:
- simulated cycles per CPU second of the whole design without a TAP, never sleeping:
  idle, under paced load (one 1472-byte UDP echo request every 100 us of simulated time,
  the demo's kind of load) and under back-to-back load (1472-byte echo requests from a
  pcap, the board echoing every one it can); each twice: evaluated (--no-skip: every
  cycle through the model) and effective (the default fast-forward over quiescent
  cycles: simulated cycles, evaluated or skipped, per CPU second), with the share of
  cycles skipped; each the median of --repeat runs (alternated, with their minimum and
  maximum), and the MAC alone (vboard_macloop) idle; how the model was built (Verilator,
  profile-guided or not);
- under UDP echo load over the TAP: cycles per CPU second; UDP echo datagrams/s and
  Mbit/s (payload, one way) for small and full-size datagrams, several in flight, every
  reply checked byte for byte; ping flood rate (pings/s) and ping round trip.

CPU seconds, not wall-clock seconds: the machine may be shared (the JSON records the
load average). Prints a table and writes bench/results/vboard.json. The TAP figures
need root (namespace and TAP); --speed-only measures the rest, without root.
Usage: python -m bench.vboard [--top vboard_top] [--seconds S] [--repeat N] [--speed-only]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
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


def speed(
    top: str, seconds: float, inject: Path | None = None, skip: bool = True, timed: bool = False
) -> dict:
    """Cycles per CPU second of the model without a TAP, never sleeping.

    Without ``inject`` no frame reaches the board (idle); with it the pcap's frames are
    sent to it over and over for the whole run: back to back, or with ``timed`` each
    round at the simulated time of the pcap's last frame after the previous one. Without
    ``skip`` every cycle is evaluated (``--no-skip``). ``cycles_per_cpu_s`` counts every
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
        load = os.getloadavg()[0]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
        if r.returncode != 0 or not stats.exists():
            raise RuntimeError(f"the board failed:\n{r.stderr}")
        st = json.loads(stats.read_text())
    return {
        "cycles": st["cycles"],
        "cpu_s": round(st["cpu_s"], 3),
        "cycles_per_cpu_s": round(st["cycles_per_cpu_s"], 1),
        "cycles_evaluated": st["cycles_evaluated"],
        "evaluated_per_cpu_s": round(st["evaluated_per_cpu_s"], 1),
        "skipped_share": round(st["cycles_skipped"] / st["cycles"], 4) if st["cycles"] else 0.0,
        "to_board_frames": st["to_board_frames"],
        "from_board_frames": st["from_board_frames"],
        "load_average": load,
    }


# the speed figures: (load, pcap file or None, timed) x (evaluated, effective)
LOADS = (("idle", None, False), ("paced", "echo1472_paced.pcap", True),
         ("back_to_back", "echo1472.pcap", False))  # fmt: skip
MODES = (("evaluated", False), ("effective", True))


def speed_figures(top: str, seconds: float, repeat: int) -> dict:
    """Every load and mode ``repeat`` times, alternated: each run, and the medians."""
    runs: dict[str, list[dict]] = {f"{ld}_{md}": [] for ld, _, _ in LOADS for md, _ in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        echo = [f for f in training_frames() if len(f) == 1514]
        write_pcap(Path(tmp) / "echo1472.pcap", echo)
        write_pcap(Path(tmp) / "echo1472_paced.pcap", echo, [PACED_CYCLES * 8])
        for _ in range(repeat):
            for load, pcap, timed in LOADS:
                inject = Path(tmp) / pcap if pcap else None
                for mode, skip in MODES:
                    runs[f"{load}_{mode}"].append(speed(top, seconds, inject, skip, timed))
    out: dict[str, object] = {"runs": runs}
    for key, rs in runs.items():
        v = sorted(r["cycles_per_cpu_s"] for r in rs)
        out[f"{key}_cycles_per_cpu_s"] = statistics.median(v)
        out[f"{key}_range"] = [v[0], v[-1]]
        out[f"{key}_skipped_share"] = statistics.median(r["skipped_share"] for r in rs)
    return out


def tap_figures(top: str, seconds: float) -> dict:
    """Over the TAP (root): cycles per CPU second under UDP echo load, UDP echo rates,
    ping flood and round trip."""
    res: dict[str, object] = {}
    cfg = BoardConfig(name=f"bench{os.getpid()}", top=top)
    board = VirtualBoard(cfg)
    board.up(quiet=True)
    try:
        ns, ip, port = cfg.ns, cfg.ip, cfg.udp_echo_port
        echo = {}
        for size in (18, 64, 512, 1472):
            st0 = board.stats()
            e = udp_echo(ns, ip, port, size, duration=seconds, window=16)
            st1 = board.stats()
            busy = st1["busy_s"] - st0["busy_s"]
            cpu = st1["cpu_s"] - st0["cpu_s"]
            wall = st1["wall_s"] - st0["wall_s"]
            echo[size] = {
                "datagrams_per_s": round(e.rate, 1),
                "mbit_per_s": round(e.mbit_s, 3),
                "sent": e.sent,
                "received": e.received,
                "bad": e.bad,
                "lost": e.lost,
                # effective: simulated cycles (the board runs with the fast-forward)
                "cycles_per_cpu_s": round((st1["cycles"] - st0["cycles"]) / cpu, 1) if cpu else 0.0,
                "evaluated_per_cpu_s": round(
                    (st1["cycles_evaluated"] - st0["cycles_evaluated"]) / cpu, 1
                )
                if cpu
                else 0.0,
                "cpu_fraction": round(cpu / wall, 3),
                # the rate if the board had a whole CPU (others' load shares it)
                "datagrams_per_board_cpu_s": round(e.received / cpu, 1) if cpu else 0.0,
                "busy_fraction": round(busy / wall, 3),
            }
        res["udp_echo"] = echo
        res["tap_load_effective_cycles_per_cpu_s"] = echo[1472]["cycles_per_cpu_s"]
        res["tap_load_evaluated_cycles_per_cpu_s"] = echo[1472]["evaluated_per_cpu_s"]
        pf = ping(ns, ip, 5000, flood=True)
        res["ping_flood_per_s"] = round(pf.rate, 1)
        res["ping_flood_received"] = f"{pf.received}/{pf.sent}"
        p = ping(ns, ip, 50, interval=0.01)
        res["ping_rtt_ms"] = {"min": p.rtt_min, "avg": p.rtt_avg, "max": p.rtt_max}
    finally:
        board.down()
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--top", default=DEFAULT_TOP, help=f"virtual-board top (default {DEFAULT_TOP})")
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each run (3 s)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each speed figure (3)")
    ap.add_argument("--speed-only", action="store_true", help="no TAP figures (no root needed)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "vboard.json"))
    a = ap.parse_args()
    if a.top in FIXTURE_TOPS:
        print(f"{a.top} is a test fixture: give a top with a stack", file=sys.stderr)
        return 1
    if not a.speed_only and os.geteuid() != 0:
        print("bench/vboard.py needs root for the TAP figures (or --speed-only)", file=sys.stderr)
        return 1
    res: dict[str, object] = {
        "benchmark": "vboard",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "top": a.top,
        "goal_cycles_per_s": 10e6,
        "load_average_before": os.getloadavg()[0],
        "cpus": os.cpu_count(),
        "seconds": a.seconds,
        "repeat": a.repeat,
        "paced_load_interval_cycles": PACED_CYCLES,
    }
    res.update(speed_figures(a.top, a.seconds, a.repeat))
    res["build"] = build_info(a.top)
    res["mac_only_idle_evaluated_cycles_per_cpu_s"] = speed(
        "vboard_macloop", a.seconds, skip=False
    )["cycles_per_cpu_s"]
    res["build_mac_only"] = build_info("vboard_macloop")
    if not a.speed_only:
        res.update(tap_figures(a.top, a.seconds))
    res["load_average_after"] = os.getloadavg()[0]
    b = res["build"]
    assert isinstance(b, dict)
    how = f"{b.get('verilator', '?')}; C++ {b.get('opt', '?')}{', PGO' if b.get('pgo') else ''}"
    print(f"virtual board ({a.top}; {how})")
    print(f"load average {res['load_average_before']:.1f} before, "
          f"{res['load_average_after']:.1f} after, on {res['cpus']} CPUs")  # fmt: skip
    print(f"cycles per CPU second, median of {a.repeat} runs of {a.seconds:g} s (min-max):")
    print("evaluated: every cycle through the model (--no-skip); effective: with the")
    print("fast-forward over quiescent cycles (the default), and the share skipped")
    print(f"{'load':34} {'evaluated':>22} {'effective':>26} {'skipped':>8}")
    labels = {
        "idle": "idle (no TAP, no traffic)",
        "paced": "1472 B echo request every 100 us",
        "back_to_back": "1472 B echo requests back to back",
    }

    def fig(key: str) -> str:
        v, (lo, hi) = res[f"{key}_cycles_per_cpu_s"], res[f"{key}_range"]  # type: ignore[misc]
        return f"{v / 1e6:.2f} M ({lo / 1e6:.2f}-{hi / 1e6:.2f})"

    for load, label in labels.items():
        share = res[f"{load}_effective_skipped_share"]
        assert isinstance(share, float)
        print(f"{label:34} {fig(load + '_evaluated'):>22} {fig(load + '_effective'):>26} "
              f"{100 * share:>7.1f}%")  # fmt: skip
    mac = res["mac_only_idle_evaluated_cycles_per_cpu_s"]
    assert isinstance(mac, float)
    print(f"{'the MAC alone (vboard_macloop), idle':34} {mac / 1e6:>10.2f} M")
    if "udp_echo" in res:
        ev, ef = (
            res["tap_load_evaluated_cycles_per_cpu_s"],
            res["tap_load_effective_cycles_per_cpu_s"],
        )
        assert isinstance(ev, float) and isinstance(ef, float)
        print(f"{'UDP echo load over the TAP':34} {ev / 1e6:>10.2f} M {ef / 1e6:>14.2f} M")
        echo = res["udp_echo"]
        assert isinstance(echo, dict)
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
