"""Synthesizable tops of the smart network interface (rtl/nic/): the receive classifier at
8 and 64 bits, 16 rules over K = 64 bytes (default), and the benchmark variants at K = 16
and 32 and 64 rules."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("nic_classifier_w8", "nic_classifier", {"DATA_W": 8, "RULES": 16, "K": 64}, fmax=True),
    Top("nic_classifier_w64", "nic_classifier", {"DATA_W": 64, "RULES": 16, "K": 64}),
    Top(
        "nic_classifier_w8_k16",
        "nic_classifier",
        {"DATA_W": 8, "RULES": 16, "K": 16},
        in_tests=False,
    ),
    Top(
        "nic_classifier_w8_k32",
        "nic_classifier",
        {"DATA_W": 8, "RULES": 16, "K": 32},
        in_tests=False,
    ),
    Top(
        "nic_classifier_w8_r64",
        "nic_classifier",
        {"DATA_W": 8, "RULES": 64, "K": 64},
        in_tests=False,
    ),
]
