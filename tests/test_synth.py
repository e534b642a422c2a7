"""Yosys synthesis (synth_ice40 and synth_xilinx) of every top in syn/tops.py must succeed;
the synthesis command with and without extra options (bench.area --synth-opt).

make test runs synth_ice40 on every tested top up to its block-RAM mapping (`-run
:map_ffram`): Yosys reads and elaborates each design, checks its hierarchy, optimizes it
and maps its memories, so a design Yosys refuses or whose memories it cannot infer fails
here. The full synthesis of the same tops for both families (the technology mapping to
LUTs, the same elaboration) is volume, in make test-long, and runs with every area
benchmark (bench.area --family both)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.area import main as area_main  # noqa: E402
from syn.hierarchy import submodules  # noqa: E402
from syn.synth import synth_command, synthesize  # noqa: E402
from syn.tops import TOPS, Top  # noqa: E402

TESTED = [t for t in TOPS if t.in_tests]  # variants of a tested design are benchmarks only
SYSTEM = ("udp_stack", "udp_echo_node")  # modules made of blocks that have tops of their own
CASES = [
    pytest.param(t, family, id=f"{t.name}-{family}")
    for t in TESTED
    for family in ("ice40", "xilinx")
]
UP_TO_RAM = ("-run", ":map_ffram")  # synth_ice40's steps up to and with the block-RAM mapping


@pytest.mark.parametrize("top", TESTED, ids=[t.name for t in TESTED])
def test_elaborates_and_maps_memories(top) -> None:
    report = synthesize(top, "ice40", options=UP_TO_RAM)
    assert sum(report.cells.values()) > 0, f"{top.name}: optimized to nothing"


@pytest.mark.long
@pytest.mark.parametrize(("top", "family"), CASES)
def test_synthesizes(top, family: str) -> None:
    report = synthesize(top, family)
    assert report.luts > 0, f"{top.name}: synthesized to nothing"


def test_system_blocks_have_tops() -> None:
    """Every block inside the system tops has a tested top of its own (its synthesis and
    area figures stand apart from the system tops')."""
    assert {t.module for t in TESTED} >= set(SYSTEM)
    own = set().union(
        *({t.module} | submodules(t.module) for t in TESTED if t.module not in SYSTEM)
    )
    inside = set().union(*(submodules(m) for m in SYSTEM)) - set(SYSTEM)
    assert len(inside) > 20, sorted(inside)  # the parser finds the blocks
    assert inside <= own, f"only inside the system tops: {sorted(inside - own)}"


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
