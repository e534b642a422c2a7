"""Synthesizable tops of the TCP engine (rtl/tcp/)."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("tcp_core_8", "tcp_core", {"DATA_W": 8, "NUM_SESS": 8, "BUF_LOG2": 11}),
    Top("tcp_core_8_b9", "tcp_core", {"DATA_W": 8, "NUM_SESS": 8, "BUF_LOG2": 9}),
]
