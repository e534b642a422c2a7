"""Complete designs: udp_echo_node, the smallest node (MAC + RX FIFO + ARP + IPv4 + ICMP echo +
UDP echo, 8 bits, 4-entry ARP cache), the design the area and Fmax goals compare.

``udp_echo_node_8`` keeps its 60 counters (32 bits) in flip-flops behind one read port
(COUNTERS = 1, stat_counters); ``udp_echo_node_8_ram`` keeps them in one RAM (COUNTERS = 2);
``udp_echo_node_8_nocnt`` is the same design built without counters (COUNTERS = 0), as a
design that never reads them would be (benchmarks only: the synthesis test covers the design
once). Fmax is measured on the latter.

The two goal tops, ``udp_echo_node_8_nocnt`` (Fmax) and ``udp_echo_node_8_noicmp`` (area at
the reference's features, no ICMP echo), set ECHO_ARP = 1: the echo's replies are resolved
through the ARP cache, as the reference's are, so ARP's lookup path is in the design (with
the default, replies to the request's source MAC, synthesis removes it: docs/stack.md).
"""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("udp_echo_node_8", "udp_echo_node", {"CNT_W": 32}),
    Top("udp_echo_node_8_ram", "udp_echo_node", {"COUNTERS": 2}),
    Top(
        "udp_echo_node_8_nocnt",
        "udp_echo_node",
        {"COUNTERS": 0, "ECHO_ARP": 1},
        fmax=True,
        in_tests=False,
    ),
    Top(
        "udp_echo_node_8_noicmp",
        "udp_echo_node",
        {"COUNTERS": 0, "ICMP_ECHO": 0, "ECHO_ARP": 1},
        fmax=True,
        in_tests=False,
    ),
    # the same with the echo's transmit checksums computed (mode 1, 2 KiB buffer), as the
    # reference's UDP block computes them by default (area only: docs/benchmarks.md "The
    # anchors and the goals")
    Top(
        "udp_echo_node_8_noicmp_txcsum",
        "udp_echo_node",
        {
            "COUNTERS": 0,
            "ICMP_ECHO": 0,
            "ECHO_ARP": 1,
            "ECHO_CSUM_MODE": 1,
            "TX_BUF_BYTES": 2048,
        },
        in_tests=False,
    ),
]
