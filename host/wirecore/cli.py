"""The `wirecore` command: finds every subcommand module in wirecore.commands."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from wirecore import __version__, commands, regmap


def version() -> str:
    """The package's version and the register-map version of the gateware it drives."""
    word = regmap.version_word(regmap.MAP_VERSION)
    return (
        f"wirecore {__version__}, for gateware with register map {regmap.version_text(word)} "
        f"(SYS.VERSION {word:#010x})"
    )


class _Version(argparse.Action):
    """--version: prints :func:`version` on one line (argparse's own action wraps it)."""

    def __init__(self, option_strings: list[str], dest: str, **kw: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the versions and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(version())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wirecore",
        description="PC tools for the wirecore FPGA network stack. Every tool talks to the "
        "virtual board (the simulated FPGA on a TAP interface) unless told otherwise.",
    )
    parser.add_argument("--version", action=_Version)
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
