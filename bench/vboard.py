"""Benchmark of the virtual board: simulation speed, and what Linux measures over the TAP.

Figures:
- simulated cycles per CPU second of the whole design, idle (no TAP, never sleeping),
  under injected load (no TAP: back-to-back 1472-byte UDP echo requests from a pcap,
  the board echoing every one it can) and under load over the TAP (while a UDP echo run
  keeps it busy), goal >= 10 M cycles/s; how the model was built (profile-guided or not,
  evaluations per cycle);
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


def idle_speed(top: str, seconds: float, inject: Path | None = None) -> dict:
    """Cycles per CPU second of the model without a TAP, never sleeping.

    Without ``inject`` no frame reaches the board (idle); with it the pcap's frames are
    sent to it over and over, back to back, for the whole run.
    """
    exe = build(top)
    with tempfile.TemporaryDirectory() as tmp:
        stats = Path(tmp) / "stats.json"
        cmd = [str(exe), "--tap", "none", "--spin", "--run-seconds", str(seconds)]
        cmd += ["--stats-file", str(stats)]
        if inject is not None:
            cmd += ["--inject", str(inject), "--inject-repeat", "1000000000"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
        if r.returncode != 0 or not stats.exists():
            raise RuntimeError(f"the board failed:\n{r.stderr}")
        st = json.loads(stats.read_text())
    return {
        "cycles": st["cycles"],
        "cpu_s": round(st["cpu_s"], 3),
        "cycles_per_cpu_s": round(st["cycles_per_cpu_s"], 1),
        "evals_per_cycle": st.get("evals_per_cycle", 2),
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
    idle = idle_speed(a.top, a.seconds)
    res["build"] = build_info(a.top)
    res["evals_per_cycle"] = idle["evals_per_cycle"]
    res["idle"] = idle
    res["idle_cycles_per_cpu_s"] = idle["cycles_per_cpu_s"]
    mac_only = idle_speed("vboard_macloop", a.seconds)
    res["build_mac_only"] = build_info("vboard_macloop")
    res["idle_cycles_per_cpu_s_mac_only"] = mac_only["cycles_per_cpu_s"]
    if a.top not in FIXTURE_TOPS:
        with tempfile.TemporaryDirectory() as tmp:
            pcap = Path(tmp) / "echo1472.pcap"
            write_pcap(pcap, [f for f in training_frames() if len(f) == 1514])
            injected = idle_speed(a.top, a.seconds, inject=pcap)
        res["injected_load"] = injected
        res["injected_load_cycles_per_cpu_s"] = injected["cycles_per_cpu_s"]
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
                    "cycles_per_cpu_s": round((st1["cycles"] - st0["cycles"]) / cpu, 1)
                    if cpu > 0
                    else 0.0,
                    "cpu_fraction": round(cpu / (st1["wall_s"] - st0["wall_s"]), 3),
                    # the rate if the board had a whole CPU (others' load shares it)
                    "datagrams_per_board_cpu_s": round(e.received / cpu, 1) if cpu > 0 else 0.0,
                    "busy_fraction": round(busy / (st1["wall_s"] - st0["wall_s"]), 3),
                }
            res["udp_echo"] = echo
            res["load_cycles_per_cpu_s"] = echo[1472]["cycles_per_cpu_s"]
            speeds = [res["idle_cycles_per_cpu_s"], res["injected_load_cycles_per_cpu_s"]]
            speeds.append(res["load_cycles_per_cpu_s"])
            res["goal_met"] = all(float(v) >= 10e6 for v in speeds)  # type: ignore[arg-type]
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
    )
    print(f"virtual board ({a.top}; {how}); {load_avg}")
    print(f"{'figure':42} {'value':>24}")
    idle = res["idle_cycles_per_cpu_s"]
    mac = res["idle_cycles_per_cpu_s_mac_only"]
    assert isinstance(idle, float) and isinstance(mac, float)
    print(f"{'cycles per CPU s, idle (no sleep, no traffic)':42} {idle / 1e6:>22.2f} M")
    print(f"{'  the MAC alone (vboard_macloop)':42} {mac / 1e6:>22.2f} M")
    if "injected_load" in res:
        inj = res["injected_load_cycles_per_cpu_s"]
        assert isinstance(inj, float)
        print(f"{'cycles per CPU s, injected 1472 B echo load':42} {inj / 1e6:>22.2f} M")
    if "udp_echo" in res:
        load = res["load_cycles_per_cpu_s"]
        assert isinstance(load, float)
        print(f"{'cycles per CPU s, under UDP echo load':42} {load / 1e6:>22.2f} M")
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
