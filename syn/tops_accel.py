"""Synthesizable tops of the accelerators (rtl/accel/): the CA-CFAR detector with the
classifier's frame layout (42 header bytes before the identifier) and 64 listed
detections. Benchmarks only: on iCE40 its multipliers are LUTs (about 29,700 LUT4, four
times an HX8K's 7,680 logic cells, so no Fmax run) and its synthesis takes many minutes."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    Top("cfar_accel", "cfar_accel", {"SKIP": 42, "MAX_DET": 64}, in_tests=False),
]
