"""The docs name only what exists: every repository path (a `code` span or a link) in
README.md and docs/*.md is a file or folder of the tree, every `wirecore ...` command line
names real subcommands and options, every `python -m bench.<name>` is a benchmark whose
options exist, and every `make <target>` is a target of the Makefile."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP_DIRS = ("rtl", "sim", "host", "tests", "bench", "syn", "boards", "docs", "scripts")
PATH_RE = re.compile(r"^(?:" + "|".join(TOP_DIRS) + r")/[\w./-]*$")
SPAN_RE = re.compile(r"`([^`\n]+)`")
LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


def code_texts(text: str) -> list[str]:
    """Inline code spans and the lines of fenced code blocks."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            out.append(line.strip())
        else:
            out += SPAN_RE.findall(line)
    return out


def doc_id(p: Path) -> str:
    return str(p.relative_to(ROOT))


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_paths_exist(doc: Path) -> None:
    text = doc.read_text()
    missing = []
    for span in SPAN_RE.findall(text):
        if PATH_RE.match(span) and not (ROOT / span).exists():
            missing.append(span)
    for target in LINK_RE.findall(text):
        if "://" in target or target.startswith("#"):
            continue
        rel = target.split("#", 1)[0]
        if not (doc.parent / rel).exists():
            missing.append(target)
    assert not missing, f"{doc_id(doc)} names paths that do not exist: {missing}"


def wirecore_parser() -> argparse.ArgumentParser:
    sys.path.insert(0, str(ROOT / "host"))
    from wirecore import cli

    return cli.build_parser()


def subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def options(p: argparse.ArgumentParser) -> set[str]:
    return {s for a in p._actions for s in a.option_strings}


def check_command(root: argparse.ArgumentParser, words: list[str]) -> list[str]:
    """Problems with one `wirecore` command line (words after `wirecore`). A word of
    alternatives ("up/down/status") is checked alternative by alternative."""
    problems: list[str] = []
    parsers = [root]
    walking = True
    for w in words:
        if w == "--":
            break  # what follows is another program's command line
        w = w.strip("[]|,.;:")
        if not w:
            continue
        if w.startswith("--"):
            opt = w.split("=", 1)[0]
            for p in parsers:
                if opt not in options(p):
                    problems.append(f"{p.prog}: no option {opt}")
            continue
        if not walking or w.startswith("-"):
            continue
        subs = [subparsers(p) for p in parsers]
        if not any(subs):
            walking = False
            continue
        names = w.split("/")
        if all(n in s for s in subs for n in names):
            parsers = [s[n] for s in subs for n in names]
        elif len(parsers) == 1 and parsers[0] is root:
            problems.append(f"wirecore: no command {w}")
            walking = False
        else:
            walking = False  # a positional argument of the command
            if re.fullmatch(r"[a-z]+(/[a-z]+)+", w):
                problems.append(f"{parsers[0].prog}: no subcommand among {w}")
    return problems


def wirecore_lines(text: str) -> list[list[str]]:
    out = []
    for code in code_texts(text):
        m = re.search(r"(?:^|[\s(])(?:\.venv/bin/)?wirecore\s+(.*)", code)
        if m and not code.startswith(("host/", "wirecore.", "python")):
            out.append(m.group(1).split("#", 1)[0].split())
    return out


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_wirecore_commands_exist(doc: Path) -> None:
    root = wirecore_parser()
    problems = []
    for words in wirecore_lines(doc.read_text()):
        problems += [f"`wirecore {' '.join(words)}`: {p}" for p in check_command(root, words)]
    assert not problems, "\n".join(problems)


def bench_options(module: str) -> set[str] | None:
    """The options of `python -m bench.<module>`, None if it takes none (no argparse:
    `--help` would run the benchmark)."""
    src = (ROOT / "bench" / f"{module}.py").read_text()
    if "ArgumentParser" not in src:
        return None
    r = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    return set(re.findall(r"(--[\w-]+)", r.stdout))


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_bench_commands_exist(doc: Path) -> None:
    problems = []
    cache: dict[str, set[str] | None] = {}
    for code in code_texts(doc.read_text()):
        for m in re.finditer(
            r"(?:python -m )?\bbench\.(\w+)((?:\s+--?[\w-]+(?:[= ][^\s`-]\S*)?)*)", code
        ):
            module, rest = m.group(1), m.group(2)
            if not (ROOT / "bench" / f"{module}.py").exists():
                problems.append(f"no benchmark bench/{module}.py")
                continue
            opts = re.findall(r"(--[\w-]+)", rest)
            if not opts:
                continue
            if module not in cache:
                cache[module] = bench_options(module)
            have = cache[module] or set()
            problems += [f"bench.{module} has no option {o}" for o in opts if o not in have]
    assert not problems, f"{doc_id(doc)}: {problems}"


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_make_targets_exist(doc: Path) -> None:
    makefile = (ROOT / "Makefile").read_text()
    m = re.search(r"^\.PHONY:(.*)$", makefile, re.M)
    assert m
    targets = set(m.group(1).split())
    named = set()
    for code in code_texts(doc.read_text()):
        named |= set(re.findall(r"(?:^|\s)make ([a-z][\w-]*)", code))
    assert named <= targets, f"{doc_id(doc)}: no such make target: {named - targets}"


def table_first_cells(text: str) -> list[tuple[str, str]]:
    """(the last ## heading, the first cell's code span) for every table row."""
    out = []
    heading = ""
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        m = re.match(r"^\|\s*`([^`]+)`", line)
        if m:
            out.append((heading, m.group(1)))
    return out


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_command_tables(doc: Path) -> None:
    """A table under a heading "`wirecore X`" lists X's subcommands and their options."""
    root = wirecore_parser()
    problems = []
    for heading, cell in table_first_cells(doc.read_text()):
        m = re.fullmatch(r"`wirecore (\w+)`", heading)
        if m:
            words = [m.group(1), *cell.split()]
            problems += [f"`{cell}`: {p}" for p in check_command(root, words)]
    assert not problems, "\n".join(problems)


def test_board_program_options() -> None:
    """docs/virtual-board.md's options of the board program are the harness's options."""
    src = (ROOT / "sim" / "vboard.cpp").read_text()
    have = {"--" + o for o in re.findall(r'\{"([\w-]+)",\s*(?:required|no|optional)_argument', src)}
    assert have, "no getopt_long table in sim/vboard.cpp"
    doc = (ROOT / "docs" / "virtual-board.md").read_text()
    named = set()
    for heading, cell in table_first_cells(doc):
        if heading == "The board program":
            named |= set(re.findall(r"(--[\w-]+)", cell))
    assert named, "no option table under 'The board program'"
    assert named <= have, f"not options of sim/vboard.cpp: {sorted(named - have)}"
