"""The virtual board's register map against the blocks it is wired to (needs root).

Over IPbus (port 50001) it checks that the counters the map shows are the blocks' own
(the same values as the top's cnt_* ports, which the harness prints), that the
configuration registers the board uses drive the blocks (NET.TTL changes the TTL of the
ICMP replies), that the generator's receive port is closed, and that the PKTGEN
registers run the generator: datagrams to an address nobody answers are counted as sent
by the generator and as ARP misses of its port (PKTGEN.ARP_MISS, the stack's counter).
"""

from __future__ import annotations

import socket
import time

from scapy.layers.inet import ICMP, IP
from wirecore import ipbus, netns
from wirecore import regmap as rm
from wirecore.vboard import VirtualBoard

PORT = 50001


def client(b: VirtualBoard) -> ipbus.Client:
    with netns.entered(b.cfg.ns):
        return ipbus.Client(b.cfg.ip, PORT, timeout=0.5, retries=10)


def reg(c: ipbus.Client, name: str) -> int:
    return c.read(rm.find(name))[0]


def put(c: ipbus.Client, name: str, value: int) -> None:
    c.write(rm.find(name), [value])


def ping_ttl(b: VirtualBoard, seq: int) -> int:
    """One ICMP echo through a raw socket: the TTL of the reply."""
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    s.settimeout(1.0)
    try:
        s.sendto(bytes(ICMP(type=8, id=0x5151, seq=seq) / b"ttl-check"), (b.cfg.ip, 0))
        t_end = time.monotonic() + 3
        while time.monotonic() < t_end:
            try:
                pkt, addr = s.recvfrom(65536)
            except TimeoutError:
                continue
            ip = IP(pkt)
            if addr[0] == b.cfg.ip and ICMP in ip and ip[ICMP].type == 0:
                if ip[ICMP].id == 0x5151 and ip[ICMP].seq == seq:
                    return int(ip.ttl)
        raise AssertionError(f"no echo reply for seq {seq}")
    finally:
        s.close()


def test_registers_drive_and_show_the_blocks(make_board) -> None:
    b = make_board("rm")
    c = client(b)
    with c:
        # identification and the reset values the board runs with
        assert reg(c, "SYS.ID") == 0x77697265
        assert reg(c, "NET.IPBUS_PORT") == 50001
        assert reg(c, "NET.PKTGEN_PORT") == 50002

        # NET.TTL drives the stack: replies carry the TTL written
        assert ping_ttl(b, 1) == 64
        put(c, "NET.TTL", 17)
        assert ping_ttl(b, 2) == 17
        put(c, "NET.TTL", 64)
        assert ping_ttl(b, 3) == 64

        # the generator's port receives nothing: datagrams to it are closed-port drops
        closed0 = reg(c, "STACK.UDP_CLOSED_PORT")
        u = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_DGRAM)
        for port in (50002, 50002, 50002, 9999, 9999):
            u.sendto(b"closed?", (b.cfg.ip, port))
        u.close()
        t_end = time.monotonic() + 5
        while reg(c, "STACK.UDP_CLOSED_PORT") != closed0 + 5 and time.monotonic() < t_end:
            time.sleep(0.05)
        assert reg(c, "STACK.UDP_CLOSED_PORT") == closed0 + 5

        # the generator, run through its registers, to an address nobody answers
        miss0 = reg(c, "PKTGEN.ARP_MISS")
        put(c, "PKTGEN.DEST_IP0", 0xC000024D)  # 192.0.2.77: no host
        put(c, "PKTGEN.DEST_PORT0", 9)
        put(c, "PKTGEN.LENGTH", 32)
        put(c, "PKTGEN.COUNT", 5)
        put(c, "PKTGEN.GAP", 100)
        put(c, "PKTGEN.NUM_DEST", 1)
        put(c, "PKTGEN.WARMUP_MS", 0)
        put(c, "PKTGEN.CTRL", 1)
        t_end = time.monotonic() + 5
        while reg(c, "PKTGEN.STATUS") != 0 and time.monotonic() < t_end:
            time.sleep(0.05)
        assert reg(c, "PKTGEN.STATUS") == 0
        assert reg(c, "PKTGEN.SENT_PACKETS") == 5
        assert reg(c, "PKTGEN.SENT_BYTES") == 5 * 32
        assert reg(c, "PKTGEN.ROUND_LO") == 5
        assert reg(c, "PKTGEN.ARP_MISS") == miss0 + 5
        assert reg(c, "STACK.UDPTX_ARP_MISS") == miss0 + 5

        # counters no IPbus exchange changes: the map shows the top's own cnt_* values
        names = {
            "STACK.ICMP_ECHO": "cnt_icmp_replies",
            "STACK.UDP_CLOSED_PORT": "cnt_udp_closed_port",
            "STACK.UDPTX_ARP_MISS": "cnt_udp_tx_arp_miss",
            "STACK.IP_BAD_CSUM": "cnt_ip_bad_csum",
            "MAC.TX_UNDERFLOW": "cnt_mac_tx_underflow",
            "MAC.RX_BAD_FCS": "cnt_mac_rx_bad_fcs",
            "PKTGEN.SENT_PACKETS": "cnt_pktgen_sent_packets",
            "PKTGEN.SENT_BYTES": "cnt_pktgen_sent_bytes",
        }
        seen = {n: reg(c, n) for n in names}
    cnt = b.stats()["counters"]
    for n, port in names.items():
        assert seen[n] == cnt[port], f"{n} = {seen[n]}, {port} = {cnt[port]}"
    assert cnt["cnt_icmp_replies"] == 3
    assert cnt["cnt_mac_tx_underflow"] == 0
