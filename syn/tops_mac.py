"""Synthesizable tops of the Ethernet MAC (rtl/mac/, rtl/common/crc32.v)."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    # two clocks: Fmax is taken on the TX and RX cores, which hold all of its logic
    Top("mac_gmii", "eth_mac_gmii", {}, fmax=False, clocks=("tx_clk", "rx_clk")),
    Top("mac_tx", "eth_mac_tx", {}, fmax=True, clocks=("clk",)),
    Top("mac_rx", "eth_mac_rx", {}, fmax=True, clocks=("clk",)),
    Top("mac_mii", "eth_mac_mii", {}, fmax=False, clocks=("mii_tx_clk", "mii_rx_clk")),
    # with the generic DDR models (boards/<vendor>/ has the vendor versions)
    Top("mac_rgmii", "eth_mac_rgmii", {}, fmax=False, clocks=("tx_clk", "rgmii_rxc")),
    # 10 Gbit/s XGMII (64 bits at 156.25 MHz: beyond iCE40, no Fmax run there)
    Top("mac_xgmii", "eth_mac_xgmii", {}, fmax=False, clocks=("tx_clk", "rx_clk")),
    Top("mac_xgmii_tx", "eth_mac_xgmii_tx", {}, fmax=False, clocks=("clk",)),
    Top("mac_xgmii_rx", "eth_mac_xgmii_rx", {}, fmax=False, clocks=("clk",)),
]
