"""Synthesizable tops of rtl/common: the FIFOs at the two datapath widths, the counters."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("axis_fifo_w8_d2048", "axis_fifo", {"DATA_W": 8, "DEPTH": 2048}, fmax=True),
    Top(
        "axis_fifo_w64_d512_frame",
        "axis_fifo",
        {"DATA_W": 64, "DEPTH": 512, "FRAME_FIFO": 1, "DROP_BAD_FRAME": 1, "DROP_WHEN_FULL": 1},
        fmax=True,
    ),
    Top(
        "axis_async_fifo_w8_d2048_frame",
        "axis_async_fifo",
        {"DATA_W": 8, "DEPTH": 2048, "FRAME_FIFO": 1, "DROP_BAD_FRAME": 1, "DROP_WHEN_FULL": 1},
        fmax=True,
        clocks=("s_clk", "m_clk"),
    ),
    Top(
        "axis_async_fifo_w64_d512",
        "axis_async_fifo",
        {"DATA_W": 64, "DEPTH": 512},
        fmax=True,
        clocks=("s_clk", "m_clk"),
    ),
    Top("stat_counters", "stat_counters", {}),
]

TOPS.append(
    Top(
        "eth_mac_gmii_fifo",
        "eth_mac_gmii_fifo",
        {"TX_DEPTH": 2048, "RX_DEPTH": 2048},
        fmax=True,
        clocks=("clk", "gmii_tx_clk", "gmii_rx_clk"),
    )
)
