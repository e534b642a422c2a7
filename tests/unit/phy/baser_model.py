"""An independent Python model of 10GBASE-R 64b/66b coding (IEEE 802.3 clause 49): the
block formats of figure 49-7 written as field lists, and the x^58 + x^39 + 1 scrambler.

A word is 8 lanes of (byte, is_control). A block is a 66-bit int, bit 0 sent first: bits
1:0 the sync header (0b10 data: "01" sent 0 first; 0b01 control), bits 65:2 the payload."""

from __future__ import annotations

import random

SYNC_DATA, SYNC_CTRL = 0b10, 0b01
S, T, E, IDLE = 0xFB, 0xFD, 0xFE, 0x07
CODES = {0x07: 0x00, 0x06: 0x06, 0xFE: 0x1E, 0x1C: 0x2D, 0x3C: 0x33, 0x7C: 0x4B,
         0xBC: 0x55, 0xDC: 0x66, 0xF7: 0x78}  # fmt: skip
CHARS = {v: k for k, v in CODES.items()}
OCODES = {0x9C: 0x0, 0x5C: 0xF}
OCHARS = {v: k for k, v in OCODES.items()}

Lane = tuple[int, bool]
Word = list[Lane]


def _fields(spec: str) -> list[tuple[str, int]]:
    """ "C0 O4 D5 P4" -> [("C", 0), ("O", 4), ("D", 5), ("P", 4)]."""
    return [(f[0], int(f[1:])) for f in spec.split()]


def _t(lane: int) -> tuple[str, list[tuple[str, int]]]:
    """The terminate format with /T/ on ``lane``: data below, pad, control codes above."""
    kinds = "D" * lane + "T" + "C" * (7 - lane)
    fields = [("D", j) for j in range(lane)] + [("P", 7 - lane)]
    fields += [("C", k) for k in range(lane + 1, 8)]
    return kinds, fields


# block type -> (lane kinds 0..7, payload fields after the type byte, low bits first)
# field: ("D", lane) 8 bits, ("C", lane) 7, ("O", lane) 4, ("P", n) n zero bits
FORMATS: dict[int, tuple[str, list[tuple[str, int]]]] = {
    0x1E: ("CCCCCCCC", _fields("C0 C1 C2 C3 C4 C5 C6 C7")),
    0x2D: ("CCCCODDD", _fields("C0 C1 C2 C3 O4 D5 D6 D7")),
    0x33: ("CCCCSDDD", _fields("C0 C1 C2 C3 P4 D5 D6 D7")),
    0x66: ("ODDDSDDD", _fields("D1 D2 D3 O0 P4 D5 D6 D7")),
    0x55: ("ODDDODDD", _fields("D1 D2 D3 O0 O4 D5 D6 D7")),
    0x78: ("SDDDDDDD", _fields("D1 D2 D3 D4 D5 D6 D7")),
    0x4B: ("ODDDCCCC", _fields("D1 D2 D3 O0 C4 C5 C6 C7")),
    0x87: _t(0), 0x99: _t(1), 0xAA: _t(2), 0xB4: _t(3),
    0xCC: _t(4), 0xD2: _t(5), 0xE1: _t(6), 0xFF: _t(7),
}  # fmt: skip
WIDTH = {"D": 8, "C": 7, "O": 4}
ERROR_BLOCK = (sum(0x1E << (8 + 7 * k) for k in range(8)) | 0x1E) << 2 | SYNC_CTRL


def kind(lane: Lane) -> str:
    b, c = lane
    if not c:
        return "D"
    return {S: "S", T: "T"}.get(b, "O" if b in OCODES else "C" if b in CODES else "X")


def encode(word: Word) -> tuple[int, bool]:
    """(block, error): the block for an XGMII word, or the error block."""
    kinds = "".join(kind(x) for x in word)
    if kinds == "D" * 8:
        return sum(b << (8 * k) for k, (b, _) in enumerate(word)) << 2 | SYNC_DATA, False
    for btype, (pattern, fields) in FORMATS.items():
        if pattern == kinds:
            p, pos = btype, 8
            for f, arg in fields:
                if f == "P":
                    pos += arg
                    continue
                b = word[arg][0]
                v = {"D": b, "C": CODES.get(b, 0), "O": OCODES.get(b, 0)}[f]
                p |= v << pos
                pos += WIDTH[f]
            assert pos == 64, (hex(btype), pos)
            return p << 2 | SYNC_CTRL, False
    return ERROR_BLOCK, True


def decode(block: int) -> tuple[Word, bool]:
    """(word, error): the XGMII word of a block, or eight /E/ for an invalid one."""
    err_word: Word = [(E, True)] * 8
    sync, p = block & 3, block >> 2
    if sync == SYNC_DATA:
        return [((p >> (8 * k)) & 0xFF, False) for k in range(8)], False
    if sync != SYNC_CTRL or (p & 0xFF) not in FORMATS:
        return err_word, True
    pattern, fields = FORMATS[p & 0xFF]
    word: Word = [(0, False)] * 8
    for k, kd in enumerate(pattern):
        if kd in "ST":
            word[k] = ({"S": S, "T": T}[kd], True)
    pos = 8
    for f, arg in fields:
        if f == "P":
            pos += arg
            continue
        v = (p >> pos) & ((1 << WIDTH[f]) - 1)
        pos += WIDTH[f]
        if f == "D":
            word[arg] = (v, False)
        elif f == "C":
            if v not in CHARS:
                return err_word, True
            word[arg] = (CHARS[v], True)
        else:
            if v not in OCHARS:
                return err_word, True
            word[arg] = (OCHARS[v], True)
    return word, False


class Scrambler:
    """Self-synchronous scrambler/descrambler x^58 + x^39 + 1 over the payload bits."""

    def __init__(self, state: int = (1 << 58) - 1) -> None:
        self.s = state  # the last 58 line bits, the newest in bit 0

    def _run(self, p: int, descramble: bool) -> int:
        out = 0
        for i in range(64):
            bit = (p >> i) & 1
            o = bit ^ (self.s >> 38 & 1) ^ (self.s >> 57 & 1)
            out |= o << i
            line = bit if descramble else o
            self.s = ((self.s << 1) | line) & ((1 << 58) - 1)
        return out

    def scramble(self, block: int) -> int:
        return self._run(block >> 2, False) << 2 | (block & 3)

    def descramble(self, block: int) -> int:
        return self._run(block >> 2, True) << 2 | (block & 3)


def word_value(word: Word) -> tuple[int, int]:
    """(txd, txc) of a word."""
    return (sum(b << (8 * k) for k, (b, _) in enumerate(word)),
            sum(int(c) << k for k, (_, c) in enumerate(word)))  # fmt: skip


def value_word(d: int, c: int) -> Word:
    return [((d >> (8 * k)) & 0xFF, bool(c >> k & 1)) for k in range(8)]


def random_word(rng: random.Random, kinds: str) -> Word:
    """A word of the given lane kinds, random bytes and control characters."""
    out: Word = []
    for kd in kinds:
        if kd == "D":
            out.append((rng.randrange(256), False))
        elif kd == "C":
            out.append((rng.choice(list(CODES)), True))
        elif kd == "O":
            out.append((rng.choice(list(OCODES)), True))
        else:
            out.append(({"S": S, "T": T}[kd], True))
    return out


def every_format(rng: random.Random, n: int = 4) -> list[Word]:
    """n words of each block format, data words, and words that fit none."""
    words = [random_word(rng, "D" * 8) for _ in range(n)]
    for pattern, _ in FORMATS.values():
        words += [random_word(rng, pattern) for _ in range(n)]
    bad = ["DCDDDDDD", "SDDDSDDD", "TDDDDDDD", "CCCCCCCO", "DDDDTDDD", "CSCCCCCC", "ODDDDDDD"]
    words += [random_word(rng, k) for k in bad]
    words.append([(0x12, True)] + [(IDLE, True)] * 7)  # a control byte with no code
    return words


class Channel:
    """The line between a 66-bit block source and the PCS receiver, bit by bit: blocks go
    in (optionally with their sync header forced to an invalid value), blocks come out
    cut at the current bit boundary; ``slip`` (the PCS's rx_slip) and ``drop_bit`` (a
    fault on the line) move the boundary by one bit."""

    def __init__(self, offset: int = 0) -> None:
        self.buf = random.Random(offset).getrandbits(offset) if offset else 0
        self.n = offset
        self.drops = 0  # bits to drop from blocks not pushed yet

    def push(self, block: int) -> None:
        self.buf |= block << self.n
        self.n += 66
        self.buf >>= self.drops
        self.n -= self.drops
        self.drops = 0

    def drop_bit(self) -> None:
        if not self.n:
            self.drops += 1
            return
        self.buf >>= 1
        self.n -= 1

    def pull(self) -> int | None:
        if self.n < 66:
            return None
        b = self.buf & ((1 << 66) - 1)
        self.buf >>= 66
        self.n -= 66
        return b
