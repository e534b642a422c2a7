"""The smart network interface's rules on a board (wirecore_node NIC = 1, docs/nic.md).

The classifier's register map (nic_classifier, docs/nic.md "Register map") lives in the
register-map window NIC_RULES: shadow value and mask words (frame byte 4w in bits 31:24
of word w), the default action, an info word, and per rule an action word whose write
commits the shadow into the rule in one cycle. Reading a rule loads it into the shadow
first. A ``bus`` is anything with ``read(addr, n) -> list[int]`` and
``write(addr, values)`` (``wirecore.commands.reg.Device``, ``wirecore.ipbus.Client``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Protocol

from wirecore import regmap as rm

ACTIONS = ("host", "accel", "drop")
OFF_VALUE, OFF_MASK, OFF_DEFAULT, OFF_INFO, OFF_RULE, OFF_LOAD = 0x00, 0x10, 0x20, 0x21, 0x40, 0x80


class Bus(Protocol):
    def read(self, addr: int, n: int = 1) -> list[int]: ...
    def write(self, addr: int, values: list[int]) -> None: ...


@dataclass(frozen=True)
class Info:
    rules: int
    k: int
    accel_ports: int


@dataclass(frozen=True)
class Rule:
    """One rule: ``value`` and ``mask`` over the first K bytes of a frame, its action
    (host, accel, drop), the copy-to-host flag and the accelerator port."""

    value: bytes
    mask: bytes
    action: str = "host"
    copy: bool = False
    port: int = 0
    enabled: bool = True

    def word(self) -> int:
        """The action word (bit 0 enable, 2:1 action, 3 copy, 7:4 port)."""
        return (
            int(self.enabled)
            | ACTIONS.index(self.action) << 1
            | int(self.copy) << 3
            | (self.port & 0xF) << 4
        )

    @staticmethod
    def from_word(word: int, value: bytes, mask: bytes) -> Rule:
        act = (word >> 1) & 3
        return Rule(
            value,
            mask,
            ACTIONS[act] if act < len(ACTIONS) else f"?{act}",
            bool(word >> 3 & 1),
            word >> 4 & 0xF,
            bool(word & 1),
        )

    def fields(self) -> str:
        """The rule's match as named header fields where it masks them, else as bytes."""
        out = []
        for name, off, n, fmt in MATCH_FIELDS:
            m = self.mask[off : off + n]
            if any(m):
                if any(x != 0xFF for x in m):
                    return self.raw()
                out.append(f"{name}={fmt(self.value[off : off + n])}")
        covered = {i for _, off, n, _ in MATCH_FIELDS for i in range(off, off + n)}
        if any(b for i, b in enumerate(self.mask) if i not in covered):
            return self.raw()
        return " ".join(out) or "any frame"

    def raw(self) -> str:
        return " ".join(
            f"[{i}]={v:02x}/{m:02x}"
            for i, (v, m) in enumerate(zip(self.value, self.mask, strict=True))
            if m
        )


def _ip(b: bytes) -> str:
    return ".".join(str(x) for x in b)


def _u16(b: bytes) -> str:
    return str(struct.unpack(">H", b)[0])


# header fields a rule can name (offset in the frame, bytes): Ethernet, IPv4 without
# options, UDP
MATCH_FIELDS = (
    ("ethertype", 12, 2, lambda b: f"0x{b.hex()}"),
    ("proto", 23, 1, lambda b: str(b[0])),
    ("src_ip", 26, 4, _ip),
    ("dst_ip", 30, 4, _ip),
    ("src_port", 34, 2, _u16),
    ("dst_port", 36, 2, _u16),
)


def match_rule(
    k: int,
    *,
    proto: int | None = None,
    src_ip: str | None = None,
    dst_ip: str | None = None,
    src_port: int | None = None,
    dst_port: int | None = None,
    action: str = "accel",
    copy: bool = False,
    port: int = 0,
) -> Rule:
    """A rule over IPv4 (EtherType 0x0800) and the given header fields; UDP (protocol 17)
    when a port is given and ``proto`` is not."""
    if action not in ACTIONS:
        raise ValueError(f"action {action!r}: one of {', '.join(ACTIONS)}")
    if proto is None and (src_port is not None or dst_port is not None):
        proto = 17
    value, mask = bytearray(k), bytearray(k)

    def put(off: int, data: bytes) -> None:
        if off + len(data) > k:
            raise ValueError(f"the field at byte {off} lies beyond the K = {k} bytes matched")
        value[off : off + len(data)] = data
        mask[off : off + len(data)] = b"\xff" * len(data)

    put(12, b"\x08\x00")
    if proto is not None:
        put(23, bytes([proto]))
    for off, ip in ((26, src_ip), (30, dst_ip)):
        if ip is not None:
            put(off, bytes(int(x) for x in ip.split(".")))
    for off, p in ((34, src_port), (36, dst_port)):
        if p is not None:
            put(off, struct.pack(">H", p))
    return Rule(bytes(value), bytes(mask), action, copy, port)


def base() -> int:
    return rm.find("NIC_RULES")


def info(bus: Bus) -> Info:
    w = bus.read(base() + OFF_INFO, 1)[0]
    return Info(w & 0xFF, w >> 8 & 0xFF, w >> 16 & 0xF)


def _words(data: bytes) -> list[int]:
    pad = data + bytes(-len(data) % 4)
    return list(struct.unpack(f">{len(pad) // 4}I", pad))


def write_rule(bus: Bus, index: int, rule: Rule, k: int) -> None:
    """Write the shadow value and mask, then commit them with the action word into rule
    ``index`` (one cycle: a frame never sees half of it)."""
    if len(rule.value) != k or len(rule.mask) != k:
        raise ValueError(f"a rule has K = {k} bytes of value and of mask")
    b = base()
    bus.write(b + OFF_VALUE, _words(rule.value))
    bus.write(b + OFF_MASK, _words(rule.mask))
    bus.write(b + OFF_RULE + index, [rule.word()])


def delete_rule(bus: Bus, index: int) -> None:
    """Disable rule ``index`` (its action word 0)."""
    bus.write(base() + OFF_RULE + index, [0])


def read_rule(bus: Bus, index: int, k: int) -> Rule:
    b = base()
    n = (k + 3) // 4
    bus.write(b + OFF_LOAD + index, [0])
    value = b"".join(struct.pack(">I", w) for w in bus.read(b + OFF_VALUE, n))[:k]
    mask = b"".join(struct.pack(">I", w) for w in bus.read(b + OFF_MASK, n))[:k]
    word = bus.read(b + OFF_RULE + index, 1)[0]
    return Rule.from_word(word, value, mask)


def set_default(bus: Bus, action: str, copy: bool = False, port: int = 0) -> None:
    w = Rule(b"", b"", action, copy, port, enabled=False).word()
    bus.write(base() + OFF_DEFAULT, [w])


def counters(bus: Bus) -> dict[str, int]:
    """The NIC block's counters by name (NIC.<name>)."""
    regs = [r for r in rm.NIC.regs if r.kind == rm.CNT]
    words = bus.read(rm.NIC.base + regs[0].offset, len(regs))
    assert [r.offset for r in regs] == list(range(regs[0].offset, regs[0].offset + len(regs)))
    return {r.name: v for r, v in zip(regs, words, strict=True)}
