"""The DAQ tools' wire figures (wirecore.daq.onwire) on pcaps scapy writes with chosen
stamps: the generator's rate, spacing and gaps, echo turnarounds, and the drops split by
place. Expected figures are worked out here from the chosen cycles."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.utils import PcapWriter
from wirecore import wire
from wirecore.daq import onwire
from wirecore.daq.fmt import build_payload

BOARD, PC = "02:00:00:00:00:02", "0a:1b:2c:3d:4e:5f"
B_IP, PC_IP = "192.0.2.2", "192.0.2.1"


def from_board(payload: bytes, dport: int, sport: int = 50002) -> bytes:
    return bytes(
        Ether(src=BOARD, dst=PC) / IP(src=B_IP, dst=PC_IP) / UDP(sport=sport, dport=dport) / payload
    )


def to_board(payload: bytes, dport: int, sport: int = 40000) -> bytes:
    return bytes(
        Ether(src=PC, dst=BOARD) / IP(src=PC_IP, dst=B_IP) / UDP(sport=sport, dport=dport) / payload
    )


def pcap(path: Path, frames: list[tuple[int, bytes]]) -> list[wire.Record]:
    """Write (cycle, frame) with scapy (nanosecond stamps) and read it back."""
    w = PcapWriter(str(path), linktype=1, nano=True, sync=True)
    for c, f in frames:
        p = Ether(f)
        p.time = Decimal(c * 8) / Decimal(10**9)
        w.write(p)
    w.close()
    return wire.read(path, BOARD)


def test_generator_figures(tmp_path: Path) -> None:
    # generator frames of 1472-byte payloads to port 40000 at a period of 2473 cycles, one
    # of them 3 cycles late, sequence 3 missing (lost before the wire); each stamped by the
    # generator 1500 cycles before its first byte (the late one 1503); noise around them
    c0, period = 5000, 2473
    cycles = [c0 + i * period for i in range(5)]
    cycles[2] += 3
    seqs = [0, 1, 2, 4, 5]
    ts = [c - 1500 for c in cycles]
    ts[2] = c0 + 2 * period - 1500  # the late frame's timestamp is on the period
    frames = [
        (c, from_board(build_payload(s, t, 1472, False, 0), 40000))
        for c, s, t in zip(cycles, seqs, ts, strict=True)
    ]
    noise = [
        (100, from_board(b"", 40000)),  # the ARP primer: no payload
        (300, bytes(Ether(src=BOARD, dst=PC) / ARP(psrc=B_IP, pdst=PC_IP))),
        (c0 + 1600, to_board(build_payload(9, 0, 64), 40000)),  # to the board: not generated
        (c0 + 3 * period + 1600, from_board(build_payload(7, 0, 64), 7, sport=7)),
    ]
    recs = pcap(tmp_path / "g.pcap", sorted(frames + noise))
    gen = onwire.generator_frames(recs, [40000])
    assert [r.cycle for r in gen] == cycles
    g = onwire.generator_figures(gen)
    assert g.frames == 5 and g.payload_bytes == 5 * 1472
    assert g.spacing == {2473: 2, 2470: 1, 2476: 1}
    fc = 8 + 1514 + 4
    assert g.idle == {2473 - fc: 2, 2470 - fc: 1, 2476 - fc: 1}
    assert g.seq_lost == 1 and g.seq_gap_events == 1
    assert g.to_wire == {1500: 4, 1503: 1}
    span_ns = 4 * period * 8
    assert g.rate.span_ns == span_ns
    assert g.payload_mbytes_per_s == pytest.approx(4 * 1472 / span_ns * 1e3)
    assert g.rate.line_fraction == pytest.approx(4 * (fc + 12) / (4 * period))
    d = g.to_dict()
    assert d["spacing_cycles"] == {"2470": 1, "2473": 2, "2476": 1}


def test_generator_figures_two_destinations(tmp_path: Path) -> None:
    # destinations in turn, each with its own sequence: no gap although the numbers repeat
    frames = []
    for i in range(6):
        port = 40000 + i % 2
        frames.append((1000 + i * 1538, from_board(build_payload(i // 2, 0, 1472), port)))
    recs = pcap(tmp_path / "d.pcap", frames)
    g = onwire.generator_figures(onwire.generator_frames(recs, [40000, 40001]))
    assert g.seq_lost == 0 and g.seq_gap_events == 0
    assert g.spacing == {1538: 5} and g.idle == {12: 5}
    assert g.rate.line_fraction == 1.0
    assert onwire.generator_frames(recs, [40001])[0].cycle == 1000 + 1538


def test_echo_pairs_and_turnaround(tmp_path: Path) -> None:
    # requests of 16, 64 and 1472 payload bytes to port 7; the replies leave K cycles after
    # the request's last byte; one request is never answered, one reply answers nobody
    frames = []
    want_lifo = []
    c = 1000
    for size, k in ((16, 290), (64, 300), (1472, 1750)):
        p = build_payload(size, 0, size, False, 0xA5)
        req = to_board(p, 7)
        n_in = 8 + max(len(req), 60) + 4
        frames.append((c, req))
        frames.append((c + n_in - 1 + k, from_board(p, 40000, sport=7)))
        want_lifo.append(k)
        c += 20000
    frames.append((c, to_board(build_payload(99, 0, 100), 7)))  # lost
    frames.append((c + 5000, from_board(build_payload(98, 0, 100), 40000, sport=7)))
    frames.append((c + 6000, to_board(build_payload(5, 0, 100), 9)))  # another port
    recs = pcap(tmp_path / "e.pcap", frames)
    pairs = onwire.echo_pairs(recs, 7)
    assert [p.payload for p in pairs] == [16, 64, 1472]
    assert [p.last_in_first_out for p in pairs] == want_lifo
    # first in to last out: the request's whole frame, the turnaround, the reply's frame
    frame_cycles = [8 + max(14 + 28 + s, 60) + 4 for s in (16, 64, 1472)]
    want_filo = [2 * f - 1 + k - 1 for f, k in zip(frame_cycles, want_lifo, strict=True)]
    assert [p.first_in_last_out for p in pairs] == want_filo
    t = onwire.turnaround(pairs)
    assert t["last_in_first_out"] == {290: 1, 300: 1, 1750: 1}


def test_tcp_echo_pairs(tmp_path: Path) -> None:
    """Writes of 1460 and 300 bytes on one connection (the first sent as 1024 + 436, its
    first segment sent twice), echoed in 256-byte segments: each write pairs the frames
    with its first and last bytes in and out, a retransmission does not move them, other
    connections and pure ACKs are ignored; a write whose echo never came has no pair."""
    from scapy.layers.inet import TCP

    isn_pc, isn_b, lport = 0xFFFFFF00, 0x12345678, 40001  # the PC's numbers wrap 2^32

    def seg(to: bool, seq: int, data: bytes = b"", flags: str = "A", port: int = lport) -> bytes:
        ip = IP(src=PC_IP, dst=B_IP) if to else IP(src=B_IP, dst=PC_IP)
        sp, dp = (port, 7) if to else (7, port)
        eth = Ether(src=PC, dst=BOARD) if to else Ether(src=BOARD, dst=PC)
        return bytes(eth / ip / TCP(sport=sp, dport=dp, seq=seq & 0xFFFFFFFF, flags=flags) / data)

    c, frames = 1000, []

    def at(frame: bytes, gap: int = 2000) -> int:
        nonlocal c
        c += gap
        frames.append((c, frame))
        return c

    at(seg(True, isn_pc, flags="S"))
    at(seg(False, isn_b, flags="SA"))
    at(seg(True, isn_pc + 1))  # ACK
    at(seg(True, 0, b"x" * 9, flags="S", port=5555))  # another connection
    w1 = bytes(range(256)) * 5 + bytes(180)
    t_first_in = at(seg(True, isn_pc + 1, w1[:1024]))
    at(seg(True, isn_pc + 1, w1[:1024]))  # retransmitted copy
    t_last_in = at(seg(True, isn_pc + 1025, w1[1024:]))
    outs = [at(seg(False, isn_b + 1 + k, w1[k : k + 256])) for k in range(0, 1460, 256)]
    at(seg(True, isn_pc + 1461))  # pure ACK
    w2 = b"y" * 300
    t2 = at(seg(True, isn_pc + 1461, w2))
    outs2 = [at(seg(False, isn_b + 1461, w2[:256])), at(seg(False, isn_b + 1717, w2[256:]))]
    at(seg(True, isn_pc + 1761, b"z" * 10))  # never echoed
    recs = pcap(tmp_path / "t.pcap", frames)
    pairs = onwire.tcp_echo_pairs(recs, 7, lport, [1460, 300, 10], B_IP)
    assert [p.payload for p in pairs] == [1460, 300]
    p1, p2 = pairs
    n_last = 8 + 14 + 20 + 20 + 436 + 4  # the second request segment's frame, in cycles
    assert p1.request.t_ns // 8 == t_first_in and p1.request_end.t_ns // 8 == t_last_in
    assert p1.last_in_first_out == outs[0] - (t_last_in + n_last - 1)
    n_out = 8 + 14 + 20 + 20 + 180 + 4  # the echo's last segment (180 bytes)
    assert p1.first_in_last_out == outs[-1] + n_out - 1 - t_first_in
    assert p2.request.t_ns // 8 == t2 and p2.request_end is p2.request
    assert p2.reply.t_ns // 8 == outs2[0] and p2.reply_end.t_ns // 8 == outs2[1]


def test_ping_pairs(tmp_path: Path) -> None:
    req = Ether(src=PC, dst=BOARD) / IP(src=PC_IP, dst=B_IP) / ICMP(type=8, id=7, seq=1)
    rep = Ether(src=BOARD, dst=PC) / IP(src=B_IP, dst=PC_IP) / ICMP(type=0, id=7, seq=1)
    lost = Ether(src=PC, dst=BOARD) / IP(src=PC_IP, dst=B_IP) / ICMP(type=8, id=7, seq=2)
    recs = pcap(tmp_path / "p.pcap", [(10, bytes(req)), (200, bytes(rep)), (900, bytes(lost))])
    pairs = onwire.ping_pairs(recs)
    assert [(a.cycle, b.cycle) for a, b in pairs] == [(10, 200)]


def test_split_drops() -> None:
    # the harness's statistics: "link" with its queue and per-direction impairments
    # ("rx": towards the board), "pc" with the TAP's counters
    def link(queued: int, qd: int, lost: int, dup: int, held: int) -> dict:
        imp = {"frames": queued, "delivered": queued, "lost": lost, "duplicated": dup}
        imp |= {"reordered": 0, "corrupted": 0, "fcs_corrupted": 0, "delayed": 0, "held": held}
        imp["settings"] = {"loss": 0.05, "depth": 4}
        return {"seed": 1, "queued": queued, "queue_drops": qd, "queue_peak_frames": held,
                "queue_frames": held, "impair_error": "", "rx": imp, "tx": dict(imp)}  # fmt: skip

    before = {
        "tap_queue_full": 1,
        "counters": {"MAC.RX_DROPPED_FULL": 2**32 - 2, "STACK.UDP_DATAGRAMS": 10, "X.DROP": 4},
        "link": link(5, 1, 0, 0, 0),
        "pc": {"interface": "tap0", "tx_queue_len": 1000, "tx_dropped": 100, "tx_packets": 7},
    }
    after = {
        "tap_queue_full": 4,
        "counters": {"MAC.RX_DROPPED_FULL": 3, "STACK.UDP_DATAGRAMS": 20, "X.DROP": 4},
        "link": link(50, 6, 2, 3, 7),
        "pc": {"interface": "tap0", "tx_queue_len": 1000, "tx_dropped": 150, "tx_packets": 70},
    }
    after["link"]["tx"]["lost"] = 0
    d = onwire.split_drops(before, after, {"tx_dropped": 1}, {"tx_dropped": 9})
    assert d.pc == {"tx_dropped": 50}, "the board's pc object first, the TAP read second"
    assert d.link == {"queue_drops": 5, "rx.lost": 2, "tap_queue_full": 3}
    assert d.impaired == {"rx.duplicated": 3, "tx.duplicated": 3}
    assert d.board == {"MAC.RX_DROPPED_FULL": 5}, "counters wrap at 2^32"
    assert d.counters["STACK.UDP_DATAGRAMS"] == 10
    d2 = onwire.split_drops({}, {"pc": None}, {"tx_dropped": 1, "rx_bytes": 5}, {"tx_dropped": 9})
    assert d2.pc == {"tx_dropped": 8} and d2.link == {} and d2.board == {}


def test_hist_text() -> None:
    assert onwire.hist_text({1538: 99}) == "1538 ×99"
    assert onwire.hist_text({}) == "-"
    h = {i: i for i in range(1, 11)}
    assert onwire.hist_text(h, 2) == "9 ×9, 10 ×10 (+8 more values)"


def test_latency_wire_fit(tmp_path: Path) -> None:
    # the board answers (200 + size) cycles after the request's last byte, 3 requests per
    # size and one of them 2 cycles slower: medians are on the line, so the fit through
    # them is 8 ns/byte and 1600 ns exactly; first in -> last out adds both frames
    # (54 + size cycles each for sizes of 18 bytes and more): 306 + 3 size cycles
    from wirecore.commands.latency import wire_turnaround

    frames, c, seq = [], 1000, 0
    for size in (64, 512, 1472):
        for k in range(3):
            p = build_payload(seq, 0, size, False, 0xA5)
            seq += 1
            lifo = 200 + size + (2 if k == 1 else 0)
            frames.append((c, to_board(p, 7)))
            frames.append((c + 54 + size - 1 + lifo, from_board(p, 40000, sport=7)))
            c += 10000
    pairs = onwire.echo_pairs(pcap(tmp_path / "l.pcap", frames), 7)
    per, fits = wire_turnaround(pairs)
    assert fits is not None
    assert per["last_in_first_out"][512] == {"median": 712.0, "histogram": {712: 2, 714: 1}}
    assert per["first_in_last_out"][64]["median"] == 306 + 3 * 64
    assert fits["last_in_first_out"].slope == pytest.approx(8.0)
    assert fits["last_in_first_out"].intercept == pytest.approx(1600.0)
    assert fits["first_in_last_out"].slope == pytest.approx(24.0)
    assert fits["first_in_last_out"].intercept == pytest.approx(306 * 8)


def test_demo_wire_rows(tmp_path: Path) -> None:
    # two pings answered 94 and 95 cycles after their last byte, a UDP echo of 64 bytes
    # answered after 173; the demo's table shows the medians in cycles and ns
    from wirecore.commands.demo import wire_rows

    def ping(t: int, seq: int, reply: bool) -> bytes:
        src, dst = (BOARD, PC) if reply else (PC, BOARD)
        ips = (B_IP, PC_IP) if reply else (PC_IP, B_IP)
        icmp = ICMP(type=0 if reply else 8, id=3, seq=seq)
        return bytes(Ether(src=src, dst=dst) / IP(src=ips[0], dst=ips[1]) / icmp / (b"d" * 56))

    n_ping = 8 + 98 + 4  # cycles of a 98-byte frame
    p = build_payload(1, 0, 64)
    n_udp = 8 + 106 + 4
    frames = [
        (1000, ping(1000, 1, False)),
        (1000 + n_ping - 1 + 94, ping(0, 1, True)),
        (5000, ping(5000, 2, False)),
        (5000 + n_ping - 1 + 95, ping(0, 2, True)),
        (9000, to_board(p, 7)),
        (9000 + n_udp - 1 + 173, from_board(p, 40000, sport=7)),
    ]
    path = tmp_path / "demo.pcap"
    pcap(path, frames)
    rows = wire_rows(path, BOARD, 7)
    assert [r[:2] for r in rows] == [
        ("wire turnaround, ping (56-byte data)", "95 cycles = 760 ns"),
        ("wire turnaround, UDP echo, 64-byte datagrams", "173 cycles = 1,384 ns"),
    ]
    assert "min 94, max 95" in rows[0][2]
    wall = tmp_path / "wall.pcap"
    w = PcapWriter(str(wall), linktype=1, nano=True, sync=True)
    q = Ether(ping(0, 1, False))
    q.time = Decimal(1_700_000_000)
    w.write(q)
    w.close()
    assert wire_rows(wall, BOARD, 7)[0][1] == "not available"


def test_find_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards that are up (board.json, a live pid) at an address; two namespaces may use
    the same address: the one this process is in wins, else an ambiguous address is none."""
    import json
    import os

    run = tmp_path / "run"
    monkeypatch.setenv("WIRECORE_RUN_DIR", str(run))
    nsdir = tmp_path / "netns"
    nsdir.mkdir()
    monkeypatch.setattr(onwire, "NETNS_DIR", str(nsdir))

    def board(name: str, ip: str, pcap: bool = True) -> None:
        d = run / name
        d.mkdir(parents=True)
        cfg = {"name": name, "ip": ip, "mac": "02:00:00:00:00:09", "ns": f"wc-{name}"}
        (d / "board.json").write_text(json.dumps({"config": cfg, "owns_ns": True}))
        (d / "pid").write_text(str(os.getpid()))
        if pcap:
            (d / "wire.pcap").write_bytes(b"")

    board("a", "192.0.2.2")
    found = onwire.find_board("192.0.2.2")
    assert found is not None and found.name == "a" and found.pcap == run / "a" / "wire.pcap"
    assert found.mac == "02:00:00:00:00:09" and found.ns == "wc-a"
    assert onwire.find_board("192.0.2.3") is None
    board("b", "192.0.2.2")
    assert onwire.find_board("192.0.2.2") is None, "two boards, neither here"
    (nsdir / "wc-b").symlink_to("/proc/self/ns/net")  # this process is in wc-b
    found = onwire.find_board("192.0.2.2")
    assert found is not None and found.name == "b"
    board("c", "192.0.2.4", pcap=False)
    assert onwire.find_board("192.0.2.4") is None, "no wire record"
    (run / "a" / "pid").write_text("999999999")
    (nsdir / "wc-b").unlink()
    found = onwire.find_board("192.0.2.2")
    assert found is not None and found.name == "b", "a is down"
