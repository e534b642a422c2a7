"""wirecore.wire: the reader of the board's wire pcap, against pcaps that scapy writes with
known stamps (the cycles are chosen here; the expected figures are worked out by hand)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw
from scapy.utils import PcapWriter
from wirecore import wire
from wirecore.wire import Direction

BOARD = "02:00:00:00:00:02"
PC = "0a:1b:2c:3d:4e:5f"


def udp_frame(src: str, dst: str, n: int, sport: int = 50002, dport: int = 40000) -> bytes:
    to_board = dst == BOARD
    ips = ("192.0.2.1", "192.0.2.2") if to_board else ("192.0.2.2", "192.0.2.1")
    pkt = Ether(src=src, dst=dst) / IP(src=ips[0], dst=ips[1]) / UDP(sport=sport, dport=dport)
    return bytes(pkt / Raw(bytes(range(256)) * (n // 256) + bytes(range(n % 256))))


def write(path: Path, frames: list[tuple[int, bytes]], nano: bool = True, endian: str = "") -> None:
    """frames: (stamp in ns, frame bytes)."""
    w = PcapWriter(str(path), linktype=1, nano=nano, endianness=endian, sync=True)
    for t, f in frames:
        p = Ether(f)
        p.time = Decimal(t) / Decimal(10**9)
        w.write(p)
    w.close()


def test_records_directions_stamps_and_udp(tmp_path: Path) -> None:
    # three generator frames of 1514 bytes back to back at the minimum gap (1526 + 12
    # cycles apart), then an ARP request to the board (42 bytes: 72 cycles on the wire,
    # the frame padded to 60) 100 idle cycles later, then a 64-byte UDP echo request
    big = udp_frame(BOARD, PC, 1472)
    assert len(big) == 1514
    arp = bytes(Ether(src=PC, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc="192.0.2.1", pdst="192.0.2.2"))
    assert len(arp) == 42
    req = udp_frame(PC, BOARD, 64, sport=33333, dport=7)
    c0 = 1_000_003  # any cycle
    cyc = [c0, c0 + 1538, c0 + 2 * 1538, c0 + 3 * 1538 + 100]
    cyc.append(cyc[3] + 72 + 40)
    frames = [big, big, big, arp, req]
    path = tmp_path / "w.pcap"
    write(path, [(c * 8, f) for c, f in zip(cyc, frames, strict=True)])
    recs = wire.read(path, BOARD)
    assert [r.t_ns for r in recs] == [c * 8 for c in cyc]
    assert [r.cycle for r in recs] == cyc
    assert [r.frame for r in recs] == frames
    want_dir = [Direction.FROM_BOARD] * 3 + [Direction.TO_BOARD] * 2
    assert [r.direction for r in recs] == want_dir
    assert [r.cycles for r in recs] == [1526, 1526, 1526, 72, 8 + 106 + 4]
    assert recs[0].last_byte_ns == (c0 + 1525) * 8
    assert recs[3].last_byte_ns == (cyc[3] + 71) * 8
    assert wire.spacing_cycles(recs) == [1538, 1538, 1538 + 100, 112]
    assert wire.idle_cycles(recs) == [12, 12, 112, 40]
    assert wire.histogram(wire.idle_cycles(recs)) == {12: 2, 40: 1, 112: 1}
    u = recs[4].udp()
    assert u is not None
    assert (u.src_ip, u.dst_ip, u.src_port, u.dst_port) == ("192.0.2.1", "192.0.2.2", 33333, 7)
    assert u.payload == bytes(range(64))
    assert recs[3].udp() is None and recs[3].ipv4() is None
    r = wire.rate(wire.of(recs, Direction.FROM_BOARD))
    # two intervals of 1538 cycles carry the 2nd and 3rd frames: exactly the line rate
    assert r.frames == 3 and r.span_ns == 2 * 1538 * 8
    assert r.line_fraction == 1.0
    assert r.frames_per_s == pytest.approx(2 / (2 * 1538 * 8e-9))
    assert r.bytes_per_s == pytest.approx(2 * 1514 / (2 * 1538 * 8e-9))
    assert wire.simulated_time(wire.parse_header(path.read_bytes()), recs)


def test_padding_and_icmp(tmp_path: Path) -> None:
    # a frame padded by the sender (Ethernet trailer after the IP datagram): the UDP payload
    # is cut to the IP total length; an ICMP echo request and its reply
    short = bytes(Ether(src=PC, dst=BOARD) / IP(src="192.0.2.1", dst="192.0.2.2") / UDP() / b"x")
    padded = short + b"\x00" * (60 - len(short))
    ping = bytes(Ether(src=PC, dst=BOARD) / IP() / ICMP(type=8, id=0x1234, seq=7) / (b"p" * 56))
    pong = bytes(Ether(src=BOARD, dst=PC) / IP() / ICMP(type=0, id=0x1234, seq=7) / (b"p" * 56))
    path = tmp_path / "p.pcap"
    write(path, [(800, padded), (8000, ping), (16000, pong)])
    recs = wire.read(path, wire.mac_bytes(BOARD))
    u = recs[0].udp()
    assert u is not None and u.payload == b"x"
    ip = recs[0].ipv4()
    assert ip is not None and ip[0] == 17 and len(ip[3]) == 8 + 1  # the trailer cut off
    assert recs[0].cycles == 72
    assert recs[1].icmp_echo() == (8, 0x1234, 7)
    assert recs[2].icmp_echo() == (0, 0x1234, 7)
    assert recs[0].icmp_echo() is None


@pytest.mark.parametrize("endian", ["<", ">"])
def test_microsecond_and_big_endian_pcaps(tmp_path: Path, endian: str) -> None:
    f = udp_frame(BOARD, PC, 100)
    wall = 1_700_000_000_123_456_000  # a wall-clock stamp in ns (µs resolution)
    path = tmp_path / "u.pcap"
    write(path, [(wall, f), (wall + 5000, f)], nano=False, endian=endian)
    hdr = wire.parse_header(path.read_bytes())
    assert not hdr.nanosecond and hdr.linktype == 1
    recs = wire.read(path, BOARD)
    assert [r.t_ns for r in recs] == [wall, wall + 5000]
    assert not wire.simulated_time(hdr, recs)
    path2 = tmp_path / "n.pcap"
    write(path2, [(wall, f)], nano=True, endian=endian)
    hdr2 = wire.parse_header(path2.read_bytes())
    assert hdr2.nanosecond
    assert not wire.simulated_time(hdr2, wire.read(path2, BOARD)), "1970 only is simulated"


def test_tail_reads_whole_records_only(tmp_path: Path) -> None:
    frames = [(i * 2000 * 8, udp_frame(BOARD, PC, 200 + i)) for i in range(5)]
    whole = tmp_path / "whole.pcap"
    write(whole, frames)
    data = whole.read_bytes()
    sizes = [16 + len(f) for _, f in frames]
    cut = 24 + sizes[0] + sizes[1] + 16 + 30  # two records, the third's header and 30 bytes
    path = tmp_path / "live.pcap"
    path.write_bytes(data[:cut])
    t = wire.Tail(path, BOARD)
    got = t.read()
    assert [r.frame for r in got] == [f for _, f in frames[:2]]
    assert t.read() == []
    path.write_bytes(data[: 24 + sum(sizes[:4])])
    got = t.read()
    assert [r.t_ns for r in got] == [frames[2][0], frames[3][0]]
    # a new follower marks the end: it sees only what comes after
    t2 = wire.Tail(path, BOARD)
    assert t2.mark() == 24 + sum(sizes[:4])
    path.write_bytes(data)
    assert [r.frame for r in t2.read()] == [frames[4][1]]
    assert [r.frame for r in t.read()] == [frames[4][1]]


def test_not_a_pcap(tmp_path: Path) -> None:
    p = tmp_path / "x.pcap"
    p.write_bytes(b"\x0a\x0d\x0d\x0a" + bytes(40))  # pcapng
    with pytest.raises(ValueError, match="not a classic pcap"):
        wire.read(p, BOARD)
