"""bench.vboard_profile: reading cachegrind's per-line counts and charging them to blocks.

A cachegrind output and a generated C++ fragment of the shape Verilator writes,
so the attribution can be checked exactly without building or running anything.
"""

from __future__ import annotations

from pathlib import Path

from bench.vboard_profile import attribute, block_of, line_counts

CPP = """\
void Vtop___024root___nba_sequent__TOP__0(Vtop___024root* vlSelf) {
    vlSelfRef.vboard_top__DOT__u_stack__DOT__u_arp__DOT__u_rx__DOT__hit
        = ((IData)(vlSelfRef.vboard_top__DOT__u_stack__DOT__arp_rx_tvalid)
           & (IData)(vlSelfRef.vboard_top__DOT__u_stack__DOT__u_arp__DOT__u_rx__DOT__at));
    if (vlSelfRef.vboard_top__DOT__u_ctrl__DOT__target__DOT__rxbuf__DOT__we_e) {
        vlSelfRef.vboard_top__DOT____Vcellout__u_pktgen__m_axis_tdata = 0U;
    }
}
"""


def test_block_of_charges_continuation_lines_to_the_assigned_signal() -> None:
    lines = CPP.splitlines()
    assert block_of(lines, 3, 3) == "u_stack.u_arp.u_rx"  # RHS line of the `hit` statement
    assert block_of(lines, 4, 2) == "u_stack.u_arp"
    assert block_of(lines, 5, 2) == "u_ctrl.target"  # a condition: the signal it tests
    assert block_of(lines, 6, 2) == "u_pktgen__m_axis_tdata"  # a port copy: cell__port
    assert block_of(lines, 1, 3) is None  # no signal before it


def test_line_counts_and_attribute(tmp_path: Path) -> None:
    cpp = tmp_path / "Vtop___024root__0.cpp"
    cpp.write_text(CPP)
    cg = tmp_path / "cachegrind.out"
    cg.write_text(
        "desc: I1 cache: 32768 B\ncmd: vboard\nevents: Ir\n"
        f"fl={cpp}\nfn=Vtop___024root___nba_sequent__TOP__0\n2 10\n3 5\n5 7\n5 1\n"
        "fl=/tmp/sim/vboard.cpp\nfn=main\n12 4\nsummary: 27\n"
    )
    per = line_counts(cg)
    assert per[(str(cpp), 5)] == 8 and per[("/tmp/sim/vboard.cpp", 12)] == 4
    blocks, hot = attribute(per, 2)
    assert blocks == {"u_stack.u_arp": 15, "u_ctrl.target": 8, "(outside the model: vboard.cpp)": 4}
    assert hot[0][0] == 10 and hot[0][1].startswith(f"{cpp.name}:2  vlSelfRef.vboard_top")
