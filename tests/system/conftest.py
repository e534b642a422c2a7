"""Fixtures for the whole-system tests: virtual boards in their own network namespaces.

Every test that uses :func:`make_board` gets boards with unique names (so namespaces never
clash with another test or a user's board) and they are torn down when the test ends,
also when it fails. Such a test is marked ``tap`` (tests/conftest.py): without root it
skips with the reason. The tests here that need no TAP (runs with --inject) run as any
user.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from wirecore.vboard import SPEED_TOPS, BoardConfig, VirtualBoard

_seq = itertools.count(1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.system)


def unique_name(tag: str) -> str:
    """A board name no other test process uses (namespace wc-<name>)."""
    return f"{tag}{os.getpid() % 100000}x{next(_seq)}"


@pytest.fixture
def make_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., VirtualBoard]]:
    """make_board(tag, **BoardConfig fields) -> a board that is up; torn down at the end."""
    boards: list[VirtualBoard] = []
    monkeypatch.setenv("WIRECORE_RUN_DIR", str(tmp_path / "run"))

    def make(tag: str = "t", **kw: object) -> VirtualBoard:
        kw.setdefault("pcap", str(tmp_path / f"{tag}.pcap"))
        cfg = BoardConfig(name=unique_name(tag), **kw)  # type: ignore[arg-type]
        b = VirtualBoard(cfg)
        boards.append(b)
        b.up(quiet=True)
        return b

    yield make
    for b in reversed(boards):  # the board that made a shared namespace goes last
        b.down()


@pytest.fixture(params=sorted(SPEED_TOPS))
def speed_top(request: pytest.FixtureRequest) -> str:
    """The board's top at each link speed (1g: vboard_top, 10g: vboard_top_10g)."""
    return SPEED_TOPS[request.param]
