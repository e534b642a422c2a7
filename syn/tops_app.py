"""Synthesizable tops of the data-acquisition applications (rtl/app/)."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("pktgen_8", "pktgen", {"DATA_W": 8}, fmax=True),
    Top("pktgen_64", "pktgen", {"DATA_W": 64}),
    Top("pktgen_8_ram", "pktgen", {"DATA_W": 8, "DST_RAM": 1}, fmax=True),
    Top("seq_sink_8", "seq_sink", {"DATA_W": 8}, fmax=True),
    Top("seq_sink_64", "seq_sink", {"DATA_W": 64}),
]
