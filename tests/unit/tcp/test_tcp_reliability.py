"""tcp_core's congestion control and zero-window persist against independent references:
a Python model of the RFC 5681 / RFC 6582 sender (unit/tcp/cc_model.py) decides how many
segments each round of ACKs lets out, and scapy builds and parses every segment. Slow
start from the initial window, fast retransmit with ssthresh halved, NewReno's exit,
congestion avoidance (one SMSS per round trip), the loss window after a time-out; with
cfg_cc_off the peer's window alone limits the sender. Persist: a zero window with data
waiting is probed (empty segments at snd_una - 1) with the interval doubling per probe,
for as long as the peer answers; a window update resumes the transfer byte-exact; probes
no one answers end the session after cfg_max_retries."""

from __future__ import annotations

import random

import cocotb
from cocotb_run import run
from unit.tcp.cc_model import NewRenoSender
from unit.tcp.tcptb import ACK, CFG, RST, Peer, Seg, TcpTb, count, ev


async def gather(tb: TcpTb, quiet: int = 1500) -> list[Seg]:
    """Every frame the core sends until it has been quiet for ``quiet`` cycles."""
    out = []
    while True:
        try:
            out.append(await tb.frame(limit=quiet))
        except AssertionError:
            return out


def offsets(segs: list[Seg], base: int) -> list[tuple[int, int]]:
    return [((s.seq - base) & 0xFFFFFFFF, len(s.payload)) for s in segs]


@cocotb.test()
async def test_congestion_control(dut) -> None:
    """Rounds of ACKs from the peer (one ACK per segment received, all of a round at
    once): the segments the core sends after each round are exactly the model's: the
    initial window (4 SMSS), slow start doubling per round, three duplicate ACKs (fast
    retransmit, ssthresh = FlightSize/2), the full ACK (cwnd = 2 SMSS, slow start again
    up to ssthresh), congestion avoidance (one more segment per round), then a round
    lost whole: after the RTO one segment (cwnd = 1 SMSS) and slow start again."""
    tb = TcpTb(dut, tick=5000)  # RTO (8 ticks at least) well above a round's 32 segments
    m = ev(dut)
    await tb.start()
    smss = 50
    p = Peer(tb, 7100, 7, mss=smss)
    await p.connect()
    rng = random.Random(30)
    data = bytes(rng.randrange(256) for _ in range(40000))
    tb.app_send(p.sid, data)
    base = p.rcv
    model = NewRenoSender(smss, 65535, 2**11, len(data))
    rounds: list[int] = []

    def check(segs: list[Seg], want: list[tuple[int, int]], what: str) -> None:
        got = offsets(segs, base)
        assert got == want, f"{what}: sent {got}, the model {want}"
        for s, (o, n) in zip(segs, got, strict=True):
            assert s.payload == data[o : o + n], f"{what}: wrong bytes at {o}"

    async def round_of_acks(acks: list[int], what: str) -> list[Seg]:
        want: list[tuple[int, int]] = []
        for a in acks:
            p.send(ACK, ack=base + a)
            want += model.ack(a)
        segs = await gather(tb)
        check(segs, want, what)
        rounds.append(len(segs))
        return segs

    segs = await gather(tb, quiet=4000)
    check(segs, model.send(), "initial window")
    assert len(segs) == 4
    # slow start: 4, 8, 16, 32 segments per round
    for _ in range(3):
        segs = await round_of_acks([o + n for o, n in offsets(segs, base)], "slow start")
    assert rounds == [8, 16, 32]
    # the round's first segment lost: three duplicate ACKs, a fast retransmit of it
    segs = await round_of_acks([model.una] * 3, "fast retransmit")
    assert offsets(segs, base) == [(model.una, smss)]
    assert model.ssthresh == 16 * smss
    # the full ACK: cwnd = 2 SMSS, slow start to ssthresh, then congestion avoidance
    segs = await round_of_acks([model.max], "recovery's end")
    while len(rounds) < 12:
        segs = await round_of_acks([o + n for o, n in offsets(segs, base)], "growth")
    assert rounds[4:] == [2, 4, 8, 16, 17, 18, 19, 20], rounds
    # a round lost whole: the RTO resends one segment; its ACK lets two out, and so on
    tb.frames.clear()
    segs = await gather(tb, quiet=tb.tick * 12)
    check(segs, model.timeout(first=True), "after the time-out")
    assert len(segs) == 1
    for n in (2, 4):
        segs = await round_of_acks([o + x for o, x in offsets(segs, base)], "slow start again")
        assert len(segs) == n
    assert count(m, "rto") == 1
    assert count(m, "cwnd_cut") == model.cuts == 2
    assert count(m, "dup_ack_rcvd") == 3


@cocotb.test()
async def test_cc_off(dut) -> None:
    """cfg_cc_off: no initial window, the peer's window alone limits the sender (20
    segments of 50 bytes in a 1000-byte window at once)."""
    tb = TcpTb(dut)
    dut.cfg_cc_off.value = 1
    await tb.start()
    p = Peer(tb, 7200, 7, mss=50)
    await p.connect()
    p.send(ACK, window=1000)
    await tb.cycles(100)
    tb.app_send(p.sid, bytes(3000))
    segs = await gather(tb, quiet=4000)
    assert [len(s.payload) for s in segs] == [50] * 20


@cocotb.test()
async def test_persist(dut) -> None:
    """The peer's window closes with data waiting: probes (empty, seq = snd_una - 1) come
    after the RTO and then at doubling intervals up to cfg_rto_max, and never stop while
    the peer answers them; a window update then sends the rest, byte-exact. Probes no one
    answers: the session is aborted (RST) after cfg_max_retries of them."""
    tb = TcpTb(dut, tick=300)  # the RTO (8 ticks at least) well above a segment's time
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 7300, 7, mss=1460)
    await p.connect()
    rng = random.Random(31)
    data = bytes(rng.randrange(256) for _ in range(300))
    p.send(ACK, window=100)
    await tb.cycles(100)
    tb.app_send(p.sid, data)
    s = await tb.frame()
    assert len(s.payload) == 100
    una = (s.seq + 100) & 0xFFFFFFFF
    p.send(ACK, ack=una, window=0)
    # probes: RTO (the minimum here: the sample is under a tick), then doubling to the
    # maximum, each answered with the window still closed; more probes than
    # cfg_max_retries, so answered probes never end the session
    times = []
    for _ in range(CFG["cfg_max_retries"] + 3):
        f = await tb.frame(limit=tb.tick * (CFG["cfg_rto_max"] + 5))
        assert f.flags == ACK and f.payload == b"", f"probe {f.pkt!r}"
        assert f.seq == (una - 1) & 0xFFFFFFFF, "a probe is one below snd_una"
        times.append(f.t)
        p.send(ACK, ack=una, window=0)
    gaps = [(b - a) / tb.tick for a, b in zip([s.t, *times], times, strict=False)]
    want = [min(CFG["cfg_rto_min"] * 2**k, CFG["cfg_rto_max"]) for k in range(len(gaps))]
    for g, w in zip(gaps, want, strict=True):
        assert w - 1 <= g <= w + 2, f"probe intervals {gaps}, want {want}"
    assert count(m, "persist_probe") == len(times)
    assert count(m, "aborted") == 0 and count(m, "rto") == 0
    # the window opens: the rest arrives at once, byte-exact
    p.send(ACK, ack=una, window=2000)
    f = await tb.frame(limit=2000)
    assert f.seq == una and f.payload == data[100:]
    # the window closes again and the peer goes silent: cfg_max_retries probes, then RST
    una = (una + 200) & 0xFFFFFFFF
    p.send(ACK, ack=una, window=0)
    await tb.cycles(300)
    tb.app_send(p.sid, b"more")
    flags = []
    for _ in range(CFG["cfg_max_retries"] + 1):
        f = await tb.frame(limit=tb.tick * (CFG["cfg_rto_max"] * 2 + 5))
        flags.append(f.flags)
    assert flags == [ACK] * CFG["cfg_max_retries"] + [RST], flags
    await tb.wait_event(8, p.sid)


@cocotb.test()
async def test_delayed_ack(dut) -> None:
    """cfg_dack_time 20 ticks (RFC 1122 4.2.3.2, RFC 5681 4.2): one segment alone is
    acknowledged after the delay; the second of two is acknowledged at once (both); an
    answer from the application carries the ACK (no separate one); data out of order is
    answered at once (duplicate ACK)."""
    tb = TcpTb(dut, tick=100)
    dut.cfg_dack_time.value = 20
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 7400, 7, mss=1460)
    await p.connect()
    p.data(b"a" * 100)
    await tb.wait_rx(p.sid, 100)
    t0 = tb.cycle
    a = await tb.frame(limit=tb.tick * 30)
    assert a.flags == ACK and a.ack == p.seq and a.payload == b""
    # never later than the delay; the countdown runs on the tick sweeps, so up to two
    # ticks early (measured: 17.95 ticks from the delivery to the ACK's last byte)
    assert 17 <= (a.t - t0) / tb.tick <= 20.5, f"delayed ACK after {(a.t - t0) / tb.tick} ticks"
    assert count(m, "delayed_ack") == 1
    # two segments: the second is acknowledged at once
    p.data(b"b" * 100)
    await tb.wait_rx(p.sid, 200)
    await tb.no_frame(tb.tick * 5)
    p.data(b"c" * 100)
    a = await tb.frame(limit=tb.tick * 5)  # (a segment in and an ACK out: ~300 cycles)
    assert a.ack == p.seq, "the second segment not acknowledged at once"
    # the application answers: the ACK rides on its data
    p.data(b"d" * 10)
    await tb.wait_rx(p.sid, 310)
    tb.app_send(p.sid, b"reply")
    a = await tb.frame(limit=tb.tick * 5)
    assert a.payload == b"reply" and a.ack == p.seq
    p.rcv += 5
    p.send(ACK)
    await tb.no_frame(tb.tick * 25)
    # out of order: a duplicate ACK at once
    expect = p.seq
    p.data(b"e" * 50, seq=p.seq + 100)
    a = await tb.frame(limit=tb.tick * 5)  # (a segment in and an ACK out: ~300 cycles)
    assert a.ack == expect and a.payload == b""
    assert count(m, "delayed_ack") == 1


@cocotb.test()
async def test_keepalive(dut) -> None:
    """Keep-alive (RFC 1122 4.2.3.6) with cfg_ka_idle 2 s, cfg_ka_intvl 1 s,
    cfg_ka_count 2 (ticks of 20 cycles here): an idle session gets a probe (empty, at
    snd_una - 1) after 1-2 s; answered, the next one comes after the idle time again;
    unanswered, probes every second and after cfg_ka_count of them an RST and the
    aborted event. Off (0) by default: no probe in the other tests."""
    tb = TcpTb(dut, tick=20)
    dut.cfg_ka_idle.value = 2
    dut.cfg_ka_intvl.value = 1
    dut.cfg_ka_count.value = 2
    sec = tb.tick * 1000
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 7500, 7, mss=1460)
    await p.connect()
    t0 = tb.cycle
    f = await tb.frame(limit=sec * 3)
    assert f.flags == ACK and f.payload == b"" and f.seq == (p.rcv - 1) & 0xFFFFFFFF
    assert sec * 0.99 <= f.t - t0 <= sec * 2.01, f"first probe after {(f.t - t0) / sec} s"
    p.send(ACK)  # answered
    t1 = tb.cycle
    f = await tb.frame(limit=sec * 3)
    assert sec * 0.99 <= f.t - t1 <= sec * 2.01, f"probe after {(f.t - t1) / sec} s"
    # unanswered from now on
    times = [f.t]
    flags = []
    for _ in range(2):
        f = await tb.frame(limit=sec * 2)
        times.append(f.t)
        flags.append(f.flags)
    assert flags == [ACK, RST], flags
    for a, b in zip(times, times[1:], strict=False):
        assert sec * 0.98 <= b - a <= sec * 1.02, [(t - times[0]) / sec for t in times]
    await tb.wait_event(8, p.sid)
    assert count(m, "keepalive") == 3 and count(m, "aborted") == 1


def test_tcp_reliability() -> None:
    run("tcp_core", "test_tcp_reliability", parameters={"BUF_LOG2": 11})
