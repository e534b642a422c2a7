"""Where the virtual board's time goes: machine instructions per simulated cycle, by block.

Builds the board (``--top``, default vboard_top) as ``wirecore.vboard.build()`` does
but with debug line information and without the profile-guided step (C++ ``-O2 -g``,
in ``build/vboard-prof/``), runs it under valgrind's cachegrind for ``--cycles`` cycles
without a TAP (idle, or with back-to-back 1472-byte UDP echo requests with
``--load``), with a ``tick_1ms`` every ``--tick-every`` simulated cycles (2,500: of
the order of the wall-clock ticks of the board at full speed; under valgrind the wall
clock would give one every few tens of cycles), and charges every line of the
generated C++ to the RTL instance whose signal the statement it belongs to assigns
(``vboard_top__DOT__u_stack__DOT__u_arp...`` -> ``u_stack.u_arp``, cut at ``--depth``
levels). Instruction counts do not depend on the machine's load, unlike timings; they
leave out cache effects (the code run each cycle is about the size of the instruction
cache, so its layout matters too: confirm a change with timings, bench.vboard).

Prints the blocks and the hottest C++ lines (with their statement), and writes JSON
(``--out``). Needs valgrind; no root. Usage:
    python -m bench.vboard_profile [--load] [--cycles 100000] [--depth 3]
        [--tick-every 2500] [--out F]
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

import wirecore.vboard as vb  # noqa: E402

STMT = re.compile(r"(vlSelf->|vlSelfRef\.|__V|vboard_top|if |} else if|while|[CSIQ]Data|VlWide)")
MODEL_CPP = re.compile(r"Vtop___024root__(?!.*Slow).*\.cpp$")  # the evaluation code
SIGNAL = re.compile(r"vboard_top__DOT__(\w+)")


def build_profiled(top: str) -> Path:
    """The board built with ``-O2 -g``, no profile-guided step, in build/vboard-prof."""
    saved = (vb.BUILD, vb.OPT, vb._uses_pgo)
    vb.BUILD = ROOT / "build" / "vboard-prof"
    vb.OPT = vb.OPT + " -g"
    vb._uses_pgo = lambda top, trace: False  # noqa: ARG005
    try:
        return vb.build(top)
    finally:
        vb.BUILD, vb.OPT, vb._uses_pgo = saved


def run_cachegrind(exe: Path, cycles: int, load: bool, out: Path, tick_every: int) -> None:
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"]
    cmd += [str(exe), "--tap", "none", "--spin", "--run-cycles", str(cycles), "--no-skip"]
    cmd += ["--tick-every-cycles", str(tick_every)]
    if load:
        pcap = out.parent / "echo1472.pcap"
        vb.write_pcap(pcap, [f for f in vb.training_frames() if len(f) == 1514])
        cmd += ["--inject", str(pcap), "--inject-repeat", "1000000000"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not out.exists():
        raise RuntimeError(f"cachegrind failed:\n{r.stderr[-2000:]}")


def line_counts(cg_out: Path) -> collections.Counter[tuple[str, int]]:
    """Instructions executed per (source file, line) from a cachegrind output file."""
    per: collections.Counter[tuple[str, int]] = collections.Counter()
    fl = ""
    for text in cg_out.read_text().splitlines():
        if text.startswith("fl="):
            fl = text[3:].strip()
        elif text[:1].isdigit():
            f = text.split()
            per[(fl, int(f[0]))] += int(f[1])
    return per


def block_of(lines: list[str], n: int, depth: int) -> str | None:
    """The RTL instance (``a.b.c``) whose signal the statement around line n assigns."""
    i = n - 1
    while 0 <= i < len(lines) and i > n - 80:
        s = lines[i].strip()
        if STMT.match(s):
            ids = SIGNAL.findall(s)
            if ids:
                name = re.sub(r"__Vcell(?:out|inp)__", "", ids[0])  # port copies: cell__port
                return ".".join(name.split("__DOT__")[:depth])
        i -= 1
    return None


def attribute(
    per: collections.Counter[tuple[str, int]], depth: int
) -> tuple[collections.Counter[str], list[tuple[int, str]]]:
    blocks: collections.Counter[str] = collections.Counter()
    hot: list[tuple[int, str]] = []
    files: dict[str, list[str]] = {}
    for (f, n), ir in per.items():
        key = None
        if MODEL_CPP.search(f):
            if f not in files:
                files[f] = Path(f).read_text().splitlines() if Path(f).exists() else []
            key = block_of(files[f], n, depth)
            if files[f] and 0 < n <= len(files[f]):
                hot.append((ir, f"{Path(f).name}:{n}  {files[f][n - 1].strip()[:110]}"))
        blocks[key or f"(outside the model: {Path(f).name})"] += ir
    hot.sort(reverse=True)
    return blocks, hot


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--top", default=vb.DEFAULT_TOP)
    ap.add_argument("--cycles", type=int, default=100_000, help="cycles to run (100000)")
    ap.add_argument("--load", action="store_true", help="back-to-back 1472-byte echo requests")
    ap.add_argument("--depth", type=int, default=3, help="instance levels per block (3)")
    ap.add_argument(
        "--tick-every", type=int, default=2500, help="cycles between tick_1ms pulses (2500)"
    )
    ap.add_argument("--show", type=int, default=40, help="rows of each table (40)")
    ap.add_argument("--out", default="", help="write the figures as JSON")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("bench.vboard_profile needs valgrind", file=sys.stderr)
        return 1
    exe = build_profiled(a.top)
    with tempfile.TemporaryDirectory() as tmp:
        cg = Path(tmp) / "cachegrind.out"
        run_cachegrind(exe, a.cycles, a.load, cg, a.tick_every)
        per = line_counts(cg)
    blocks, hot = attribute(per, a.depth)
    total = sum(blocks.values())
    print(f"{a.top}, {'back-to-back echo load' if a.load else 'idle'}, {a.cycles} cycles: "
          f"{total / a.cycles:,.0f} instructions per simulated cycle")  # fmt: skip
    print(f"{'instr/cycle':>12} {'share':>7}  block")
    for name, ir in blocks.most_common(a.show):
        print(f"{ir / a.cycles:12,.0f} {100 * ir / total:6.2f}%  {name}")
    print(f"\n{'instr/cycle':>12}  hottest lines of the generated C++")
    for ir, where in hot[: a.show]:
        print(f"{ir / a.cycles:12,.1f}  {where}")
    if a.out:
        res = {
            "benchmark": "vboard_profile",
            "top": a.top,
            "load": a.load,
            "cycles": a.cycles,
            "tick_every_cycles": a.tick_every,
            "instructions_per_cycle": round(total / a.cycles, 1),
            "depth": a.depth,
            "blocks": {k: round(v / a.cycles, 1) for k, v in blocks.most_common()},
        }
        Path(a.out).write_text(json.dumps(res, indent=1) + "\n")
        print(f"written {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
