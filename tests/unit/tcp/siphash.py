"""SipHash-2-4 (Aumasson and Bernstein, 2012) in Python: the reference for tcp_isn, checked
against the paper's test vector (key 00..0f, message 00..0e -> a129ca6149be45e5)."""

from __future__ import annotations

M64 = (1 << 64) - 1


def _rotl(x: int, n: int) -> int:
    return ((x << n) | (x >> (64 - n))) & M64


def _round(v: list[int]) -> None:
    v[0] = (v[0] + v[1]) & M64
    v[1] = _rotl(v[1], 13) ^ v[0]
    v[0] = _rotl(v[0], 32)
    v[2] = (v[2] + v[3]) & M64
    v[3] = _rotl(v[3], 16) ^ v[2]
    v[0] = (v[0] + v[3]) & M64
    v[3] = _rotl(v[3], 21) ^ v[0]
    v[2] = (v[2] + v[1]) & M64
    v[1] = _rotl(v[1], 17) ^ v[2]
    v[2] = _rotl(v[2], 32)


def siphash24(key: bytes, msg: bytes) -> int:
    k0 = int.from_bytes(key[:8], "little")
    k1 = int.from_bytes(key[8:16], "little")
    v = [
        k0 ^ 0x736F6D6570736575,
        k1 ^ 0x646F72616E646F6D,
        k0 ^ 0x6C7967656E657261,
        k1 ^ 0x7465646279746573,
    ]
    tail = len(msg) % 8
    words = [int.from_bytes(msg[i : i + 8], "little") for i in range(0, len(msg) - tail, 8)]
    last = int.from_bytes(msg[len(msg) - tail :], "little") | ((len(msg) & 0xFF) << 56)
    for m in [*words, last]:
        v[3] ^= m
        _round(v)
        _round(v)
        v[0] ^= m
    v[2] ^= 0xFF
    for _ in range(4):
        _round(v)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


assert siphash24(bytes(range(16)), bytes(range(15))) == 0xA129CA6149BE45E5
