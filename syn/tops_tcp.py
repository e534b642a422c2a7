"""Synthesizable tops of the TCP engine (rtl/tcp/).

Each takes about 3 minutes per family in Yosys 0.23, so the synthesis test leaves them to
the area benchmark (`python -m bench.area --only tcp_core`)."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("tcp_core_8", "tcp_core", {"DATA_W": 8, "NUM_SESS": 8, "BUF_LOG2": 11}, in_tests=False),
    Top("tcp_core_8_b9", "tcp_core", {"DATA_W": 8, "NUM_SESS": 8, "BUF_LOG2": 9}, in_tests=False),
]
