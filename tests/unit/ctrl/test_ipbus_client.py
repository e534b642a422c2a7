"""The reliable IPbus client over a lossy, reordering UDP link to the reference model.

10,000 transactions through a link that drops 5 % of datagrams each way and reorders
another 5 % (held back longer than the client's timeout): every transaction completes,
none is lost, duplicated or executed twice (counted with read-modify-write sums), and
every read returns the last value written.
"""

from __future__ import annotations

import random

import pytest
from wirecore import ipbus as ipb
from wirecore.ipbus import (
    READ,
    RMW_SUM,
    WRITE,
    Client,
    DictBus,
    LossyLink,
    ModelServer,
    TargetModel,
    Transaction,
)


def run_workload(client: Client, rng: random.Random, packets: int) -> tuple[dict[int, int], int]:
    shadow: dict[int, int] = {}
    sums = 0
    for _ in range(packets):
        ts: list[Transaction] = []
        checks: list[tuple[int, int]] = []
        for _ in range(5):
            ts.append(Transaction(RMW_SUM, 0, 1, masks=(1,)))
        for _ in range(4):
            a, v = rng.randrange(1, 64), rng.getrandbits(32)
            ts.append(Transaction(WRITE, a, 1, data=[v]))
            shadow[a] = v
        a = rng.choice(list(shadow))
        ts.append(Transaction(READ, a, 1))
        checks.append((len(ts) - 1, shadow[a]))
        replies = client.run(ts)
        assert len(replies) == len(ts)
        for i, r in enumerate(replies[:5]):
            assert r.data == [sums + i], "RMW sum saw a wrong count: lost or repeated"
        sums += 5
        for i, v in checks:
            assert replies[i].data == [v]
    return shadow, sums


@pytest.mark.parametrize("little_endian", [False, True])
def test_reliable_over_lossy_link(little_endian: bool) -> None:
    model = TargetModel(DictBus())
    model.expected = 0xFF00  # the run crosses the 0xFFFF -> 1 wrap
    rng = random.Random(11 + little_endian)
    packets = 1000 if not little_endian else 200
    with (
        ModelServer(model) as server,
        LossyLink(server.address, loss=0.05, reorder=0.05, hold=0.05, seed=3) as link,
        Client(*link.address, timeout=0.03, retries=30, little_endian=little_endian) as c,
    ):
        shadow, sums = run_workload(c, rng, packets)
        assert c.recoveries > 0 and c.resends > 0 and c.retransmits > 0
        assert link.dropped > 0 and link.reordered > 0
    assert model.bus.mem[0] == sums == 5 * packets  # type: ignore[attr-defined]
    for a, v in shadow.items():
        assert model.bus.mem[a] == v  # type: ignore[attr-defined]
    assert model.cnt["transactions"] == 10 * packets
    assert model.cnt["control"] == packets  # each request executed exactly once
    assert model.cnt["id_dropped"] > 0  # duplicates did arrive and were refused


def test_packet_id_zero_has_no_recovery() -> None:
    model = TargetModel(DictBus())
    with (
        ModelServer(model) as server,
        LossyLink(server.address, loss=1.0, reorder=0.0) as link,
        Client(*link.address, timeout=0.05, reliable=False) as c,
        pytest.raises(ipb.IPbusTimeout),
    ):
        c.read(0)


def test_errors_raise() -> None:
    model = TargetModel(DictBus(err=lambda a: a >= 0x100))
    with ModelServer(model) as server, Client(*server.address, timeout=0.5) as c:
        c.write(0xF0, list(range(16)))
        assert c.read(0xF0, 16) == list(range(16))
        with pytest.raises(ipb.IPbusError) as e:
            c.read(0xF8, 16)
        assert e.value.info == ipb.BUS_ERR_READ and e.value.words_done == 8
        assert c.rmw_bits(0xF0, 0xFF, 0x100) == 0
        assert c.rmw_sum(0xF0, 5) == 0x100
        assert c.read(0xF0) == [0x105]
        big = [random.getrandbits(32) for _ in range(2048)]
        model.bus.err = lambda a: False  # type: ignore[attr-defined]
        c.write(0x1000, big)
        assert c.read(0x1000, 2048) == big
