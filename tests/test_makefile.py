"""The Makefile says only what exists: every declared target has a rule that make accepts,
`make help` names exactly those targets, and the CI entry point runs the README's
`make test`."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "Makefile").read_text()


def phony() -> set[str]:
    m = re.search(r"^\.PHONY:(.*)$", TEXT, re.M)
    assert m, "no .PHONY line"
    return set(m.group(1).split())


def test_every_declared_target_has_a_rule() -> None:
    rules = set(re.findall(r"^([A-Za-z][\w-]*):(?!=)", TEXT, re.M))
    assert phony() == rules, f"without a rule: {phony() - rules}, undeclared: {rules - phony()}"
    for target in sorted(phony()):  # a dry run: make parses the rule and its prerequisites
        r = subprocess.run(
            ["make", "-n", "-C", str(ROOT), target], capture_output=True, text=True, timeout=60
        )
        assert r.returncode == 0, f"make -n {target}: {r.stderr}"


def test_help_names_the_targets() -> None:
    r = subprocess.run(["make", "-s", "-C", str(ROOT), "help"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    named = set(re.findall(r"^make ([\w-]+)", r.stdout, re.M))
    assert named == phony() - {"help"}, r.stdout


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, re.M), ci
    assert re.search(r"^\s+make test\s", (ROOT / "README.md").read_text(), re.M)
    # make test leaves out exactly the volume runs that make test-long runs
    test = re.search(r"^test:.*\n((?:\t.*\n)+)", TEXT, re.M)
    long = re.search(r"^test-long:.*\n((?:\t.*\n)+)", TEXT, re.M)
    assert test and '-m "not long" tests' in test.group(1)
    assert long and "-m long tests" in long.group(1)
