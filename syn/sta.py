"""Static timing over nextpnr's SDF output: the longest register-to-register path, overall
and per named side of a design (the paths that pass through any cell whose name contains one
of the side's strings), and the rest.

nextpnr's own report gives one critical path per clock; a design's other parts are hidden
behind it, and a change that shortens one side's paths can look like a loss when placement
noise lengthens the other side's. This pass reads the max delays of nextpnr's
``--sdf`` file (interconnect, cell input-to-output paths, clock-to-output, setup), starts a
path at every clocked output (its clock-to-output delay), ends it at every input with a setup
time (its setup added), and so finds each endpoint's longest path. Clock distribution is
ignored (launch and capture share the global buffer), as nextpnr's single-clock report does:
on the node its worst path equals nextpnr's critical path to 0.01 ns.

Usage: python -m syn.sta FILE.sdf [NAME=STR[,STR...] ...]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

_INTERCONNECT = re.compile(r"\(INTERCONNECT (\S+) (\S+) \((\d+):\d+:\d+\)")
_INSTANCE = re.compile(r"\(INSTANCE ?([^)]*)\)")
_IOPATH = re.compile(r"\(IOPATH (\S+) (\S+) \((\d+):")
_SETUP = re.compile(r"\(SETUPHOLD \((?:posedge|negedge) (\S+)\) \(posedge (\S+)\) \((\d+):")
_CLOCKS = ("CLK", "RCLK", "WCLK")
NO_PATH = -(10**12)  # arrival of a pin that no register reaches


@dataclass
class TimedPath:
    """One register-to-register path: its delay and the cells it runs through in order."""

    delay_ps: int
    cells: list[str]

    @property
    def mhz(self) -> float:
        return 1e6 / self.delay_ps if self.delay_ps > 0 else 0.0


def _unescape(name: str) -> str:
    return name.replace("\\", "")


class Timing:
    """The timing graph of one SDF file (pins ``cell/port``, max delays in ps)."""

    def __init__(self, sdf: str) -> None:
        self.fanin: dict[str, list[tuple[str, int]]] = defaultdict(list)
        self.launch: dict[str, int] = {}  # clocked output -> clock-to-output delay
        self.setup: dict[str, int] = {}  # input with a setup time -> that time
        for src, dst, d in _INTERCONNECT.findall(sdf):
            self.fanin[_unescape(dst)].append((_unescape(src), int(d)))
        for cell in sdf.split("\n  (CELL\n")[1:]:
            m = _INSTANCE.search(cell)
            inst = _unescape(m.group(1).strip()) if m else ""
            for i, o, d in _IOPATH.findall(cell):
                if i in _CLOCKS:
                    self.launch[f"{inst}/{o}"] = int(d)
                else:
                    self.fanin[f"{inst}/{o}"].append((f"{inst}/{i}", int(d)))
            for pin, _clk, d in _SETUP.findall(cell):
                key = f"{inst}/{pin}"
                self.setup[key] = max(self.setup.get(key, 0), int(d))
        self._arr: dict[str, tuple[int, str | None]] = {}

    def arrival(self, pin: str) -> tuple[int, str | None]:
        """Latest arrival (ps) at ``pin`` and the pin it comes from (None at a launch;
        a pin no register reaches has the arrival NO_PATH)."""
        if pin in self._arr:
            return self._arr[pin]
        # iterative post-order evaluation (paths are thousands of pins deep); a pin met
        # again while its own fan-in is being evaluated (a loop) counts as unreached
        stack: list[tuple[str, bool]] = [(pin, False)]
        visiting: set[str] = set()
        while stack:
            p, expanded = stack.pop()
            if p in self._arr:
                continue
            if not expanded:
                visiting.add(p)
                stack.append((p, True))
                stack.extend(
                    (s, False)
                    for s, _ in self.fanin.get(p, [])
                    if s not in self._arr and s not in visiting
                )
                continue
            best: tuple[int, str | None] = (self.launch.get(p, NO_PATH), None)
            for s, d in self.fanin.get(p, []):
                a = self._arr.get(s, (NO_PATH, None))[0]
                if a > NO_PATH and a + d > best[0]:
                    best = (a + d, s)
            self._arr[p] = best
            visiting.discard(p)
        return self._arr[pin]

    def cells_of(self, pin: str) -> list[str]:
        """The cells of the longest path ending at ``pin``, in order."""
        pins: list[str] = []
        p: str | None = pin
        while p is not None:
            pins.append(p)
            p = self.arrival(p)[1]
        cells: list[str] = []
        for x in reversed(pins):
            c = x.rsplit("/", 1)[0]
            if not cells or cells[-1] != c:
                cells.append(c)
        return cells

    def endpoints(self) -> list[TimedPath]:
        """Every endpoint's longest path, longest first (endpoints no register reaches
        are left out)."""
        out = []
        for pin, s in self.setup.items():
            a = self.arrival(pin)[0]
            if a > NO_PATH:
                out.append(TimedPath(a + s, self.cells_of(pin)))
        out.sort(key=lambda p: -p.delay_ps)
        return out


def side_paths(sdf: str, sides: dict[str, tuple[str, ...]]) -> dict[str, TimedPath | None]:
    """The worst path overall (``all``), the worst through each side (a path whose cells
    include one whose name contains any of the side's strings) and the worst through none
    of them (``rest``); None where no path qualifies."""
    paths = Timing(sdf).endpoints()

    def worst(pred) -> TimedPath | None:  # noqa: ANN001
        return next((p for p in paths if pred(p)), None)

    def through(p: TimedPath, subs: tuple[str, ...]) -> bool:
        return any(s in c for c in p.cells for s in subs)

    out: dict[str, TimedPath | None] = {"all": paths[0] if paths else None}
    for name, subs in sides.items():
        out[name] = worst(lambda p, subs=subs: through(p, subs))
    every = tuple(s for subs in sides.values() for s in subs)
    if sides:
        out["rest"] = worst(lambda p: not through(p, every))
    return out


def parse_sides(specs: list[str] | None) -> dict[str, tuple[str, ...]]:
    """``NAME=STR[,STR...]`` arguments as a dict; ValueError on a malformed one."""
    sides: dict[str, tuple[str, ...]] = {}
    for spec in specs or []:
        name, sep, subs = spec.partition("=")
        parts = tuple(s for s in subs.split(",") if s)
        if not sep or not name or not parts or name in ("all", "rest"):
            raise ValueError(
                f"side {spec!r}: write NAME=STR[,STR...] (a cell-name substring list; "
                "NAME not 'all' or 'rest')"
            )
        sides[name] = parts
    return sides


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sdf", type=Path, help="an SDF file written by nextpnr --sdf")
    ap.add_argument("side", nargs="*", help="NAME=STR[,STR...]: a side of the design")
    a = ap.parse_args(argv)
    try:
        sides = parse_sides(a.side)
        text = a.sdf.read_text()
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for name, p in side_paths(text, sides).items():
        if p is None:
            print(f"{name}: no register-to-register path")
        else:
            head = f"{name}: {p.delay_ps / 1000:.2f} ns ({p.mhz:.1f} MHz), {len(p.cells)} cells"
            print(f"{head}: {' -> '.join(p.cells)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
