"""icmp_echo: echo replies by cut-through, at DATA_W 8 and 64.

Requests are built by scapy; every reply is parsed by scapy and checked field by field
(addresses swapped, IPv4 checksum recomputed, ICMP checksum verified over the message,
identifier/sequence/data copied), for data sizes 0..1472 (sampled) and for request
checksums that make the incremental update wrap. Bad requests (tuser) give aborted
replies; other types, broadcasts and too-short messages are dropped; requests with a bad
ICMP checksum are discarded (a short one buffered whole: no reply at all; a cut-through
one: its reply aborted); answers off (cfg_answer = 0): every message dropped; the event
strobes (cnt_ev) counted exactly.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb
import pytest
from scapy.layers.inet import ICMP, IP, Ether
from scapy.utils import checksum
from unit.cnt_ev_mon import EvMon
from unit.udp.txutil import (
    DEFAULT_IP,
    DEFAULT_MAC,
    Cycles,
    FrameSink,
    HeaderSource,
    PayloadSource,
    ip_str,
    mac_str,
    random_pause,
    reset,
    start_clock,
    wait_cycles,
)

PEER_MAC = 0x02CAFEBABE01
PEER_IP = 0xC0000264


def ones_add(a: int, b: int) -> int:
    s = a + b
    return (s & 0xFFFF) + (s >> 16)


def request(ident: int, seq: int, data: bytes, itype: int = 8, target: int | None = None) -> bytes:
    """ICMP message bytes; with `target`, the last two data bytes force that checksum."""
    msg = bytes(ICMP(type=itype, code=0, id=ident, seq=seq) / data)
    if target is not None:
        assert len(data) >= 2
        assert len(msg) % 2 == 0
        base = msg[:2] + b"\0\0" + msg[4:-2] + b"\0\0"
        s = (~checksum(base)) & 0xFFFF
        x = ones_add((~target) & 0xFFFF, (~s) & 0xFFFF)
        msg = msg[:2] + target.to_bytes(2, "big") + msg[4:-2] + x.to_bytes(2, "big")
        assert int.from_bytes(msg[2:4], "big") == checksum(msg[:2] + b"\0\0" + msg[4:])
        assert int.from_bytes(msg[2:4], "big") == target
    return msg


class Tb:
    def __init__(
        self, dut: Any, pause: float = 0.0, gap: float = 0.0, convention: bool = True
    ) -> None:
        self.dut = dut
        self.w = len(dut.s_axis_tdata)
        self.cyc = Cycles(dut)
        dut.cfg_mac.value = DEFAULT_MAC
        dut.cfg_ttl.value = 64
        dut.cfg_answer.value = 1
        self.hdr = HeaderSource(dut, "s", self.cyc)
        # the message follows its header (docs/conventions.md), unless a test breaks it
        self.pay = PayloadSource(dut, "s_axis", self.w, hdr=self.hdr if convention else None)
        self.gap = gap
        self.sink = FrameSink(dut, "m_axis", self.cyc, random_pause(3, pause) if pause else None)
        self.in_last: list[int] = []
        cocotb.start_soon(self._mon_in())

    async def _mon_in(self) -> None:
        d = self.dut
        while True:
            await cocotb.triggers.RisingEdge(d.clk)
            if str(d.s_axis_tvalid.value) == "1" and str(d.s_axis_tready.value) == "1":
                if str(d.s_axis_tlast.value) == "1":
                    self.in_last.append(self.cyc.now)

    async def start(self) -> None:
        await start_clock(self.dut)
        await reset(self.dut)
        # the event strobes (cnt_ev bits), counted from here
        self.ev = EvMon(self.dut, ["cnt_replies", "cnt_aborted", "cnt_dropped", "cnt_bad_csum"])

    def send(
        self, msg: bytes, *, bcast: int = 0, tuser: int = 0, hdr_len: int | None = None
    ) -> None:
        """The header (len = ``hdr_len``, else the message's length), then the message."""
        self.hdr.send(
            src_mac=PEER_MAC,
            src_ip=PEER_IP,
            dst_ip=DEFAULT_IP,
            protocol=1,
            len=len(msg) if hdr_len is None else hdr_len,
            broadcast=bcast,
        )
        self.pay.send(msg, tuser, gap_prob=self.gap)

    def cnt(self, name: str) -> int:
        """The events of strobe ``name`` (cnt_ev bit) since start()."""
        return self.ev.count(name)


def check_reply(raw: bytes, req: bytes, ident: int) -> None:
    assert len(raw) == 34 + len(req)
    p = Ether(raw)
    assert p.dst == mac_str(PEER_MAC) and p.src == mac_str(DEFAULT_MAC) and p.type == 0x800
    ip = p[IP]
    assert (ip.version, ip.ihl, ip.tos, ip.len) == (4, 5, 0, 20 + len(req))
    assert (ip.id, int(ip.flags), ip.frag, ip.ttl, ip.proto) == (ident, 0, 0, 64, 1)
    assert ip.src == ip_str(DEFAULT_IP) and ip.dst == ip_str(PEER_IP)
    ref = IP(bytes(ip)[:20])
    got = ref.chksum
    del ref.chksum
    assert IP(bytes(ref)).chksum == got, "bad IPv4 header checksum"
    msg = raw[34:]
    assert msg[0] == 0 and msg[1] == req[1], "type/code"
    assert msg[4:] == req[4:], "identifier, sequence or data changed"
    assert checksum(msg) == 0, f"bad ICMP checksum {msg[2:4].hex()}"
    icmp = p[ICMP]
    assert icmp.type == 0


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def echo_sizes(dut: Any) -> None:
    """Replies for data sizes 0..1472 (sampled), every field checked; cut-through."""
    tb = Tb(dut)
    await tb.start()
    rng = random.Random(8)
    sizes = [0, 1, 2, 3, 4, 5, 7, 8, 9, 56, 100, 1472]
    if tb.w == 64:
        sizes += list(range(10, 30)) + [511, 1000, 1471]
    reqs = []
    for k, n in enumerate(sizes):
        data = bytes(rng.randrange(256) for _ in range(n))
        reqs.append(request(0x1234 + k, k, data))
    for m in reqs:
        tb.send(m)
    for k, m in enumerate(reqs):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_reply(raw, m, k)
    await wait_cycles(dut, 5)
    assert tb.cnt("cnt_replies") == len(reqs)
    assert tb.cnt("cnt_aborted") == 0 and tb.cnt("cnt_dropped") == 0
    # cut-through: for long requests the reply starts before the request has ended
    firsts = [b.cycle for b in tb.sink.beats if b.first]
    for k, n in enumerate(sizes):
        if n >= 56:
            assert firsts[k] < tb.in_last[k], f"size {n}: reply did not start early"


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def checksum_wraps(dut: Any) -> None:
    """Request checksums around the type-change wrap: replies still verify."""
    tb = Tb(dut)
    await tb.start()
    targets = [0xF7FF, 0xF800, 0xF801, 0xFFFE, 0x0000, 0x0001, 0x07FF, 0x0800, 0x8000]
    reqs = [request(7, k, bytes(range(10)), target=t) for k, t in enumerate(targets)]
    for m in reqs:
        tb.send(m)
    for k, m in enumerate(reqs):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_reply(raw, m, k)


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def bad_and_other_requests(dut: Any) -> None:
    """tuser -> aborted reply; other types, broadcast, short messages -> dropped; exact counts."""
    tb = Tb(dut)
    await tb.start()
    good = request(1, 1, bytes(40))
    tb.send(request(2, 2, bytes(30)), tuser=1)  # bad FCS: reply aborted
    tb.send(request(3, 3, bytes(20), itype=13))  # timestamp request: dropped
    tb.send(request(4, 4, bytes(20), itype=0))  # echo reply: dropped
    tb.send(request(5, 5, bytes(20)), bcast=1)  # broadcast: dropped
    tb.send(bytes([8, 0, 0, 0, 1, 2]))  # 6 bytes: too short, dropped
    # a 40-byte request cut (tuser) within its first 4 bytes: dropped at every width (at
    # 64 bits its first and only beat is peeked, not captured)
    tb.send(bytes([8, 0, 0, 0]), hdr_len=40, tuser=1)
    tb.send(bytes([8, 0, 0]), hdr_len=40, tuser=1)
    tb.send(bytes([8]), hdr_len=40, tuser=1)
    tb.send(good)
    raw, tuser = await tb.sink.recv()
    assert tuser == 1, "reply to a bad request not aborted"
    raw, tuser = await tb.sink.recv()
    assert tuser == 0
    # ident counts every accepted header: the good one is the 9th
    check_reply(raw, good, 8)
    await wait_cycles(dut, 30)
    assert tb.sink.count() == 0
    assert tb.cnt("cnt_replies") == 1
    assert tb.cnt("cnt_aborted") == 1
    assert tb.cnt("cnt_dropped") == 7
    assert tb.cnt("cnt_bad_csum") == 0


def corrupt(msg: bytes, pos: int) -> bytes:
    """`msg` with byte `pos` changed (its one's-complement sum is then no longer 0xFFFF)."""
    b = bytearray(msg)
    b[pos] ^= 0x5A
    assert checksum(bytes(b)) != 0
    return bytes(b)


async def expect_outcomes(dut: Any, tb: Any, cases: list[tuple[bytes, int, str | None]]) -> None:
    """The frames out are, in order, one per case expecting "reply" (checked against its
    request) or "abort" (tuser set), none for the others, and nothing more after."""
    for k, (m, _, exp) in enumerate(cases):
        if exp is None:
            continue
        raw, tuser = await tb.sink.recv()
        assert tuser == (exp == "abort"), f"request {k}: tuser {tuser}, expected {exp}"
        if exp == "reply":
            check_reply(raw, m, k)
    await wait_cycles(dut, 60)
    assert tb.sink.count() == 0, "a frame for a request not answered"


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def bad_checksum(dut: Any) -> None:
    """Bad ICMP checksum (RFC 1122): short requests dropped whole, cut-through replies
    aborted, counted in cnt_bad_csum; a bad frame (tuser) stays in cnt_aborted; good
    requests of every parity around them are answered exactly."""
    tb = Tb(dut, gap=0.2)
    await tb.start()
    rng = random.Random(5)
    # (message, tuser, expected: "reply", "abort" or None for no frame)
    cases: list[tuple[bytes, int, str | None]] = []
    for k, n in enumerate([0, 1, 9, 17, 18, 19, 30, 31, 64, 301]):
        good = request(7, k, bytes(rng.getrandbits(8) for _ in range(n)))
        bad = corrupt(good, rng.randrange(1, len(good)))  # type kept
        cases.append((bad, 0, None if len(bad) < 26 else "abort"))
        cases.append((good, 0, "reply"))
    cases.append((corrupt(request(8, 1, bytes(40)), 2), 1, "abort"))  # bad frame too
    cases.append((corrupt(request(8, 2, bytes(3)), 7), 1, "abort"))  # short, bad frame
    cases.append((corrupt(request(8, 3, bytes(40)), 0)[:7], 0, None))  # too short: dropped
    cases.append((corrupt(request(8, 4, bytes(40), itype=13), 9), 0, None))  # not echo
    cases.append((request(8, 5, bytes(range(50))), 0, "reply"))
    for m, u, _ in cases:
        tb.send(m, tuser=u)
    await expect_outcomes(dut, tb, cases)
    n_bad = sum(1 for m, u, e in cases if u == 0 and e != "reply" and len(m) >= 8 and m[0] == 8)
    assert tb.cnt("cnt_bad_csum") == n_bad == 10
    assert tb.cnt("cnt_aborted") == 2
    assert tb.cnt("cnt_dropped") == 2
    assert tb.cnt("cnt_replies") == 11


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def short_requests_decided_early(dut: Any) -> None:
    """Short messages (under 26 bytes, answered only once whole in the FIFO) that are not
    answerable (other types, broadcast, too short) are consumed at once whatever their
    checksum, counted in cnt_dropped only; short echo requests are answered or, with a
    bad checksum, discarded; the decision made with the first byte (8 bits) follows each
    request, also back to back with requests of the other kind."""
    tb = Tb(dut, pause=0.3)
    await tb.start()
    rng = random.Random(11)
    # (message, bcast, expected: "reply" or None)
    cases: list[tuple[bytes, int, str | None]] = []
    for k in range(3):
        n = rng.randrange(0, 17)
        body = bytes(rng.getrandbits(8) for _ in range(n))
        echo = request(9, k, body)
        cases.append((request(9, k, body, itype=13), 0, None))  # not an echo request
        cases.append((corrupt(request(9, k, body, itype=0), 4), 0, None))  # bad csum too
        cases.append((echo, 1, None))  # broadcast
        cases.append((echo[:7], 0, None))  # too short
        cases.append((echo, 0, "reply"))
        cases.append((corrupt(echo, 5), 0, None))  # bad checksum: discarded
        cases.append((request(9, 100 + k, body), 0, "reply"))
    for m, b, _ in cases:
        tb.send(m, bcast=b)
    await expect_outcomes(dut, tb, cases)
    assert tb.cnt("cnt_replies") == 6
    assert tb.cnt("cnt_dropped") == 12
    assert tb.cnt("cnt_bad_csum") == 3
    assert tb.cnt("cnt_aborted") == 0


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def backpressure_and_gaps(dut: Any) -> None:
    """Output stalls and idle cycles in the request: replies still exact."""
    tb = Tb(dut, pause=0.4, gap=0.3)
    await tb.start()
    reqs = [
        request(9, k, bytes((k + j) & 0xFF for j in range(n)))
        for k, n in enumerate([0, 1, 5, 9, 33, 120])
    ]
    for m in reqs:
        tb.send(m)
    for k, m in enumerate(reqs):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_reply(raw, m, k)
    await wait_cycles(dut, 5)
    assert tb.cnt("cnt_replies") == len(reqs)


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def short_request_late_end(dut: Any) -> None:
    """A short request (its frame was padded) whose last byte comes late: the reply waits
    for the whole message and then goes out without a gap (no underflow at the MAC)."""
    tb = Tb(dut)
    await tb.start()
    reqs = [request(3, k, bytes(range(n))) for k, n in enumerate([0, 1, 9, 17])]
    for m in reqs:
        tb.hdr.send(
            src_mac=PEER_MAC, src_ip=PEER_IP, dst_ip=DEFAULT_IP, protocol=1, len=len(m), broadcast=0
        )
        tb.pay.send(m, last_delay=40)
    for k, m in enumerate(reqs):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_reply(raw, m, k)
    frames: list[list[int]] = []
    for b in tb.sink.beats:
        if b.first:
            frames.append([])
        frames[-1].append(b.cycle)
    for k, cycles in enumerate(frames):
        gaps = [y - x for x, y in zip(cycles, cycles[1:], strict=False) if y - x != 1]
        assert not gaps, f"reply {k} has idle cycles inside the frame: {gaps}"


@cocotb.test(timeout_time=400, timeout_unit="us")
async def early_messages_held(dut: Any) -> None:
    """A producer that breaks the header bus convention (offers the next messages before
    their headers were taken): the input is held while a whole message waits in the FIFO,
    so every verdict stays with its message: replies, drops and aborts all exact."""
    tb = Tb(dut, pause=0.2, convention=False)
    await tb.start()
    rng = random.Random(11)
    cases: list[tuple[bytes, str | None]] = []
    for k, n in enumerate([0, 3, 18, 40, 1, 100, 2, 9]):
        good = request(4, k, bytes(rng.getrandbits(8) for _ in range(n)))
        if k % 3 == 1:
            bad = corrupt(good, rng.randrange(1, len(good)))
            cases.append((bad, None if len(bad) < 26 else "abort"))
        cases.append((good, "reply"))
    for m, _ in cases:
        tb.send(m)
    await expect_outcomes(dut, tb, [(m, 0, exp) for m, exp in cases])
    n_bad = sum(1 for _, e in cases if e != "reply")
    assert tb.cnt("cnt_bad_csum") == n_bad
    assert tb.cnt("cnt_replies") == len(cases) - n_bad
    assert tb.cnt("cnt_aborted") == 0 and tb.cnt("cnt_dropped") == 0


@cocotb.test()
async def answers_off(dut: Any) -> None:
    """cfg_answer = 0 (NET.ENABLES.ICMP): echo requests, good or not, are consumed and
    counted as dropped, nothing is sent; back on, they are answered."""
    tb = Tb(dut)
    await tb.start()
    good = request(9, 1, b"abcdefgh" * 5)
    tb.dut.cfg_answer.value = 0
    for m, u, b in ((good, 0, 0), (good, 1, 0), (corrupt(good, 5), 0, 0), (good, 0, 1)):
        tb.send(m, tuser=u, bcast=b)
    await wait_cycles(dut, 400)
    assert tb.sink.count() == 0
    assert tb.cnt("cnt_dropped") == 4 and tb.cnt("cnt_replies") == 0
    assert tb.cnt("cnt_aborted") == 0 and tb.cnt("cnt_bad_csum") == 0
    tb.dut.cfg_answer.value = 1
    tb.send(good)
    raw, tuser = await tb.sink.recv()
    assert tuser == 0
    check_reply(raw, good, 4)  # (the identification counts every message taken)
    await wait_cycles(dut, 20)
    assert tb.cnt("cnt_replies") == 1 and tb.cnt("cnt_dropped") == 4


@cocotb.test(timeout_time=2000, timeout_unit="us")
async def many_requests(dut: Any) -> None:
    """258 replies, 258 dropped (broadcast), 2 aborted, 2 bad checksums: every strobe
    exact."""
    tb = Tb(dut)
    await tb.start()
    n = 258
    good = request(6, 1, b"")
    for _ in range(n):
        tb.send(good)
        tb.send(good, bcast=1)
    for m, u in ((good, 1), (good, 1), (corrupt(good, 5), 0), (corrupt(good, 6), 0)):
        tb.send(m, tuser=u)
    for k in range(n):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_reply(raw, good, 2 * k)
    for _ in range(2):
        raw, tuser = await tb.sink.recv()
        assert tuser == 1
    await wait_cycles(dut, 60)
    assert tb.sink.count() == 0
    assert tb.cnt("cnt_replies") == n
    assert tb.cnt("cnt_dropped") == n
    assert tb.cnt("cnt_aborted") == 2
    assert tb.cnt("cnt_bad_csum") == 2


@pytest.mark.parametrize("data_w", [8, 64])
def test_icmp_echo(data_w: int) -> None:
    from cocotb_run import run

    run("icmp_echo", "test_icmp_echo", parameters={"DATA_W": data_w})
