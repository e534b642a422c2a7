"""The synthesizable top levels: one source for the synthesis tests and the area/Fmax benchmarks.

Each area of the design lists its tops in its own file ``syn/tops_<area>.py`` as
``TOPS = [Top(...), ...]``; this module gathers them all. `tests/test_synth.py` checks that
Yosys synthesizes every top for iCE40 and Xilinx 7-series, and the benchmarks
(`bench/area.py`, `bench/fmax.py`) measure them.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Top:
    name: str  # label in reports
    module: str  # Verilog module name (file rtl/**/<module>.v)
    params: dict[str, int] = field(default_factory=dict)
    fmax: bool = False  # also place and route on iCE40 HX8K for Fmax
    clocks: tuple[str, ...] = ("clk",)  # clock ports to report in the Fmax benchmark
    in_tests: bool = True  # synthesized by tests/test_synth.py (False: benchmarks only)


def _gather() -> list[Top]:
    tops: list[Top] = []
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if info.name.startswith("tops_"):
            tops += importlib.import_module(f"syn.{info.name}").TOPS
    return tops


TOPS: list[Top] = _gather()
