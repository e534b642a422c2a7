"""Skips for a reason outside the project, on the machine (a missing /dev/net/tun, a tool
the operating system should have): the only skips a run as root (CI) accepts
(tests/conftest.py). Anything the project installs itself (scripts/setup.sh) is not such
a reason."""

from __future__ import annotations

from typing import NoReturn

import pytest

MACHINE = "machine: "  # the prefix of such a skip's reason


def skip_machine(reason: str) -> NoReturn:
    """Skip the running test for ``reason``, outside the project."""
    pytest.skip(MACHINE + reason)
