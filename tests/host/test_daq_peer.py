"""The software stand-in board: PKTGEN registers over IPbus drive its generator."""

from __future__ import annotations

import time

import numpy as np
import pytest
from wirecore import ipbus, regmap
from wirecore.daq import fmt
from wirecore.daq.peer import SoftBoard, standin
from wirecore.daq.rx import Receiver

f = regmap.find


def configure(cli: ipbus.Client, length: int, count: int, dests: list[int], mode: int) -> None:
    cli.write(f("PKTGEN.LENGTH"), [length])
    cli.write(f("PKTGEN.COUNT"), [count])
    cli.write(f("PKTGEN.GAP"), [0])
    cli.write(f("PKTGEN.NUM_DEST"), [len(dests)])
    cli.write(f("PKTGEN.PAYLOAD"), [mode])
    for i, port in enumerate(dests):
        cli.write(f(f"PKTGEN.DEST_IP{i}"), [0x7F000001])
        cli.write(f(f"PKTGEN.DEST_PORT{i}"), [port])


def wait_idle(cli: ipbus.Client) -> None:
    """Wait (bounded) until the generator has finished its run."""
    for _ in range(50):
        if cli.read(f("PKTGEN.STATUS"))[0] == 0:
            break
        time.sleep(0.02)
    assert cli.read(f("PKTGEN.STATUS"))[0] == 0


def test_destinations_in_turn_lfsr() -> None:
    with SoftBoard() as board, ipbus.Client("127.0.0.1", board.addr.ipbus_port) as cli:
        rxs = [Receiver(("127.0.0.1", 0), keep_payloads=1000) for _ in range(3)]
        try:
            configure(cli, 100, 30, [r.port for r in rxs], 1)
            cli.write(f("PKTGEN.CTRL"), [1])
            caps = [r.collect(packets=10, idle=0.5) for r in rxs]
            wait_idle(cli)
            assert cli.read(f("PKTGEN.SENT_PACKETS"))[0] == 30
            assert cli.read(f("PKTGEN.SENT_BYTES"))[0] == 3000
            assert cli.read(f("PKTGEN.ROUND_LO"), 2) == [10, 0]
            # like the board's counters, start does not clear them; the rounds restart
            cli.write(f("PKTGEN.CTRL"), [1])
            wait_idle(cli)
            assert cli.read(f("PKTGEN.SENT_PACKETS"))[0] == 60
            assert cli.read(f("PKTGEN.SENT_BYTES"))[0] == 6000
            assert cli.read(f("PKTGEN.ROUND_LO"), 2) == [10, 0]
        finally:
            for r in rxs:
                r.close()
    for c in caps:
        assert c.seq.tolist() == list(range(10))  # per-destination sequence numbers
        assert (c.src_port == board.addr.pktgen_port).all()
        for p in c.payloads:
            assert len(p) == 100 and fmt.check_fill(p, lfsr=True)
    ts = np.concatenate([c.fpga_ts for c in caps])
    assert len(set(ts.tolist())) > 1  # the timestamp moves


def test_forever_until_stop_and_register_errors() -> None:
    with SoftBoard() as board, ipbus.Client("127.0.0.1", board.addr.ipbus_port) as cli:
        with Receiver(("127.0.0.1", 0)) as rx:
            configure(cli, 64, 0, [rx.port], (0x77 << 1) | 0)
            cli.write(f("PKTGEN.CTRL"), [1])
            cap = rx.collect(packets=2000, idle=0.5)
            assert cli.read(f("PKTGEN.STATUS"))[0] == 1
            cli.write(f("PKTGEN.CTRL"), [2])
            time.sleep(0.1)
            assert cli.read(f("PKTGEN.STATUS"))[0] == 0
            rest = rx.collect(idle=0.3, first_timeout=0.3)
            sent = cli.read(f("PKTGEN.SENT_PACKETS"))[0]
        assert len(cap) + len(rest) == sent
        with pytest.raises(ipbus.IPbusError):
            cli.write(f("PKTGEN.SENT_PACKETS"), [5])  # counters are read-only
        cli.write(f("PKTGEN.NUM_DEST"), [0xFFFF])
        assert cli.read(f("PKTGEN.NUM_DEST"))[0] == 0x1F  # 5-bit register
        assert cli.read(f("SYS.MAGIC"))[0] == 0xA5A55A5A


def test_standin_processes() -> None:
    with standin(2) as boards:
        assert [b.ip for b in boards] == ["127.0.0.1", "127.0.0.2"]
        for b in boards:
            with ipbus.Client(b.ip, b.ipbus_port) as cli:
                assert cli.read(f("NET.ECHO_PORT"))[0] == b.echo_port
