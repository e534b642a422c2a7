"""Boards at every speed: a test module whose tests should run on the 1 Gbit/s and the
10 Gbit/s board overrides make_board with :func:`at_speed` and conftest's ``speed_top``
fixture (parametrized over wirecore.vboard.SPEED_TOPS)."""

from __future__ import annotations

from collections.abc import Callable

from wirecore.vboard import VirtualBoard


def at_speed(make: Callable[..., VirtualBoard], top: str) -> Callable[..., VirtualBoard]:
    """make_board with ``top`` as the default top: a module that runs its tests at every
    speed overrides make_board with ``at_speed(make_board, speed_top)``."""

    def make_top(tag: str = "t", **kw: object) -> VirtualBoard:
        kw.setdefault("top", top)
        return make(tag, **kw)

    return make_top
