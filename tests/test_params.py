"""Parameter checks: every core refuses an unsupported parameter value at elaboration, in
Icarus, Verilator and Yosys alike (docs/conventions.md "Parameter checks").

A core checks a parameter with a generate block that instantiates a module that does not
exist, named ``<module>_<PARAM>_must_...``. Each case below elaborates a core with one bad
value and expects every tool to fail naming that module; the same core with its default
parameters elaborates cleanly in the lint tests (tests/test_lint.py).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from syn.verilator_build import command as verilator_command

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
LIBS = sorted({p.parent for p in RTL.rglob("*.v")})


@dataclass(frozen=True)
class Case:
    module: str  # the core (file rtl/*/<module>.v)
    params: tuple[tuple[str, int], ...]  # the bad value (and any others it needs)

    @property
    def id(self) -> str:
        return self.module + "-" + "-".join(f"{k}={v}" for k, v in self.params)


def _c(module: str, **params: int) -> Case:
    return Case(module, tuple(params.items()))


# One bad value per checked parameter. Keep each layer's cases together.
CASES: list[Case] = [
    # ---- rtl/common ----
    _c("stat_counters", N=1),
    _c("stat_counters", W=33),
    _c("stat_counters", RAM=2),
    _c("stat_counters", VW=0),
    _c("stat_counters", RAM=1, PW=0),
    _c("stat_counters", RAM=1, VW=16, PV=8),
    # ---- rtl/mac ----
    # ---- rtl/eth ----
    # ---- rtl/arp ----
    # ---- rtl/ip ----
    _c("ip_rx", TCP=2),
    # ---- rtl/icmp ----
    # ---- rtl/udp ----
    # ---- rtl/app ----
    # ---- rtl/ctrl ----
    # ---- rtl/tcp ----
    _c("tcp_rx", DATA_W=64),
    _c("tcp_rx", STAGE_LOG2=10),
    _c("tcp_tx", DATA_W=64),
    _c("tcp_app_tx", DATA_W=64),
    _c("tcp_app_rx", DATA_W=64),
    _c("tcp_app_rx", CHUNK_LOG2=12),
    _c("tcp_ctl", NUM_SESS=1),
    _c("tcp_ctl", BUF_LOG2=16),
    _c("tcp_ctl", NUM_LISTEN=0),
    _c("tcp_ctl", MAX_HALF_OPEN=0),
    _c("tcp_core", DATA_W=64),
    # ---- rtl/top ----
    _c("udp_echo_node", COUNTERS=3),
    _c("udp_stack", TCP=2),
]


def _source(module: str) -> Path:
    found = list(RTL.rglob(f"{module}.v"))
    assert len(found) == 1, f"{module}.v: found {found}"
    return found[0]


def _error_module(out: str, module: str) -> str | None:
    m = re.search(rf"\b({module}_\w+_must\w*)", out)
    return m.group(1) if m else None


def _icarus(case: Case) -> subprocess.CompletedProcess[str]:
    cmd = ["iverilog", "-g2005", "-o", "/dev/null", "-s", case.module]
    cmd += [f"-P{case.module}.{k}={v}" for k, v in case.params]
    for d in LIBS:
        cmd += ["-y", str(d)]
    cmd.append(str(_source(case.module)))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def _verilator(case: Case) -> subprocess.CompletedProcess[str]:
    program, env = verilator_command()
    cmd = [*program, "--lint-only", "-Wall", "--top-module", case.module]
    cmd += [f"-G{k}={v}" for k, v in case.params]
    cmd += [f"-I{d}" for d in LIBS]
    cmd.append(str(_source(case.module)))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)


def _yosys(case: Case) -> subprocess.CompletedProcess[str]:
    chparam = " ".join(f"-chparam {k} {v}" for k, v in case.params)
    libs = " ".join(f"-I{d}" for d in LIBS)
    files = " ".join(str(p) for p in sorted(RTL.rglob("*.v")))
    script = f"read_verilog -defer {libs} {files}; hierarchy -check -top {case.module} {chparam}"
    cmd = ["yosys", "-q", "-p", script]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@pytest.mark.parametrize("tool", ["icarus", "verilator", "yosys"])
def test_bad_parameter_stops_elaboration(case: Case, tool: str) -> None:
    r = {"icarus": _icarus, "verilator": _verilator, "yosys": _yosys}[tool](case)
    out = r.stdout + r.stderr
    assert r.returncode != 0, f"{tool} accepted {case.id}:\n{out}"
    assert _error_module(out, case.module), f"{tool} failed without naming the check:\n{out}"


def test_every_check_has_a_case() -> None:
    """Every `<module>_<PARAM>_must...` check in rtl/ is exercised by a case above."""
    tested = {(c.module, k) for c in CASES for k, _ in c.params}
    missing = []
    for p in RTL.rglob("*.v"):
        for param in re.findall(rf"\b{p.stem}_([A-Z][A-Z0-9_]*?)_must\w*\s+u_", p.read_text()):
            if (p.stem, param) not in tested:
                missing.append(f"{p.stem}.{param}")
    assert not missing, "checks without a case in CASES: " + ", ".join(sorted(set(missing)))
