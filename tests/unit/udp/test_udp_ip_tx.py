"""udp_ip_tx: zero-wait UDP/IPv4 transmitter, at DATA_W 8 and 64.

scapy parses every frame and every header field is checked (IPv4 header checksum
recomputed by scapy, UDP checksum recomputed when supplied); the first frame beat must
leave one cycle after the header handshake and back-to-back frames must be separated by
exactly one idle cycle; length
mismatches, ARP hits and misses and configuration changes are checked with exact counters;
with an ARP that answers in one cycle, the request reaches it in the handshake's cycle
wider than 8 bits (one cycle later at 8) and frames to one destination keep 2 (3) idle
cycles between them.
"""

from __future__ import annotations

import random
from typing import Any

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge
from scapy.layers.inet import IP, UDP, Ether
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

DST_MAC = 0x0A1B2C3D4E5F
DST_IP = 0xC0000264  # 192.0.2.100


def udp_csum(src_ip: int, dst_ip: int, sport: int, dport: int, payload: bytes) -> int:
    """UDP checksum computed by scapy."""
    pkt = IP(src=ip_str(src_ip), dst=ip_str(dst_ip)) / UDP(sport=sport, dport=dport) / payload
    return int(UDP(bytes(pkt[UDP])).chksum)


def check_frame(
    raw: bytes,
    *,
    dst_mac: int,
    src_mac: int,
    src_ip: int,
    dst_ip: int,
    sport: int,
    dport: int,
    payload: bytes,
    ident: int,
    ttl: int = 64,
    df: int = 1,
    ucsum: int = 0,
) -> None:
    assert len(raw) == 42 + len(payload), f"frame length {len(raw)} != {42 + len(payload)}"
    p = Ether(raw)
    assert p.dst == mac_str(dst_mac) and p.src == mac_str(src_mac)
    assert p.type == 0x0800
    ip = p[IP]
    assert (ip.version, ip.ihl, ip.tos) == (4, 5, 0)
    assert ip.len == 28 + len(payload)
    assert ip.id == ident, f"id {ip.id} != {ident}"
    assert int(ip.flags) == (2 if df else 0) and ip.frag == 0
    assert ip.ttl == ttl and ip.proto == 17
    assert ip.src == ip_str(src_ip) and ip.dst == ip_str(dst_ip)
    ref = IP(bytes(ip)[:20])
    got = ref.chksum
    del ref.chksum
    assert IP(bytes(ref)).chksum == got, "bad IPv4 header checksum"
    u = p[UDP]
    assert (u.sport, u.dport, u.len) == (sport, dport, 8 + len(payload))
    assert u.chksum == ucsum, f"UDP checksum {u.chksum:#x} != {ucsum:#x}"
    assert bytes(u.payload) == payload


async def enable_contract(dut: Any) -> None:
    """Every cycle after reset: tx_prepend's hdr_free_nx is the value hdr_free takes in the
    next cycle."""
    ipt = dut if hasattr(dut, "eng") else dut.tx  # udp_tx wraps udp_ip_tx as `tx`
    eng = ipt.eng
    prev: int | None = None
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        free = int(eng.hdr_free.value)
        if prev is not None:
            assert free == prev, "tx_prepend's hdr_free_nx was not hdr_free's next value"
        prev = int(eng.hdr_free_nx.value)


class Tb:
    def __init__(self, dut: Any, pause: float = 0.0) -> None:
        self.dut = dut
        self.w = len(dut.s_axis_tdata)
        self.cyc = Cycles(dut)
        dut.cfg_mac.value = DEFAULT_MAC
        dut.cfg_ip.value = DEFAULT_IP
        dut.cfg_ttl.value = 64
        dut.cfg_df.value = 1
        dut.arp_req_ready.value = 0
        dut.arp_resp_valid.value = 0
        dut.arp_resp_hit.value = 0
        dut.arp_resp_mac.value = 0
        self.hdr = HeaderSource(dut, "s", self.cyc)
        self.pay = PayloadSource(dut, "s_axis", self.w)
        self.sink = FrameSink(dut, "m_axis", self.cyc, random_pause(7, pause) if pause else None)

    async def start(self) -> None:
        await start_clock(self.dut)
        await reset(self.dut)
        cocotb.start_soon(enable_contract(self.dut))
        # the event strobes (udp_ip_tx's 4; udp_tx adds udp_tx_csum's 2), counted from here
        names = ["cnt_tx_frames", "cnt_tx_abort", "cnt_tx_long", "cnt_arp_miss"]
        if len(self.dut.cnt_ev) == 6:
            names += ["cnt_sf_frames", "cnt_sf_overflow"]
        self.ev = EvMon(self.dut, names)

    def send(
        self,
        payload: bytes,
        *,
        length: int | None = None,
        mode: int = 0,
        csum: int = 0,
        dst_mac: int = DST_MAC,
        mac_valid: int = 1,
        dst_ip: int = DST_IP,
        sport: int = 5000,
        dport: int = 6000,
        tuser: int = 0,
    ) -> None:
        self.hdr.send(
            dst_mac=dst_mac,
            dst_mac_valid=mac_valid,
            dst_ip=dst_ip,
            dst_port=dport,
            src_port=sport,
            len=len(payload) if length is None else length,
            csum=csum,
            csum_mode=mode,
        )
        self.pay.send(payload, tuser)

    async def drain(self, limit: int = 20000) -> None:
        for _ in range(limit):
            await RisingEdge(self.dut.clk)
            if self.hdr.idle() and self.pay.idle():
                break
        await wait_cycles(self.dut, 20)

    def cnt(self, name: str) -> int:
        """The events of strobe ``name`` (cnt_ev bit) since start()."""
        return self.ev.count(name)


def sizes_for(w: int) -> list[int]:
    if w == 8:
        return [0, 1, 2, 3, 5, 17, 18, 19, 64, 255, 1472]
    return list(range(0, 18)) + [63, 64, 65, 255, 1471, 1472]


@cocotb.test()
async def frames_zero_wait_back_to_back(dut: Any) -> None:
    """Every size, modes 0 and 2: fields, checksums, 1-cycle start, 1 idle cycle between frames."""
    tb = Tb(dut)
    await tb.start()
    rng = random.Random(3)
    sizes = sizes_for(tb.w)
    sent = []
    for i, n in enumerate(sizes):
        payload = bytes(rng.randrange(256) for _ in range(n))
        sport, dport = 1024 + i, 40000 + 3 * i
        mode = i % 2 * 2
        cs = udp_csum(DEFAULT_IP, DST_IP, sport, dport, payload) if mode == 2 else 0
        tb.send(payload, mode=mode, csum=cs, sport=sport, dport=dport)
        sent.append((payload, sport, dport, cs))
    for i, (payload, sport, dport, cs) in enumerate(sent):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_frame(
            raw,
            dst_mac=DST_MAC,
            src_mac=DEFAULT_MAC,
            src_ip=DEFAULT_IP,
            dst_ip=DST_IP,
            sport=sport,
            dport=dport,
            payload=payload,
            ident=i,
            ucsum=cs,
        )
    await tb.drain()
    firsts = [b.cycle for b in tb.sink.beats if b.first]
    lasts = [b.cycle for b in tb.sink.beats if b.last]
    assert len(firsts) == len(sent) == len(tb.hdr.fired)
    for k, (h, f) in enumerate(zip(tb.hdr.fired, firsts, strict=True)):
        assert f - h == 1, f"frame {k}: first beat {f - h} cycles after the request"
    for k in range(1, len(firsts)):
        # one idle cycle between frames (the engine starts the cycle after it ends)
        assert firsts[k] == lasts[k - 1] + 2, f"gap before frame {k}"
    assert tb.cnt("cnt_tx_frames") == len(sent)
    assert tb.cnt("cnt_tx_abort") == 0 and tb.cnt("cnt_tx_long") == 0


@cocotb.test()
async def backpressure_and_gaps(dut: Any) -> None:
    """Random tready on the output: every frame still exact."""
    tb = Tb(dut, pause=0.4)
    await tb.start()
    rng = random.Random(5)
    sent = []
    for i in range(12):
        n = rng.choice([0, 1, 7, 9, 33, 100])
        payload = bytes(rng.randrange(256) for _ in range(n))
        tb.send(payload, sport=7, dport=9 + i)
        sent.append(payload)
    for i, payload in enumerate(sent):
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_frame(
            raw,
            dst_mac=DST_MAC,
            src_mac=DEFAULT_MAC,
            src_ip=DEFAULT_IP,
            dst_ip=DST_IP,
            sport=7,
            dport=9 + i,
            payload=payload,
            ident=i,
        )
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == 12


@cocotb.test()
async def length_mismatch(dut: Any) -> None:
    """Short payload or tuser aborts (tuser on the frame's last beat); long is cut and counted."""
    tb = Tb(dut)
    await tb.start()
    ident = 0
    # (payload length, hdr_len, tuser) -> expected outcome
    cases = [
        (10, 20, 0, "abort"),
        (20, 20, 1, "abort"),
        (0, 5, 0, "abort"),
        (3, 9, 0, "abort"),
        (25, 10, 0, "long"),
        (13, 10, 0, "long"),
        (5, 0, 0, "long"),
        (16, 8, 0, "long"),
        (11, 10, 1, "abort_long"),  # excess in the last beat, with tuser
        (30, 30, 0, "good"),
    ]
    exp_frames = exp_abort = exp_long = 0
    for k, (n, hl, tu, outcome) in enumerate(cases):
        payload = bytes((k * 16 + j) & 0xFF for j in range(n))
        tb.send(payload, length=hl, tuser=tu, dport=100 + k)
        raw, tuser = await tb.sink.recv()
        if tb.w == 8 and outcome == "abort_long":
            # at 8 bits the excess is in its own beats: the frame ended good at hdr_len
            outcome = "long"
        if outcome.startswith("abort"):
            exp_abort += 1
            exp_long += outcome == "abort_long"
            assert tuser == 1, f"case {k}: frame not aborted"
            assert len(raw) <= 42 + hl
        else:
            assert tuser == 0, f"case {k}: frame aborted"
            check_frame(
                raw,
                dst_mac=DST_MAC,
                src_mac=DEFAULT_MAC,
                src_ip=DEFAULT_IP,
                dst_ip=DST_IP,
                sport=5000,
                dport=100 + k,
                payload=payload[:hl],
                ident=ident,
            )
            exp_frames += 1
            if outcome.startswith("long"):
                exp_long += 1
        ident += 1
        await tb.drain()
        assert tb.cnt("cnt_tx_frames") == exp_frames, f"case {k}"
        assert tb.cnt("cnt_tx_abort") == exp_abort, f"case {k}"
        assert tb.cnt("cnt_tx_long") == exp_long, f"case {k}"
    assert tb.sink.count() == 0


async def arp_answer(dut: Any, table: dict[int, int], ip: int) -> None:
    """ARP's answer for `ip` from `table` (0xDEAD on a miss), a one-cycle strobe."""
    dut.arp_resp_hit.value = int(ip in table)
    dut.arp_resp_mac.value = table.get(ip, 0xDEAD)
    dut.arp_resp_valid.value = 1
    await RisingEdge(dut.clk)
    dut.arp_resp_valid.value = 0
    dut.arp_resp_hit.value = 0


async def arp_model(dut: Any, table: dict[int, int], log: list[int], delay: int = 3) -> None:
    """ARP lookup responder: request accepted after one cycle, answer `delay` cycles later."""
    while True:
        await RisingEdge(dut.clk)
        if int(dut.arp_req_valid.value):
            dut.arp_req_ready.value = 1
            await RisingEdge(dut.clk)
            dut.arp_req_ready.value = 0
            ip = int(dut.arp_req_ip.value)
            log.append(ip)
            await wait_cycles(dut, delay)
            await arp_answer(dut, table, ip)


Plan = list[tuple[int, int, int, bool]]  # (destination IP, dst_mac_valid, length, delivered)


async def send_plan(tb: Any, plan: Plan, known: dict[int, int], step: int) -> None:
    """Send one datagram per plan entry (payload byte j of entry k is step*k + j, UDP
    destination port k), then check that exactly the delivered ones leave, in order, each
    with ARP's MAC (or the request's), its payload and identification k: every request
    steps the identification, dropped ones included."""
    expected = []
    for k, (ip, mv, n, ok) in enumerate(plan):
        payload = bytes((step * k + j) & 0xFF for j in range(n))
        tb.send(payload, dst_ip=ip, mac_valid=mv, dport=k)
        if ok:
            expected.append((ip, known.get(ip, DST_MAC), payload, k))
    for ip, mac, payload, k in expected:
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_frame(
            raw,
            dst_mac=mac,
            src_mac=DEFAULT_MAC,
            src_ip=DEFAULT_IP,
            dst_ip=ip,
            sport=5000,
            dport=k,
            payload=payload,
            ident=k,
        )
    await tb.drain()
    assert tb.sink.count() == 0


@cocotb.test()
async def arp_hit_and_miss(dut: Any) -> None:
    """dst_mac_valid=0 asks ARP: hit uses its MAC; miss drops (payload consumed) and counts."""
    tb = Tb(dut)
    await tb.start()
    known = {0xC0000202: 0x02AABBCCDDEE, 0x08080808: 0x02999999999A}
    log: list[int] = []
    cocotb.start_soon(arp_model(dut, known, log))
    plan = [
        (0xC0000202, 0, 20, True),
        (0xC0000203, 0, 20, False),
        (0x08080808, 0, 1, True),
        (0xC0000204, 0, 300, False),
        (DST_IP, 1, 5, True),
        (0xC0000202, 0, 0, True),
    ]
    await send_plan(tb, plan, known, step=1)
    assert log == [p[0] for p in plan if p[1] == 0]
    assert tb.cnt("cnt_arp_miss") == 2
    assert tb.cnt("cnt_tx_frames") == 4
    assert tb.cnt("cnt_tx_abort") == 0 and tb.cnt("cnt_tx_long") == 0


@cocotb.test()
async def config_change(dut: Any) -> None:
    """A configuration change applies from the next frame, never inside one."""
    tb = Tb(dut)
    await tb.start()
    cfgs = [
        (DEFAULT_MAC, DEFAULT_IP, 64, 1),
        (0x02123456789A, 0x0A000001, 1, 0),
        (0xFEDCBA987654, 0xFFFFFFFE, 255, 1),
    ]
    payload = bytes(range(50))
    for k, (mac, ip, ttl, df) in enumerate(cfgs):
        dut.cfg_mac.value = mac
        dut.cfg_ip.value = ip
        dut.cfg_ttl.value = ttl
        dut.cfg_df.value = df
        await RisingEdge(dut.clk)
        tb.send(payload, dport=k)
        # change the configuration while the frame is on its way out
        await wait_cycles(dut, 4)
        dut.cfg_mac.value = 0x111111111111
        dut.cfg_ip.value = 0x01010101
        dut.cfg_ttl.value = 7
        dut.cfg_df.value = 1 - df
        raw, tuser = await tb.sink.recv()
        assert tuser == 0
        check_frame(
            raw,
            dst_mac=DST_MAC,
            src_mac=mac,
            src_ip=ip,
            dst_ip=DST_IP,
            sport=5000,
            dport=k,
            payload=payload,
            ident=k,
            ttl=ttl,
            df=df,
        )
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == 3


@cocotb.test()
async def many_frames(dut: Any) -> None:
    """258 good frames, 2 short, 2 long, back to back: every strobe exact."""
    tb = Tb(dut)
    await tb.start()
    n = 262
    for k in range(n):
        if k in (7, 100):
            tb.send(bytes(3), length=5, dport=k)  # short: aborted
        elif k in (50, 150):
            tb.send(bytes(6), length=2, dport=k)  # long: cut
        else:
            tb.send(bytes([k & 0xFF]), dport=k)
    for k in range(n):
        raw, tuser = await tb.sink.recv()
        assert tuser == int(k in (7, 100))
        if k in (0, n - 1):
            check_frame(
                raw,
                dst_mac=DST_MAC,
                src_mac=DEFAULT_MAC,
                src_ip=DEFAULT_IP,
                dst_ip=DST_IP,
                sport=5000,
                dport=k,
                payload=bytes([k & 0xFF]),
                ident=k,
            )
    await tb.drain()
    assert tb.cnt("cnt_tx_frames") == n - 2
    assert tb.cnt("cnt_tx_abort") == 2
    assert tb.cnt("cnt_tx_long") == 2
    assert tb.cnt("cnt_arp_miss") == 0


async def arp_stack_model(
    dut: Any, table: dict[int, int], takes: list[tuple[int, int]], cyc: Cycles
) -> None:
    """ARP as the stack's: arp_req_ready (a register) high while no lookup is in flight,
    a lookup taken in the cycle it is offered and answered in the next (ARP's answer for
    a repeated destination); records (cycle, IP) of each take."""
    dut.arp_req_ready.value = 1
    while True:
        await RisingEdge(dut.clk)
        if int(dut.arp_req_valid.value) and int(dut.arp_req_ready.value):
            ip = int(dut.arp_req_ip.value)
            takes.append((cyc.now, ip))
            dut.arp_req_ready.value = 0
            await arp_answer(dut, table, ip)
            dut.arp_req_ready.value = 1


@cocotb.test()
async def arp_lookup_timing(dut: Any) -> None:
    """Back-to-back lookups against a ready ARP answering in one cycle: wider than 8 bits
    the request reaches ARP in the header handshake's cycle (first beat 2 cycles after it,
    2 idle cycles between frames, which the 64-bit MAC's FCS, gap and preamble hide); at 8
    bits one cycle later (3 cycles, 3 idle). Misses and a given MAC in between."""
    tb = Tb(dut)
    await tb.start()
    peer, other = 0xC0000202, 0xC0000203
    known = {peer: 0x02AABBCCDDEE}
    takes: list[tuple[int, int]] = []
    cocotb.start_soon(arp_stack_model(dut, known, takes, tb.cyc))
    lead = 1 if tb.w == 8 else 0  # cycles from the handshake to ARP's take
    plan = [(peer, 0, n, True) for n in (1, 17, 64, 200, 7, 1472)]
    plan += [(other, 0, 30, False), (peer, 0, 9, True), (DST_IP, 1, 40, True), (peer, 0, 3, True)]
    await send_plan(tb, plan, known, step=5)
    looked = [k for k, p in enumerate(plan) if p[1] == 0]
    assert [ip for _, ip in takes] == [plan[k][0] for k in looked]
    for (c, _), k in zip(takes, looked, strict=True):
        assert c - tb.hdr.fired[k] == lead, f"datagram {k}: taken {c - tb.hdr.fired[k]} after"
    firsts = [b.cycle for b in tb.sink.beats if b.first]
    lasts = [b.cycle for b in tb.sink.beats if b.last]
    sent = [k for k, p in enumerate(plan) if p[3]]
    assert len(firsts) == len(sent)
    for j, k in enumerate(sent):
        want = 1 if plan[k][1] else 2 + lead
        assert firsts[j] - tb.hdr.fired[k] == want, f"datagram {k}: first beat late"
    for j in range(1, 6):  # the first six: back to back to the peer
        assert firsts[j] == lasts[j - 1] + 3 + lead, f"gap before frame {j}"
    assert tb.cnt("cnt_arp_miss") == 1
    assert tb.cnt("cnt_tx_frames") == len(sent)


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_ip_tx(data_w: int) -> None:
    from cocotb_run import run

    run("udp_ip_tx", "test_udp_ip_tx", parameters={"DATA_W": data_w})


@cocotb.test()
async def arp_fast_miss(dut: Any) -> None:
    """The fastest ARP answers (no delay): misses and hits back to back keep one
    identification per datagram (dropped ones included) and correct headers."""
    tb = Tb(dut)
    await tb.start()
    known = {0xC0000202: 0x02AABBCCDDEE}
    log: list[int] = []
    cocotb.start_soon(arp_model(dut, known, log, delay=0))
    plan = [
        (0xC0000209, 0, 3, False),
        (0xC000020A, 0, 0, False),
        (0xC0000202, 0, 7, True),
        (0xC000020B, 0, 1, False),
        (DST_IP, 1, 2, True),
        (0xC000020C, 0, 40, False),
        (0xC0000202, 0, 1, True),
    ]
    await send_plan(tb, plan, known, step=3)
    assert tb.cnt("cnt_arp_miss") == 4
    assert tb.cnt("cnt_tx_frames") == 3
