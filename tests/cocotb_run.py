"""Build and run a cocotb 2.x testbench on Icarus from pytest.

Every unit-test file holds its cocotb coroutines (``@cocotb.test()``) and one or more
pytest functions that call :func:`run` with the module under test.  The RTL sources are
found automatically: every directory of ``.v`` files under ``rtl/``, ``sim/`` and
``tests/tb/`` (test-bench tops) is handed to Icarus with ``-y`` library search
(syn/verilator_build.py keeps that path), so a test names only its top level.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from cocotb_tools.runner import get_results, get_runner

from syn.verilator_build import find_module, library_dirs

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "sim"


def run(
    toplevel: str,
    test_module: str,
    parameters: Mapping[str, object] | None = None,
    testcase: str | Sequence[str] | None = None,
    extra_env: Mapping[str, str] | None = None,
    extra_sources: Sequence[Path] = (),
    test_dir: Path | None = None,
    timescale: tuple[str, str] = ("1ns", "1ps"),
    top_file: Path | None = None,
) -> None:
    """Compile ``toplevel`` with Icarus and run the cocotb tests in ``test_module``.

    ``top_file``: the top's file when it is not under rtl/, sim/ or tests/tb/ (a board
    top under boards/); ``extra_sources`` are compiled before the library search, so a
    vendor version of a module there (boards/<vendor>/) wins over the generic one.

    Raises AssertionError if any cocotb test failed or the simulation died.
    """
    parameters = dict(parameters or {})
    key = repr((sorted(parameters.items()), test_module, testcase))
    tag = hashlib.sha1(key.encode()).hexdigest()[:10]
    build_dir = BUILD / f"{toplevel}_{tag}"
    top_file = top_file or find_module(toplevel)
    lib_args: list[str] = []
    for d in library_dirs():
        lib_args += ["-y", str(d)]
    lib_args += ["-Y", ".v"]
    runner = get_runner("icarus")
    runner.build(
        sources=[top_file, *extra_sources],
        hdl_toplevel=toplevel,
        build_dir=build_dir,
        parameters=parameters,
        build_args=lib_args,
        timescale=timescale,
        always=True,
    )
    env = {"COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "WARNING")}
    env.update(extra_env or {})
    results = runner.test(
        test_module=test_module,
        hdl_toplevel=toplevel,
        build_dir=build_dir,
        test_dir=test_dir or build_dir,
        testcase=testcase,
        extra_env=env,
        results_xml=str(build_dir / "results.xml"),
    )
    total, failed = get_results(Path(results))
    assert total > 0, f"{test_module}: no cocotb test ran"
    assert failed == 0, f"{test_module}: {failed} of {total} cocotb tests failed"
