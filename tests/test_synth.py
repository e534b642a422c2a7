"""Yosys synthesis (synth_ice40 and synth_xilinx) of every top in syn/tops.py must succeed;
the synthesis command with and without extra options (bench.area --synth-opt)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.area import main as area_main  # noqa: E402
from syn.synth import synth_command, synthesize  # noqa: E402
from syn.tops import TOPS, Top  # noqa: E402

TESTED = [t for t in TOPS if t.in_tests]  # variants of a tested design are benchmarks only


@pytest.mark.parametrize("family", ["ice40", "xilinx"])
@pytest.mark.parametrize("top", TESTED, ids=[t.name for t in TESTED])
def test_synthesizes(top, family: str) -> None:
    report = synthesize(top, family)
    assert report.luts > 0, f"{top.name}: synthesized to nothing"


def test_synth_command_default_and_options() -> None:
    top = Top("t", "m")
    # no options: the command the figures of record were always made with
    assert synth_command(top, "ice40") == "synth_ice40 -top m"
    assert synth_command(top, "xilinx") == "synth_xilinx -flatten -noiopad -family xc7 -top m"
    assert synth_command(top, "ice40", ("-abc9", "-dff")) == "synth_ice40 -top m -abc9 -dff"
    with pytest.raises(ValueError):
        synth_command(top, "ecp5")


def test_area_no_top_matches() -> None:
    assert area_main(["--synth-opt=-abc9", "--only", "no_such_top"]) == 2
