"""Synthesizable ARP tops: the ARP engine at 8 bits with a 4- and a 16-entry cache, as the
8-bit stack uses it (REPEAT_LAT 2)."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("arp_8b_4e", "arp", {"DATA_W": 8, "ENTRIES": 4, "WAYS": 2, "REPEAT_LAT": 2}, fmax=True),
    Top("arp_8b_16e", "arp", {"DATA_W": 8, "ENTRIES": 16, "WAYS": 4, "REPEAT_LAT": 2}),
]
