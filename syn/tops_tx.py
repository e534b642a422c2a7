"""Synthesizable transmit-side tops: the zero-wait UDP/IP transmitter, the minimal UDP
transmitter, ICMP echo and port unreachable, the UDP echo, the transmit arbiter and the
raw-EtherType transmitter."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("udp_tx_min", "udp_tx_min", {}, fmax=True),
    Top("udp_ip_tx_8b", "udp_ip_tx", {"DATA_W": 8}, fmax=True),
    Top("udp_ip_tx_64b", "udp_ip_tx", {"DATA_W": 64}),
    Top("udp_tx_8b", "udp_tx", {"DATA_W": 8}),
    Top("icmp_echo_8b", "icmp_echo", {"DATA_W": 8}, fmax=True),
    Top("icmp_echo_64b", "icmp_echo", {"DATA_W": 64}),
    Top("eth_tx_arb_3x8b", "eth_tx_arb", {"N": 3, "DATA_W": 8}),
    Top("icmp_unreach_8b", "icmp_unreach", {"DATA_W": 8}),
    Top("udp_echo_8b", "udp_echo", {"DATA_W": 8}),
    Top("raw_tx_8b", "raw_tx", {"DATA_W": 8}),
]
