"""Synthesizable tops of the control plane (rtl/ctrl/ and the IPbus target in rtl/app/).

The pieces are synthesized separately (ipbus_ctrl is only their wiring plus the address
decoder): the whole ipbus_ctrl takes several minutes in Yosys, mostly for the register
file's read multiplexer, and its figures are in docs/ipbus.md.
"""

from __future__ import annotations

from syn.tops import Top

TOPS = [
    # the IPbus target, 8-bit, with buffers that fit an iCE40 HX8K for the Fmax benchmark
    # (4 KiB input ring, 1 stored reply: 29 of its 32 RAM blocks)
    Top("ipbus_target", "ipbus_target", {"NBUF": 1, "RX_AW": 10}, fmax=True),
    # 64-bit datapath with the usual buffers (16 KiB input ring, 4 stored replies)
    Top("ipbus_target_64", "ipbus_target", {"DATA_W": 64, "NBUF": 4, "RX_AW": 12}),
    # the generated register file, the 64 KiB memory, the AXI4-Lite bridge, the arbiter
    # (its 89 counters in flip-flops, as the virtual board has them; _ram: in one RAM)
    Top("wirecore_regfile", "wirecore_regfile", {}),
    Top("wirecore_regfile_ram", "wirecore_regfile", {"CNT_RAM": 1}, in_tests=False),
    Top("reg_mem_64k", "reg_mem", {"AW": 14}),
    Top("axil_to_reg", "axil_to_reg", {"ADDR_W": 20}),
    Top("reg_arbiter", "reg_arbiter", {}),
]
