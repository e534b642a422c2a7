"""Synthesizable tops of the chip-to-chip serial link (rtl/link/): the 8b/10b encoder and
decoder at 1, 2 and 4 bytes per cycle, and the lane receiver on 10- and 20-bit streams."""

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
]
