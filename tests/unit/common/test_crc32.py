"""crc32: next CRC-32 state over 0..KEEP_W bytes, checked against zlib.crc32.

Widths 8 and 64, every valid-byte count (keep = 0 included), random data and states,
plus the Ethernet residue of a frame followed by its own FCS.
"""

from __future__ import annotations

import random
import zlib

import cocotb
from cocotb.triggers import Timer
from cocotb_run import run

MASK = 0xFFFFFFFF


def ref_state(state: int, data: bytes) -> int:
    """State after ``data`` from ``state`` (zlib keeps the state inverted)."""
    return ~zlib.crc32(data, ~state & MASK) & MASK


@cocotb.test()
async def crc_against_zlib(dut) -> None:
    lanes = len(dut.keep)
    rng = random.Random(1234 + lanes)
    checks = 0
    for n in range(lanes + 1):
        for _ in range(60):
            state = rng.choice([MASK, 0, rng.getrandbits(32)])
            raw = bytes(rng.getrandbits(8) for _ in range(lanes))
            dut.crc_in.value = state
            dut.data.value = int.from_bytes(raw, "little")
            dut.keep.value = (1 << n) - 1
            await Timer(1, "ns")
            got = int(dut.crc_out.value)
            want = ref_state(state, raw[:n])
            assert got == want, f"n={n} state={state:08x} data={raw.hex()}: {got:08x} != {want:08x}"
            checks += 1
    assert checks == (lanes + 1) * 60


@cocotb.test()
async def crc_frame_and_residue(dut) -> None:
    """Run whole messages through the module beat by beat; FCS and residue match zlib."""
    lanes = len(dut.keep)
    rng = random.Random(99)
    for length in list(range(0, 3 * lanes + 2)) + [60, 1514]:
        msg = bytes(rng.getrandbits(8) for _ in range(length))
        fcs = zlib.crc32(msg).to_bytes(4, "little")
        state = MASK
        stream = msg + fcs
        for off in range(0, len(stream), lanes):
            chunk = stream[off : off + lanes]
            dut.crc_in.value = state
            dut.data.value = int.from_bytes(chunk.ljust(lanes, b"\0"), "little")
            dut.keep.value = (1 << len(chunk)) - 1
            await Timer(1, "ns")
            state = int(dut.crc_out.value)
            if off + lanes == len(msg):
                assert ~state & MASK == zlib.crc32(msg)
        assert state == 0xDEBB20E3, f"len {length}: residue {state:08x}"


def test_crc32_w8() -> None:
    run("crc32", "test_crc32", parameters={"DATA_W": 8})


def test_crc32_w64() -> None:
    run("crc32", "test_crc32", parameters={"DATA_W": 64})
