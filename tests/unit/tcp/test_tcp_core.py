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
from unit.cnt_ev_mon import EvMon
from unit.tcp.tcptb import ACK, CFG, FIN, PSH, RST, SYN, TICK, Peer, TcpTb

EV_NAMES = [
    "rx_segments",
    "rx_bad_len",
    "rx_bad_csum",
    "rx_err_in",
    "rx_broadcast",
    "seg_session",
    "rst_no_session",
    "syn_full",
    "unacceptable",
    "out_of_order",
    "rst_rcvd",
    "challenge_ack",
    "rto",
    "aborted",
    "ack_unsent",
    "seg_sent",
    "data_seg_sent",
    "rexmit_seg",
    "established",
    "closed",
    "cut_to_window",
    "dup_ack_rcvd",
    "tx_frames",
    "app_tx_dropped",
]


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


def ev(dut) -> EvMon:
    return EvMon(dut, EV_NAMES)


def count(m: EvMon, name: str) -> int:
    return m.sums[EV_NAMES.index(name)]


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
    """A segment past rcv_nxt: an immediate duplicate ACK (RFC 5681), its data not
    delivered; the missing segment then: ACK of it, data in order."""
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
    assert count(m, "out_of_order") == 2
    p.data(b"C" * 10)
    a = await tb.frame()
    assert a.ack == p.seq
    await tb.cycles(100)
    assert bytes(tb.rx[p.sid]) == b"C" * 10


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


def test_tcp_core() -> None:
    run("tcp_core", "test_tcp_core", parameters={"BUF_LOG2": 11})


def test_tcp_core_small_buf() -> None:
    run("tcp_core", "test_tcp_core", parameters={"BUF_LOG2": 9}, testcase="test_wrap_sessions")


@pytest.mark.parametrize("n", [2])
def test_tcp_core_two_sessions(n: int) -> None:
    run(
        "tcp_core",
        "test_tcp_core",
        parameters={"NUM_SESS": n},
        testcase=["test_closed_port_and_no_session", "test_out_of_order"],
    )
