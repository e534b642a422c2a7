"""Synthesizable tops of the control plane (rtl/ctrl/ and the IPbus target in rtl/app/)."""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    # the IPbus target alone (input ring 16 KiB, 4 stored replies), 8- and 64-bit datapath
    Top("ipbus_target", "ipbus_target", {"NBUF": 4, "RX_AW": 12}, fmax=True),
    Top("ipbus_target_64", "ipbus_target", {"DATA_W": 64, "NBUF": 4, "RX_AW": 12}),
    # target + interconnect + generated register file + 64 KiB memory
    Top("ipbus_ctrl", "ipbus_ctrl", {"NBUF": 4, "RX_AW": 12, "MEM_AW": 14}),
    # AXI4-Lite to register-bus bridge
    Top("axil_to_reg", "axil_to_reg", {"ADDR_W": 20}),
]
