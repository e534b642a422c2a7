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
    _c("axis_fifo", DATA_W=16),
    _c("axis_fifo", KEEP_W=2),
    _c("axis_fifo", DEPTH=8),
    _c("axis_fifo", FRAME_FIFO=2),
    _c("axis_fifo", DROP_BAD_FRAME=2),
    _c("axis_fifo", DROP_WHEN_FULL=2),
    _c("axis_async_fifo", DATA_W=16),
    _c("axis_async_fifo", KEEP_W=2),
    _c("axis_async_fifo", DEPTH=4096),
    _c("axis_async_fifo", FRAME_FIFO=2),
    _c("axis_async_fifo", DROP_BAD_FRAME=2),
    _c("axis_async_fifo", DROP_WHEN_FULL=2),
    _c("sync_bit", WIDTH=0),
    _c("sync_bit", STAGES=1),
    _c("sync_bus", WIDTH=0),
    _c("sync_bus", STAGES=4),
    _c("sync_pulse", STAGES=1),
    _c("sync_events", WIDTH=0),
    _c("sync_events", CW=1),
    _c("sync_handshake", WIDTH=0),
    _c("sync_handshake", STAGES=4),
    _c("sync_reset", STAGES=1),
    _c("sync_reset", HOLD=0),
    _c("crc32", DATA_W=16),
    _c("crc32", KEEP_W=2),
    _c("stat_counters", N=1),
    _c("stat_counters", W=33),
    _c("stat_counters", RAM=2),
    _c("stat_counters", VW=0),
    _c("stat_counters", RAM=1, PW=0),
    _c("stat_counters", RAM=1, VW=16, PV=8),
    _c("tx_prepend", DATA_W=16),
    _c("tx_prepend", KEEP_W=2),
    _c("tx_prepend", HDR_BYTES=13),
    _c("tx_prepend", CHECK_LEN=2),
    _c("tx_prepend", DATA_W=64, LEN_LATE=1),
    _c("axis_pipe", DATA_W=16),
    _c("axis_pipe", KEEP_W=2),
    _c("stream_strip", DATA_W=16),
    _c("stream_strip", KEEP_W=2),
    _c("stream_strip", SKIP_W=3),
    _c("stream_strip", ROUTE_W=3),
    _c("stream_strip", USE_STS=2),
    _c("stream_strip", USE_LEN=2),
    _c("stream_strip", USE_SKIP=2),
    _c("stream_strip", DATA_W=64, USE_SKIP=0),
    _c("stream_fifo", DATA_W=16),
    _c("stream_fifo", KEEP_W=2),
    _c("stream_fifo", DEPTH=12),
    _c("stream_fifo", DEPTH=4096),
    _c("stream_fifo", IN_REG=2),
    _c("stream_fifo", IN_REG=1, DEPTH=2),
    # ---- rtl/mac ----
    _c("eth_mac_gmii_fifo", TX_DEPTH=512),
    _c("eth_mac_gmii_fifo", RX_DEPTH=3072),
    _c("eth_mac_fifo", TX_DEPTH=512),
    _c("eth_mac_fifo", RX_DEPTH=3072),
    # ---- rtl/eth ----
    _c("eth_rx", DATA_W=16),
    _c("eth_rx", KEEP_W=2),
    _c("eth_rx", FIFO_DEPTH=16),
    _c("eth_tx_arb", N=1),
    _c("eth_tx_arb", DATA_W=16),
    _c("eth_tx_arb", KEEP_W=2),
    _c("eth_tx_arb", REG_OUT=2),
    _c("raw_tx", DATA_W=16),
    _c("raw_tx", KEEP_W=2),
    # ---- rtl/arp ----
    _c("arp", DATA_W=16),
    _c("arp", KEEP_W=2),
    _c("arp", ENTRIES=6),
    _c("arp", WAYS=8),
    _c("arp", WAYS=2),  # 16 entries of 2 ways: 8 sets
    _c("arp", RETRIES=0),
    _c("arp", RETRY_MS=0),
    _c("arp", REVALIDATE_MS=0),
    _c("arp", EXPIRE_MS=100, REVALIDATE_MS=100),
    _c("arp", GARP_HOLD_MS=0),
    _c("arp", REPEAT_LAT=3),
    _c("arp_rx", DATA_W=16),
    _c("arp_rx", KEEP_W=2),
    _c("arp_tx", DATA_W=16),
    _c("arp_tx", KEEP_W=2),
    # ---- rtl/ip ----
    _c("ip_rx", DATA_W=16),
    _c("ip_rx", KEEP_W=2),
    _c("ip_rx", FIFO_DEPTH=48),
    _c("ip_rx", TCP=2),
    # ---- rtl/icmp ----
    _c("icmp_echo", DATA_W=16),
    _c("icmp_echo", KEEP_W=2),
    _c("icmp_unreach", DATA_W=32),
    _c("icmp_unreach", KEEP_W=2),
    # ---- rtl/udp ----
    _c("udp_ip_tx", DATA_W=16),
    _c("udp_ip_tx", KEEP_W=2),
    _c("udp_rx", DATA_W=32),
    _c("udp_rx", KEEP_W=2),
    _c("udp_rx", NUM_PORTS=5),
    _c("udp_rx", STORE_FWD=2),
    _c("udp_rx", FIFO_DEPTH=12),
    _c("udp_echo", DATA_W=16),
    _c("udp_echo", KEEP_W=2),
    _c("udp_echo", ARP_LOOKUP=2),
    _c("udp_echo_tx", CSUM_MODE=2),
    _c("udp_tx", BUF_BYTES=1024),
    _c("udp_tx_csum", DATA_W=16),
    _c("udp_tx_csum", KEEP_W=2),
    _c("udp_tx_csum", BUF_BYTES=4096),
    _c("udp_tx_min", LEN_W=10),
    # ---- rtl/app ----
    _c("pktgen", DATA_W=16),
    _c("pktgen", KEEP_W=2),
    _c("pktgen", DST_RAM=2),
    _c("pktgen", CYC_EXT=2),
    _c("seq_sink", DATA_W=32),
    _c("seq_sink", KEEP_W=2),
    _c("ipbus_target", DATA_W=16),
    _c("ipbus_target", KEEP_W=2),
    _c("ipbus_target", NBUF=15),
    _c("ipbus_target", MAX_BYTES=1470),
    _c("ipbus_target", RX_AW=9),
    _c("ipbus_target", RX_QAW=0),
    _c("ipbus_target", BUS_TIMEOUT_MS=255),
    _c("ipbus_rxbuf", DATA_W=16),
    _c("ipbus_rxbuf", KEEP_W=2),
    _c("ipbus_rxbuf", MAX_BYTES=1470),
    _c("ipbus_rxbuf", AW=9),
    _c("ipbus_rxbuf", QAW=0),
    _c("ipbus_ctrl", MEM_AW=17),
    _c("ipbus_ctrl", CNT_RAM=2),
    _c("ipbus_ctrl", CTRL_ASYNC=2),
    _c("ipbus_cdc", DATA_W=16),
    _c("ipbus_cdc", ASYNC=2),
    # ---- rtl/ctrl ----
    _c("reg_mem", AW=0),
    _c("reg_interconnect", NSLV=0),
    _c("reg_interconnect", BASE=1),  # slave 0's base inside its mask
    _c("reg_interconnect", BASE=0),  # both windows at 0: they overlap
    _c("axil_to_reg", ADDR_W=2),
    _c("axil_to_reg", TIMEOUT_MS=255),
    _c("wirecore_regfile", CNT_RAM=2),
    # ---- rtl/tcp ----
    _c("tcp_rx", DATA_W=64),
    _c("tcp_rx", KEEP_W=2),
    _c("tcp_rx", STAGE_LOG2=12),
    _c("tcp_tx", DATA_W=64),
    _c("tcp_tx", KEEP_W=2),
    _c("tcp_tx", SID_W=9),
    _c("tcp_tx", BUF_LOG2=12),
    _c("tcp_app_tx", DATA_W=64),
    _c("tcp_app_tx", KEEP_W=2),
    _c("tcp_app_tx", NUM_SESS=257, SID_W=9),
    _c("tcp_app_tx", SID_W=4),
    _c("tcp_app_tx", BUF_LOG2=8),
    _c("tcp_app_rx", DATA_W=64),
    _c("tcp_app_rx", KEEP_W=2),
    _c("tcp_app_rx", NUM_SESS=1, SID_W=0),
    _c("tcp_app_rx", SID_W=2),
    _c("tcp_app_rx", BUF_LOG2=12),
    _c("tcp_app_rx", CHUNK_LOG2=3),
    _c("tcp_ctl", NUM_SESS=1, SID_W=0),
    _c("tcp_ctl", SID_W=4),
    _c("tcp_ctl", BUF_LOG2=16),
    _c("tcp_ctl", NUM_LISTEN=3),
    _c("tcp_ctl", MAX_HALF_OPEN=0),
    _c("tcp_ctl", STAGE_LOG2=12),
    _c("tcp_ctl", OOO_RANGES=0),
    _c("tcp_ctl", OOO_RANGES=5),
    _c("tcp_core", DATA_W=64),
    _c("tcp_core", KEEP_W=2),
    _c("tcp_core", SID_W=4),
    _c("tcp_core", OOO_RANGES=0),
    _c("tcp_core", OOO_RANGES=5),
    # ---- rtl/top ----
    _c("udp_stack", DATA_W=16),
    _c("udp_stack", KEEP_W=2),
    _c("udp_stack", NUM_PORTS=0),
    _c("udp_stack", RX_STORE_FWD=2),
    _c("udp_stack", ICMP_ECHO=2),
    _c("udp_stack", ICMP_UNREACH=2),
    _c("udp_stack", TX_ARB_REG=2),
    _c("udp_stack", TCP=2),
    _c("wirecore_node", DATA_W=16),
    _c("wirecore_node", KEEP_W=2),
    _c("wirecore_node", NET_PORTS=2),
    _c("wirecore_node", NIC=2),
    _c("wirecore_node", NIC=1, DATA_W=64),
    _c("wirecore_rgmii_node", TICK_CYCLES=0),
    _c("board_reset", POR_BITS=2),
    _c("udp_echo_node", COUNTERS=3),
    _c("udp_echo_node", CNT_W=33),
    _c("udp_echo_node", ECHO_CSUM_MODE=2),
    _c("udp_echo_node", ECHO_ARP=2),
    _c("udp_echo_node", RX_FIFO_BYTES=3000),
    # ---- rtl/nic ----
    _c("nic_classifier", DATA_W=16),
    _c("nic_classifier", KEEP_W=2),
    _c("nic_classifier", RULES=0),
    _c("nic_classifier", RULES=65),
    _c("nic_classifier", K=0),
    _c("nic_classifier", K=65),
    _c("nic_classifier", ACCEL_PORTS=0),
    _c("nic_classifier", ACCEL_PORTS=5),
    _c("nic_classifier", HOST_CUT=2),
    _c("nic_tx_arb", N=1),
    _c("nic_tx_arb", N=9),
    _c("nic_tx_arb", DATA_W=16),
    _c("nic_tx_arb", KEEP_W=2),
    _c("nic_reply", DATA_W=64),
    _c("nic_reply", PAY_DEPTH=1000),
    _c("nic_reply", PAY_DEPTH=256),
    _c("nic_reply", MAX_PAYLOAD=0),
    _c("nic_reply", PAY_DEPTH=512, MAX_PAYLOAD=513),
    # ---- rtl/accel ----
    _c("cfar_accel", SKIP=256),
    _c("cfar_accel", MAX_DET=0),
    _c("cfar_accel", MAX_DET=513),
    _c("cfar_ram", ADDR_W=0),
    _c("cfar_ram", ADDR_W=13),
    _c("cfar_ram", DATA_W=0),
    _c("cfar_ram", DATA_W=65),
    # ---- rtl/link ----
    _c("enc_8b10b", BYTES=3),
    _c("dec_8b10b", BYTES=3),
    _c("link_lane_rx", BYTES=4),
    _c("link_lane_rx", COMMA_MODE=2),
    _c("link_lane_rx", LOCK_COMMAS=0),
    _c("link_lane_rx", ERR_LIMIT=256, ERR_WINDOW=1000),
    _c("link_lane_rx", ERR_LIMIT=8, ERR_WINDOW=7),
    _c("link_elastic_buf", WIDTH=0),
    _c("link_elastic_buf", DEPTH=8),
    _c("link_deskew", LANES=9),
    _c("link_deskew", SKEW_MAX=15),
    _c("link_tx", LANES=0),
    _c("link_tx", SKIPS=16),
    _c("link_tx", CC_INTERVAL=6),
    _c("link_rx", LANES=9),
    _c("link_layer", LANES=2),
    _c("link_layer", MAX_WORDS=100),
    _c("link_layer", MAX_RETRIES=0),
    _c("link_layer", TIMEOUT=63),
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
