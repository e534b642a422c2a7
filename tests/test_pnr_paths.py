"""syn.pnr.critical_paths and bench.fmax's choice of path: condensing a nextpnr report.

The report below has the shape nextpnr-ice40 writes with --report (a register-to-register
path crossing two blocks, with a carry step and a nextpnr-internal net, and an
input path), so the condensed figures can be checked exactly without running the tools.
"""

from __future__ import annotations

from bench.fmax import _path_of
from syn.pnr import critical_paths

CLK = "posedge clk$SB_IO_IN_$glb_clk"
REPORT = {
    "critical_paths": [
        {
            "from": "<async>",
            "to": CLK,
            "path": [{"type": "routing", "delay": 1.0, "net": "si_0$SB_IO_IN"}],
        },
        {
            "from": CLK,
            "to": CLK,
            "path": [
                {"type": "clk-to-q", "delay": 0.5},
                {"type": "routing", "delay": 1.0, "net": "dut.u_stack.u_ip_rx.u_strip.q[0]"},
                {"type": "logic", "delay": 0.3},
                {"type": "routing", "delay": 0.5, "net": "$nextpnr_ICESTORM_LC_4$O"},
                {"type": "logic", "delay": 0.2},
                {"type": "routing", "delay": 1.5, "net": "dut.u_stack.u_udp_rx.push"},
                {"type": "setup", "delay": 0.5},
            ],
        },
    ]
}


def test_critical_path_condensed() -> None:
    paths = critical_paths(REPORT)
    assert len(paths) == 2
    p = _path_of(paths, "clk")
    assert p is not None
    assert p["delay_ns"] == 4.5
    assert p["blocks"] == ["u_stack.u_ip_rx.u_strip", "u_stack.u_udp_rx"]
    assert p["first_net"] == "dut.u_stack.u_ip_rx.u_strip.q[0]"
    assert p["last_net"] == "dut.u_stack.u_udp_rx.push"
    assert p["logic_cells"] == 2
    assert p["routing_share"] == round(3.0 / 4.5, 2)


def test_no_register_path_for_another_clock() -> None:
    assert _path_of(critical_paths(REPORT), "rx_clk") is None
    assert _path_of(None, "clk") is None
