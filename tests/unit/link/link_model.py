"""A model of a bonded 8b/10b link's lanes for the tests of rtl/link: the words a
transmitter sends cycle by cycle (user words, idle filler, the ordered set /K/ /A/ /S/...
every interval, as docs/link.md specifies link_tx), each lane encoded by the table-driven
8b/10b model (ref_8b10b) into a bit string, with skew in whole symbols, a bit offset, and
bit errors or slips applied to the bits. The tests cut the bit strings into raw 10-bit
words for the receiver."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ref_8b10b import code_to_bits, encode

K28_5 = 0xBC  # comma, idle filler
K28_3 = 0x7C  # /A/ alignment marker
K23_7 = 0xF7  # /S/ skip
FRAMING = (K28_5, K28_3, K23_7)

Sym = tuple[int, bool]  # (byte, control)
Word = tuple[Sym, ...]  # one symbol per lane, lane 0 first


def user_word(rng: random.Random, lanes: int) -> Word:
    """A random user word: data bytes with now and then a control code that is no framing
    code (K28.0, K28.2, K28.4 as the link layer uses them)."""
    out = []
    for _ in range(lanes):
        if rng.random() < 0.05:
            out.append((rng.choice((0x1C, 0x5C, 0x9C)), True))
        else:
            out.append((rng.getrandbits(8), False))
    return tuple(out)


@dataclass
class Transmitter:
    """The documented transmitter: cycle c (counted from the transmitter's reset) sends
    the ordered set where c % interval < skips + 2 (/K/ at 0, /A/ at 1, /S/ after), else
    the next user word if one is waiting, else idle /K/."""

    lanes: int
    interval: int
    skips: int

    def set_symbol(self, c: int) -> int | None:
        pos = c % self.interval
        if pos == 0:
            return K28_5
        if pos == 1:
            return K28_3
        if pos < self.skips + 2:
            return K23_7
        return None

    def run(self, first: int, cycles: int, user: list[Word], user_from: int) -> list[Word]:
        """Words sent in cycles first..first+cycles-1; user words offered from cycle
        user_from on (all of them must fit)."""
        out: list[Word] = []
        queue = list(user)
        for c in range(first, first + cycles):
            s = self.set_symbol(c)
            if s is not None:
                out.append(((s, True),) * self.lanes)
            elif c >= user_from and queue:
                out.append(queue.pop(0))
            else:
                out.append(((K28_5, True),) * self.lanes)
        assert not queue, f"{len(queue)} user words did not fit"
        return out

    def marker_cycles(self, first: int, cycles: int) -> list[int]:
        """Offsets (from first) of the cycles sending /A/."""
        return [c - first for c in range(first, first + cycles) if c % self.interval == 1]


@dataclass
class Lane:
    """One lane's bits: ``skew`` idle symbols before the transmitter's (the lane is that
    many symbols late), ``offset`` junk bits before those, then bit errors (flipped
    positions) and slips (a bit dropped: ``drops``; a bit repeated: ``dups``), positions
    counted in the lane's encoded symbols from the first transmitted word."""

    skew: int = 0
    offset: int = 0
    flips: list[int] = field(default_factory=list)
    drops: list[int] = field(default_factory=list)

    def bits(self, words: list[Word], lane: int) -> str:
        syms: list[Sym] = [(K28_5, True)] * self.skew + [w[lane] for w in words]
        rd = -1
        parts = []
        for b, k in syms:
            code, rd = encode(b, k, rd)
            parts.append(code_to_bits(code))
        bits = list("".join(parts))
        base = 10 * self.skew
        for p in self.flips:
            bits[base + p] = "1" if bits[base + p] == "0" else "0"
        for p in sorted(self.drops, reverse=True):
            del bits[base + p]
        return ("10" * 8)[: self.offset] + "".join(bits)


def raw_words(lanes: list[Lane], words: list[Word]) -> list[int]:
    """The receiver's raw input, one int of 10 bits per lane per cycle (lane i in bits
    10i+9..10i, the first bit on the wire in bit 10i), as many whole cycles as every lane
    has."""
    streams = [ln.bits(words, i) for i, ln in enumerate(lanes)]
    n = min(len(s) for s in streams) // 10
    out = []
    for c in range(n):
        v = 0
        for i, s in enumerate(streams):
            v |= int(s[10 * c : 10 * c + 10][::-1], 2) << 10 * i
        out.append(v)
    return out


def is_framing(w: Word) -> bool:
    return all(k and b in FRAMING for b, k in w)
