"""Synthesizable tops of the chip-to-chip serial link (rtl/link/): the 8b/10b encoder and
decoder at 1, 2 and 4 bytes per cycle, the lane receiver on 10- and 20-bit streams, and the
bonded link: transmitter and receive path (lanes, deskew, elastic buffer) at 4 lanes, the
receive path's parts on their own, and the link layer with 1 KiB buffers."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("enc_8b10b_x1", "enc_8b10b", {"BYTES": 1}, fmax=True),
    Top("enc_8b10b_x2", "enc_8b10b", {"BYTES": 2}, in_tests=False),
    Top("enc_8b10b_x4", "enc_8b10b", {"BYTES": 4}, in_tests=False),
    Top("dec_8b10b_x1", "dec_8b10b", {"BYTES": 1}, fmax=True),
    Top("dec_8b10b_x2", "dec_8b10b", {"BYTES": 2}, in_tests=False),
    Top("dec_8b10b_x4", "dec_8b10b", {"BYTES": 4}, in_tests=False),
    Top("link_lane_rx_w10", "link_lane_rx", {"BYTES": 1}, fmax=True),
    Top("link_lane_rx_w20", "link_lane_rx", {"BYTES": 2}, in_tests=False),
    Top("link_tx_x4", "link_tx", {"LANES": 4}, fmax=True, in_tests=False),
    Top("link_rx_x4", "link_rx", {"LANES": 4}, fmax=True, clocks=("rx_clk", "clk")),
    Top("link_rx_x1", "link_rx", {"LANES": 1}, in_tests=False, clocks=("rx_clk", "clk")),
    Top("link_deskew_x4", "link_deskew", {"LANES": 4}, in_tests=False),
    Top("link_layer_w256", "link_layer", {"MAX_WORDS": 256}, fmax=True),
    Top(
        "link_elastic_buf_x4",
        "link_elastic_buf",
        {"WIDTH": 40},
        in_tests=False,
        clocks=("wr_clk", "clk"),
    ),
]
