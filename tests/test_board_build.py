"""make bitstream BOARD=colorlight_i5: the whole board through yosys, nextpnr-ecp5 and
ecppack, failing on a timing failure (syn/board.py). Long: the full node's synthesis and
place-and-route take many minutes."""

from __future__ import annotations

import pytest

from syn.board import BUILD, build, timing_failures


@pytest.mark.long
def test_colorlight_i5_bitstream() -> None:
    fig = build("colorlight_i5")
    assert not timing_failures(fig)
    assert (BUILD / "colorlight_i5" / "colorlight_i5.bit").stat().st_size > 100_000
    assert fig["lut4"] and fig["ff"]


def test_timing_failures_parse() -> None:
    """The timing check: a clock below its constraint is a failure, one at it is not."""
    fig = {
        "fmax": {
            "clk": {"achieved_mhz": 124.9, "constraint_mhz": 125.0},
            "eth_rxc": {"achieved_mhz": 125.0, "constraint_mhz": 125.0},
        }
    }
    assert timing_failures(fig) == ["clk: 124.9 MHz < 125.0 MHz"]
