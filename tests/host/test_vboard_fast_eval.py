"""wirecore.vboard._fast_eval: the one-pass evaluation's headers, generated from the
verilated code, and the checks that refuse it (then the harness keeps eval()).

Fragments of the shape Verilator 5.006 writes, so that the generator and its checks are
tested exactly without building anything.
"""

from __future__ import annotations

from pathlib import Path

from wirecore.vboard import _fast_eval

PREV = ["__Vtrigrprev__TOP__clk", "__Vtrigrprev__TOP__vboard_top__DOT__gclk"]

HEAD = """\
    if (false && vlSelf) {}  // Prevent unused
    Vtop__Syms* const __restrict vlSymsp VL_ATTR_UNUSED = vlSelf->vlSymsp;
    VL_DEBUG_IF(VL_DBG_MSGF("+    Vtop___024root___x\\n"); );
"""

ICO = f"""\
VL_INLINE_OPT void Vtop___024root___ico_sequent__TOP__0(Vtop___024root* vlSelf) {{
{HEAD}    // Body
    vlSelf->vboard_top__DOT__gclk = (1U & (IData)(vlSelf->sim_gclk));
}}

void Vtop___024root___eval_ico(Vtop___024root* vlSelf) {{
{HEAD}    // Body
    if (vlSelf->__VicoTriggered.at(0U)) {{
        Vtop___024root___ico_sequent__TOP__0(vlSelf);
    }}
}}

void Vtop___024root___eval_triggers__ico(Vtop___024root* vlSelf) {{
{HEAD}    // Body
    vlSelf->__VicoTriggered.at(0U) = (0U == vlSelf->__VicoIterCount);
}}
"""

ACT = f"""\
void Vtop___024root___eval_triggers__act(Vtop___024root* vlSelf) {{
{HEAD}    // Body
    vlSelf->__VactTriggered.at(0U) = ((IData)(vlSelf->clk)
                                      & (~ (IData)(vlSelf->__Vtrigrprev__TOP__clk)));
    vlSelf->__VactTriggered.at(1U) = ((IData)(vlSelf->vboard_top__DOT__gclk)
        & (~ (IData)(vlSelf->__Vtrigrprev__TOP__vboard_top__DOT__gclk)));
    vlSelf->__Vtrigrprev__TOP__clk = vlSelf->clk;
    vlSelf->__Vtrigrprev__TOP__vboard_top__DOT__gclk
        = vlSelf->vboard_top__DOT__gclk;
#ifdef VL_DEBUG
    if (VL_UNLIKELY(vlSymsp->_vm_contextp__->debug())) {{
        Vtop___024root___dump_triggers__act(vlSelf);
    }}
#endif
}}

void Vtop___024root___eval_act(Vtop___024root* vlSelf) {{
{HEAD}}}
"""

NBA = f"""\
VL_INLINE_OPT void Vtop___024root___nba_sequent__TOP__0(Vtop___024root* vlSelf) {{
{HEAD}    // Body
    vlSelf->vboard_top__DOT__q = vlSelf->vboard_top__DOT__d;
}}

VL_INLINE_OPT void Vtop___024root___nba_comb__TOP__0(Vtop___024root* vlSelf) {{
{HEAD}    // Body
    vlSelf->vboard_top__DOT__y = vlSelf->vboard_top__DOT__q;
}}

void Vtop___024root___eval_nba(Vtop___024root* vlSelf) {{
{HEAD}    // Body
    if (vlSelf->__VnbaTriggered.at(1U)) {{
        Vtop___024root___nba_sequent__TOP__0(vlSelf);
    }}
    if ((vlSelf->__VnbaTriggered.at(0U) | vlSelf->__VnbaTriggered.at(1U))) {{
        Vtop___024root___nba_comb__TOP__0(vlSelf);
    }}
}}
"""


def model(tmp_path: Path, *parts: str) -> Path:
    obj = tmp_path / "obj"
    obj.mkdir(parents=True)
    for i, text in enumerate(parts):
        (obj / f"Vtop___024root__DepSet_h0__{i}.cpp").write_text(text)
    # the slow files are not read
    (obj / "Vtop___024root__DepSet_h0__0__Slow.cpp").write_text("void junk(int) {\n}\n")
    return obj


def test_generates_the_trigger_mask_and_the_dispatch(tmp_path: Path) -> None:
    out = _fast_eval(model(tmp_path, ICO + ACT, NBA), PREV, posedge=True)
    assert "#define VBOARD_FAST_EVAL 1\n#define VBOARD_FAST_ICO 1\n" in out
    for f in ("nba_sequent__TOP__0", "nba_comb__TOP__0", "eval_ico", "eval_triggers__ico"):
        assert f"void Vtop___024root___{f}(Vtop___024root* vlSelf);\n" in out
    # the triggers as a mask, then the clocks' samples
    assert "m |= (unsigned(((IData)(vlSelf->clk)" in out and ") & 1U) << 0;" in out
    assert ") & 1U) << 1;" in out
    assert out.index("<< 1;") < out.index("vlSelf->__Vtrigrprev__TOP__clk = vlSelf->clk;")
    assert "VL_DEBUG" not in out and "__VactTriggered" not in out
    # the dispatch: the model's own, its flags read from the mask
    assert "if (((m >> 1) & 1U)) {" in out
    assert "if ((((m >> 0) & 1U) | ((m >> 1) & 1U))) {" in out
    assert "__VnbaTriggered" not in out
    # and before it, one straight case for each mask with clk's bit (trigger 0): the
    # calls the tests select, in their order
    seq, comb = "Vtop___024root___nba_sequent__TOP__0", "Vtop___024root___nba_comb__TOP__0"
    assert "    switch (m) {\n" in out and out.index("switch (m)") < out.index("if (((m >> 1)")
    assert f"    case 0x1U: {comb}(vlSelf); return;\n" in out
    assert f"    case 0x3U: {seq}(vlSelf); {comb}(vlSelf); return;\n" in out
    assert "case 0x0U" not in out and "case 0x2U" not in out
    assert "    default: break;\n    }\n" in out


def test_no_cases_for_a_dispatch_of_another_shape(tmp_path: Path) -> None:
    """A condition that is not an OR of trigger bits, or a call outside a condition,
    leaves the tests alone as the dispatch (still exact)."""
    odd = NBA.replace(
        "    if (vlSelf->__VnbaTriggered.at(1U)) {\n        Vtop___024root___nba_sequent__TOP__0",
        "    if (!vlSelf->__VnbaTriggered.at(1U)) {\n        Vtop___024root___nba_sequent__TOP__0",
    )
    assert odd != NBA
    out = _fast_eval(model(tmp_path / "a", ICO + ACT, odd), PREV, posedge=True)
    assert "VBOARD_FAST_EVAL 1" in out and "switch" not in out and "if (!((m >> 1) & 1U))" in out
    # no clk trigger: nothing known to rise at every evaluation
    gclk = [PREV[1], "__Vtrigrprev__TOP__other"]
    act = ACT.replace("__Vtrigrprev__TOP__clk", "__Vtrigrprev__TOP__other").replace(
        "vlSelf->clk", "vlSelf->other"
    )
    out = _fast_eval(model(tmp_path / "b", ICO + act, NBA), gclk, posedge=True)
    assert "VBOARD_FAST_EVAL 1" in out and "switch" not in out


def test_a_model_without_input_logic(tmp_path: Path) -> None:
    out = _fast_eval(model(tmp_path, ACT, NBA), PREV, posedge=True)
    assert "#define VBOARD_FAST_EVAL 1\n#define VBOARD_FAST_ICO 0\n" in out
    assert "eval_ico" not in out


def test_refused_when_one_pass_would_not_be_exact(tmp_path: Path) -> None:
    off = "#define VBOARD_FAST_EVAL 0\n"
    # a trigger that is not a rising edge
    assert _fast_eval(model(tmp_path / "a", ICO + ACT, NBA), PREV, posedge=False) == off
    # the 'act' region does something
    busy_act = ACT.replace(f"Vtop___024root___eval_act(Vtop___024root* vlSelf) {{\n{HEAD}}}",
                           f"Vtop___024root___eval_act(Vtop___024root* vlSelf) {{\n{HEAD}"
                           "    vlSelf->x = 1U;\n}")  # fmt: skip
    assert busy_act != ACT
    assert _fast_eval(model(tmp_path / "b", ICO + busy_act, NBA), PREV, posedge=True) == off
    # a clock assigned by the clocked logic (a derived clock: triggers could fire again)
    derived = NBA.replace("vlSelf->vboard_top__DOT__y = ", "vlSelf->vboard_top__DOT__gclk = ")
    assert derived != NBA
    assert _fast_eval(model(tmp_path / "c", ICO + ACT, derived), PREV, posedge=True) == off
    # _eval_nba doing more than testing triggers and calling
    first = "    if (vlSelf->__VnbaTriggered.at(1U)) {"
    more = NBA.replace(first, "    vlSelf->z = 0U;\n" + first)
    assert more != NBA
    assert _fast_eval(model(tmp_path / "d", ICO + ACT, more), PREV, posedge=True) == off
    # a trigger sample missing
    fewer = [*PREV, "__Vtrigrprev__TOP__other"]
    assert _fast_eval(model(tmp_path / "e", ICO + ACT, NBA), fewer, posedge=True) == off
    # only half of the input region
    half = ICO.split("void Vtop___024root___eval_triggers__ico")[0]
    assert _fast_eval(model(tmp_path / "f", half + ACT, NBA), PREV, posedge=True) == off
