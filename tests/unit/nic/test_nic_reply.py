"""nic_reply: result payloads turned into UDP/IPv4 replies to the requests' senders.

Requests are scapy-built frames driven on the watch port (s_req_*) with a req_accept
strobe in the cycle of their last beat or some cycles after it; results are payloads on
s_res_axis_*. Every reply is parsed by scapy and checked field by field against the
request that produced it (addresses and ports swapped, our MAC and IP as source, TTL, DF,
identification counting up) and its IPv4 and UDP checksums against scapy's own; results
that must be dropped (bad, no good request, too long, longer than the FIFO), requests
lost to a full queue, and counters are checked exactly.
"""

from __future__ import annotations

import os
import random
from typing import Any

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from scapy.layers.inet import ICMP, IP, TCP, UDP, IPOption_EOL, IPOption_NOP
from scapy.layers.l2 import ARP, Ether
from unit.cnt_ev_mon import EvMon
from unit.udp.txutil import (
    Cycles,
    FrameSink,
    PayloadSource,
    ip_str,
    mac_str,
    random_pause,
    reset,
    start_clock,
    wait_cycles,
)

MY_MAC = 0x02AB00000001
MY_IP = 0xC0000201  # 192.0.2.1
TTL = 61
MAX_PAYLOAD = int(os.environ.get("TEST_MAX_PAYLOAD", "1472"))
PAY_DEPTH = int(os.environ.get("TEST_PAY_DEPTH", "2048"))
EVENTS = ["sent", "drop_bad", "drop_no_addr", "drop_long", "req_lost"]


def request(k: int, payload_len: int = 24) -> bytes:
    """A good UDP/IPv4 request from sender k."""
    return bytes(
        Ether(src=f"02:00:00:00:10:{k:02x}", dst=mac_str(MY_MAC))
        / IP(src=f"198.51.100.{10 + k}", dst=ip_str(MY_IP))
        / UDP(sport=40000 + k, dport=7000 + k)
        / bytes((k + j) & 0xFF for j in range(payload_len))
    )


class Bench:
    def __init__(self, dut: Any, df: int = 1, pause: Any = None) -> None:
        self.dut = dut
        dut.cfg_mac.value = MY_MAC
        dut.cfg_ip.value = MY_IP
        dut.cfg_ttl.value = TTL
        dut.cfg_df.value = df
        dut.s_req_tvalid.value = 0
        dut.s_req_tlast.value = 0
        dut.s_req_tuser.value = 0
        dut.s_req_tdata.value = 0
        dut.req_accept.value = 0
        self.res = PayloadSource(dut, "s_res_axis", 8)
        self.sink = FrameSink(dut, "m_axis", Cycles(dut), pause)

    async def start(self) -> EvMon:
        await start_clock(self.dut)
        await reset(self.dut)
        return EvMon(self.dut, EVENTS)

    async def req(self, frame: bytes, accept: bool = True, delay: int = 1, bad: int = 0) -> None:
        """Drive a request frame on the watch port (one beat per cycle) and strobe
        req_accept `delay` cycles after its last beat (0: in that beat's cycle)."""
        d = self.dut
        for i, b in enumerate(frame):
            last = i == len(frame) - 1
            d.s_req_tdata.value = b
            d.s_req_tvalid.value = 1
            d.s_req_tlast.value = int(last)
            d.s_req_tuser.value = int(last and bad)
            d.req_accept.value = int(last and accept and delay == 0)
            await RisingEdge(d.clk)
        d.s_req_tvalid.value = 0
        d.s_req_tlast.value = 0
        d.s_req_tuser.value = 0
        d.req_accept.value = 0
        if accept and delay:
            for _ in range(delay - 1):
                await RisingEdge(d.clk)
            d.req_accept.value = 1
            await RisingEdge(d.clk)
            d.req_accept.value = 0

    async def replies(self, n: int) -> list[Ether]:
        out = []
        for _ in range(n):
            data, tuser = await self.sink.recv()
            assert tuser == 0
            out.append(Ether(data))
        return out


def check_reply(rep: Ether, req: bytes, payload: bytes, ident: int, df: int = 1) -> None:
    q = Ether(req)
    assert rep.dst == q.src and rep.src == mac_str(MY_MAC) and rep.type == 0x0800
    ip = rep[IP]
    assert ip.src == ip_str(MY_IP) and ip.dst == q[IP].src
    assert ip.ihl == 5 and ip.tos == 0 and ip.ttl == TTL and ip.proto == 17
    assert ip.flags == (2 if df else 0) and ip.frag == 0 and ip.id == ident
    assert ip.len == 28 + len(payload)
    udp = rep[UDP]
    assert udp.sport == q[UDP].dport and udp.dport == q[UDP].sport
    assert udp.len == 8 + len(payload) and bytes(udp.payload) == payload
    assert len(bytes(rep)) == 42 + len(payload), "bytes after the datagram"
    # checksums: scapy recomputes them from the fields
    fresh = Ether(bytes(rep))
    del fresh[IP].chksum
    del fresh[UDP].chksum
    fresh = Ether(bytes(fresh))
    assert ip.chksum == fresh[IP].chksum, "IPv4 header checksum"
    assert udp.chksum == fresh[UDP].chksum, f"UDP checksum {udp.chksum:#x}, {fresh[UDP].chksum:#x}"


@cocotb.test()
async def replies_to_each_sender(dut: Any) -> None:
    """Requests from several senders, accepted in the last beat's cycle or later, then
    their results of every length (odd, even, empty, the largest): each reply goes to its
    request's sender in order, checksums right, identification counting; backpressure."""
    tb = Bench(dut, pause=random_pause(3, 0.3))
    ev = await tb.start()
    rng = random.Random(5)
    lens = [n for n in (0, 1, 2, 7, 8, 63, 200, 513, MAX_PAYLOAD, 1, 17) if n <= MAX_PAYLOAD]
    reqs = []
    ident = 0
    for group in range(0, len(lens), 3):
        chunk = lens[group : group + 3]
        for j, _n in enumerate(chunk):
            k = group + j
            reqs.append(request(k, rng.randrange(0, 60)))
            await tb.req(reqs[-1], delay=[0, 1, 40][j])
        payloads = [bytes(rng.randrange(256) for _ in range(n)) for n in chunk]
        for p in payloads:
            tb.res.send(p, gap_prob=0.2)
        for j, rep in enumerate(await tb.replies(len(chunk))):
            check_reply(rep, reqs[group + j], payloads[j], ident)
            ident += 1
    await wait_cycles(dut, 5)
    assert ev.sums == [len(lens), 0, 0, 0, 0]


@cocotb.test()
async def requests_without_good_address(dut: Any) -> None:
    """Results of requests that were bad (tuser), too short, not IPv4, not UDP, IPv4 with
    options, or fragments are dropped and counted; the good ones around them answered."""
    tb = Bench(dut, df=0)
    ev = await tb.start()
    good0, good1 = request(1), request(2)
    nops = [IPOption_NOP(), IPOption_NOP(), IPOption_NOP(), IPOption_EOL()]  # IHL 6
    ip_opts = Ether() / IP(src="198.51.100.3", dst="192.0.2.1", options=nops) / UDP()
    bad_reqs = [
        (request(4), 1),  # bad frame
        (request(5)[:41], 0),  # 41 bytes: the header is cut short
        (bytes(Ether(src="02:00:00:00:10:06") / ARP(pdst="192.0.2.1")), 0),
        (bytes(Ether() / IP(src="198.51.100.7", dst="192.0.2.1") / TCP()), 0),
        (bytes(Ether() / IP(src="198.51.100.8", dst="192.0.2.1") / ICMP()), 0),
        (bytes(Ether(bytes(ip_opts))), 0),
        (bytes(Ether() / IP(src="198.51.100.9", dst="192.0.2.1", flags=1) / UDP()), 0),
        (bytes(Ether() / IP(src="198.51.100.9", dst="192.0.2.1", frag=5) / UDP()), 0),
    ]
    ident = 0
    for frame, bad in bad_reqs:
        await tb.req(good0, delay=3)
        await tb.req(frame, delay=3, bad=bad)
        await tb.req(good1, delay=3)
        for p in (b"first", b"dropped", b"third!"):
            tb.res.send(p)
        r0, r1 = await tb.replies(2)
        check_reply(r0, good0, b"first", ident, df=0)
        check_reply(r1, good1, b"third!", ident + 1, df=0)
        ident += 2
    await wait_cycles(dut, 5)
    assert ev.sums == [2 * len(bad_reqs), 0, len(bad_reqs), 0, 0]


@cocotb.test()
async def bad_and_long_results(dut: Any) -> None:
    """A bad result (tuser), one over MAX_PAYLOAD and one longer than the FIFO are
    dropped and counted, each taking its request's address with it; the next result goes
    to the next request's sender. A result with no request queued is dropped too."""
    tb = Bench(dut)
    ev = await tb.start()
    reqs = [request(k) for k in range(4)]
    for r in reqs:
        await tb.req(r)
    tb.res.send(b"x" * 30, tuser=1)
    tb.res.send(bytes(j & 0xFF for j in range(MAX_PAYLOAD + 1)))
    tb.res.send(b"y" * (PAY_DEPTH + 10))
    tb.res.send(b"fourth")
    (rep,) = await tb.replies(1)
    check_reply(rep, reqs[3], b"fourth", 0)
    tb.res.send(b"nobody asked")
    await wait_cycles(dut, 80)
    while not tb.res.idle():
        await RisingEdge(dut.clk)
    await wait_cycles(dut, 10)
    assert tb.sink.count() == 0
    assert ev.sums == [1, 1, 1, 2, 0]


@cocotb.test()
async def queue_full(dut: Any) -> None:
    """Five accepted requests before any result: the fifth is lost (counted); the four
    results go to the first four senders."""
    tb = Bench(dut)
    ev = await tb.start()
    reqs = [request(k) for k in range(5)]
    for r in reqs:
        await tb.req(r)
    payloads = [bytes([k]) * (k + 3) for k in range(4)]
    for p in payloads:
        tb.res.send(p)
    for k, rep in enumerate(await tb.replies(4)):
        check_reply(rep, reqs[k], payloads[k], k)
    await wait_cycles(dut, 5)
    assert ev.sums == [4, 0, 0, 0, 1]


@pytest.mark.parametrize(("depth", "max_payload"), [(2048, 1472), (512, 100)])
def test_nic_reply(depth: int, max_payload: int) -> None:
    from cocotb_run import run

    run(
        "nic_reply",
        "test_nic_reply",
        parameters={"PAY_DEPTH": depth, "MAX_PAYLOAD": max_payload},
        extra_env={"TEST_MAX_PAYLOAD": str(max_payload), "TEST_PAY_DEPTH": str(depth)},
    )
