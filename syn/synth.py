"""Synthesize a top from syn/tops.py with Yosys and report its area.

Used by the synthesis tests and by bench/area.py. Every RTL file under rtl/ is read (one
module per file), parameters are applied to the top, and the family's synth script runs:
``synth_ice40`` (LUT4) or ``synth_xilinx -family xc7`` (LUT6), with any extra options
given (``options``: for example ``("-abc9",)``; none by default, the figures of record).
Yosys's ``stat -json`` output is parsed into a :class:`Report`.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from syn.tops import Top

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "syn"


@dataclass
class Report:
    top: str
    family: str
    luts: int
    ffs: int
    ram_bits_blocks: int  # block RAMs (SB_RAM40_4K or RAMB18/36)
    lutram: int  # distributed RAM cells (Xilinx RAM32/64*, SRL)
    carry: int
    cells: dict[str, int] = field(default_factory=dict)
    json_netlist: Path | None = None


def rtl_files() -> list[Path]:
    return sorted((ROOT / "rtl").rglob("*.v"))


def _count(cells: dict[str, int], family: str) -> Report:
    def total(pred) -> int:  # noqa: ANN001
        return sum(n for c, n in cells.items() if pred(c))

    if family == "ice40":
        luts = total(lambda c: c == "SB_LUT4")
        ffs = total(lambda c: c.startswith("SB_DFF"))
        ram = total(lambda c: c.startswith("SB_RAM"))
        carry = total(lambda c: c == "SB_CARRY")
        lutram = 0
    else:
        luts = total(lambda c: c.startswith("LUT") and c[3:].isdigit())
        ffs = total(lambda c: c in ("FDRE", "FDSE", "FDCE", "FDPE", "FDR", "FDS", "FD"))
        ram = total(lambda c: c.startswith("RAMB"))
        lutram = total(lambda c: c.startswith(("RAM16", "RAM32", "RAM64", "RAM128", "SRL")))
        carry = total(lambda c: c.startswith("CARRY"))
    return Report("", family, luts, ffs, ram, lutram, carry, dict(cells))


def synth_command(top: Top, family: str, options: tuple[str, ...] = ()) -> str:
    """The yosys synthesis command for ``family`` with extra ``options``."""
    if family == "ice40":
        return " ".join(["synth_ice40", "-top", top.module, *options])
    if family == "xilinx":
        return " ".join(["synth_xilinx -flatten -noiopad -family xc7 -top", top.module, *options])
    raise ValueError(f"unknown family {family!r}: use 'ice40' or 'xilinx'")


def _slug(options: tuple[str, ...]) -> str:
    return "".join(c if c.isalnum() else "_" for c in "".join(options)).strip("_")


def synthesize(
    top: Top, family: str, keep_json: bool = False, options: tuple[str, ...] = ()
) -> Report:
    """Run Yosys on ``top`` for ``family`` ('ice40' or 'xilinx') with extra synthesis
    ``options``; raise on any error."""
    cmd = synth_command(top, family, options)
    out = BUILD / (f"{top.name}_{family}" + (f"_{_slug(options)}" if options else ""))
    out.mkdir(parents=True, exist_ok=True)
    stat_json = out / "stat.json"
    netlist = out / "netlist.json"
    chparams = "".join(f" -chparam {k} {v}" for k, v in top.params.items())
    script = [f"read_verilog -defer {f}" for f in rtl_files()]
    script.append(f"hierarchy -check -top {top.module}{chparams}")
    script.append(cmd + (f" -json {netlist}" if keep_json and family == "ice40" else ""))
    script.append(f"tee -q -o {stat_json} stat -json")
    ys = out / "run.ys"
    ys.write_text("\n".join(script) + "\n")
    r = subprocess.run(["yosys", "-q", "-s", str(ys)], capture_output=True, text=True, timeout=1800)
    (out / "yosys.log").write_text(r.stdout + r.stderr)
    if r.returncode != 0:
        raise RuntimeError(f"yosys failed for {top.name} ({family}):\n{r.stderr[-4000:]}")
    data = json.loads(stat_json.read_text())
    design = data.get("design", {})
    cells = design.get("num_cells_by_type", {})
    rep = _count(cells, family)
    rep.top = top.name
    rep.json_netlist = netlist if keep_json else None
    return rep
