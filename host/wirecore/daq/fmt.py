"""The data-acquisition payload format shared by the FPGA generator (rtl/app/pktgen.v),
the sequence-checking sink (rtl/app/seq_sink.v) and the PC tools.

Byte offsets in the UDP payload (docs/daq.md):

====== ====== ==========================================================
offset bytes  field
====== ====== ==========================================================
0      8      sequence number, big-endian (per destination: 0, 1, 2, ...)
8      8      timestamp, big-endian (FPGA cycles, or the time input)
16     ...    fill: a constant byte, or LFSR bytes seeded from the sequence
====== ====== ==========================================================

LFSR: 32-bit Galois, right shift, toggle mask 0x80200003, seeded with
``seq[31:0] ^ 0x9E3779B9`` (1 if that is 0); every fill byte is the low byte of the
state after 8 more steps.
"""

from __future__ import annotations

import struct

HEADER_LEN = 16
LFSR_MASK = 0x80200003
SEED_XOR = 0x9E3779B9
_HDR = struct.Struct(">QQ")


def lfsr_seed(seq: int) -> int:
    """The LFSR seed of the datagram with sequence number ``seq``."""
    s = (seq & 0xFFFFFFFF) ^ SEED_XOR
    return s if s else 1


def _step_table() -> tuple[list[int], list[int]]:
    """8 LFSR steps are linear in the state: tabulate them per state byte."""
    tabs: list[list[int]] = []
    for byte_pos in range(4):
        tab = []
        for v in range(256):
            t = v << (8 * byte_pos)
            for _ in range(8):
                t = (t >> 1) ^ LFSR_MASK if t & 1 else t >> 1
            tab.append(t)
        tabs.append(tab)
    return tabs[0], tabs[1] + tabs[2] + tabs[3]


_T0, _T123 = _step_table()


def lfsr_step8(s: int) -> int:
    """Advance the LFSR by 8 steps (one fill byte)."""
    return (
        _T0[s & 0xFF]
        ^ _T123[(s >> 8) & 0xFF]
        ^ _T123[256 + ((s >> 16) & 0xFF)]
        ^ _T123[512 + (s >> 24)]
    )


def lfsr_bytes(seed: int, n: int) -> bytes:
    """``n`` fill bytes from an LFSR seeded with ``seed``."""
    out = bytearray(n)
    s = seed
    for i in range(n):
        s = lfsr_step8(s)
        out[i] = s & 0xFF
    return bytes(out)


_FILL_CACHE: dict[tuple[int, int], bytes] = {}


def build_payload(seq: int, ts: int, length: int, lfsr: bool = False, fill: int = 0) -> bytes:
    """The payload the generator sends: header, then fill, cut to ``length`` bytes."""
    head = _HDR.pack(seq & (2**64 - 1), ts & (2**64 - 1))
    n_fill = max(0, length - HEADER_LEN)
    if lfsr:
        body = lfsr_bytes(lfsr_seed(seq), n_fill)
    else:
        key = (fill, n_fill)
        body = _FILL_CACHE.get(key) or _FILL_CACHE.setdefault(key, bytes([fill & 0xFF]) * n_fill)
    return (head + body)[:length]


def parse_header(payload: bytes) -> tuple[int, int] | None:
    """(sequence, timestamp) of a payload, or None if it is shorter than the header."""
    if len(payload) < HEADER_LEN:
        return None
    return _HDR.unpack_from(payload)


def check_fill(payload: bytes, lfsr: bool, fill: int = 0) -> bool:
    """True if the fill after the header is what the generator sends."""
    hdr = parse_header(payload)
    if hdr is None:
        return False
    want = build_payload(hdr[0], hdr[1], len(payload), lfsr, fill)
    return want == payload


_BASIS: dict[int, object] = {}


def lfsr_fill_fast(seq: int, n_fill: int) -> bytes:
    """The same fill as :func:`lfsr_bytes` of :func:`lfsr_seed`, computed with numpy.

    The LFSR is linear over GF(2): the fill of a seed is the XOR of the fills of its set
    bits, so one table of 32 rows per length turns a datagram into 32 vector XORs.
    """
    import numpy as np

    basis = _BASIS.get(n_fill)
    if basis is None:
        basis = np.frombuffer(
            b"".join(lfsr_bytes(1 << i, n_fill) for i in range(32)), dtype=np.uint8
        ).reshape(32, n_fill)
        _BASIS[n_fill] = basis
    seed = lfsr_seed(seq)
    bits = [i for i in range(32) if seed >> i & 1]
    return np.bitwise_xor.reduce(basis[bits], axis=0).tobytes()  # type: ignore[index]


def build_payload_fast(seq: int, ts: int, length: int, lfsr: bool = False, fill: int = 0) -> bytes:
    """:func:`build_payload`, fast enough for a software generator at line rate."""
    if not lfsr or length <= HEADER_LEN:
        return build_payload(seq, ts, length, lfsr, fill)
    head = _HDR.pack(seq & (2**64 - 1), ts & (2**64 - 1))
    return head + lfsr_fill_fast(seq, length - HEADER_LEN)
