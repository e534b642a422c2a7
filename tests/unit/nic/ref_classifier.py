"""Reference model of the receive classifier's rule table (docs/nic.md), written from the
rule definition, not from the RTL: which rule a frame hits and where it goes."""

from __future__ import annotations

from dataclasses import dataclass

ACT_HOST, ACT_ACCEL, ACT_DROP = 0, 1, 2
HOST = "host"


@dataclass(frozen=True)
class Action:
    kind: int  # ACT_HOST, ACT_ACCEL or ACT_DROP
    port: int = 0  # accelerator port, for ACT_ACCEL
    copy: bool = False  # also to the host

    def word(self, enable: bool = True) -> int:
        """The control word (docs/nic.md "Action word")."""
        return int(enable) | self.kind << 1 | int(self.copy) << 3 | self.port << 4

    def dests(self) -> frozenset[str | int]:
        """Where a frame taking this action goes: HOST and/or accelerator port numbers."""
        out: set[str | int] = set()
        if self.kind == ACT_HOST or self.copy:
            out.add(HOST)
        if self.kind == ACT_ACCEL:
            out.add(self.port)
        return frozenset(out)


@dataclass(frozen=True)
class Rule:
    value: bytes  # K bytes
    mask: bytes  # K bytes
    action: Action
    enable: bool = True

    def matches(self, frame: bytes) -> bool:
        """Every masked byte is inside the frame and equal to the value under the mask."""
        if not self.enable:
            return False
        for i, (v, m) in enumerate(zip(self.value, self.mask, strict=True)):
            if m == 0:
                continue
            if i >= len(frame) or (frame[i] ^ v) & m:
                return False
        return True


@dataclass(frozen=True)
class Decision:
    rule: int | None  # the winning rule, None for the default action
    dests: frozenset[str | int]


def decide(rules: list[Rule | None], default: Action, frame: bytes) -> Decision:
    """The lowest-numbered matching rule wins; no match takes the default action."""
    for i, rule in enumerate(rules):
        if rule is not None and rule.matches(frame):
            return Decision(i, rule.action.dests())
    return Decision(None, default.dests())
