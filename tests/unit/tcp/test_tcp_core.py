"""tcp_core at DATA_W 8 against scapy: passive open (SYN -> SYN-ACK with the MSS option,
the peer's MSS honoured), data both ways byte-exact with the ACKs and windows checked,
FIN both ways with half-close, RST for closed ports and segments without a session, RST
received (exact: reset; in the window: challenge ACK), bad checksums and bad segments
dropped and counted, out-of-order data answered with an immediate duplicate ACK,
retransmission on time-out (RFC 6298 estimate, back-off, Karn) with a dropped segment,
and retransmissions that wrap a session's buffer with several sessions at once
(user-reported failure 4). Every frame the core sends is parsed by scapy and its
lengths and checksums compared with scapy's."""

from __future__ import annotations

import random

import cocotb
import pytest
from cocotb_run import run
from scapy.utils import checksum
from unit.tcp.tcptb import ACK, CFG, FIN, PSH, RST, SYN, TICK, Peer, TcpTb, check_isn, count, ev


def rfc6298_rto(samples: list[float]) -> float:
    """RFC 6298's RTO after these RTT samples (real arithmetic, G = 1 tick)."""
    srtt = rttvar = 0.0
    for i, r in enumerate(samples):
        if i == 0:
            srtt, rttvar = r, r / 2
        else:
            rttvar = 0.75 * rttvar + 0.25 * abs(srtt - r)
            srtt = 0.875 * srtt + 0.125 * r
    rto = srtt + max(1.0, 4 * rttvar)
    return min(max(rto, CFG["cfg_rto_min"]), CFG["cfg_rto_max"])


@cocotb.test()
async def test_handshake_data_close(dut) -> None:
    """SYN -> SYN-ACK (MSS option, unicast to the SYN's MAC); data both ways; the peer's
    MSS limits our segments; FIN from the peer first (half-close: we keep sending), then
    ours; closed when our FIN is acknowledged."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 40000, 7, isn=0xFFFFFF00, mss=500)  # sequence numbers wrap 2^32
    sa = await p.connect()
    assert p.peer_mss == CFG["cfg_mss"]
    assert sa.win == 2**11, f"window {sa.win}"
    # data in: three segments, each ACKed at once with the window shrunk by what waits
    dut.m_rx_axis_tready.value = 0
    tb.rx_pause = 1.0  # the application does not read yet
    rng = random.Random(1)
    chunks = [bytes(rng.randrange(256) for _ in range(n)) for n in (100, 1100, 1)]
    got = 0
    for c in chunks:
        p.data(c)
        a = await tb.frame()
        got += len(c)
        assert a.flags == ACK, f"flags {a.flags:#x}"
        assert a.ack == p.seq, f"ack {a.ack:#x} != {p.seq:#x}"
        assert a.win == 2**11 - got
        assert a.payload == b""
    tb.rx_pause = 0.0
    data = await tb.wait_rx(p.sid, got)
    assert data == b"".join(chunks)
    # the read frees at least min(MSS, buffer/2) bytes: a window update follows (RFC 1122)
    # as the application reads (in turns of 256 bytes) the window is updated each time it
    # has grown by min(MSS, buffer/2) = 500 (RFC 1122 receiver SWS avoidance), no less
    await tb.cycles(2000)
    wins = [847]
    while tb.frames:
        a = tb.frames.popleft()
        assert a.flags == ACK and a.ack == p.seq and a.win - wins[-1] >= 500, (a.win, wins)
        wins.append(a.win)
    assert 2**11 - wins[-1] < 500 and len(wins) >= 3, wins
    # data out: 1200 bytes in segments of at most the peer's MSS (500)
    out = bytes(rng.randrange(256) for _ in range(1200))
    tb.app_send(p.sid, out)
    segs = []
    while sum(len(s.payload) for s in segs) < len(out):
        s = await tb.frame()
        assert not segs or s.seq != segs[0].seq, [(x.seq, len(x.payload), x.t) for x in segs + [s]]
        assert len(s.payload) <= 500
        assert s.flags & ACK and s.ack == p.seq
        segs.append(s)
    assert [s.seq for s in segs] == [
        (p.rcv + sum(len(x.payload) for x in segs[:i])) & 0xFFFFFFFF for i in range(len(segs))
    ]
    assert b"".join(s.payload for s in segs) == out
    assert segs[-1].flags & PSH
    p.rcv = (p.rcv + len(out)) & 0xFFFFFFFF
    p.send(ACK)
    # the peer closes its side: ACK, end of stream after the data
    p.send(FIN | ACK)
    p.seq += 1
    a = await tb.frame()
    assert a.flags == ACK and a.ack == p.seq
    await tb.cycles(50)
    assert p.sid in tb.eof
    e = await tb.wait_event(2, p.sid)
    # half-close: we still send
    tb.app_send(p.sid, b"after the peer's FIN", close=True)
    s = await tb.frame()
    assert s.payload == b"after the peer's FIN" and s.seq == p.rcv
    p.rcv = (p.rcv + len(s.payload)) & 0xFFFFFFFF
    if not s.flags & FIN:
        f = await tb.frame()
    else:
        f = s
    assert f.flags & FIN and (f.seq + len(f.payload)) & 0xFFFFFFFF == p.rcv
    p.rcv += 1
    await tb.no_frame(100)
    p.send(ACK)
    e = await tb.wait_event(0x10, p.sid)
    assert e[2] == p.sid
    assert count(m, "established") == 1 and count(m, "closed") == 1
    assert count(m, "rx_bad_csum") == 0
    # the slot is free: a segment for the old connection gets an RST
    p.send(ACK)
    r = await tb.frame()
    assert r.flags == RST and r.seq == p.rcv


@cocotb.test()
async def test_closed_port_and_no_session(dut) -> None:
    """A SYN to a port nobody listens on: RST|ACK acknowledging it (RFC 9293); an ACK
    for no session: RST with its sequence number taken from the ACK; an RST for no
    session: nothing."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    tb.send(1234, 9999, SYN, seq=777)
    r = await tb.frame()
    assert r.flags == RST | ACK and r.ack == 778 and r.seq == 0
    assert r.sport == 9999 and r.dport == 1234
    tb.send(1234, 7, ACK, seq=5, ack=0x12345678)
    r = await tb.frame()
    assert r.flags == RST and r.seq == 0x12345678
    tb.send(1234, 7, RST, seq=5)
    await tb.no_frame(300)
    assert count(m, "rst_no_session") == 2


@cocotb.test()
async def test_bad_segments(dut) -> None:
    """Bad checksum (header and payload), a frame flagged bad, a broadcast, a data
    offset past the end, a segment shorter than a header: each dropped and counted, no
    reply, nothing delivered; the connection works afterwards."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    tb.send(1000, 7, SYN, seq=1, corrupt=True)
    tb.send(1000, 7, SYN, seq=1, bad=True)
    tb.send(1000, 7, SYN, seq=1, bcast=True)
    tb.send(0, 0, 0, 0, raw=bytes(12))
    from scapy.layers.inet import IP, TCP

    raw = bytearray(
        bytes(IP(src="192.0.2.100", dst="192.0.2.1") / TCP(sport=1000, dport=7, flags="S"))[20:]
    )
    raw[12] = 0xF0  # data offset 60 bytes in a 20-byte segment
    tb.send(0, 0, 0, 0, raw=bytes(raw))
    await tb.no_frame(600)
    assert count(m, "rx_bad_csum") == 1
    assert count(m, "rx_err_in") == 1
    assert count(m, "rx_broadcast") == 1
    assert count(m, "rx_bad_len") == 2
    assert count(m, "rx_segments") == 0
    p = Peer(tb, 1000, 7)
    await p.connect()
    p.data(b"hello", corrupt=True)
    p.seq -= 5
    await tb.no_frame(300)
    assert count(m, "rx_bad_csum") == 2
    assert tb.rx.get(p.sid) is None
    p.data(b"hello")
    a = await tb.frame()
    assert a.ack == p.seq
    assert await tb.wait_rx(p.sid, 5) == b"hello"


@cocotb.test()
async def test_rst_and_challenge(dut) -> None:
    """RST in the window but not at rcv_nxt, and a SYN on a session: challenge ACKs
    (RFC 5961), the session lives; an RST outside the window: ignored; RST at rcv_nxt:
    the session is reset (event), its slot freed."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 2000, 80)
    await p.connect()
    p.send(RST, seq=p.seq + 100)
    a = await tb.frame()
    assert a.flags == ACK and a.ack == p.seq
    p.send(SYN, seq=p.seq + 5)
    a = await tb.frame()
    assert a.flags == ACK and a.ack == p.seq
    p.send(RST, seq=p.seq + 100000)
    await tb.no_frame(300)
    assert count(m, "challenge_ack") == 2
    p.data(b"still here")
    a = await tb.frame()
    assert a.ack == p.seq
    p.send(RST)
    e = await tb.wait_event(4, p.sid)
    assert e[2] == p.sid
    await tb.no_frame(200)
    assert count(m, "rst_rcvd") == 1


@cocotb.test()
async def test_out_of_order(dut) -> None:
    """Segments past rcv_nxt: each an immediate duplicate ACK (RFC 5681), their data kept
    but not delivered (RFC 9293 3.10.7.4); the missing segment then: an ACK of all three,
    the data in order."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 3000, 7)
    await p.connect()
    p.send(ACK, b"A" * 10, seq=p.seq + 10)
    a = await tb.frame()
    assert a.flags == ACK and a.ack == p.seq
    p.send(ACK, b"B" * 10, seq=p.seq + 20)
    a2 = await tb.frame()
    assert a2.ack == p.seq
    assert count(m, "out_of_order") == 2 and count(m, "ooo_kept") == 2
    await tb.cycles(100)
    assert p.sid not in tb.rx, "data beyond a hole delivered"
    p.data(b"C" * 10)
    a = await tb.frame()
    assert a.ack == p.seq + 20
    await tb.cycles(100)
    assert bytes(tb.rx[p.sid]) == b"C" * 10 + b"A" * 10 + b"B" * 10


@cocotb.test()
async def test_retransmit_timeout(dut) -> None:
    """A data segment not acknowledged is sent again after the RTO: first the initial
    RTO, then doubled (back-off); an ACK stops it. RTT samples: a segment acknowledged
    after R ticks sets the next RTO from SRTT and RTTVAR (RFC 6298) within the tick's
    granularity; a retransmitted segment gives no sample (Karn); cfg_max_retries
    time-outs in a row abort the session with an RST."""
    tb = TcpTb(dut, tick=100)  # 100-byte segments: a frame takes under 3 ticks
    tick = tb.tick
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 4000, 7)
    await p.connect()
    # the SYN-ACK's RTT: about 0-1 ticks (acknowledged at once)
    tb.app_send(p.sid, b"x" * 100)
    s1 = await tb.frame()
    # drop it: no ACK. It comes back after the RTO from the handshake's sample: the
    # minimum, since the sample is below one tick
    r1 = await tb.frame(limit=tick * 300)
    assert r1.seq == s1.seq and r1.payload == s1.payload
    dt1 = (r1.t - s1.t) / tick
    assert CFG["cfg_rto_min"] - 1 <= dt1 <= CFG["cfg_rto_min"] + 2, f"first RTO {dt1} ticks"
    r2 = await tb.frame(limit=tick * 300)
    dt2 = (r2.t - r1.t) / tick
    assert 2 * CFG["cfg_rto_min"] - 1 <= dt2 <= 2 * CFG["cfg_rto_min"] + 2, f"backed off {dt2}"
    assert count(m, "rto") == 2 and count(m, "rexmit_seg") == 2
    # ACK after a delay: no RTT sample (Karn: it was retransmitted)
    await tb.cycles(tick * 3)
    p.rcv += 100
    p.send(ACK)
    await tb.no_frame(tick * 40)
    # a new segment, acknowledged after 20 ticks: the next RTO follows RFC 6298 from the
    # samples (the handshake's, this one); each sample is known to a tick
    tb.app_send(p.sid, b"y" * 10)
    s = await tb.frame()
    await tb.cycles(tick * 20)
    p.rcv += 10
    p.send(ACK)
    await tb.cycles(tick * 2)
    tb.app_send(p.sid, b"z" * 10)
    s = await tb.frame()
    r = await tb.frame(limit=tick * 300)
    dt = (r.t - s.t) / tick
    rtos = [rfc6298_rto([r0, r1]) for r0 in (0, 1, 2) for r1 in (20, 21)]
    assert min(rtos) - 1.5 <= dt <= max(rtos) + 1, f"RTO {dt} ticks, RFC 6298: {rtos}"
    # keep dropping: the session aborts after cfg_max_retries time-outs with an RST
    flags = []
    for _ in range(CFG["cfg_max_retries"] + 1):
        f = await tb.frame(limit=tick * 1000)
        flags.append(f.flags)
        if f.flags & RST:
            break
    assert flags[-1] == RST, f"flags {flags}"
    await tb.wait_event(8, p.sid)
    assert count(m, "aborted") == 1


@cocotb.test()
async def test_fast_retransmit(dut) -> None:
    """User-reported failure 5: three duplicate ACKs resend the first unacknowledged
    segment at once, long before the RTO (RFC 5681); a partial ACK during the recovery
    resends the next one at once (RFC 6582 NewReno); fewer than three duplicates do
    nothing; the full ACK ends the recovery. No time-out fires. Congestion control off
    (cfg_cc_off): the sender is limited by the peer's window alone (the window during
    the recovery: test_tcp_reliability.py)."""
    tb = TcpTb(dut)
    dut.cfg_cc_off.value = 1
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 6000, 7, mss=100)
    await p.connect()
    rng = random.Random(5)
    data = bytes(rng.randrange(256) for _ in range(500))
    tb.app_send(p.sid, data)
    segs = [await tb.frame() for _ in range(5)]
    assert [len(s.payload) for s in segs] == [100] * 5
    base = p.rcv
    # segment 0 lost: the peer acknowledges nothing new, once per later segment
    for _ in range(2):
        p.send(ACK)
    await tb.no_frame(400)
    p.send(ACK)
    r = await tb.frame(limit=2000)
    assert r.seq == base and r.payload == data[:100], "not a fast retransmit of segment 0"
    assert r.t - segs[-1].t < tb.tick * CFG["cfg_rto_min"] / 2
    p.send(ACK)  # a fourth duplicate: nothing more
    await tb.no_frame(400)
    # segment 2 lost too: the partial ACK (up to 200) resends it at once
    p.send(ACK, ack=base + 200)
    r2 = await tb.frame(limit=2000)
    assert r2.seq == base + 200 and r2.payload == data[200:300]
    p.send(ACK, ack=base + 500)
    await tb.no_frame(tb.tick * (CFG["cfg_rto_min"] + 4))
    assert count(m, "rto") == 0
    assert count(m, "rexmit_seg") == 2
    assert count(m, "dup_ack_rcvd") == 4


@cocotb.test()
async def test_window_updates(dut) -> None:
    """User-reported failure 1: a transfer to a peer whose window opens only through
    window updates (ACKs that acknowledge nothing new) keeps going: every update lets the
    sender send what fits, never more than the window; a zero window stops it and the
    update after it restarts it. 6000 bytes arrive byte-exact. Sender silly-window
    avoidance (RFC 1122 4.2.3.4): a window smaller than a full segment, than the data
    waiting and than half the largest window offered (65535, the SYN's) is used only
    when the override (the persist timer) expires, at least cfg_rto_min ticks after the
    data began to wait (the zero window before it, if any; less one tick, the timer's
    resolution); the others at once."""
    tb = TcpTb(dut)
    await tb.start()
    p = Peer(tb, 6100, 80, mss=1460)
    await p.connect()
    rng = random.Random(6)
    data = bytes(rng.randrange(256) for _ in range(6000))
    # a 300-byte window first
    p.send(ACK, window=300)
    await tb.cycles(200)
    tb.app_send(p.sid, data)
    got = bytearray()
    acked = p.rcv
    wnd = 300
    steps = 0
    t_held = tb.cycle  # since when the data waits for the window
    while len(got) < len(data):
        # everything sent is acknowledged and a window of wnd bytes offered
        small = wnd < 1460 and len(data) - len(got) > wnd
        s = await tb.frame(limit=200_000 if small else 8000)
        if small:
            # RFC 1122 4.2.3.4: the silly window is used only after the override time-out
            assert s.t - t_held > (CFG["cfg_rto_min"] - 1) * TICK, (wnd, s.t - t_held)
            assert len(s.payload) == wnd, (wnd, len(s.payload))
        while True:
            assert s.seq == (p.rcv + len(got)) & 0xFFFFFFFF, "out of order or resent"
            end = (s.seq + len(s.payload) - acked) & 0xFFFFFFFF
            assert end <= wnd, "beyond the window"
            got += s.payload
            if end == wnd or len(got) == len(data):
                break
            try:
                s = await tb.frame(limit=3000)
            except AssertionError:
                # the rest of the window is not used while data is outstanding: it is
                # smaller than a full segment and than the data waiting (RFC 1122
                # 4.2.3.4; half the largest window offered is 32767 here)
                assert wnd - end < 1460 and wnd - end < len(data) - len(got), (wnd, end)
                break
        steps += 1
        # acknowledge all, with a zero window every third time, then open it by a
        # window update alone
        acked = (p.rcv + len(got)) & 0xFFFFFFFF
        t_held = tb.cycle
        if steps % 3 == 0:
            p.send(ACK, ack=acked, window=0)
            await tb.no_frame(300)
        wnd = rng.choice((1, 100, 700, 1460, 3000))
        p.send(ACK, ack=acked, window=wnd)
    assert bytes(got) == data


@cocotb.test()
async def test_time_wait(dut) -> None:
    """We close first: FIN_WAIT_1, FIN_WAIT_2 once our FIN is acknowledged, TIME_WAIT
    after the peer's FIN (ACKed); a retransmitted FIN in TIME_WAIT is ACKed again; the
    slot is freed after cfg_time_wait ticks (closed event), and only then a segment of
    the old connection is answered with an RST."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 6200, 7)
    await p.connect()
    tb.app_send(p.sid, b"bye", close=True)
    s = await tb.frame()
    if not s.flags & FIN:
        f = await tb.frame()
    else:
        f = s
    assert f.flags & FIN and f.seq + len(f.payload) == p.rcv + 3
    p.rcv += 4
    p.send(ACK)
    await tb.no_frame(300)
    p.data(b"late data", flags=ACK)  # the peer may still send (half-close)
    a = await tb.frame()
    assert a.ack == p.seq and a.flags == ACK
    p.send(FIN | ACK)
    p.seq += 1
    a = await tb.frame()
    t0 = a.t
    assert a.flags == ACK and a.ack == p.seq
    p.send(FIN | ACK, seq=p.seq - 1)  # our ACK was lost: the peer resends its FIN
    a = await tb.frame()
    assert a.flags == ACK and a.ack == p.seq
    e = await tb.wait_event(0x10, p.sid, limit=tb.tick * (CFG["cfg_time_wait"] + 3))
    dt = (e[0] - t0) / tb.tick
    assert CFG["cfg_time_wait"] - 1 <= dt <= CFG["cfg_time_wait"] + 2, f"TIME_WAIT {dt}"
    assert await tb.wait_rx(p.sid, 9) == b"late data"
    p.send(ACK)
    r = await tb.frame()
    assert r.flags == RST
    assert count(m, "closed") == 1


@cocotb.test()
async def test_active_open(dut) -> None:
    """Active open: SYN with our MSS to the given MAC and address (user-reported failure
    2: unicast MAC, an MSS the path carries); the first SYN lost: sent again after the
    RTO; SYN-ACK: ACK, established event with the ports; the peer's MSS (700) limits our
    segments; data both ways. A refused connect (RST|ACK): reset event. Simultaneous
    open (a SYN crossing ours): SYN-ACK, then established. An unacceptable ACK in
    SYN_SENT: RST."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    await tb.connect("192.0.2.100", 5555, 40001)
    s0 = await tb.frame()
    assert s0.flags == SYN and s0.sport == 40001 and s0.dport == 5555
    assert dict(s0.options).get("MSS") == CFG["cfg_mss"]
    s1 = await tb.frame(limit=tb.tick * (CFG["cfg_rto_init"] + 3))
    assert s1.flags == SYN and s1.seq == s0.seq, "SYN not sent again"
    dt = (s1.t - s0.t) / tb.tick
    assert CFG["cfg_rto_init"] - 1 <= dt <= CFG["cfg_rto_init"] + 2, dt
    p = Peer(tb, 5555, 40001, isn=0x7FFFFFF0, mss=700)
    p.send(SYN | ACK, ack=s0.seq + 1, options=[("MSS", 700)])
    p.seq += 1
    p.rcv = s0.seq + 1
    a = await tb.frame()
    assert a.flags == ACK and a.ack == p.seq and a.seq == p.rcv
    e = await tb.wait_event(1)
    assert e[3:] == ("192.0.2.100", 5555, 40001)
    p.sid = e[2]
    out = bytes(random.Random(7).randrange(256) for _ in range(1000))
    tb.app_send(p.sid, out)
    d1 = await tb.frame()
    d2 = await tb.frame()
    assert len(d1.payload) == 700 and d1.payload + d2.payload == out
    p.rcv += 1000
    p.data(b"reply")
    a = await tb.frame()
    assert a.ack == p.seq and a.flags == ACK
    assert await tb.wait_rx(p.sid, 5) == b"reply"
    # refused
    await tb.connect("192.0.2.100", 6666, 40002)
    s = await tb.frame()
    tb.send(6666, 40002, RST | ACK, seq=0, ack=s.seq + 1)
    e = await tb.wait_event(4)
    assert e[3:] == ("192.0.2.100", 6666, 40002)
    # simultaneous open
    await tb.connect("192.0.2.100", 7777, 40003)
    s = await tb.frame()
    tb.send(7777, 40003, SYN, seq=900)
    sa = await tb.frame()
    assert sa.flags == SYN | ACK and sa.seq == s.seq and sa.ack == 901
    tb.send(7777, 40003, ACK, seq=901, ack=s.seq + 1)
    e = await tb.wait_event(1)
    assert e[3:] == ("192.0.2.100", 7777, 40003)
    # an ACK that does not acknowledge our SYN: RST with its number
    await tb.connect("192.0.2.100", 8888, 40004)
    s = await tb.frame()
    tb.send(8888, 40004, SYN | ACK, seq=50, ack=s.seq + 7)
    r = await tb.frame()
    assert r.flags == RST and r.seq == s.seq + 7
    assert count(m, "established") == 2


@cocotb.test()
async def test_reset_reuse(dut) -> None:
    """A session reset while the application is in the middle of reading it and of
    writing to it (its buffer full): the slot is not reused until both are done, so the
    old connection's bytes never reach a new one (found on the virtual board with Linux
    resetting mid-transfer); afterwards the slot serves a new connection cleanly."""
    tb = TcpTb(dut)
    await tb.start()
    a = Peer(tb, 6300, 7)
    await a.connect()
    tb.rx_pause = 1.0  # the application stops reading
    a.data(bytes(range(200)) * 3)
    await tb.frame()
    old = bytes([0xA5]) * 3000
    tb.app_send(a.sid, old)  # more than the 2 KiB buffer: the writer waits for room
    sent_old = bytearray()
    for _ in range(2):
        sent_old += (await tb.frame()).payload
    a.send(RST)
    await tb.wait_event(4, a.sid)
    b = Peer(tb, 6301, 7)
    await b.connect()
    assert b.sid != a.sid, "slot reused while the old session's bytes were in flight"
    tb.rx_pause = 0.0
    tb.app_send(a.sid, b"to the dead session")
    await tb.cycles(3000)
    assert len(tb.rx.get(a.sid, b"")) <= 256  # at most the turn that was running
    b.data(b"hello b")
    await tb.frame()
    assert await tb.wait_rx(b.sid, 7) == b"hello b"
    tb.app_send(b.sid, b"reply b")
    r = await tb.frame()
    assert r.payload == b"reply b" and r.dport == 6301
    c = Peer(tb, 6302, 7)
    await c.connect()
    assert c.sid == a.sid, "the slot is free again"
    before = len(tb.rx.get(c.sid, b""))
    c.data(b"hello c")
    await tb.frame()
    await tb.cycles(300)
    assert bytes(tb.rx[c.sid][before:]) == b"hello c"
    tb.app_send(c.sid, b"reply c")
    r = await tb.frame()
    assert r.payload == b"reply c" and r.seq == c.rcv and r.dport == 6302


@cocotb.test()
async def test_syn_flood_and_old_ack(dut) -> None:
    """SYN flood: at most MAX_HALF_OPEN (4 of 8) sessions in SYN_RCVD, further SYNs
    dropped and counted, so established sessions keep slots free; completing a handshake
    makes room for one more. RFC 5961: a segment whose ACK is far behind snd_una (a blind
    injection) is dropped with an ACK, its data not delivered."""
    tb = TcpTb(dut)
    m = ev(dut)
    await tb.start()
    for i in range(6):
        tb.send(7000 + i, 7, SYN, seq=100 * i, options=[("MSS", 1460)])
    answered = []
    for _ in range(4):
        answered.append(await tb.frame())
    await tb.no_frame(800)
    assert all(s.flags == SYN | ACK for s in answered)
    for s in answered:  # each ISN from its own tuple's hash (RFC 6528)
        check_isn(s.seq, "192.0.2.100", s.dport, 7, tb.cycle, tb.tick)
    assert sorted(s.dport for s in answered) == [7000, 7001, 7002, 7003]
    assert count(m, "syn_full") == 2
    # the first completes its handshake: room for one more half-open session
    s0 = answered[0]
    tb.send(s0.dport, 7, ACK, seq=s0.ack, ack=s0.seq + 1)
    await tb.wait_event(1)
    tb.send(7010, 7, SYN, seq=5)
    sa = await tb.frame()
    assert sa.flags == SYN | ACK and sa.dport == 7010
    tb.send(7100, 7, SYN, seq=5)  # the bound again
    await tb.no_frame(800)
    assert count(m, "syn_full") == 3
    tb.send(7010, 7, ACK, seq=6, ack=sa.seq + 1)
    await tb.wait_event(1)
    # blind injection: an ACK 100000 behind
    p = Peer(tb, 7100, 7)
    await p.connect()
    p.send(ACK | PSH, b"injected", ack=p.rcv - 100000)
    a = await tb.frame()
    assert a.flags == ACK and a.ack == p.seq
    await tb.cycles(200)
    assert p.sid not in tb.rx
    p.data(b"real")
    await tb.frame()
    assert await tb.wait_rx(p.sid, 4) == b"real"


@cocotb.test()
async def test_back_to_back_segments(dut) -> None:
    """Segments arriving back to back while the previous one is still being processed
    (found on the virtual board: the staging ring's space was not given back when a
    descriptor was taken in the cycle the previous one was released, and the receive
    path stalled for good when the next segment did not fit without that space): bursts
    of small and large segments, every one ACKed and delivered in order."""
    tb = TcpTb(dut)
    await tb.start()
    p = Peer(tb, 6400, 7)
    await p.connect()
    rng = random.Random(40)
    sent = bytearray()
    # a segment taken as the one before is released, then one that fits only once the
    # first is given back: 1024 + 1000 bytes, then 1040 (and so on)
    bursts = [[10] * 12, [680] * 3, [1024, 1000], [1040, 1000], [1024, 1000], [1040]]
    for sizes in bursts:
        for n in sizes:
            d = bytes(rng.randrange(256) for _ in range(n))
            p.data(d)
            sent += d
        acks = [await tb.frame()]
        while acks[-1].ack != p.seq:  # (window updates may come between)
            assert len(acks) < 30, [a.ack for a in acks]
            acks.append(await tb.frame())
        assert all(a.flags == ACK and a.payload == b"" for a in acks)
        await tb.wait_rx(p.sid, len(sent))
    assert bytes(tb.rx[p.sid]) == bytes(sent)


@cocotb.test()
async def test_wrap_sessions(dut) -> None:
    """User-reported failure 4: several sessions, a retransmission whose data wraps the
    end of the session's buffer must read the wrapped part from the session's own start
    (BUF_LOG2 = 9: 512 bytes per session)."""
    tb = TcpTb(dut)
    await tb.start()
    peers = [Peer(tb, 5000 + i, 7, isn=1000 * i + 7) for i in range(3)]
    for p in peers:
        await p.connect()
    rng = random.Random(4)
    sent: dict[int, bytes] = {}
    for p in peers:
        first = bytes(rng.randrange(256) for _ in range(400))
        tb.app_send(p.sid, first)
        s = await tb.frame()
        assert s.payload == first
        p.rcv += 400
        p.send(ACK)
    await tb.cycles(300)
    # 300 bytes: offsets 401..700 of the 512-byte ring (they wrap)
    for p in peers:
        d = bytes(rng.randrange(256) for _ in range(300))
        sent[p.sport] = d
        tb.app_send(p.sid, d)
    firsts = {}
    for _ in peers:
        s = await tb.frame()
        firsts[s.dport] = s
        assert s.payload == sent[s.dport]
    # drop them all: the retransmissions carry the same bytes
    got = {}
    while len(got) < len(peers):
        s = await tb.frame(limit=TICK * 300)
        assert s.seq == firsts[s.dport].seq
        got[s.dport] = s.payload
    for p in peers:
        assert got[p.sport] == sent[p.sport], f"session {p.sid}: retransmission differs"


def hostile_segment(rng: random.Random, sport: int, dport: int) -> tuple[bytes, str]:
    """A random TCP segment for the ports given, with a correct checksum unless its kind
    says otherwise: random flags (all eight), sequence and acknowledgement numbers,
    window, urgent pointer, reserved bits, data offset 0-15, option bytes that are random
    or a random mix of known kinds with wrong lengths, payload 0-300 bytes, sometimes cut
    short. Returns the segment and the count it must land in (segments, bad_len,
    bad_csum)."""
    doff = rng.choice([5, 5, 6, 8, 10, 15, rng.randrange(16)])
    opts = bytearray()
    while len(opts) < max(0, doff - 5) * 4:
        if rng.random() < 0.3:
            opts += rng.randbytes(rng.randrange(1, 8))
        else:
            kind = rng.choice([0, 1, 2, 3, 4, 5, 8, 30, 254])
            ln = rng.choice([0, 1, 2, 3, 4, 10, 40, 255])
            opts += bytes([kind, ln]) + rng.randbytes(rng.randrange(0, 6))
    opts = opts[: max(0, doff - 5) * 4]
    hdr = (
        sport.to_bytes(2, "big")
        + dport.to_bytes(2, "big")
        + rng.getrandbits(32).to_bytes(4, "big")
        + rng.getrandbits(32).to_bytes(4, "big")
        + bytes([doff << 4 | rng.randrange(16), rng.randrange(256)])
        + rng.getrandbits(16).to_bytes(2, "big")
        + b"\0\0"
        + rng.getrandbits(16).to_bytes(2, "big")
    )
    seg = bytearray(hdr + opts + rng.randbytes(rng.choice([0, 0, 1, rng.randrange(300)])))
    if rng.random() < 0.15:
        seg = seg[: rng.randrange(len(seg))]
    pseudo = bytes([192, 0, 2, 100, 192, 0, 2, 1, 0, 6]) + len(seg).to_bytes(2, "big")
    if len(seg) >= 18:
        seg[16:18] = checksum(pseudo + bytes(seg)).to_bytes(2, "big")
    if len(seg) < 20 or doff < 5 or doff * 4 > len(seg):
        return bytes(seg), "rx_bad_len"
    if rng.random() < 0.1:
        seg[rng.randrange(len(seg))] ^= 1 << rng.randrange(8)
        return bytes(seg), "rx_bad_csum"
    return bytes(seg), "rx_segments"


@cocotb.test()
async def test_hostile_segments(dut) -> None:
    """500 random segments (hostile_segment) to an established session's ports, to a
    listening port and to random ports, back to back: each lands in exactly the count
    its form says, the core answers only with empty segments (RST, ACK, SYN-ACK: no
    data it was not given), the established session is neither reset nor fed a byte,
    and it carries data both ways afterwards; nothing hangs."""
    tb = TcpTb(dut, seed=33)
    m = ev(dut)
    await tb.start()
    p = Peer(tb, 1000, 7)
    await p.connect()
    p.data(b"before")
    assert await tb.wait_rx(p.sid, 6) == b"before"
    await tb.cycles(200)
    tb.frames.clear()
    base = {k: count(m, k) for k in ("rx_segments", "rx_bad_len", "rx_bad_csum")}
    rng = random.Random(34)
    want = dict.fromkeys(base, 0)
    for _ in range(500):
        ports = rng.choice([(p.sport, 7), (p.sport, 7), (rng.randrange(1, 65536), 80)])
        if rng.random() < 0.3:
            ports = (rng.randrange(65536), rng.randrange(65536))
        raw, kind = hostile_segment(rng, *ports)
        want[kind] += 1
        tb.send(0, 0, 0, 0, raw=raw)
    await tb.idle_in(limit=500_000)
    await tb.cycles(3000)
    for k in base:
        assert count(m, k) - base[k] == want[k], (k, count(m, k) - base[k], want[k])
    assert count(m, "rx_err_in") == 0 and count(m, "rx_broadcast") == 0
    assert all(not f.payload for f in tb.frames), "the core sent data nobody gave it"
    assert not [e for e in tb.events if e[2] == p.sid and e[1] & 0x1C], tb.events
    assert bytes(tb.rx[p.sid]) == b"before", "a hostile segment's bytes were delivered"
    tb.frames.clear()
    p.data(b"after")
    assert await tb.wait_rx(p.sid, 11) == b"beforeafter"
    tb.app_send(p.sid, b"reply")
    for _ in range(20):
        f = await tb.frame()
        if f.dport == p.sport and f.payload:
            break
    assert f.payload == b"reply" and f.seq == p.rcv, (f.payload, f.seq, p.rcv)


def test_tcp_core() -> None:
    run("tcp_core", "test_tcp_core", parameters={"BUF_LOG2": 11})


def test_tcp_core_small_buf() -> None:
    run("tcp_core", "test_tcp_core", parameters={"BUF_LOG2": 9}, testcase="test_wrap_sessions")


def test_tcp_core_short_turns() -> None:
    """CHUNK_LOG2 4: delivery turns of 16 bytes at most (the monitor checks every turn)."""
    run(
        "tcp_core",
        "test_tcp_core",
        parameters={"CHUNK_LOG2": 4},
        testcase=["test_handshake_data_close", "test_back_to_back_segments", "test_reset_reuse"],
    )


@pytest.mark.parametrize("n", [2, 64, 256])
def test_tcp_core_num_sess(n: int) -> None:
    """NUM_SESS 2 (one bit of session number), 64 and 256 (the largest): lookups over
    every slot, refusals, out-of-order data."""
    run(
        "tcp_core",
        "test_tcp_core",
        parameters={"NUM_SESS": n},
        testcase=["test_closed_port_and_no_session", "test_out_of_order"],
    )
