"""wirecore stream / duplex / latency / daq end to end against the stand-in on loopback."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from wirecore.cli import main


def run_json(tmp_path: Path, argv: list[str]) -> dict:
    out = tmp_path / "r.json"
    png = tmp_path / "r.png"
    assert main([*argv, "--standin", "--quiet", "--save", str(out), "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return json.loads(out.read_text())


def test_stream_counts_match_the_board(tmp_path: Path) -> None:
    doc = run_json(tmp_path, ["stream", "--packets", "3000", "--length", "1000", "--verify", "50"])
    s = doc["summary"]
    data = [r for r in doc["rows"] if r["length"] >= 16]
    primers = [r for r in doc["rows"] if r["length"] == 0]
    assert len(primers) == 1, "one zero-length ARP primer before the run"
    assert len(data) + len(primers) == len(doc["rows"])
    assert s["sent"] == 3000
    assert s["received"] + s["lost"] == 3000
    assert s["received"] == len(data)
    assert s["ignored"] == 1
    assert s["fill_bad"] == 0
    assert sorted(r["seq"] for r in data)[:3] == [0, 1, 2]
    assert all(r["length"] == 1000 for r in data)
    dv = s["delay_variation_us"]
    assert dv["n"] == 3000 and dv["min"] == 0.0 and dv["max"] >= dv["p99"] >= dv["median"]
    assert s["lost"] == 0, "loopback at this volume must not lose anything"


def test_stream_seconds_lfsr_csv(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    argv = ["stream", "--seconds", "0.3", "--length", "200", "--lfsr", "--gap", "20000"]
    argv += ["--warmup", "0"]  # no primer: every row is a datagram in the format
    assert main([*argv, "--standin", "--quiet", "--save", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert len(rows) > 10
    seqs = [int(r["seq"]) for r in rows]
    assert seqs == list(range(len(seqs)))


def test_duplex(tmp_path: Path) -> None:
    doc = run_json(tmp_path, ["duplex", "--packets", "2000", "--length", "500", "--rate", "5000"])
    s = doc["summary"]
    assert s["sent"] == 2000
    assert s["unique"] == len({r["seq"] for r in doc["rows"]})
    assert s["unique"] == 2000, "paced at 5000/s the stand-in echo loses nothing"
    assert s["tx_packets_per_s"] > 0 and s["rx_packets_per_s"] > 0


def test_latency(tmp_path: Path) -> None:
    doc = run_json(tmp_path, ["latency", "--sizes", "16,512,1472", "--repeats", "20"])
    s = doc["summary"]
    assert set(s["per_size"]) == {"16", "512", "1472"}
    assert s["timed_out"] == 0
    assert len(doc["rows"]) == 60
    assert all(r["rtt_us"] > 0 for r in doc["rows"])
    assert "slope_us_per_byte" in s and "intercept_us" in s


def test_daq(tmp_path: Path) -> None:
    argv = ["daq", "--standin-boards", "3", "--events", "20", "--size", "64"]
    doc = run_json(tmp_path, argv)
    s = doc["summary"]
    assert s["boards"] == ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
    assert s["incomplete"] == 0
    for mode in ("sequential", "grouped"):
        assert [s["results"][mode][str(n)]["n"] for n in (1, 2, 3)] == [20, 20, 20]
    assert len(doc["rows"]) == 120


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["stream", "--length", "2000"], "out of range"),
        (["stream", "--packets", "5", "--seconds", "1"], "not allowed with"),
        (["stream", "--target", "not-an-ip.invalid"], "not an IPv4"),
        (["stream", "--plot", "x.jpg"], ".png"),
        (["latency", "--sizes", "16"], "at least two"),
        (["latency", "--sizes", "8,16"], "16..1472"),
        (["daq", "--events", "0"], "out of range"),
        (["duplex", "--save", "/nonexistent/x.json"], "does not exist"),
    ],
)
def test_bad_arguments(argv: list[str], msg: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert msg in capsys.readouterr().err


def test_no_board_answers() -> None:
    # nothing listens on this loopback address: a clear error, no hang, exit status 1
    argv = ["stream", "--target", "127.0.0.9", "--ipbus-port", "9", "--packets", "10", "--quiet"]
    assert main(argv) == 1


def test_stream_destinations_in_turn(tmp_path: Path) -> None:
    argv = ["stream", "--packets", "3001", "--length", "100", "--destinations", "3"]
    doc = run_json(tmp_path, [*argv, "--verify", "0"])
    s = doc["summary"]
    assert s["sent"] == 3001 and s["received"] == 3001 and s["lost"] == 0
    per = s["destinations"]
    assert [d["received"] for d in per] == [1001, 1000, 1000]
    assert len({d["port"] for d in per}) == 3
    for i in range(3):
        seqs = sorted(r["seq"] for r in doc["rows"] if r["dest"] == i and r["length"] == 100)
        assert seqs == list(range(len(seqs))), f"destination {i}: its own contiguous sequence"


def test_interrupted_stream_stops_the_generator() -> None:
    """Ctrl-C during a run without an end: the tool stops the board's generator."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from wirecore import ipbus, regmap
    from wirecore.daq.peer import standin

    root = Path(__file__).resolve().parents[2]
    with standin(1) as boards:
        b = boards[0]
        cmd = [sys.executable, "-m", "wirecore.cli", "stream", "--target", b.ip]
        cmd += ["--ipbus-port", str(b.ipbus_port), "--seconds", "60", "--quiet"]
        cmd += ["--length", "64", "--gap", "100000"]
        env = dict(os.environ, PYTHONPATH=str(root / "host"))
        # Ctrl-C handling as at a terminal, even when this test runs as a background job
        # (which starts with SIGINT ignored, inherited by the tool)
        p = subprocess.Popen(
            cmd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        # packet ID 0 (no reliability layer): the tool's own client keeps the ID sequence
        with ipbus.Client(b.ip, b.ipbus_port, reliable=False) as cli:
            status = regmap.find("PKTGEN.STATUS")
            deadline = time.monotonic() + 20
            while cli.read(status)[0] == 0:
                assert time.monotonic() < deadline, "the generator never started"
                time.sleep(0.05)
            p.send_signal(signal.SIGINT)
            assert p.wait(20) == 130
            assert cli.read(status)[0] == 0, "the generator still runs after the interrupt"


def test_stream_reports_link_loss_exactly(tmp_path: Path) -> None:
    """A stand-in that loses every 10th datagram (still counted as sent, as a lossy link
    would): the tool's loss, success ratio and gap histogram are exact."""
    from wirecore.daq.peer import standin

    out = tmp_path / "loss.json"
    with standin(1, drop_every=10) as boards:
        b = boards[0]
        argv = ["stream", "--target", b.ip, "--ipbus-port", str(b.ipbus_port)]
        argv += ["--packets", "1000", "--length", "200", "--quiet", "--save", str(out)]
        assert main(argv) == 0
    s = json.loads(out.read_text())["summary"]
    assert (s["sent"], s["received"], s["lost"]) == (1000, 900, 100)
    assert s["success"] == 0.9
    assert s["gap_hist"] == {"1": 100}
    assert s["gap_events"] == 100
