"""The skip policy of tests/conftest.py, run on a small test file in a separate pytest:
with strict skips (root, as CI runs) a skip fails unless its reason is outside the
project (``skip_machine``); without, every skip stays a skip."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent

SAMPLE = """
import os

import pytest
from machine_skip import skip_machine


def test_pass():
    pass


def test_project_skip():
    pytest.skip("verilator not installed")


@pytest.mark.skipif(True, reason="sim/vboard_top.v is not there yet")
def test_marker_skip():
    pass


def test_machine_skip():
    skip_machine("/dev/net/tun is missing")


@pytest.mark.skipif(True, reason="machine: no IPv6 in this kernel")
def test_machine_marker_skip():
    pass


@pytest.mark.xfail(reason="a known bug", strict=True)
def test_xfail():
    assert False


@pytest.mark.root
def test_needs_root():
    assert os.geteuid() == 0


@pytest.mark.tap
def test_needs_tap():
    assert os.geteuid() == 0
"""


def outcomes(tmp_path: Path, strict: str) -> dict[str, str]:
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    xml = tmp_path / f"r{strict}.xml"
    env = dict(os.environ, WIRECORE_STRICT_SKIPS=strict, PYTHONPATH=str(HERE))
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider",
         "-c", os.devnull, "--rootdir", str(tmp_path), f"--junitxml={xml}",
         str(tmp_path / "test_sample.py")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )  # fmt: skip
    assert r.returncode in (0, 1), r.stdout + r.stderr
    res = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        kids = {k.tag for k in case}
        res[case.get("name", "")] = next(
            (k for k in ("failure", "error", "skipped") if k in kids), "passed"
        )
    return res


def test_strict_skips_fail_unless_outside_the_project(tmp_path: Path) -> None:
    """A skip in the test is then a failure, one in its setup (a marker) an error."""
    root, tun = os.geteuid() == 0, os.path.exists("/dev/net/tun")
    assert outcomes(tmp_path, "1") == {
        "test_pass": "passed",
        "test_project_skip": "failure",
        "test_marker_skip": "error",
        "test_machine_skip": "skipped",
        "test_machine_marker_skip": "skipped",
        "test_xfail": "skipped",  # junit writes an expected failure as skipped
        # without root these skip with a reason that is not the machine's
        "test_needs_root": "passed" if root else "error",
        "test_needs_tap": ("passed" if tun else "skipped") if root else "error",
    }


def test_lenient_skips_stay_skips(tmp_path: Path) -> None:
    root, tun = os.geteuid() == 0, os.path.exists("/dev/net/tun")
    assert outcomes(tmp_path, "0") == {
        "test_pass": "passed",
        "test_project_skip": "skipped",
        "test_marker_skip": "skipped",
        "test_machine_skip": "skipped",
        "test_machine_marker_skip": "skipped",
        "test_xfail": "skipped",
        "test_needs_root": "passed" if root else "skipped",
        "test_needs_tap": "passed" if root and tun else "skipped",
    }
