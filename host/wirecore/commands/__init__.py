"""Subcommands of the `wirecore` command.

Each module here defines ``register(sub: argparse._SubParsersAction) -> None`` that adds
its subcommand(s) and sets ``func`` (a callable taking the parsed namespace and returning
an exit code) with ``parser.set_defaults(func=...)``. The CLI finds them automatically.
"""
