"""The register map: generated files up to date, map consistent, uHAL reads the table."""

from __future__ import annotations

import pytest
from wirecore import regmap as rm


def test_generated_files_up_to_date() -> None:
    stale = rm.generate(check=True)
    assert not stale, f"regenerate with `python -m wirecore.regmap`: stale {stale}"


def test_regenerating_is_identical(tmp_path) -> None:
    assert sorted(rm.generate(tmp_path)) == sorted(rm.OUTPUTS)  # all written to a fresh tree
    assert rm.generate(tmp_path, check=True) == []
    for rel in rm.OUTPUTS:
        assert (tmp_path / rel).read_text() == (rm.ROOT / rel).read_text()


def test_map_is_consistent() -> None:
    rm.validate()
    addrs = [rm.address(b, r) for b, r in rm.all_regs()]
    assert len(addrs) == len(set(addrs))
    assert rm.find("net.ip") == 0x82 and rm.find("MEM") == rm.MEM_BASE
    with pytest.raises(KeyError):
        rm.find("NET.NOPE")


def test_uhal_parses_address_table() -> None:
    uhal = pytest.importorskip("uhal")
    uhal.setLogLevelTo(uhal.LogLevel.WARNING)
    hw = uhal.getDevice(
        "dut", "ipbusudp-2.0://127.0.0.1:50001", "file://" + str(rm.address_table_path())
    )
    for b, r in rm.all_regs():
        node = hw.getNode(f"{b.name}.{r.name}")
        assert node.getAddress() == rm.address(b, r), f"{b.name}.{r.name}"
        narrow = r.width < 32 and not r.fields  # with fields, the fields carry masks
        expected_mask = (1 << r.width) - 1 if narrow else 0xFFFFFFFF
        assert node.getMask() == expected_mask
    mem = hw.getNode("MEM")
    assert mem.getAddress() == rm.MEM_BASE and mem.getSize() == rm.MEM_WORDS
    assert hw.getNode("NET.ENABLES.ICMP").getMask() == 0x2
