"""udp_echo_node: the smallest complete design (MAC + FIFO + stack + UDP echo) on GMII.

cocotbext-eth drives the GMII receive side and captures the transmit side; scapy builds
every request and parses every reply (FCS checked by cocotbext-eth). Checked: the
gratuitous ARP at start, an ARP reply, ICMP echo replies, UDP echo of several sizes
(checksum zero or computed, by configuration), no reply to a frame with a bad FCS nor to
a burst of runts and bad frames at line rate, an ICMP port unreachable when that option is
built, no ICMP echo reply (pings counted as dropped) when the responder is left out
(ICMP_ECHO = 0), and the counters, including their wrap at CNT_W bits and the MAC's byte
counts, read one by one through the read port of the node's stat_counters, in flip-flops
(COUNTERS = 1) or in RAM (COUNTERS = 2): the same expected values, exactly, with reads
during the burst.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, with_timeout
from cocotbext.eth import GmiiFrame, GmiiSink, GmiiSource
from scapy.layers.inet import ICMP, IP, UDP, IPerror, UDPerror
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw

MAC = "02:00:00:00:00:01"
IPA = "192.0.2.1"
PEER_MAC = "02:00:00:00:00:99"
PEER_IP = "192.0.2.77"
PEER2_MAC = "02:00:00:00:00:98"
PEER2_IP = "192.0.2.78"
ECHO_PORT = 7
# counter indices of the read port (see the module header)
MAC_RX_FRAMES, MAC_RX_BAD_FCS, ICMP_REPLIES, UNREACH_SENT, ARP_REQ_RX, ECHOED = 4, 6, 30, 34, 36, 57
ICMP_DROPPED = 32
IP_TRUNCATED = 23
UDP_CLOSED = 26
MAC_TX_FRAMES, MAC_TX_BYTES, MAC_RX_BYTES, IP_RX_PACKETS, UDP_RX_DATAGRAMS = 0, 1, 5, 15, 24
ETH_RX_FRAMES, ARP_REPLY_TX, ARP_GARP_TX, TX_FRAMES, UDP_TX_FRAMES = 11, 37, 39, 49, 52
MAC_RX_RUNT = 7
ARP_REQ_TX, ARP_REPLY_RX, ARP_HIT, ARP_MISS, UDP_TX_ARP_MISS = 38, 40, 43, 44, 55
ARP_REQ_REFUSED = 59
NCNT = 60
N_BURST = 12  # runts and bad-FCS frames sent back to back


async def read_meanwhile(dut, stop: list[bool]) -> int:
    """Read random counters, one read every third cycle (with COUNTERS = 2 the rate the
    node documents as exact), checking the read port's 2-cycle latency; returns the
    reads."""
    rng = random.Random(11)
    n = 0
    while not stop[0]:
        await FallingEdge(dut.clk)
        dut.cnt_rd_en.value = 1
        dut.cnt_rd_addr.value = rng.randrange(NCNT)
        await FallingEdge(dut.clk)
        dut.cnt_rd_en.value = 0
        assert not int(dut.cnt_rd_valid.value)
        await FallingEdge(dut.clk)
        assert int(dut.cnt_rd_valid.value)
        n += 1
    return n


def mac_int(m: str) -> int:
    return int(m.replace(":", ""), 16)


def ip_int(a: str) -> int:
    return int.from_bytes(bytes(int(x) for x in a.split(".")), "big")


async def read_counters(dut) -> list[int]:
    """Every counter through the read port, back to back, checking the port's 2-cycle
    latency."""
    await FallingEdge(dut.clk)
    assert not int(dut.cnt_busy.value)
    got: list[int] = []
    for i in range(NCNT + 1):
        # read i asked in this cycle; read i - 1's answer shows after the next edge
        dut.cnt_rd_en.value = int(i < NCNT)
        dut.cnt_rd_addr.value = i % NCNT
        await FallingEdge(dut.clk)
        if i >= 1:
            assert int(dut.cnt_rd_valid.value)
            got.append(int(dut.cnt_rd_data.value))
    await FallingEdge(dut.clk)
    assert not int(dut.cnt_rd_valid.value)
    assert not int(dut.cnt_lost.value), "the counter RAM lost an event"
    return got


def checksums_ok(e: Ether) -> bool:
    """Recompute the IPv4, ICMP and UDP checksums with scapy and compare (UDP 0 = none)."""
    again = Ether(bytes(e))
    del again[IP].chksum
    ok = Ether(bytes(again))[IP].chksum == e[IP].chksum
    if ICMP in e:
        again = Ether(bytes(e))
        del again[ICMP].chksum
        ok = ok and Ether(bytes(again))[ICMP].chksum == e[ICMP].chksum
    if UDP in e and e[UDP].chksum != 0:
        again = Ether(bytes(e))
        del again[UDP].chksum
        ok = ok and Ether(bytes(again))[UDP].chksum == e[UDP].chksum
    return ok


TX_BYTES: list[int] = []  # length of every frame sent by the node, FCS included


async def reply(sink: GmiiSink) -> Ether:
    fr = await with_timeout(sink.recv(), 200, "us")  # a 1518-byte frame takes 12 us
    assert fr.check_fcs(), "bad FCS on a transmitted frame"
    assert not any(fr.error or []), "gmii_tx_er on a transmitted frame"
    TX_BYTES.append(len(fr.get_payload()) + 4)
    return Ether(fr.get_payload())


@cocotb.test()
async def node_end_to_end(dut) -> None:
    csum_mode = int(os.environ["ECHO_CSUM_MODE"])
    unreach = int(os.environ["ICMP_UNREACH"])
    echo = int(os.environ["ICMP_ECHO"])
    wrap = 1 << int(os.environ["CNT_W"])
    echo_arp = int(os.environ["ECHO_ARP"])
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    src = GmiiSource(dut.gmii_rxd, dut.gmii_rx_er, dut.gmii_rx_dv, dut.clk)
    rx_bytes = 0  # good frames received, FCS included

    async def send(payload: bytes) -> None:
        nonlocal rx_bytes
        f = GmiiFrame.from_payload(payload)
        rx_bytes += len(f.get_payload()) + 4
        await src.send(f)

    TX_BYTES.clear()
    dut.cnt_rd_en.value = 0
    dut.cnt_rd_addr.value = 0
    dut.rst.value = 1
    dut.tick_1ms.value = 0
    dut.cfg_mac.value = mac_int(MAC)
    dut.cfg_ip.value = ip_int(IPA)
    dut.cfg_netmask.value = ip_int("255.255.255.0")
    dut.cfg_gateway.value = ip_int("192.0.2.254")
    dut.cfg_echo_port.value = ECHO_PORT
    dut.cfg_unreach_per_ms.value = 100
    await ClockCycles(dut.clk, 10)
    # the transmit side is watched once reset has defined it
    sink = GmiiSink(dut.gmii_txd, dut.gmii_tx_er, dut.gmii_tx_en, dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)

    # the gratuitous ARP announcement after reset, once the address has held for 2 ms
    # (the millisecond strobe comes faster here: its period is the design's input)
    for _ in range(3):
        await ClockCycles(dut.clk, 20)
        dut.tick_1ms.value = 1
        await RisingEdge(dut.clk)
        dut.tick_1ms.value = 0
    g = await reply(sink)
    assert g[ARP].psrc == IPA and g[ARP].pdst == IPA and g[ARP].hwsrc == MAC

    # ARP request -> reply
    req = Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(
        op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=IPA
    )
    await send(bytes(req))
    r = await reply(sink)
    assert r.dst == PEER_MAC and r.src == MAC
    assert r[ARP].op == 2 and r[ARP].hwsrc == MAC and r[ARP].psrc == IPA
    assert r[ARP].hwdst == PEER_MAC and r[ARP].pdst == PEER_IP

    # ICMP echo of a few sizes (without the responder: no reply; the next reply awaited,
    # the UDP echo's, would then not parse as one)
    for n, size in enumerate((0, 56, 1000)):
        data = bytes((i * 7 + n) & 0xFF for i in range(size))
        ping = Ether(dst=MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=IPA) / ICMP(id=9, seq=n) / data
        await send(bytes(ping))
        if not echo:
            continue
        r = await reply(sink)
        assert r.dst == PEER_MAC and r[IP].src == IPA and r[IP].dst == PEER_IP
        assert r[ICMP].type == 0 and r[ICMP].id == 9 and r[ICMP].seq == n
        assert bytes(r[ICMP].payload)[:size] == data
        assert checksums_ok(r)

    if not echo:
        # without the responder, hostile ICMP is consumed whole and counted like any
        # other message, with no reply and no hang: a bad ICMP checksum, and a message
        # whose IP total length (200) runs past the end of its frame (truncated)
        bad_ck = (
            Ether(dst=MAC, src=PEER_MAC)
            / IP(src=PEER_IP, dst=IPA)
            / ICMP(id=9, seq=7, chksum=0x1234)
            / bytes(40)
        )
        await send(bytes(bad_ck))
        trunc = Ether(dst=MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=IPA, len=200) / ICMP()
        await send(bytes(trunc / bytes(40)))

    # UDP echo
    sizes = (0, 1, 18, 100, 1472)
    for n, size in enumerate(sizes):
        data = bytes((i * 13 + n) & 0xFF for i in range(size))
        d = (
            Ether(dst=MAC, src=PEER_MAC)
            / IP(src=PEER_IP, dst=IPA)
            / UDP(sport=40000 + n, dport=ECHO_PORT)
            / Raw(data)
        )
        await send(bytes(d))
        r = await reply(sink)
        assert r.dst == PEER_MAC and r.src == MAC
        assert r[IP].src == IPA and r[IP].dst == PEER_IP
        assert r[UDP].sport == ECHO_PORT and r[UDP].dport == 40000 + n
        assert r[UDP].len == 8 + size
        assert bytes(r[UDP].payload)[:size] == data
        assert (r[UDP].chksum != 0) == (csum_mode == 1)
        assert checksums_ok(r)

    # a datagram from a station the node has not heard from: echoed to its source MAC,
    # or with ECHO_ARP the echo's lookup misses: the datagram is dropped (counted) and a
    # broadcast request for the station goes out; once it has answered, the datagram
    # sent again is echoed to the MAC it gave
    d2 = (
        Ether(dst=MAC, src=PEER2_MAC)
        / IP(src=PEER2_IP, dst=IPA)
        / UDP(sport=5555, dport=ECHO_PORT)
        / Raw(b"second station")
    )
    await send(bytes(d2))
    if echo_arp:
        r = await reply(sink)
        assert r.dst == "ff:ff:ff:ff:ff:ff" and r.src == MAC
        assert r[ARP].op == 1 and r[ARP].psrc == IPA and r[ARP].pdst == PEER2_IP
        ans = Ether(dst=MAC, src=PEER2_MAC) / ARP(
            op=2, hwsrc=PEER2_MAC, psrc=PEER2_IP, hwdst=MAC, pdst=IPA
        )
        await send(bytes(ans))
        await ClockCycles(dut.clk, 200)
        await send(bytes(d2))
    r = await reply(sink)
    assert r.dst == PEER2_MAC and r.src == MAC
    assert r[IP].src == IPA and r[IP].dst == PEER2_IP and r[UDP].dport == 5555
    assert bytes(r[UDP].payload)[:14] == b"second station" and r[UDP].len == 8 + 14
    assert checksums_ok(r)

    # a frame with a bad FCS: dropped by the MAC, counted, no reply
    d = bytes(Ether(dst=MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=IPA) / UDP(dport=ECHO_PORT))
    bad = bytearray(GmiiFrame.from_payload(d).data)
    bad[-1] ^= 0xFF
    await src.send(GmiiFrame(bad))

    # a datagram to a closed port: port unreachable when built, else only counted
    d = bytes(
        Ether(dst=MAC, src=PEER_MAC)
        / IP(src=PEER_IP, dst=IPA)
        / UDP(sport=1234, dport=9)
        / Raw(b"closed")
    )
    await send(d)
    if unreach:
        r = await reply(sink)
        assert r[ICMP].type == 3 and r[ICMP].code == 3 and checksums_ok(r)
        assert r[IPerror].src == PEER_IP and r[IPerror].dst == IPA
        assert (r[UDPerror].sport, r[UDPerror].dport) == (1234, 9)
    await ClockCycles(dut.clk, 3000)
    assert sink.empty(), "a reply to a frame that should have been dropped"

    # a burst at line rate: runts (8 bytes) and bad-FCS frames back to back, no reply;
    # counters are read meanwhile (one cycle in three)
    stop = [False]
    reader = cocotb.start_soon(read_meanwhile(dut, stop))
    runt = bytes(GmiiFrame.from_payload(d).data[: 8 + 8])
    for f in [runt] * N_BURST + [bytes(bad)] * N_BURST:  # a runt every 28 cycles
        await src.send(GmiiFrame(f))
    await src.wait()
    await ClockCycles(dut.clk, 300)
    stop[0] = True
    assert await reader > 100
    assert sink.empty(), "a reply to a runt or a bad frame"

    c = await read_counters(dut)
    hostile = 2 * (1 - echo)  # the bad-checksum and truncated ICMP messages
    n_dg = len(sizes) + 1 + echo_arp  # datagrams to the echo (the second station's twice)
    # good frames in: ARP, pings, datagrams, closed, the second station's ARP reply
    n_rx = 1 + 3 + hostile + n_dg + 1 + echo_arp
    # out: GARP, ARP reply, ICMP echo replies, UDP, port unreachable, ARP request
    n_tx = 2 + 3 * echo + len(sizes) + 1 + unreach + echo_arp
    assert len(TX_BYTES) == n_tx
    want = {
        MAC_RX_FRAMES: n_rx,
        MAC_RX_BYTES: rx_bytes,
        MAC_RX_BAD_FCS: 1 + N_BURST,
        MAC_RX_RUNT: N_BURST,
        MAC_TX_FRAMES: n_tx,
        MAC_TX_BYTES: sum(TX_BYTES),
        ETH_RX_FRAMES: n_rx,
        IP_RX_PACKETS: 3 + hostile + n_dg + 1,
        IP_TRUNCATED: 1 - echo,
        UDP_RX_DATAGRAMS: n_dg + 1,
        ARP_REQ_RX: 1,
        ARP_REPLY_TX: 1,
        ARP_GARP_TX: 1,
        ICMP_REPLIES: 3 * echo,
        ICMP_DROPPED: (3 + 2) * (1 - echo),
        ECHOED: n_dg,
        UDP_TX_FRAMES: len(sizes) + 1,
        ARP_REQ_TX: echo_arp,
        ARP_REPLY_RX: echo_arp,
        ARP_HIT: (len(sizes) + 1) * echo_arp,
        ARP_MISS: echo_arp,
        UDP_TX_ARP_MISS: echo_arp,
        TX_FRAMES: n_tx,
        UDP_CLOSED: 1,
        UNREACH_SENT: unreach,
        ARP_REQ_REFUSED: 0,
    }
    for i, v in want.items():
        assert c[i] == v % wrap, f"counter {i}: {c[i]}, want {v % wrap}"


@pytest.mark.parametrize(
    ("csum_mode", "tx_buf", "echo", "unreach", "cnt_w", "counters", "echo_arp"),
    [
        (0, 0, 1, 0, 3, 1, 0),
        (1, 2048, 1, 1, 32, 1, 0),
        (0, 0, 0, 1, 8, 1, 0),
        (0, 0, 1, 0, 3, 2, 0),
        (1, 2048, 1, 1, 32, 2, 0),
        (0, 0, 0, 1, 8, 2, 0),
        (0, 0, 0, 0, 32, 1, 1),
        (1, 2048, 1, 1, 8, 2, 1),
    ],
    ids=[
        "lean",
        "full",
        "no_icmp_echo",
        "lean-ram",
        "full-ram",
        "no_icmp_echo-ram",
        "reference-features-arp",
        "full-ram-arp",
    ],
)
def test_udp_echo_node(
    csum_mode: int, tx_buf: int, echo: int, unreach: int, cnt_w: int, counters: int, echo_arp: int
) -> None:
    import cocotb_run

    params = {
        "ECHO_CSUM_MODE": csum_mode,
        "TX_BUF_BYTES": tx_buf,
        "ICMP_ECHO": echo,
        "ICMP_UNREACH": unreach,
        "CNT_W": cnt_w,
        "COUNTERS": counters,
        "ECHO_ARP": echo_arp,
    }
    cocotb_run.run(
        "udp_echo_node",
        "test_udp_echo_node",
        parameters=params,
        extra_env={k: str(v) for k, v in params.items()},
        test_dir=Path(__file__).parent,
    )
