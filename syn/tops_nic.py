"""Synthesizable tops of the smart network interface (rtl/nic/): the receive classifier at
8 and 64 bits. The synthesis tests take small tables (4 rules over 16 bytes, the same
elaboration as any size); the default table (16 rules over 64 bytes) and the K = 16/32 and
64-rule variants are benchmarks only (minutes of Yosys each). The transmit arbiter (two
inputs, at 8 and 64 bits) and the reply builder (8 bits, 2 KiB of payload)."""

from __future__ import annotations

from syn.tops import Top


def _cls(name: str, data_w: int, rules: int, k: int, in_tests: bool, cut: int = 0) -> Top:
    params = {"DATA_W": data_w, "RULES": rules, "K": k, "ACCEL_PORTS": 2, "HOST_CUT": cut}
    return Top(name, "nic_classifier", params, in_tests=in_tests)


TOPS = [
    _cls("nic_classifier_w8_r4_k16", 8, 4, 16, True),
    _cls("nic_classifier_w64_r4_k16", 64, 4, 16, True),
    _cls("nic_classifier_w8_r4_k16_cut", 8, 4, 16, False, cut=1),
    _cls("nic_classifier_w8", 8, 16, 64, False),
    _cls("nic_classifier_w64", 64, 16, 64, False),
    _cls("nic_classifier_w8_k16", 8, 16, 16, False),
    _cls("nic_classifier_w8_k32", 8, 16, 32, False),
    _cls("nic_classifier_w8_r64", 8, 64, 64, False),
    Top("nic_tx_arb_w8", "nic_tx_arb", {"N": 2, "DATA_W": 8}),
    Top("nic_tx_arb_w64", "nic_tx_arb", {"N": 2, "DATA_W": 64}),
    Top("nic_reply", "nic_reply", {"PAY_DEPTH": 2048, "MAX_PAYLOAD": 1472}),
]
