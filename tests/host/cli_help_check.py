"""Run `wirecore <command...> --help` for every command and subcommand in this interpreter.

Prints one JSON object: the command paths whose help printed a usage and exited 0
(``ok``), those that did not (``failed``), and the heavy libraries that were imported on
the way (``heavy``, which must stay empty: a command imports them when it runs).
Run with the interpreter of the environment to check (the project's .venv or a clean
one with wirecore installed); it imports wirecore from that environment.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys

HEAVY = ("numpy", "matplotlib", "rich", "scapy", "uhal", "cocotb")


def command_paths(parser: argparse.ArgumentParser) -> list[list[str]]:
    """Every command path below ``parser``: [["board"], ["board", "up"], ...]."""
    out: list[list[str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append([name])
                out += [[name, *p] for p in command_paths(sub)]
    return out


def main() -> int:
    from wirecore import cli

    paths = [[], *command_paths(cli.build_parser())]
    ok: list[str] = []
    failed: list[str] = []
    for path in paths:
        buf = io.StringIO()
        code: object = None
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            try:
                cli.main([*path, "--help"])
            except SystemExit as e:
                code = e.code
        name = " ".join(["wirecore", *path])
        good = code in (0, None) and buf.getvalue().startswith(f"usage: {name}")
        (ok if good else failed).append(name)
    heavy = sorted(m for m in HEAVY if m in sys.modules)
    print(json.dumps({"ok": ok, "failed": failed, "heavy": heavy}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
