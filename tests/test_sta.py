"""syn.sta, the static timing pass over nextpnr's SDF that bench.fmax --side uses: a
hand-written SDF in nextpnr's layout checks the arithmetic, the path's cells and the
sides exactly; a real place and route of a small top checks the pass against nextpnr's
own critical path (the independent reference), to the rounding of the report.
"""

from __future__ import annotations

import shutil

import pytest

from bench.fmax import main as fmax_main
from syn.pnr import place_and_route
from syn.sta import Timing, parse_sides, side_paths
from syn.tops import TOPS


def _cell(inst: str, body: str) -> str:
    return f'  (CELL\n    (CELLTYPE "ICESTORM_LC")\n    (INSTANCE {inst})\n{body}  )\n'


def _ff(inst: str, clk_q: int, setup: int) -> str:
    return _cell(
        inst,
        f"    (DELAY\n      (ABSOLUTE\n        (IOPATH CLK O ({clk_q}:{clk_q}:{clk_q}) "
        f"({clk_q}:{clk_q}:{clk_q}))\n      )\n    )\n"
        f"    (TIMINGCHECK\n      (SETUPHOLD (posedge I0) (posedge CLK) ({setup}:{setup}:{setup}) "
        "(0:0:0))\n"
        f"      (SETUPHOLD (negedge I0) (posedge CLK) ({setup}:{setup}:{setup}) (0:0:0))\n"
        "    )\n",
    )


def _lut(inst: str, delay: int) -> str:
    return _cell(
        inst,
        f"    (DELAY\n      (ABSOLUTE\n        (IOPATH I0 O ({delay}:{delay}:{delay}) "
        f"({delay}:{delay}:{delay}))\n"
        f"        (IOPATH I1 O ({delay}:{delay}:{delay}) ({delay}:{delay}:{delay}))\n"
        "      )\n    )\n",
    )


def _wire(a: str, b: str, d: int) -> str:
    return f"        (INTERCONNECT {a} {b} ({d}:{d}:{d}) ({d}:{d}:{d}))\n"


# Registers a, b, c (clock-to-output 500 ps, setup 100 ps) and LUTs l1 (400 ps), l2 (300 ps):
#   a -> l1 -> b: 500 + 300 + 400 + 500 + 100 = 1800 ps
#   a -> l1 -> l2 -> c: 500 + 300 + 400 + 200 + 300 + 150 + 100 = 1950 ps (the worst)
#   a -> c through l2's other input: shorter, so never the answer for c
#   an input pin (no register) -> b through l1's second input, 5000 ps: not a register path
SDF = (
    '(DELAYFILE\n  (SDFVERSION "3.0")\n  (TIMESCALE 1ps)\n'
    '  (CELL\n    (CELLTYPE "top")\n    (INSTANCE )\n    (DELAY\n      (ABSOLUTE\n'
    + _wire("dut.a_DFFLC/O", "dut.l1_LC/I0", 300)
    + _wire("dut.l1_LC/O", "dut.b_DFFLC/I0", 500)
    + _wire("dut.l1_LC/O", "dut.u_x.l2_LC/I0", 200)
    + _wire("dut.a_DFFLC/O", "dut.u_x.l2_LC/I1", 100)
    + _wire("dut.u_x.l2_LC/O", "dut.u_x.c_DFFLC/I0", 150)
    + _wire("\\$io_in/O", "dut.l1_LC/I1", 5000)
    + "      )\n    )\n  )\n"
    + _ff("dut.a_DFFLC", 500, 100)
    + _ff("dut.b_DFFLC", 500, 100)
    + _ff("dut.u_x.c_DFFLC", 500, 100)
    + _lut("dut.l1_LC", 400)
    + _lut("dut.u_x.l2_LC", 300)
    + ")\n"
)


def test_longest_paths_and_their_cells() -> None:
    paths = Timing(SDF).endpoints()
    assert [p.delay_ps for p in paths] == [1950, 1800]
    assert paths[0].cells == ["dut.a_DFFLC", "dut.l1_LC", "dut.u_x.l2_LC", "dut.u_x.c_DFFLC"]
    assert paths[1].cells == ["dut.a_DFFLC", "dut.l1_LC", "dut.b_DFFLC"]
    assert round(paths[0].mhz, 2) == round(1e6 / 1950, 2)


def test_sides_and_rest() -> None:
    got = side_paths(SDF, {"x": ("u_x.",), "none": ("no_such_cell",)})
    assert got["all"] is not None and got["all"].delay_ps == 1950
    assert got["x"] is not None and got["x"].delay_ps == 1950
    assert got["none"] is None
    # the worst path through no side's cell: a -> l1 -> b
    assert got["rest"] is not None and got["rest"].delay_ps == 1800
    assert "rest" not in side_paths(SDF, {})


@pytest.mark.parametrize("spec", ["tx", "tx=", "=u_a", "all=u_a", "rest=u_b"])
def test_malformed_side_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="NAME=STR"):
        parse_sides([spec])
    assert fmax_main(["--only", "udp_tx_min", "--side", spec]) == 2


def test_side_list_parsed() -> None:
    assert parse_sides(["tx=u_tx_arb,g_txp", "arp=u_arp"]) == {
        "tx": ("u_tx_arb", "g_txp"),
        "arp": ("u_arp",),
    }


@pytest.mark.skipif(
    shutil.which("nextpnr-ice40") is None or shutil.which("yosys") is None,
    reason="needs yosys and nextpnr-ice40",
)
def test_worst_path_equals_nextpnrs_critical_path() -> None:
    top = next(t for t in TOPS if t.name == "udp_tx_min")
    runs = place_and_route(top, (1, 2), 125.0, None, {"hdr": ("hc",)})
    for r in runs:
        assert r.ok, r.error
        sides = r.extra["sides"]
        assert isinstance(sides, dict) and set(sides) == {"all", "hdr", "rest"}
        # nextpnr reports the achieved frequency of its critical path; the pass finds the
        # same path (its rounding: 0.01 MHz in the report against the ps of the SDF)
        assert sides["all"]["mhz"] == pytest.approx(r.fmax_mhz["clk"], abs=0.05)
        for k in ("hdr", "rest"):
            if sides[k] is not None:
                assert sides[k]["mhz"] >= sides["all"]["mhz"] - 0.01
        assert (
            sides["hdr"] is None
            or sides["rest"] is None
            or min(sides["hdr"]["mhz"], sides["rest"]["mhz"])
            == pytest.approx(sides["all"]["mhz"], abs=0.01)
        )
