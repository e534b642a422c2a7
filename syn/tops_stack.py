"""Synthesizable tops of the receive path and the integrated UDP/IP stack (no MAC).

The 64-bit stack top is left out: its synthesis alone would take a large share of the
test suite's time budget; its receive blocks are listed at 64 bits individually.
"""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("eth_rx_8", "eth_rx", {"DATA_W": 8}),
    Top("eth_rx_64", "eth_rx", {"DATA_W": 64}),
    Top("ip_rx_8", "ip_rx", {"DATA_W": 8}, fmax=True),
    Top("ip_rx_64", "ip_rx", {"DATA_W": 64}),
    Top("udp_rx_8_p2", "udp_rx", {"DATA_W": 8, "NUM_PORTS": 2}),
    Top("udp_rx_64_p2", "udp_rx", {"DATA_W": 64, "NUM_PORTS": 2}),
    # not an Fmax top: with its 32-bit counters and the place-and-route wrapper's boundary
    # registers it needs 9421 logic cells, more than an HX8K has; the node tops
    # (syn/tops_system.py) measure the stack's Fmax
    Top("udp_stack_8_p1", "udp_stack", {"DATA_W": 8, "NUM_PORTS": 1}),
]
