"""The module hierarchy of rtl/, read from the Verilog (one module per file, named like it).

Used by the synthesis tests (every block inside a system top has a top of its own) and by
the FuseSoC test (each rtl/<layer>/<layer>.core lists its layer's files and depends on the
cores of the modules they instantiate). An instantiation is a line that begins with a
module name of rtl/ followed by a parameter list (``#(``) or an instance name and ``(``;
comments are removed first.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"


@functools.cache
def rtl_modules() -> dict[str, Path]:
    """Every module of rtl/ and its file."""
    return {p.stem: p for p in sorted(RTL.rglob("*.v"))}


@functools.cache
def instances(module: str) -> frozenset[str]:
    """The rtl/ modules that ``module`` instantiates directly."""
    files = rtl_modules()
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", files[module].read_text(), flags=re.S)
    names = re.findall(r"^\s*(\w+)\s*(?:#\s*\(|\w+\s*\()", text, flags=re.M)
    return frozenset(n for n in names if n in files and n != module)


def submodules(module: str) -> set[str]:
    """Every module below ``module`` (instantiations in rtl/, one module per file)."""
    found: set[str] = set()
    todo = [module]
    while todo:
        for name in instances(todo.pop()):
            if name not in found:
                found.add(name)
                todo.append(name)
    return found
