"""The board builds (syn/board.py). make bitstream BOARD=colorlight_i9: the whole board
through yosys, nextpnr-ecp5 and ecppack, failing on a timing failure; the Nexys Video top
through yosys synth_xilinx (its bitstream is Vivado's). Long: the full node's synthesis
and place-and-route take many minutes."""

from __future__ import annotations

import json

import pytest

from syn.board import BUILD, build, timing_failures, xilinx_figures


@pytest.mark.long
def test_colorlight_i9_bitstream() -> None:
    fig = build("colorlight_i9")
    assert not timing_failures(fig)
    assert (BUILD / "colorlight_i9" / "colorlight_i9.bit").stat().st_size > 100_000
    assert fig["lut4"] and fig["ff"] and fig["ebr"]
    fmax = fig["fmax"]
    assert isinstance(fmax, dict)
    # the line-rate clock and the control plane's clock are both constrained and met
    assert {v["constraint_mhz"] for v in fmax.values()} >= {125.0, 62.5}, fmax


@pytest.mark.long
def test_nexys_video_synth_xilinx() -> None:
    """The Artix-7 top synthesizes with its primitives in place: the MMCM, three global
    buffers, an IDDR per receive pin and an ODDR per transmit pin and the clock."""
    fig = build("nexys_video")
    cells = json.loads((BUILD / "nexys_video" / "stat.json").read_text())["design"][
        "num_cells_by_type"
    ]
    assert cells.get("MMCME2_BASE") == 1
    assert cells.get("IDDR") == 5 and cells.get("ODDR") == 6, cells
    assert cells.get("BUFG", 0) >= 3
    assert fig["lut"] and fig["ff"] and fig["ramb36"]


def test_timing_failures_parse() -> None:
    """The timing check: a clock below its constraint is a failure, one at it is not."""
    fig = {
        "fmax": {
            "clk": {"achieved_mhz": 124.9, "constraint_mhz": 125.0},
            "eth_rxc": {"achieved_mhz": 125.0, "constraint_mhz": 125.0},
        }
    }
    assert timing_failures(fig) == ["clk: 124.9 MHz < 125.0 MHz"]


def test_xilinx_figures() -> None:
    """yosys's Xilinx cell counts summed by kind."""
    cells = {"LUT1": 3, "LUT6": 10, "FDRE": 7, "FDSE": 1, "RAMB36E1": 2, "RAMB18E1": 3,
             "DSP48E1": 1, "SRL16E": 4, "CARRY4": 9}  # fmt: skip
    assert xilinx_figures(cells) == {
        "lut": 13, "ff": 8, "lutram": 4, "ramb36": 2, "ramb18": 3, "dsp": 1,
    }  # fmt: skip
