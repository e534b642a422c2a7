"""The `wirecore` command: finds every subcommand module in wirecore.commands."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from wirecore import __version__, commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wirecore",
        description="PC tools for the wirecore FPGA network stack. Every tool talks to the "
        "virtual board (the simulated FPGA on a TAP interface) unless told otherwise.",
    )
    parser.add_argument("--version", action="version", version=f"wirecore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"wirecore.commands.{info.name}")
        register = getattr(mod, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        print("wirecore: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
