"""udp_tx (udp_tx_csum + udp_ip_tx): all three UDP checksum modes, at DATA_W 8 and 64.

Mode 1 checksums are checked against scapy's; modes 0/2 keep the one-cycle start through
the store-and-forward stage; order is kept across modes; short, long, bad and oversized
mode-1 payloads are checked with exact counters. Mode 1 back to back (runs of equal
sizes 0..1472, a stalling sink, idle input cycles, errors queued behind stored datagrams):
every frame byte-exact with scapy's checksum, and each stored datagram's first byte offered
at most B2B_GAP cycles after the previous frame's last beat (the ring stores the next
datagram while the current one leaves). Without a buffer (BUF_BYTES = 0) every
mode passes straight through with the one-cycle start and mode 1 sends checksum 0.
Every event strobe (cnt_ev) is counted and checked exactly.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from unit.udp.test_udp_ip_tx import DST_IP, DST_MAC, Tb, check_frame, udp_csum
from unit.udp.txutil import DEFAULT_IP, DEFAULT_MAC


def expect(tb: Tb, raw: bytes, payload: bytes, ident: int, dport: int, ucsum: int) -> None:
    check_frame(
        raw,
        dst_mac=DST_MAC,
        src_mac=DEFAULT_MAC,
        src_ip=DEFAULT_IP,
        dst_ip=DST_IP,
        sport=5000,
        dport=dport,
        payload=payload,
        ident=ident,
        ucsum=ucsum,
    )


@cocotb.test()
async def all_modes_in_order(dut: Any) -> None:
    """Modes 1, 0, 2 mixed: scapy's checksum for mode 1, order kept, all fields right."""
    tb = Tb(dut)
    await tb.start()
    rng = random.Random(21)
    sizes = [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 100, 1472] if tb.w == 64 else [0, 1, 2, 3, 9, 1472]
    sent = []
    for i, n in enumerate(sizes * 2):
        payload = bytes(rng.randrange(256) for _ in range(n))
        mode = [1, 0, 2][i % 3]
        ref = udp_csum(DEFAULT_IP, DST_IP, 5000, 300 + i, payload)
        tb.send(payload, mode=mode, csum=ref if mode == 2 else 0x1234, dport=300 + i)
        sent.append((payload, 0 if mode == 0 else ref, i))
    for payload, cs, i in sent:
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        expect(tb, raw, payload, i, 300 + i, cs)
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == len(sent)
    assert tb.cnt("cnt_sf_frames") == sum(1 for i in range(len(sent)) if i % 3 == 0)
    assert tb.cnt("cnt_tx_abort") == 0 and tb.cnt("cnt_tx_long") == 0


@cocotb.test()
async def zero_checksum_sent_as_ffff(dut: Any) -> None:
    """A computed checksum of 0 goes on the wire as 0xFFFF (RFC 768)."""
    tb = Tb(dut)
    await tb.start()
    base = bytes(range(1, 31)) + b"\0\0"
    c = udp_csum(DEFAULT_IP, DST_IP, 5000, 77, base)
    payload = base[:-2] + c.to_bytes(2, "big")
    assert udp_csum(DEFAULT_IP, DST_IP, 5000, 77, payload) == 0xFFFF
    tb.send(payload, mode=1, dport=77)
    raw, tuser = await tb.sink.recv()
    assert tuser == 0
    expect(tb, raw, payload, 0, 77, 0xFFFF)


@cocotb.test()
async def straight_modes_keep_zero_wait(dut: Any) -> None:
    """Modes 0 and 2 through the checksum stage: first beat 1 cycle after the request."""
    tb = Tb(dut)
    await tb.start()
    for i in range(6):
        tb.send(bytes(range(i * 5)), mode=2 * (i % 2), csum=0x4321, dport=i)
    for _ in range(6):
        await tb.sink.recv()
    await tb.drain()
    firsts = [b.cycle for b in tb.sink.beats if b.first]
    lasts = [b.cycle for b in tb.sink.beats if b.last]
    for h, f in zip(tb.hdr.fired, firsts, strict=True):
        assert f - h == 1
    for k in range(1, len(firsts)):
        # one idle cycle between frames (the engine starts the cycle after it ends)
        assert firsts[k] == lasts[k - 1] + 2, f"gap before frame {k}"


@cocotb.test()
async def mode1_length_errors(dut: Any) -> None:
    """Mode 1: short and tuser abort, long is cut (checksum over hdr_len bytes), oversize."""
    tb = Tb(dut)
    await tb.start()
    big = 2048 + 3 * (tb.w // 8)
    cases = [
        # payload bytes, hdr_len, tuser, outcome
        (10, 20, 0, "abort"),
        (20, 20, 1, "abort"),
        (40, 25, 0, "long"),
        (big, 1000, 0, "long"),  # larger than the buffer: cut at hdr_len, still good
        (big, big, 0, "abort"),  # larger than the buffer and than what fits: aborted
        (33, 33, 0, "good"),
    ]
    frames = aborts = longs = ovf = 0
    for k, (n, hl, tu, outcome) in enumerate(cases):
        payload = bytes((k * 7 + j) & 0xFF for j in range(n))
        tb.send(payload, length=hl, tuser=tu, mode=1, dport=k)
        raw, tuser = await tb.sink.recv()
        ovf += n > 2048
        if outcome == "abort":
            aborts += 1
            assert tuser == 1, f"case {k} not aborted"
        else:
            frames += 1
            longs += outcome == "long"
            assert tuser == 0, f"case {k} aborted"
            cs = udp_csum(DEFAULT_IP, DST_IP, 5000, k, payload[:hl])
            expect(tb, raw, payload[:hl], k, k, cs)
        await tb.drain()
        assert tb.cnt("cnt_tx_frames") == frames, f"case {k}"
        assert tb.cnt("cnt_tx_abort") == aborts, f"case {k}"
        assert tb.cnt("cnt_tx_long") == longs, f"case {k}"
        assert tb.cnt("cnt_sf_overflow") == ovf, f"case {k}"
        assert tb.cnt("cnt_sf_frames") == k + 1


@cocotb.test()
async def mode1_start_latency(dut: Any) -> None:
    """Mode 1: the frame's first byte is taken 3 cycles after the payload's last beat."""
    tb = Tb(dut)
    await tb.start()
    last_in: list[int] = []

    async def mon() -> None:
        while True:
            await RisingEdge(dut.clk)
            if str(dut.s_axis_tvalid.value) == "1" and str(dut.s_axis_tready.value) == "1":
                if str(dut.s_axis_tlast.value) == "1":
                    last_in.append(tb.cyc.now)

    cocotb.start_soon(mon())
    for n in (0, 1, 50):
        payload = bytes(range(n))
        tb.send(payload, mode=1, dport=n)
        raw, tuser = await tb.sink.recv()
        cs = udp_csum(DEFAULT_IP, DST_IP, 5000, n, payload)
        expect(tb, raw, payload, len(last_in) - 1, n, cs)
    firsts = [b.cycle for b in tb.sink.beats if b.first]
    assert [f - t for f, t in zip(firsts, last_in, strict=True)] == [3, 3, 3]


@cocotb.test()
async def no_buffer_modes(dut: Any) -> None:
    """BUF_BYTES = 0: no store and forward; mode 1 goes straight through with checksum 0
    (legal in IPv4), modes 0 and 2 as usual; every frame starts 1 cycle after its
    request, back to back with one idle cycle between frames; length errors still abort
    or cut; no store-and-forward count."""
    tb = Tb(dut)
    await tb.start()
    rng = random.Random(4)
    sizes = [0, 1, 2, 9, 17, 64, 300]
    sent = []
    for i, n in enumerate(sizes * 2):
        payload = bytes(rng.randrange(256) for _ in range(n))
        mode = [1, 0, 2][i % 3]
        ref = udp_csum(DEFAULT_IP, DST_IP, 5000, 400 + i, payload)
        tb.send(payload, mode=mode, csum=ref if mode == 2 else 0x1234, dport=400 + i)
        sent.append((payload, ref if mode == 2 else 0, i))
    for payload, cs, i in sent:
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        expect(tb, raw, payload, i, 400 + i, cs)
    await tb.drain()
    firsts = [b.cycle for b in tb.sink.beats if b.first]
    lasts = [b.cycle for b in tb.sink.beats if b.last]
    for h, f in zip(tb.hdr.fired, firsts, strict=True):
        assert f - h == 1
    for k in range(1, len(firsts)):
        # one idle cycle between frames (the engine starts the cycle after it ends)
        assert firsts[k] == lasts[k - 1] + 2, f"gap before frame {k}"
    assert tb.cnt("cnt_tx_frames") == len(sent)
    # mode 1 length errors: short aborts, long is cut at hdr_len (checksum still 0)
    tb.send(bytes(10), length=20, mode=1, dport=1)
    tb.send(bytes(range(40)), length=25, mode=1, dport=2)
    raw, tuser = await tb.sink.recv()
    assert tuser == 1
    raw, tuser = await tb.sink.recv()
    assert tuser == 0
    expect(tb, raw, bytes(range(25)), len(sent) + 1, 2, 0)
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == len(sent) + 1
    assert tb.cnt("cnt_tx_abort") == 1 and tb.cnt("cnt_tx_long") == 1
    assert tb.cnt("cnt_sf_frames") == 0 and tb.cnt("cnt_sf_overflow") == 0


@cocotb.test()
async def many_datagrams(dut: Any) -> None:
    """258 mode-1 datagrams back to back: one frame strobe each (and, with a buffer, one
    store-and-forward strobe each)."""
    tb = Tb(dut)
    await tb.start()
    buffered = int(dut.BUF_BYTES.value) != 0
    n = 258
    for i in range(n):
        tb.send(b"", mode=1, dport=i & 0xFF)
    for i in range(n):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        if i in (0, n - 1):
            cs = udp_csum(DEFAULT_IP, DST_IP, 5000, i & 0xFF, b"") if buffered else 0
            expect(tb, raw, b"", i & 0xFFFF, i & 0xFF, cs)
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == n
    assert tb.cnt("cnt_sf_frames") == (n if buffered else 0)
    assert tb.cnt("cnt_tx_abort") == 0 and tb.cnt("cnt_sf_overflow") == 0


async def offer_monitor(tb: Tb) -> tuple[list[int], list[int]]:
    """Per frame: the cycle its first beat is offered (tvalid) and the cycle its last beat
    is taken. With a stalling sink the offer, not the handshake, shows the module's gap."""
    offers: list[int] = []
    lasts: list[int] = []

    async def mon() -> None:
        dut = tb.dut
        inside = False
        while True:
            await RisingEdge(dut.clk)
            if str(dut.m_axis_tvalid.value) != "1":
                continue
            if not inside:
                offers.append(tb.cyc.now)
                inside = True
            if str(dut.m_axis_tready.value) == "1" and str(dut.m_axis_tlast.value) == "1":
                lasts.append(tb.cyc.now)
                inside = False

    cocotb.start_soon(mon())
    return offers, lasts


# A stored datagram's first byte is offered at most this many cycles after the previous
# frame's last beat was taken: udp_ip_tx's one idle cycle between frames, as for modes 0/2.
B2B_GAP = 2


async def mode1_b2b_run(dut: Any, sizes: list[int], pause: float, gap_in: float) -> None:
    tb = Tb(dut, pause=pause)
    await tb.start()
    offers, lasts = await offer_monitor(tb)
    rng = random.Random(len(sizes) * 31 + int(pause * 100))
    sent = []
    for i, n in enumerate(sizes):
        payload = bytes(rng.randrange(256) for _ in range(n))
        dport = 1000 + i
        tb.hdr.send(
            dst_mac=DST_MAC,
            dst_mac_valid=1,
            dst_ip=DST_IP,
            dst_port=dport,
            src_port=5000,
            len=n,
            csum=0x1234,
            csum_mode=1,
        )
        tb.pay.send(payload, 0, gap_prob=gap_in)
        sent.append((payload, dport))
    for i, (payload, dport) in enumerate(sent):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0, f"datagram {i} aborted"
        expect(tb, raw, payload, i, dport, udp_csum(DEFAULT_IP, DST_IP, 5000, dport, payload))
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == len(sent) and tb.cnt("cnt_sf_frames") == len(sent)
    assert tb.cnt("cnt_tx_abort") == 0 and tb.cnt("cnt_sf_overflow") == 0
    if gap_in == 0:
        # the application never waits: a stored datagram no larger than the one before it
        # follows the previous frame with only udp_ip_tx's idle cycle (store and forward
        # of one datagram at a time would leave a whole payload's time between them). A
        # larger one may wait for the rest of its own payload: its checksum leaves first.
        assert len(offers) == len(lasts) == len(sent)
        for k in range(1, len(sent)):
            if sizes[k] > sizes[k - 1]:
                continue
            gap = offers[k] - lasts[k - 1]
            assert gap <= B2B_GAP, f"frame {k} offered {gap} cycles after frame {k - 1} ended"


@cocotb.test()
async def mode1_back_to_back(dut: Any) -> None:
    """Mode 1, runs of equal sizes (1472, 0, 1, 2, 7..9, 63..65, random) back to back, the
    sink always ready: each frame starts B2B_GAP cycles after the previous one ended (when
    it is no larger); every datagram byte-exact with scapy's checksum."""
    rng = random.Random(5)
    kw = len(dut.s_axis_tdata) // 8
    runs = [1472, 0, 1, 2, 9, 64, 1471, rng.randrange(1473), rng.randrange(100)]
    runs += [7, 8, 63, 65] if kw == 8 else []
    sizes = [n for r in runs for n in (r, r, r)] + [1472, 0, 1472, 1, 1472]
    await mode1_b2b_run(dut, sizes, pause=0.0, gap_in=0.0)


@cocotb.test()
async def mode1_back_to_back_backpressure(dut: Any) -> None:
    """Mode 1 back to back with a stalling sink (30 % of cycles): the next frame is still
    offered B2B_GAP cycles after the previous one's last beat is taken; all byte-exact."""
    rng = random.Random(6)
    sizes = [1472, 1472] + [rng.randrange(1473) for _ in range(5)] + [1472, 3, 1472]
    await mode1_b2b_run(dut, sizes, pause=0.3, gap_in=0.0)


@cocotb.test()
async def mode1_random_gaps(dut: Any) -> None:
    """Mode 1, random sizes, idle cycles on the payload input and a stalling sink: every
    datagram byte-exact with scapy's checksum, nothing lost or reordered."""
    rng = random.Random(7)
    sizes = [rng.choice([0, 1, 2, 3, 8, 9, 1472, rng.randrange(1473)]) for _ in range(14)]
    await mode1_b2b_run(dut, sizes, pause=0.25, gap_in=0.2)


@cocotb.test()
async def mode1_errors_back_to_back(dut: Any) -> None:
    """Mode 1 errors queued behind stored datagrams (the ring not empty): oversize payloads
    (cut at hdr_len, or aborted), tuser, short and long payloads, each between good
    datagrams: every outcome and counter as when sent one at a time, and the good ones
    around them intact."""
    tb = Tb(dut, pause=0.1)
    await tb.start()
    kw = tb.w // 8
    big = 2048 + 3 * kw
    cases = [
        # payload bytes, hdr_len, tuser, outcome
        (1472, 1472, 0, "good"),
        (big, 1000, 0, "long"),
        (1472, 1472, 0, "good"),
        (big, big, 0, "abort"),
        (100, 100, 1, "abort"),
        (1472, 1472, 0, "good"),
        (10, 20, 0, "abort"),
        (40, 25, 0, "long"),
        (1472, 1472, 1, "abort"),
        (33, 33, 0, "good"),
        (big, 2000, 0, "long"),
        (0, 0, 0, "good"),
    ]
    for k, (n, hl, tu, _) in enumerate(cases):
        payload = bytes((k * 7 + j) & 0xFF for j in range(n))
        tb.send(payload, length=hl, tuser=tu, mode=1, dport=k)
    for k, (n, hl, _, outcome) in enumerate(cases):
        payload = bytes((k * 7 + j) & 0xFF for j in range(n))
        raw, tuser = await tb.sink.recv()
        if outcome == "abort":
            assert tuser == 1, f"case {k} not aborted"
        else:
            assert tuser == 0, f"case {k} aborted"
            cs = udp_csum(DEFAULT_IP, DST_IP, 5000, k, payload[:hl])
            expect(tb, raw, payload[:hl], k, k, cs)
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == sum(c[3] != "abort" for c in cases)
    assert tb.cnt("cnt_tx_abort") == sum(c[3] == "abort" for c in cases)
    assert tb.cnt("cnt_tx_long") == sum(c[3] == "long" for c in cases)
    assert tb.cnt("cnt_sf_overflow") == sum(c[0] > 2048 for c in cases)
    assert tb.cnt("cnt_sf_frames") == len(cases)


BUFFERED = [
    "all_modes_in_order",
    "zero_checksum_sent_as_ffff",
    "straight_modes_keep_zero_wait",
    "mode1_length_errors",
    "mode1_start_latency",
    "mode1_back_to_back",
    "mode1_back_to_back_backpressure",
    "mode1_random_gaps",
    "mode1_errors_back_to_back",
]


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_tx(data_w: int) -> None:
    from cocotb_run import run

    run("udp_tx", "test_udp_tx", parameters={"DATA_W": data_w}, testcase=BUFFERED)


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_tx_no_buffer(data_w: int) -> None:
    """BUF_BYTES = 0."""
    from cocotb_run import run

    run(
        "udp_tx",
        "test_udp_tx",
        parameters={"DATA_W": data_w, "BUF_BYTES": 0},
        testcase=["no_buffer_modes", "many_datagrams"],
    )


def test_udp_tx_many() -> None:
    """With the mode-1 buffer (8 bits)."""
    from cocotb_run import run

    run(
        "udp_tx",
        "test_udp_tx",
        parameters={"DATA_W": 8},
        testcase=["many_datagrams"],
    )
