"""`wirecore reg` and `wirecore mem` against the IPbus reference model served in another
process (uHAL's dispatch holds the GIL), through uHAL and through the reliable client."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from wirecore.cli import main

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.fixture(scope="module")
def target() -> Iterator[str]:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "wirecore.ipbus", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert "serving" in proc.stdout.readline()
    time.sleep(0.1)
    yield f"ipbusudp-2.0://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(5)


@pytest.fixture(params=["uhal", "reliable"])
def opts(request, target: str) -> list[str]:
    if request.param == "uhal":
        pytest.importorskip("uhal")
        return ["--target", target]
    return ["--target", target, "--reliable"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_reg_read_write_fields(capsys, opts: list[str]) -> None:
    assert run(capsys, "reg", "read", "SYS.MAGIC", *opts) == (0, "0xa5a55a5a\n", "")
    assert run(capsys, "reg", "write", "SYS.SCRATCH", "0xcafe0001", *opts)[0] == 0
    assert run(capsys, "reg", "read", "sys.scratch", *opts)[1] == "0xcafe0001\n"
    assert run(capsys, "reg", "write", "NET.ENABLES.ICMP", "0", *opts)[0] == 0
    assert run(capsys, "reg", "read", "NET.ENABLES", *opts)[1] == "0x0000000d\n"
    assert run(capsys, "reg", "write", "NET.ENABLES.ICMP", "1", *opts)[0] == 0
    assert run(capsys, "reg", "read", "NET.ENABLES.ICMP", *opts)[1] == "0x00000001\n"
    assert run(capsys, "reg", "read", "0x82", *opts)[1] == "0xc0000202\n"


def test_reg_errors(capsys, opts: list[str]) -> None:
    code, _, err = run(capsys, "reg", "read", "0x3f0", *opts)
    assert code == 1 and "wirecore reg:" in err
    code, _, err = run(capsys, "reg", "write", "SYS.ID", "1", *opts)
    assert code == 1 and "wirecore reg:" in err
    code, _, err = run(capsys, "reg", "read", "NET.NOPE", *opts)
    assert code == 1 and "no register" in err
    code, _, err = run(capsys, "reg", "write", "NET.ENABLES.ICMP", "2", *opts)
    assert code == 1 and "does not fit" in err


def test_reg_dump(capsys, opts: list[str]) -> None:
    code, out, _ = run(capsys, "reg", "dump", "SYS", "NET", *opts)
    assert code == 0
    assert "MAGIC" in out and "0xa5a55a5a" in out and "0xc0000202" in out


def test_mem_roundtrip(capsys, opts: list[str], tmp_path: Path) -> None:
    rng = random.Random(5)
    data = bytes(rng.getrandbits(8) for _ in range(4 * 3000))
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(data)
    assert run(capsys, "mem", "load", str(src), "--offset", "100", "--verify", *opts)[0] == 0
    assert run(capsys, "mem", "save", str(dst), "--offset", "100", "--count", "3000", *opts)[0] == 0
    assert dst.read_bytes() == data
    assert run(capsys, "mem", "write", "16383", "0x12345678", *opts)[0] == 0
    code, out, _ = run(capsys, "mem", "read", "16383", "1", *opts)
    assert (code, out) == (0, "03fff: 12345678\n")
    code, _, err = run(capsys, "mem", "read", "16383", "2", *opts)
    assert code == 1 and "outside the memory" in err


def test_selftest_against_model(capsys, target: str) -> None:
    pytest.importorskip("uhal")
    code, out, _ = run(capsys, "reg", "selftest", "--target", target)
    assert code == 0, out
    assert out.count("ok  ") == 13 and "all checks passed" in out


def test_status(capsys, target: str) -> None:
    code, out, _ = run(capsys, "reg", "status", "--target", target)
    assert code == 0
    assert "MTU               1472 bytes" in out and "replies kept      4" in out
    assert "next packet ID" in out and "status" in out
    assert "register map      2.3.0 (this wirecore expects 2.3.0)" in out


def test_status_warns_on_another_map_version(capsys, target: str, monkeypatch) -> None:
    """The model's SYS.VERSION is the map's (2.3.0): a wirecore that expects another map
    warns, says what to do and fails; one that expects another SYS.ID too."""
    from wirecore import regmap

    monkeypatch.setattr(regmap, "MAP_VERSION", (2, 4, 0))
    code, out, err = run(capsys, "reg", "status", "--target", target)
    assert code == 1
    assert "register map      2.3.0 (this wirecore expects 2.4.0)" in out
    assert "WARNING: the board's register map is 2.3.0, this wirecore 0.1.0 expects 2.4.0" in err
    assert "gateware" in err and "wirecore package" in err
    monkeypatch.setattr(regmap, "MAP_VERSION", (2, 3, 0))
    monkeypatch.setattr(regmap, "DESIGN_ID", 0x12345678)
    code, _, err = run(capsys, "reg", "status", "--target", target)
    assert code == 1 and "SYS.ID reads 0x77697265, not 'wire'" in err
