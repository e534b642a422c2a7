"""syn/verilator_build.py, the one builder of the Verilator drivers, on a small module of
its own: the driver runs and computes what the Verilog says, a second build with the same
inputs reuses the first, and a change of any input (Verilog in the library path, driver,
header beside it, parameter, define) gives another build."""

from __future__ import annotations

from pathlib import Path

import pytest

from syn import verilator_build as vb

COUNTER = """`default_nettype none
module cnt #(parameter STEP = 1) (input wire clk, output reg [15:0] q);
    initial q = 16'd0;
    always @(posedge clk) q <= q + STEP[15:0];
endmodule
`default_nettype wire
"""

DRIVER = """#include <cstdio>
#include <cstdlib>
#include "Vcnt.h"
#include "verilated.h"
#include "extra.h"
int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: Vcnt CYCLES\\n"); return 2; }
    Vcnt* t = new Vcnt;
    for (int i = 0; i < atoi(argv[1]); i++) { t->clk = 0; t->eval(); t->clk = 1; t->eval(); }
    printf("%d\\n", (int)t->q * SCALE);
    delete t;
    return 0;
}
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "cnt.v").write_text(COUNTER)
    (tmp_path / "drv").mkdir()
    (tmp_path / "drv" / "cnt_tb.cpp").write_text(DRIVER)
    (tmp_path / "drv" / "extra.h").write_text("#define SCALE 1\n")
    monkeypatch.setattr(vb, "SOURCE_ROOTS", (tmp_path / "rtl",))
    monkeypatch.setattr(vb, "BUILD", tmp_path / "build")
    return tmp_path


def test_build_run_and_reuse(tree: Path) -> None:
    drv = [tree / "drv" / "cnt_tb.cpp"]
    exe = vb.build("cnt", drv, params={"STEP": 3})
    assert vb.run(exe, 100).stdout.split() == ["300"]
    stamp = exe.stat().st_mtime_ns
    assert vb.build("cnt", drv, params={"STEP": 3}) == exe  # reused, not rebuilt
    assert exe.stat().st_mtime_ns == stamp
    with pytest.raises(AssertionError, match="exit 2\nusage: Vcnt CYCLES"):
        vb.run(exe)  # a driver's failure fails the run with its output


def test_every_input_is_in_the_key(tree: Path) -> None:
    drv = [tree / "drv" / "cnt_tb.cpp"]
    base = vb.plan("cnt", drv, {"STEP": 3})[1]
    assert vb.plan("cnt", drv, {"STEP": 3})[1] == base
    seen = {base}

    def differs(d: Path) -> None:
        assert d not in seen
        seen.add(d)

    differs(vb.plan("cnt", drv, {"STEP": 4})[1])
    differs(vb.plan("cnt", drv, {"STEP": 3}, {"X": 1})[1])
    differs(vb.plan("cnt", drv, {"STEP": 3}, flags=["--x-initial", "0"])[1])
    for path, text in (
        (tree / "rtl" / "cnt.v", COUNTER.replace("q + STEP", "q - STEP")),
        (tree / "rtl" / "other.v", "module other; endmodule\n"),  # a new file in the path
        (tree / "drv" / "cnt_tb.cpp", DRIVER + "\n"),
        (tree / "drv" / "extra.h", "#define SCALE 2\n"),
    ):
        path.write_text(text)
        differs(vb.plan("cnt", drv, {"STEP": 3})[1])


def test_driver_source_writes_only_on_change(tree: Path) -> None:
    p = vb.driver_source("t.cpp", DRIVER)
    stamp = p.stat().st_mtime_ns
    assert vb.driver_source("t.cpp", DRIVER) == p and p.stat().st_mtime_ns == stamp
    vb.driver_source("t.cpp", DRIVER + "//\n")
    assert p.read_text() == DRIVER + "//\n"
