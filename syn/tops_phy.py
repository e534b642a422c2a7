"""Synthesizable tops of the 10GBASE-R PCS (rtl/phy/)."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    # 64/66 bits at 156.25 MHz (gearboxes at 322 MHz): beyond iCE40, no Fmax run there
    Top("pcs_baser", "pcs_baser", {}, fmax=False, clocks=("tx_clk", "rx_clk")),
    Top("pcs_baser_tx", "pcs_baser_tx", {}, fmax=False, clocks=("clk",)),
    Top("pcs_baser_rx", "pcs_baser_rx", {}, fmax=False, clocks=("clk",)),
    Top("pcs_gearbox_tx", "pcs_gearbox_tx", {}, fmax=False, clocks=("clk",)),
    Top("pcs_gearbox_rx", "pcs_gearbox_rx", {}, fmax=False, clocks=("clk",)),
]
