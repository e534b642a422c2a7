"""Yosys synthesis (synth_ice40 and synth_xilinx) of every top in syn/tops.py must succeed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from syn.synth import synthesize  # noqa: E402
from syn.tops import TOPS  # noqa: E402

TESTED = [t for t in TOPS if t.in_tests]  # variants of a tested design are benchmarks only


@pytest.mark.parametrize("family", ["ice40", "xilinx"])
@pytest.mark.parametrize("top", TESTED, ids=[t.name for t in TESTED])
def test_synthesizes(top, family: str) -> None:
    report = synthesize(top, family)
    assert report.luts > 0, f"{top.name}: synthesized to nothing"
