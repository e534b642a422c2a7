"""pytest configuration shared by every test.

- Makes tests/ and host/ importable.
- Root per test: a test marked ``root`` (it changes user, or makes a namespace) or ``tap``
  (it needs a network namespace and a TAP; every test using the ``make_board`` fixture
  is) skips without root, with the reason. Every other test runs as any user.
- Skips that hold under root: run as root (as CI runs `make test`), a skipped test fails
  the run unless its reason names something outside the project, on the machine: such
  reasons start with ``machine: `` (tests/machine_skip.py). Everything the project
  installs itself (scripts/setup.sh) is there under root, so a skip for anything else
  hides a test that did not run. ``WIRECORE_STRICT_SKIPS=1`` (or ``0``) turns this on
  (or off) for any user.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "tests", ROOT / "host", ROOT):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from machine_skip import MACHINE, skip_machine  # noqa: E402

NEEDS_ROOT = "needs root: network namespaces, changing user, /dev/net/tun (mode 0600 here)"


def strict_skips() -> bool:
    env = os.environ.get("WIRECORE_STRICT_SKIPS")
    return env == "1" if env in ("0", "1") else os.geteuid() == 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "make_board" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.tap)


def pytest_runtest_setup(item: pytest.Item) -> None:
    tap = item.get_closest_marker("tap") is not None
    if (tap or item.get_closest_marker("root") is not None) and os.geteuid() != 0:
        pytest.skip(NEEDS_ROOT)
    if tap and not os.path.exists("/dev/net/tun"):
        skip_machine("/dev/net/tun is missing (no TUN/TAP in this kernel or container)")


def skip_reason(report: pytest.TestReport) -> str:
    lr = report.longrepr
    return lr[2] if isinstance(lr, tuple) else str(lr)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.skipped and strict_skips() and not hasattr(report, "wasxfail"):
        reason = skip_reason(report).removeprefix("Skipped: ")
        if not reason.startswith(MACHINE):
            report.outcome = "failed"
            report.longrepr = (
                f"skipped under root ({reason!r}): only a reason outside the project, on "
                f"the machine, may skip a test here (tests/machine_skip.py)"
            )
    return report
