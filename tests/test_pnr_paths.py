"""syn.pnr.critical_paths and bench.fmax's choice of path: condensing a nextpnr report; the
tool command lines of each flow (syn.pnr.FLOWS) and bench.fmax's choice of flows.

The report below has the shape nextpnr-ice40 writes with --report (a register-to-register
path crossing two blocks, with a carry step and a nextpnr-internal net, and an
input path), so the condensed figures can be checked exactly without running the tools.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fmax import FULL_RUN_FLOWS, GOAL_TOPS, _path_of, custom_flow, flows_for
from bench.fmax import main as fmax_main
from syn.pnr import (
    FLOWS,
    TIMING_NEXTPNR,
    YOWASP_NEXTPNR,
    Flow,
    build_dir,
    critical_paths,
    nextpnr_cmd,
    parse_icetime,
    pnr_program,
    synth_script,
)
from syn.tops import TOPS, Top

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


def test_default_flow_command_is_unchanged() -> None:
    """The default flow runs nextpnr with exactly the options figures were always made with."""
    cmd = nextpnr_cmd(Path("n.json"), Path("r.json"), 2, 125.0, FLOWS["default"])
    assert cmd == [
        "nextpnr-ice40",
        "--hx8k",
        "--package",
        "ct256",
        "--json",
        "n.json",
        "--freq",
        "125.0",
        "--seed",
        "2",
        "--report",
        "r.json",
        "--timing-allow-fail",
        "-q",
    ]
    top = Top("t", "m")
    script = synth_script(top, Path("w.v"), Path("n.json"), FLOWS["default"])
    assert script[-1] == "synth_ice40 -top pnr_wrap -json n.json"
    assert script[-3:-1] == ["read_verilog -defer w.v", "hierarchy -check -top pnr_wrap"]


def test_timing_flow_adds_its_options() -> None:
    flow = FLOWS["timing"]
    assert flow.nextpnr == TIMING_NEXTPNR and TIMING_NEXTPNR
    cmd = nextpnr_cmd(Path("n.json"), Path("r.json"), 1, 125.0, flow)
    base = nextpnr_cmd(Path("n.json"), Path("r.json"), 1, 125.0, FLOWS["default"])
    # the flow's options come after the seed, in order; nothing else changes
    i = cmd.index("--seed") + 2
    assert cmd[i : i + len(flow.nextpnr)] == list(flow.nextpnr)
    assert cmd[:i] + cmd[i + len(flow.nextpnr) :] == base
    top = Top("t", "m")
    script = synth_script(top, Path("w.v"), Path("n.json"), flow)
    assert script[-1] == " ".join(["synth_ice40 -top pnr_wrap", *flow.synth, "-json n.json"])
    assert flow.describe() == {
        "name": "timing",
        "synth_options": list(flow.synth),
        "nextpnr_options": list(TIMING_NEXTPNR),
        "nextpnr_program": "nextpnr-ice40",
        "nextpnr_version": "0.4 (Debian)",
    }


def test_current_nextpnr_flow() -> None:
    """The nextpnr-0.11 flow: the default synthesis and options, another program."""
    flow = FLOWS["nextpnr-0.11"]
    dflt = FLOWS["default"]
    assert flow.program == YOWASP_NEXTPNR
    assert flow.synth == dflt.synth and flow.nextpnr == dflt.nextpnr
    cmd = nextpnr_cmd(Path("n.json"), Path("r.json"), 2, 125.0, flow)
    base = nextpnr_cmd(Path("n.json"), Path("r.json"), 2, 125.0, dflt)
    assert cmd[0] == YOWASP_NEXTPNR and cmd[1:] == base[1:]
    d = flow.describe()
    assert d["nextpnr_program"] == YOWASP_NEXTPNR
    assert str(d["nextpnr_version"]).startswith("0.11")
    # a custom flow keeps its base's program
    assert custom_flow(flow, None, ["--placer", "static"]).program == YOWASP_NEXTPNR
    # the program is found without an activated environment (requirements.txt pins it)
    prog = Path(pnr_program(flow))
    assert prog.name == YOWASP_NEXTPNR and prog.exists()


def test_missing_program_says_what_to_do() -> None:
    flow = Flow("x", program="no-such-nextpnr")
    with pytest.raises(RuntimeError, match="not found for flow x"):
        pnr_program(flow)


def test_flow_builds_apart() -> None:
    top = Top("t", "m")
    assert build_dir(top, FLOWS["default"]) != build_dir(top, FLOWS["timing"])
    assert build_dir(top, FLOWS["timing"]).name == "timing"


def test_flows_chosen_per_top() -> None:
    goal = Top(GOAL_TOPS[0], "udp_echo_node", fmax=True)
    other = Top("mac_tx_8", "mac_tx", fmax=True)
    dflt = FLOWS["default"]
    # a full run: the extra flows on a goal top only, after the default
    assert flows_for(goal, None, True, ("timing",)) == [dflt, FLOWS["timing"]]
    assert flows_for(other, None, True, ("timing",)) == [dflt]
    assert flows_for(goal, None, True, ()) == [dflt]
    assert flows_for(goal, None, True) == [dflt, *(FLOWS[f] for f in FULL_RUN_FLOWS)]
    # a selective run (--only) without --flow: the default flow only
    assert flows_for(goal, None, False, ("timing",)) == [dflt]
    # --flow wins everywhere
    assert flows_for(other, [FLOWS["timing"]], full_run=True) == [FLOWS["timing"]]


def test_custom_flow_options() -> None:
    dflt = FLOWS["default"]
    assert custom_flow(dflt, None, None) is dflt
    f = custom_flow(FLOWS["timing"], ["-abc9"], ["--router", "router2"])
    assert f.name == "custom"
    assert f.synth == ("-abc9",)
    assert f.nextpnr == (*TIMING_NEXTPNR, "--router", "router2")


def test_fmax_rejects_unknown_flow() -> None:
    with pytest.raises(SystemExit):
        fmax_main(["--flow", "fastest", "--only", "nothing"])


def test_fmax_no_top_matches() -> None:
    assert fmax_main(["--flow", "timing", "--only", "no_such_top"]) == 2


def test_fmax_rejects_bad_seeds() -> None:
    assert fmax_main(["--first-seed", "0", "--only", "udp_echo_node_8_noicmp"]) == 2
    assert fmax_main(["--seeds", "0", "--only", "udp_echo_node_8_noicmp"]) == 2


def test_goal_tops_and_full_run_flows_exist() -> None:
    names = {t.name for t in TOPS if t.fmax}
    assert set(GOAL_TOPS) <= names
    assert set(FULL_RUN_FLOWS) <= set(FLOWS)


def test_icetime_report_parsed() -> None:
    """The figure icetime prints at the end of its report (the shape of icestorm's icetime -t)."""
    rep = (
        "icetime topological timing analysis report\n"
        "==========================================\n\n"
        "Report for critical path:\n--------------------------\n\n"
        "        lc40_17_25_3 (LogicCell40) [clk] -> lcout: 0.640 ns\n"
        "     0.640 ns net_41243 (dut.u_stack.u_arp.a_mh[0])\n"
        "Resolvable net names on path:\n"
        "     0.640 ns ..  1.469 ns dut.u_stack.u_arp.a_mh[0]\n\n"
        "Total number of logic levels: 3\n"
        "Total path delay: 7.44 ns (134.48 MHz)\n\n"
    )
    assert parse_icetime(rep) == 134.48
    assert parse_icetime("no path") is None


def test_both_nextpnr_versions_route_a_top(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each flow's program really places and routes (the smallest Fmax top, one seed), and
    icetime times the routed design; its bitstream text is removed afterwards. The
    ``on_seed`` callback (bench.fmax's progress bar) gets each seed's result as it is done."""
    import syn.pnr as pnr

    monkeypatch.setattr(pnr, "BUILD", tmp_path)
    top = next(t for t in TOPS if t.name == "mac_tx")
    for name in ("default", "nextpnr-0.11"):
        seen: list[pnr.PnrResult] = []
        (r,) = pnr.place_and_route(top, (1,), 125.0, FLOWS[name], on_seed=seen.append)
        assert seen == [r], "on_seed not called once with the seed's result"
        assert r.ok, r.error
        assert r.fmax_mhz["clk"] > 125.0  # the MAC transmitter alone is far above the target
        assert r.lcs > 0
        ice = r.extra.get("icetime_mhz")
        assert isinstance(ice, float) and ice > 100.0
        out = tmp_path / top.name / name
        assert (out / "report_seed1.json").exists() and not (out / "seed1.asc").exists()
