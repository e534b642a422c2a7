"""The DAQ payload format in Python against an independent bit-level reference."""

from __future__ import annotations

import random
import struct

from wirecore.daq import fmt


def ref_fill(seq: int, n: int) -> bytes:
    """Bit-by-bit Galois LFSR, as docs/daq.md describes it."""
    s = (seq & 0xFFFFFFFF) ^ 0x9E3779B9 or 1
    out = bytearray()
    for _ in range(n):
        for _ in range(8):
            s = (s >> 1) ^ 0x80200003 if s & 1 else s >> 1
        out.append(s & 0xFF)
    return bytes(out)


def test_header_big_endian() -> None:
    p = fmt.build_payload(0x0102030405060708, 0x1112131415161718, 16)
    assert p == bytes(range(1, 9)) + bytes(range(0x11, 0x19))
    assert fmt.parse_header(p) == (0x0102030405060708, 0x1112131415161718)
    assert fmt.parse_header(p[:15]) is None


def test_lfsr_fill_matches_reference() -> None:
    rng = random.Random(3)
    seqs = [0, 1, 0x9E3779B9, 2**32 + 5, 2**64 - 1] + [rng.getrandbits(64) for _ in range(20)]
    for seq in seqs:
        n = rng.randint(0, 200)
        want = struct.pack(">QQ", seq, 77) + ref_fill(seq, n)
        assert fmt.build_payload(seq, 77, 16 + n, lfsr=True) == want
        assert fmt.build_payload_fast(seq, 77, 16 + n, lfsr=True) == want
        assert fmt.check_fill(want, lfsr=True)


def test_seed_zero_uses_one() -> None:
    assert fmt.lfsr_seed(0x9E3779B9) == 1
    assert fmt.build_payload(0x9E3779B9, 0, 20, lfsr=True)[16:] == ref_fill(0x9E3779B9, 4)


def test_constant_fill_and_short_payloads() -> None:
    p = fmt.build_payload(5, 6, 40, fill=0xA5)
    assert p[16:] == b"\xa5" * 24
    assert fmt.check_fill(p, lfsr=False, fill=0xA5)
    assert not fmt.check_fill(p, lfsr=False, fill=0xA4)
    assert fmt.build_payload(5, 6, 5) == struct.pack(">Q", 5)[:5]
    bad = bytearray(fmt.build_payload(9, 0, 100, lfsr=True))
    bad[50] ^= 1
    assert not fmt.check_fill(bytes(bad), lfsr=True)
