"""The virtual board's register map against the blocks it is wired to (needs root).

Over IPbus (port 50001) it checks that the counters the map shows count what the test
sent (pings answered, datagrams echoed and sent back by port 0's transmitter, datagrams
to closed ports, a packet with a bad IPv4 checksum, a frame of an unknown EtherType, an
ARP request; frames the MAC would count as bad: none), that the configuration registers
the board uses drive the blocks (NET.TTL changes the TTL of the ICMP replies; NET.ENABLES
switches off ARP answers, ICMP echo answers and the UDP checksum check, each refused
frame counted), that the generator's receive port is closed, and that the PKTGEN
registers run the generator: datagrams to an address nobody answers are counted as sent
by the generator and as ARP misses of its port (PKTGEN.ARP_MISS, the stack's counter).
"""

from __future__ import annotations

import socket
import time

from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import ARP, Ether
from wirecore import ipbus, netns
from wirecore import regmap as rm
from wirecore.vboard import VirtualBoard

PORT = 50001
ECHO_PORT = 7


def client(b: VirtualBoard) -> ipbus.Client:
    with netns.entered(b.cfg.ns):
        return ipbus.Client(b.cfg.ip, PORT, timeout=0.5, retries=10)


def reg(c: ipbus.Client, name: str) -> int:
    return c.read(rm.find(name))[0]


def regs(c: ipbus.Client, names: list[str]) -> dict[str, int]:
    return {n: reg(c, n) for n in names}


def put(c: ipbus.Client, name: str, value: int) -> None:
    c.write(rm.find(name), [value])


def ping_ttl(b: VirtualBoard, seq: int, timeout: float = 3) -> int | None:
    """One ICMP echo through a raw socket: the TTL of the reply (None: no reply)."""
    s = netns.socket_in(b.cfg.ns, socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    s.settimeout(0.2)
    try:
        s.sendto(bytes(ICMP(type=8, id=0x5151, seq=seq) / b"ttl-check"), (b.cfg.ip, 0))
        t_end = time.monotonic() + timeout
        while time.monotonic() < t_end:
            try:
                pkt, addr = s.recvfrom(65536)
            except TimeoutError:
                continue
            ip = IP(pkt)
            if addr[0] == b.cfg.ip and ICMP in ip and ip[ICMP].type == 0:
                if ip[ICMP].id == 0x5151 and ip[ICMP].seq == seq:
                    return int(ip.ttl)
        return None
    finally:
        s.close()


class Wire:
    """Frames of our own making onto the board's link (AF_PACKET on the TAP)."""

    def __init__(self, b: VirtualBoard) -> None:
        c = b.cfg
        self.b = b
        self.s = netns.socket_in(c.ns, socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
        self.s.bind((c.tap, 0))
        link = netns.run(["ip", "-n", c.ns, "-o", "link", "show", c.tap])
        self.mac = link.split("link/ether ")[1].split()[0]

    def send(self, frame: bytes) -> None:
        self.s.send(frame)

    def udp_bad_csum(self, sport: int, data: bytes) -> bytes:
        """A datagram to the echo port whose UDP checksum is wrong (payload bit flipped)."""
        c = self.b.cfg
        f = bytearray(
            bytes(
                Ether(src=self.mac, dst=c.mac)
                / IP(src=c.host_ip, dst=c.ip)
                / UDP(sport=sport, dport=ECHO_PORT)
                / data
            )
        )
        f[-1] ^= 0x01
        return bytes(f)

    def close(self) -> None:
        self.s.close()


def echo_reply(b: VirtualBoard, sock: socket.socket, timeout: float = 1.0) -> bytes | None:
    sock.settimeout(timeout)
    try:
        data, addr = sock.recvfrom(2048)
    except TimeoutError:
        return None
    assert addr == (b.cfg.ip, ECHO_PORT)
    return data


def settle(c: ipbus.Client, name: str, want: int) -> None:
    """Wait (bounded) until counter ``name`` reads ``want`` (the frame may still be on
    its way through the simulated board); the caller asserts it."""
    t_end = time.monotonic() + 5
    while reg(c, name) != want and time.monotonic() < t_end:
        time.sleep(0.05)


def test_registers_drive_and_show_the_blocks(make_board) -> None:
    b = make_board("rm")
    cfg = b.cfg
    # a permanent neighbour entry for the board: Linux never asks ARP for it, so the
    # test's ARP requests are the only ones (and IPbus works while ARP answers are off)
    netns.run(["ip", "-n", cfg.ns, "neigh", "replace", cfg.ip, "lladdr", cfg.mac,
               "nud", "permanent", "dev", cfg.tap])  # fmt: skip
    c = client(b)
    wire = Wire(b)
    with c:
        # identification and the reset values the board runs with
        assert reg(c, "SYS.ID") == 0x77697265
        assert reg(c, "SYS.VERSION") == 0x00020300
        assert reg(c, "NET.IPBUS_PORT") == 50001
        assert reg(c, "NET.PKTGEN_PORT") == 50002
        assert reg(c, "NET.ENABLES") == 0xF
        quiet = ["MAC.RX_BAD_FCS", "MAC.RX_RUNT", "MAC.RX_ER", "MAC.TX_UNDERFLOW",
                 "MAC.RX_DROPPED_FULL", "SYS.CNT_LOST"]  # fmt: skip
        c0 = regs(c, ["STACK.ICMP_ECHO", "STACK.ICMP_DROPPED", "ARP.REQ_RX", "ARP.REPLY_TX",
                      "ARP.REQ_REFUSED", "STACK.UDP_BAD_CSUM", "STACK.ECHO_DATAGRAMS",
                      "STACK.UDPTX0_TX_FRAMES", "STACK.UDPTX0_TX_ABORT", "STACK.IP_BAD_CSUM",
                      "STACK.ETH_BAD_ETHERTYPE", "STACK.UDP_CLOSED_PORT"])  # fmt: skip

        # NET.TTL drives the stack: replies carry the TTL written
        assert ping_ttl(b, 1) == 64
        put(c, "NET.TTL", 17)
        assert ping_ttl(b, 2) == 17
        put(c, "NET.TTL", 64)
        assert ping_ttl(b, 3) == 64
        assert reg(c, "STACK.ICMP_ECHO") == c0["STACK.ICMP_ECHO"] + 3

        # the echo: 6 datagrams, each turned around and sent by port 0's transmitter
        u = netns.socket_in(cfg.ns, socket.AF_INET, socket.SOCK_DGRAM)
        u.bind((cfg.host_ip, 40007))
        for n in (0, 1, 17, 100, 1000, 1472):
            data = bytes((7 * i + n) & 0xFF for i in range(n))
            u.sendto(data, (cfg.ip, ECHO_PORT))
            assert echo_reply(b, u) == data
        assert reg(c, "STACK.ECHO_DATAGRAMS") == c0["STACK.ECHO_DATAGRAMS"] + 6
        assert reg(c, "STACK.UDPTX0_TX_FRAMES") == c0["STACK.UDPTX0_TX_FRAMES"] + 6

        # a bad IPv4 header checksum and an unknown EtherType: dropped and counted
        wire.send(bytes(Ether(src=wire.mac, dst=cfg.mac) / IP(src=cfg.host_ip, dst=cfg.ip,
                                                              chksum=0x1234) / UDP()))  # fmt: skip
        wire.send(bytes(Ether(src=wire.mac, dst=cfg.mac, type=0x88CC) / (b"?" * 50)))
        settle(c, "STACK.ETH_BAD_ETHERTYPE", c0["STACK.ETH_BAD_ETHERTYPE"] + 1)
        assert reg(c, "STACK.IP_BAD_CSUM") == c0["STACK.IP_BAD_CSUM"] + 1
        assert reg(c, "STACK.ETH_BAD_ETHERTYPE") == c0["STACK.ETH_BAD_ETHERTYPE"] + 1

        # an ARP request for the board: answered and counted
        arp_req = bytes(
            Ether(src=wire.mac, dst="ff:ff:ff:ff:ff:ff")
            / ARP(op=1, hwsrc=wire.mac, psrc=cfg.host_ip, pdst=cfg.ip)
        )
        wire.send(arp_req)
        settle(c, "ARP.REPLY_TX", c0["ARP.REPLY_TX"] + 1)
        assert reg(c, "ARP.REQ_RX") == c0["ARP.REQ_RX"] + 1
        assert reg(c, "ARP.REPLY_TX") == c0["ARP.REPLY_TX"] + 1

        # a datagram with a bad UDP checksum (check on): counted, its echo aborted on the
        # wire (cut-through: the harness drops it)
        aborted0 = b.stats()["from_board_aborted"]
        wire.send(wire.udp_bad_csum(40007, b"bad checksum"))
        assert echo_reply(b, u) is None
        assert reg(c, "STACK.UDP_BAD_CSUM") == c0["STACK.UDP_BAD_CSUM"] + 1
        assert reg(c, "STACK.UDPTX0_TX_ABORT") == c0["STACK.UDPTX0_TX_ABORT"] + 1
        assert b.stats()["from_board_aborted"] == aborted0 + 1

        # NET.ENABLES: each answer off refuses its frames, and counts them
        put(c, "NET.ENABLES", 0b1000)  # ARP, ICMP echo, UDP checksum check off
        assert ping_ttl(b, 4, timeout=1) is None  # not answered ...
        assert reg(c, "STACK.ICMP_DROPPED") == c0["STACK.ICMP_DROPPED"] + 1  # ... counted
        wire.send(arp_req)
        settle(c, "ARP.REQ_REFUSED", c0["ARP.REQ_REFUSED"] + 1)
        assert reg(c, "ARP.REQ_REFUSED") == c0["ARP.REQ_REFUSED"] + 1
        assert reg(c, "ARP.REPLY_TX") == c0["ARP.REPLY_TX"] + 1  # no reply
        wire.send(wire.udp_bad_csum(40007, b"bad checksum"))  # taken as good: echoed
        reply = echo_reply(b, u)
        assert reply is not None and reply[:-1] == b"bad checksu"
        assert reg(c, "STACK.UDP_BAD_CSUM") == c0["STACK.UDP_BAD_CSUM"] + 1
        put(c, "NET.ENABLES", 0xF)
        assert ping_ttl(b, 5) == 64
        assert reg(c, "STACK.ICMP_ECHO") == c0["STACK.ICMP_ECHO"] + 4
        assert reg(c, "STACK.ICMP_DROPPED") == c0["STACK.ICMP_DROPPED"] + 1
        assert reg(c, "STACK.ECHO_DATAGRAMS") == c0["STACK.ECHO_DATAGRAMS"] + 8
        u.close()

        # the generator's port receives nothing: datagrams to it are closed-port drops
        u = netns.socket_in(cfg.ns, socket.AF_INET, socket.SOCK_DGRAM)
        for port in (50002, 50002, 50002, 9999, 9999):
            u.sendto(b"closed?", (cfg.ip, port))
        u.close()
        closed = c0["STACK.UDP_CLOSED_PORT"] + 5
        settle(c, "STACK.UDP_CLOSED_PORT", closed)
        assert reg(c, "STACK.UDP_CLOSED_PORT") == closed

        # the generator, run through its registers, to an address nobody answers
        g0 = regs(c, ["PKTGEN.SENT_PACKETS", "PKTGEN.SENT_BYTES", "PKTGEN.ARP_MISS",
                      "STACK.UDPTX2_TX_FRAMES"])  # fmt: skip
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
        assert reg(c, "PKTGEN.SENT_PACKETS") == g0["PKTGEN.SENT_PACKETS"] + 5
        assert reg(c, "PKTGEN.SENT_BYTES") == g0["PKTGEN.SENT_BYTES"] + 5 * 32
        assert reg(c, "PKTGEN.ROUND_LO") == 5
        assert reg(c, "PKTGEN.ARP_MISS") == g0["PKTGEN.ARP_MISS"] + 5
        assert reg(c, "STACK.UDPTX2_TX_FRAMES") == g0["STACK.UDPTX2_TX_FRAMES"]  # none sent

        # nothing the test sent was bad on the wire, and no counter missed an event
        assert regs(c, quiet) == dict.fromkeys(quiet, 0)
        # MAC.TX_FRAMES .. MAC.RX_FRAMES in one request, the last frame to the board
        tx_frames, _, _, tx_abort, rx_frames = c.read(rm.find("MAC.TX_FRAMES"), 5)
    wire.close()
    # the harness counted the frames each way on its own: the board's MAC saw as many
    # received (that request the last), sent good (all but the reply to that request)
    # and aborted (the echo of the bad checksum)
    st = b.stats()
    assert rx_frames == st["to_board_frames"]
    assert tx_frames + 1 == st["from_board_frames"]
    assert tx_abort == st["from_board_aborted"] == 1
    assert st["counters"]["STACK.ICMP_ECHO"] == c0["STACK.ICMP_ECHO"] + 4
