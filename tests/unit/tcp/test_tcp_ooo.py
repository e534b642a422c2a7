"""tcp_core's out-of-order receive (RFC 9293 3.10.7.4: segments beyond rcv_nxt inside the
window kept in the receive buffer; RFC 5681 4.2: each answered at once with a duplicate
ACK) against an independent model of the receive sequence space: the bytes held beyond
rcv_nxt as a set, at most OOO_RANGES runs of them (a segment that would make more is
dropped), rcv_nxt moving over every held byte it reaches. A peer built on scapy sends a
byte stream as segments reordered, duplicated and overlapping at random, always inside
the window the core advertised; every ACK must carry the model's rcv_nxt, the counters
the model's counts, and the application must receive exactly the stream."""

from __future__ import annotations

import random

import cocotb
import pytest
from cocotb_run import run
from unit.tcp.tcptb import ACK, FIN, PSH, Peer, TcpTb, count, ev

M32 = 0xFFFFFFFF


class RcvModel:
    """The receive sequence space in stream offsets (no wrap): ``nxt`` and the set of
    bytes held beyond it, in at most ``ranges`` runs."""

    def __init__(self, ranges: int) -> None:
        self.nxt = 0
        self.held: set[int] = set()
        self.ranges = ranges

    @staticmethod
    def runs(held: set[int]) -> int:
        return sum(1 for x in held if x - 1 not in held)

    def segment(self, s: int, e: int) -> str:
        """A segment of bytes [s, e), inside the window: what the receiver does."""
        if s <= self.nxt < e:
            self.nxt = e
            while self.nxt in self.held:
                self.nxt += 1
            self.held = {x for x in self.held if x >= self.nxt}
            return "in order"
        if s > self.nxt:
            new = self.held | set(range(s, e))
            if self.runs(new) > self.ranges:
                return "full"
            self.held = new
            return "kept"
        return "old"


async def answers(tb: TcpTb, quiet: int = 400) -> list[tuple[int, int]]:
    """Every frame the core sends until it has been quiet for ``quiet`` cycles (the
    answer to a segment, and window updates as the reader frees room): each a bare ACK;
    their (ack, window)."""
    out = [await tb.frame()]
    while True:
        try:
            out.append(await tb.frame(limit=quiet))
        except AssertionError:
            break
    for a in out:
        assert a.flags == ACK and not a.payload, f"answer {a.pkt!r}"
    return [(a.ack, a.win) for a in out]


@cocotb.test()
async def test_ooo_random(dut) -> None:
    """A 5000-byte stream in segments chosen at random: 30 % at rcv_nxt, 10 % wholly
    before it (duplicates), the rest anywhere from 40 bytes before rcv_nxt to the
    window's right edge (overlapping,
    covering several held runs, duplicated, beyond a full table), sequence numbers
    wrapping 2^32; the reader pausing at random. Every ACK against the model; the stream
    delivered exactly; FIN in order at the end."""
    nr = int(dut.OOO_RANGES.value)
    tb = TcpTb(dut, rx_pause=0.3, seed=nr)
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 4100 + nr, 7, isn=0xFFFFF800)
    await p.connect()
    base = p.seq
    rng = random.Random(30 + nr)
    data = bytes(rng.randrange(256) for _ in range(5000))
    model = RcvModel(nr)
    won = {"in order": 0, "kept": 0, "full": 0, "old": 0}
    edge = 2048  # the right edge advertised (the buffer's size before any data)
    sent = 0
    while model.nxt < len(data):
        sent += 1
        assert sent < 2000, "no progress"
        hi = min(edge, len(data))
        r = rng.random()
        if r < 0.3:
            s = model.nxt
        elif r < 0.4 and model.nxt > 0:  # a duplicate of bytes already taken
            s = rng.randrange(max(0, model.nxt - 300), model.nxt)
            hi = model.nxt
        else:
            s = rng.randrange(max(0, model.nxt - 40), hi)
        e = min(hi, s + rng.randrange(1, 300))
        if e <= s:  # the window is closed: wait for the reader's window update
            got = await answers(tb)
            assert all(a == (base + model.nxt) & M32 for a, _ in got), got
            edge = max(edge, model.nxt + got[-1][1])
            continue
        before = model.nxt
        p.send(ACK | PSH, data[s:e], seq=(base + s) & M32)
        won[model.segment(s, e)] += 1
        # the answer carries the model's rcv_nxt; a window update sent before the segment
        # was taken may come first, with the rcv_nxt before it
        got = await answers(tb)
        offs = [((a - base) & M32, w) for a, w in got]
        assert offs[-1][0] == model.nxt, f"segment [{s}, {e}): ACKs {offs}, model {model.nxt}"
        assert all(a == before for a, _ in offs[:-1]), f"segment [{s}, {e}): ACKs {offs}"
        for a, w in offs:
            assert a + w >= edge, f"right edge moved left: {edge} -> {a + w}"
            edge = a + w
    p.seq = (base + len(data)) & M32
    p.send(FIN | ACK)
    got = await answers(tb)
    assert got[-1][0] == (base + len(data) + 1) & M32, got
    got = await tb.wait_rx(p.sid, len(data), limit=200_000)
    assert got == data, "the stream delivered differs"
    for _ in range(2000):
        if p.sid in tb.eof:
            break
        await tb.cycles(1)
    assert p.sid in tb.eof, "no end of stream"
    assert won["kept"] > 10 and won["old"] > 0, won
    if nr < 4:
        assert won["full"] > 0, won
    assert count(m, "ooo_kept") == won["kept"], (count(m, "ooo_kept"), won)
    assert count(m, "ooo_full") == won["full"], (count(m, "ooo_full"), won)
    assert count(m, "out_of_order") == won["kept"] + won["full"]


@cocotb.test()
async def test_ooo_ranges(dut) -> None:
    """OOO_RANGES 2, directed: two holes kept; a third run with the table full dropped
    (counted) and still answered with a duplicate ACK; a segment covering both runs and
    the gap between merges them; the hole filled: rcv_nxt jumps over them and the data
    comes out in order; a segment past the window's right edge kept only up to it; a
    FIN beyond a hole not taken until the data before it is there."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 4200, 7)
    await p.connect()
    b = p.seq
    data = bytes(range(256)) * 12  # 3072 bytes
    acks = []

    async def seg(s: int, e: int, flags: int = ACK | PSH) -> None:
        p.send(flags, data[s:e], seq=b + s)
        a = await tb.frame()
        acks.append(((a.ack - b) & M32, a.win))

    await seg(10, 20)
    await seg(30, 40)
    await seg(50, 60)  # a third run: table full, dropped
    assert [a for a, _ in acks] == [0, 0, 0]
    assert (count(m, "ooo_kept"), count(m, "ooo_full")) == (2, 1)
    await seg(15, 35)  # joins [10, 20) and [30, 40) into [10, 40)
    await seg(50, 60)  # now kept: [10, 40), [50, 60)
    assert (count(m, "ooo_kept"), count(m, "ooo_full")) == (4, 1)
    await seg(0, 5)  # in order, not reaching the first run
    await seg(3, 12)  # overlaps rcv_nxt and the first run: jumps to 40
    assert [a for a, _ in acks[-2:]] == [5, 40]
    await seg(40, 50)  # fills the second hole exactly: 60
    assert acks[-1][0] == 60
    assert await tb.wait_rx(p.sid, 60) == data[:60]
    await tb.cycles(300)
    # the window's right edge: the reader has taken everything, 2048 bytes from 60
    tb.rx_pause = 1.0  # the reader stops: the edge stays at 60 + 2048
    await seg(1000, 2200)  # cut at the edge: kept [1000, 2108)
    await seg(60, 1000)
    assert acks[-1] == (2108, 0), acks[-1]
    tb.rx_pause = 0.0
    assert await tb.wait_rx(p.sid, 2108) == data[:2108]
    await tb.cycles(2000)  # (the window update)
    tb.frames.clear()
    # FIN beyond a hole: the data kept, the FIN not (taken when it comes in order)
    p.send(FIN | ACK | PSH, data[2200:2300], seq=b + 2200)
    a = await tb.frame()
    assert (a.ack - b) & M32 == 2108 and p.sid not in tb.eof
    await seg(2108, 2200)
    assert acks[-1][0] == 2300
    p.send(FIN | ACK, seq=b + 2300)
    a = await tb.frame()
    assert (a.ack - b) & M32 == 2301
    assert await tb.wait_rx(p.sid, 2300) == data[:2300]


def test_tcp_ooo() -> None:
    run("tcp_core", "test_tcp_ooo", parameters={"OOO_RANGES": 2})


@pytest.mark.parametrize("nr", [1, 4])
def test_tcp_ooo_ranges(nr: int) -> None:
    """OOO_RANGES 1 (one hole) and 4 (the most): the random stream against the model."""
    run("tcp_core", "test_tcp_ooo", parameters={"OOO_RANGES": nr}, testcase="test_ooo_random")
