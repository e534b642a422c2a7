"""tcp_core's window scaling (RFC 7323 section 2) against scapy peers: our SYN always
offers window scale (shift 0: the receive buffers fit 16 bits) so that the peer may scale
its own; our SYN-ACK carries it only when the peer's SYN did; the peer's shift (0 to 14,
larger values taken as 14) applies to every window it advertises after its SYN, never to
the SYN's own window, and only when both SYNs carried the option."""

from __future__ import annotations

import cocotb
from cocotb_run import run
from unit.tcp.tcptb import ACK, RST, SYN, Peer, TcpTb, check_isn

DATA = bytes(i & 0xFF for i in range(2000))


def sws_sent(wnd: int, queued: int, mss: int = 1460) -> int:
    """Bytes a sender following RFC 1122 4.2.3.4 sends into an open window of wnd bytes
    (the largest it has seen) with queued bytes pushed: a segment of min(D, U, MSS) goes
    when it is full-sized, when it takes all that is queued (D <= U), or when it is at
    least half the largest window; the rest waits (no persist override this soon)."""
    sent = 0
    while True:
        d, u = queued - sent, wnd - sent
        n = min(d, u, mss)
        if n <= 0 or not (n == mss or d <= u or 2 * n >= wnd):
            return sent
        sent += n


async def in_flight(tb: TcpTb, p: Peer, limit: int = 4000) -> int:
    """Bytes the core sends on p's session without an ACK (all of what the window lets
    out), in order from p.rcv; every frame must belong to p's session (the earlier ones
    were reset, see done)."""
    n = 0
    while True:
        try:  # (the first after the application's 2000 bytes are in, before the
            # persist timer could override silly-window avoidance: cfg_rto_min 8 ticks)
            s = await tb.frame(limit=limit if n else 6000)
        except AssertionError:
            return n
        assert (s.sport, s.dport) == (p.dport, p.sport), (s.sport, s.dport)
        assert s.seq == (p.rcv + n) & 0xFFFFFFFF
        n += len(s.payload)


async def done(tb: TcpTb, p: Peer) -> None:
    """Reset p's session (RST at rcv_nxt) so that its retransmissions stop."""
    p.send(RST, ack=0)
    await tb.wait_event(0x4, sid=p.sid)  # (the reset event)


async def passive(tb: TcpTb, sport: int, shift: int | None) -> tuple[Peer, dict]:
    p = Peer(tb, sport, 7)
    opts: list = [("MSS", 1460)]
    if shift is not None:
        opts.append(("WScale", shift))
    p.send(SYN, ack=0, options=opts, window=12)
    sa = await tb.frame()
    assert sa.flags == SYN | ACK
    p.seq += 1
    p.rcv = (sa.seq + 1) & 0xFFFFFFFF
    return p, dict(sa.options)


@cocotb.test()
async def test_window_scale(dut) -> None:
    """Peers with shifts 0, 3, 7, 14 and 15 (taken as 14), and one without the option:
    the SYN-ACK's options; then the peer's window field 12 (with cfg_cc_off, so the
    window alone limits the sender): the core sends what a sender of RFC 1122 4.2.3.4
    sends of 2000 queued bytes into a window of 12 << shift (12 when scaling is off)."""
    tb = TcpTb(dut)
    dut.cfg_cc_off.value = 1
    await tb.start()
    for i, shift in enumerate([0, 3, 7, 14, 15, None]):
        p, opts = await passive(tb, 5000 + i, shift)
        if shift is None:
            assert "WScale" not in opts, opts
        else:
            assert opts.get("WScale") == 0, opts
        assert opts.get("MSS") == 1460
        p.send(ACK, window=12)
        e = await tb.wait_event(1)
        p.sid = e[2]
        tb.app_send(p.sid, DATA)
        want = sws_sent(12 if shift is None else 12 << min(shift, 14), len(DATA))
        got = await in_flight(tb, p)
        assert got == want, (shift, got, want)
        await done(tb, p)


@cocotb.test()
async def test_window_scale_active(dut) -> None:
    """Active open: our SYN offers window scale 0; a SYN-ACK with shift 5 turns scaling
    on (window field 10 = 320 bytes), one without it leaves it off (10 bytes)."""
    tb = TcpTb(dut)
    dut.cfg_cc_off.value = 1
    await tb.start()
    for i, shift in enumerate([5, None]):
        p = Peer(tb, 6000 + i, 4000 + i)
        await tb.connect(p.src, p.sport, p.dport)
        syn = await tb.frame()
        assert syn.flags == SYN
        check_isn(syn.seq, p.src, p.sport, p.dport, tb.cycle, tb.tick)
        assert dict(syn.options).get("WScale") == 0, syn.options
        opts: list = [("MSS", 1460)]
        if shift is not None:
            opts.append(("WScale", shift))
        p.send(SYN | ACK, seq=p.seq, ack=syn.seq + 1, window=10, options=opts)
        p.seq += 1
        p.rcv = (syn.seq + 1) & 0xFFFFFFFF
        a = await tb.frame()
        assert a.flags == ACK
        e = await tb.wait_event(1)
        p.sid = e[2]
        tb.app_send(p.sid, DATA)
        got = await in_flight(tb, p)
        assert got == 10, got  # the SYN-ACK's window is not scaled
        p.rcv = (p.rcv + got) & 0xFFFFFFFF
        p.send(ACK, window=10)
        want = 10 if shift is None else 10 << shift
        got = await in_flight(tb, p)
        assert got == want, (shift, got, want)
        await done(tb, p)


def test_tcp_wscale() -> None:
    run("tcp_core", "test_tcp_wscale")
