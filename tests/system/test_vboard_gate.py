"""Activity gating of the virtual board (sim/vboard_top.v, sim/vboard.cpp): exactness.

The board's mostly idle blocks (ARP, ICMP echo and port-unreachable, the three UDP
transmitters, the IPbus control plane, the packet generator) run on gated clocks that
the harness raises only in cycles where the top says the block can change state. These
tests feed the full board one stimulus that reaches every block (ARP requests and a
reply, pings of several sizes, a bad checksum, UDP echo, IPbus reads, writes,
read-modify-write, status, a register write that changes the transmitted TTL, the
packet generator started and sending to an unresolved and a resolved address, closed
ports, malformed IPv4, UDP and ARP frames, frames for another MAC and EtherType), with
ticks every 250 cycles, and check that the gated board behaves exactly as the ungated
one (--no-gate): the same frames, byte for byte, at the same cycles, and the same
counters; and, stronger, that its whole state equals the ungated model's after every
cycle (--gate-verify runs both models side by side), which a deliberately wrong gating
(--gate-mask) fails. No TAP: no root needed.
"""

from __future__ import annotations

from pathlib import Path

from injected_runs import TICK_CYCLES, assert_same_run, result, run
from wirecore.vboard import build, write_pcap

BOARD_MAC, PC_MAC = "02:00:00:00:00:02", "02:00:00:00:00:01"
NG = 7  # vboard_top's gated clocks
BOARD_IP, PC_IP = "192.0.2.2", "192.0.2.1"


def gate_traffic() -> tuple[list[bytes], list[int], int]:
    """Frames for every gated block at simulated times (ns), and the run's length."""
    from scapy.layers.inet import ICMP, IP, UDP
    from scapy.layers.l2 import ARP, Ether
    from scapy.packet import Raw
    from wirecore import ipbus, regmap

    def eth(payload) -> Ether:  # type: ignore[no-untyped-def]
        return Ether(dst=BOARD_MAC, src=PC_MAC) / payload

    def to_board(payload) -> bytes:  # type: ignore[no-untyped-def]
        return bytes(eth(IP(src=PC_IP, dst=BOARD_IP) / payload))

    def ipbus_frame(pid: int, req: list) -> bytes:  # type: ignore[type-arg]
        return to_board(UDP(sport=40100, dport=50001) / Raw(ipbus.build_request(pid, req)))

    def writes(pid: int, regs: list[tuple[str, int]]) -> bytes:
        req = [
            ipbus.Transaction(ipbus.WRITE, regmap.find(n), data=[v], tid=i)
            for i, (n, v) in enumerate(regs)
        ]
        return ipbus_frame(pid, req)

    def generate(pid: int, dest_ip: int, count: int) -> bytes:
        return writes(
            pid,
            [
                ("PKTGEN.DEST_IP0", dest_ip),
                ("PKTGEN.DEST_PORT0", 9000),
                ("PKTGEN.LENGTH", 40),
                ("PKTGEN.COUNT", count),
                ("PKTGEN.GAP", 500),
                ("PKTGEN.NUM_DEST", 1),
                ("PKTGEN.WARMUP_MS", 0),
                ("PKTGEN.CTRL", 1),
            ],
        )

    arp_req = bytes(
        Ether(dst="ff:ff:ff:ff:ff:ff", src=PC_MAC)
        / ARP(op=1, hwsrc=PC_MAC, psrc=PC_IP, hwdst="00:00:00:00:00:00", pdst=BOARD_IP)
    )
    arp_reply = bytes(eth(ARP(op=2, hwsrc=PC_MAC, psrc=PC_IP, hwdst=BOARD_MAC, pdst=BOARD_IP)))
    arp_bad = bytes(  # malformed: opcode 3
        Ether(dst="ff:ff:ff:ff:ff:ff", src=PC_MAC)
        / ARP(op=3, hwsrc=PC_MAC, psrc=PC_IP, hwdst="00:00:00:00:00:00", pdst=BOARD_IP)
    )
    bad_ip_csum = bytearray(to_board(UDP(sport=40001, dport=7) / Raw(b"x" * 20)))
    bad_ip_csum[24] ^= 0xFF
    bad_udp_csum = bytearray(to_board(UDP(sport=40001, dport=7) / Raw(b"y" * 30)))
    bad_udp_csum[40] ^= 0x55
    bad_icmp = bytearray(to_board(ICMP(id=5, seq=9) / Raw(bytes(range(40)))))
    bad_icmp[36] ^= 0x01
    truncated = to_board(UDP(sport=40001, dport=7) / Raw(bytes(100)))[:60]
    mem = regmap.MEM_BASE
    pc, absent = 0xC0000201, 0xC000024D
    plan: list[tuple[int, bytes]] = [
        (2, generate(1, absent, 1)),  # ARP requests for an absent host (retries)
        (3, arp_req),
        (4, to_board(ICMP(id=0x77, seq=1) / Raw(bytes(range(56))))),
        (5, to_board(ICMP(id=0x77, seq=2) / Raw(bytes(4)))),  # padded request
        (6, bytes(bad_icmp)),
        (7, to_board(UDP(sport=40001, dport=7) / Raw(bytes(range(200))))),
        (8, to_board(UDP(sport=40002, dport=7) / Raw(b""))),
        (9, to_board(UDP(sport=40003, dport=9) / Raw(bytes(16)))),  # closed port
        (10, to_board(UDP(sport=40003, dport=50002) / Raw(bytes(8)))),  # generator's
        (11, ipbus_frame(2, [ipbus.Transaction(ipbus.READ, 0x0, words=4)])),
        (12, ipbus_frame(3, [ipbus.Transaction(ipbus.WRITE, mem, words=8, data=list(range(8)))])),
        (13, ipbus_frame(4, [ipbus.Transaction(ipbus.RMW_SUM, mem, masks=[7])])),
        (14, to_board(UDP(sport=40100, dport=50001) / Raw(ipbus.status_request()))),
        (15, writes(5, [("NET.TTL", 17)])),  # the transmitters' TTL changes
        (16, to_board(UDP(sport=40001, dport=7) / Raw(bytes(range(64))))),
        (17, bytes(bad_ip_csum)),
        (18, bytes(bad_udp_csum)),
        (19, truncated),
        (20, arp_bad),
        (21, bytes(Ether(dst="02:00:00:00:00:99", src=PC_MAC) / IP() / UDP())),
        (22, bytes(Ether(dst=BOARD_MAC, src=PC_MAC, type=0x88B5) / Raw(bytes(46)))),
        (23, generate(6, pc, 3)),  # the PC is known (its ARP request): sent
        (40, to_board(UDP(sport=40001, dport=7) / Raw(bytes(1472)))),
        (41, to_board(ICMP(id=0x77, seq=3) / Raw(bytes(1000)))),
        (42, to_board(UDP(sport=40003, dport=11) / Raw(bytes(3)))),
        (4100, arp_reply),
        (4101, generate(7, pc, 2)),
    ]
    times = [ms * TICK_CYCLES * 8 for ms, _ in plan]
    return [f for _, f in plan], times, 4200 * TICK_CYCLES


def test_gating_is_exact(tmp_path: Path) -> None:
    """The gated board (default) and the ungated one (--no-gate, --no-skip) send the same
    frames byte for byte at the same cycles and end with the same counters; the gated
    board's state equals the ungated model's after every cycle (--gate-verify); and the
    gated blocks are clocked in a minority of the cycles."""
    from scapy.layers.inet import ICMP, IP, UDP
    from scapy.layers.l2 import ARP, Ether

    exe = build(quiet=True)
    frames, times, cycles = gate_traffic()
    pcap = tmp_path / "in.pcap"
    write_pcap(pcap, frames, times)
    runs = (("gate", ()), ("ref", ("--no-gate", "--no-skip")), ("clk", ("--no-gate-clk",)))
    for name, args in runs:
        r = run(exe, pcap, cycles, tmp_path / name, *args)
        assert r.returncode == 0, r.stderr
    g, ref = result(tmp_path / "gate"), result(tmp_path / "ref")
    # clk itself was held low in some evaluated cycles (every enable 0), never without
    # the gating or with --no-gate-clk, which changes nothing else
    assert g["clk_held_cycles"] > 0 and ref["clk_held_cycles"] == 0
    noclk = result(tmp_path / "clk")
    assert noclk["clk_held_cycles"] == 0
    assert noclk["gated_edges_by_clock"] == g["gated_edges_by_clock"]
    assert_same_run(noclk, g)
    assert g["gate"] is True and ref["gate"] is False and g["gated_clocks"] == NG
    assert ref["gated_edges"] == ref["cycles_evaluated"] * NG
    # the gated clocks rose in a minority of the evaluated cycles
    assert g["gated_edges"] < 0.5 * g["cycles_evaluated"] * NG, g["gated_edges"]
    # each clock rose in some cycles and stayed low in others, the receive path's
    # (domain 6) and the transmit side's (domain 2, with port 0's transmitter) included
    by_clock = g["gated_edges_by_clock"][:NG]
    assert all(0 < e < g["cycles_evaluated"] for e in by_clock), by_clock
    # the receive path's clock rose in every cycle a byte came in (sim_gate_in) and the
    # transmit side's in every cycle a byte went out
    wire_in = sum(8 + max(len(f), 60) + 4 for f in frames)
    wire_out = sum(8 + len(f) + 4 for _, f in g["wire"] if f[6:12] == bytes.fromhex("020000000002"))
    assert by_clock[6] >= wire_in and by_clock[2] >= wire_out, (by_clock, wire_in, wire_out)
    assert_same_run(g, ref)
    # the stimulus reached every gated block
    c = g["counters"]
    assert g["to_board_frames"] == len(frames)
    assert c["ARP.REQ_RX"] == 1 and c["ARP.REPLY_RX"] == 1
    assert c["ARP.TIMEOUT"] == 1 and c["ARP.MALFORMED"] == 1
    assert c["STACK.ICMP_ECHO"] == 3 and c["STACK.ICMP_BAD_CSUM"] == 1
    assert c["STACK.ICMP_UNREACH_SENT"] == 3  # ports 9, 50002 and 11
    # (the datagrams with a bad checksum and cut short are echoed aborted: cut-through)
    assert (
        c["STACK.ECHO_DATAGRAMS"] == 6
        and c["STACK.UDP_BAD_CSUM"] == 1
        and c["STACK.UDP_ERR_IN"] == 1
    )
    assert c["STACK.IP_BAD_CSUM"] == 1 and c["STACK.IP_TRUNCATED"] == 1
    assert c["STACK.ETH_BAD_MAC"] == 1
    assert c["STACK.ETH_BAD_ETHERTYPE"] == 1
    # the generator's three runs (1 to the absent host, 3 and 2 to the PC): the counter
    # runs on across starts; the absent host's datagram is the one ARP miss
    assert c["PKTGEN.SENT_PACKETS"] == 1 + 3 + 2 and c["PKTGEN.ARP_MISS"] == 1
    assert c["STACK.UDPTX0_ARP_MISS"] == c["STACK.UDPTX1_ARP_MISS"] == 0
    out = [Ether(f) for t, f in g["wire"] if f[6:12] == bytes.fromhex("020000000002")]
    assert sum(1 for e in out if ARP in e and e[ARP].op == 2) == 1
    gen = [e for e in out if UDP in e and e[UDP].sport == 50002]
    assert len(gen) == 3 + 2 and all(e[IP].ttl == 17 for e in gen)
    assert any(ICMP in e and e[ICMP].type == 3 for e in out)
    # the whole state, every cycle
    r = run(exe, pcap, cycles, tmp_path / "verify", "--gate-verify")
    assert r.returncode == 0, r.stderr[-2000:]
    v = result(tmp_path / "verify")
    assert v["gate_verified_cycles"] == v["cycles_evaluated"] == v["cycles"]
    assert v["wire"] == g["wire"] and v["counters"] == g["counters"]
    assert v["clk_held_cycles"] > 0


def test_gate_verify_finds_a_wrong_gating(tmp_path: Path) -> None:
    """--gate-verify stops at the first cycle where the gated state differs: with one
    block's clock kept off (--gate-mask) it names a member of the model's state."""
    exe = build(quiet=True)
    frames, times, _ = gate_traffic()
    pcap = tmp_path / "in.pcap"
    write_pcap(pcap, frames[:12], times[:12])
    for bit in (0, 1, 2, 3, 4, 6):  # (5, the addresses' registers: nothing to miss)
        mask = 0x7F & ~(1 << bit)
        r = run(exe, pcap, 12 * TICK_CYCLES + 20_000, tmp_path / str(bit), "--gate-verify",
                "--gate-mask", hex(mask))  # fmt: skip
        assert r.returncode == 3, (bit, r.stderr[-1000:])
        assert "--gate-verify: the gated model's state differs" in r.stderr, r.stderr


def test_fast_evaluation_is_exact(tmp_path: Path) -> None:
    """The one-pass evaluation (the default) and the model's own eval() (--no-fast-eval)
    send the same frames byte for byte at the same cycles and end with the same
    counters and gated edges, gated and ungated; --gate-verify, whose reference model
    uses eval(), also passes with it (test_gating_is_exact)."""
    exe = build(quiet=True)
    frames, times, _ = gate_traffic()
    pcap = tmp_path / "in.pcap"
    write_pcap(pcap, frames[:24], times[:24])
    for gate in ((), ("--no-gate",)):
        runs = {}
        for fast in (True, False):
            d = tmp_path / f"{'fast' if fast else 'eval'}{len(gate)}"
            args = ("--no-skip", *gate) + (() if fast else ("--no-fast-eval",))
            r = run(exe, pcap, 300_000, d, *args)
            assert r.returncode == 0, r.stderr
            runs[fast] = result(d)
        fast_run, ref = runs[True], runs[False]
        assert fast_run["fast_eval"] is True and ref["fast_eval"] is False
        assert len(fast_run["wire"]) > 20
        assert_same_run(fast_run, ref)
        for k in ("cycles_evaluated", "gated_edges", "gated_edges_by_clock"):
            assert fast_run[k] == ref[k], k


def test_gating_with_both_edges_evaluated(tmp_path: Path) -> None:
    """The traced build (each cycle evaluated at both clock edges, the gated clocks low
    with clk in the first) gates exactly as the one-evaluation build: the same frames at
    the same cycles, the same counters, the same number of gated clock edges."""
    frames, times, _ = gate_traffic()
    pcap = tmp_path / "in.pcap"
    write_pcap(pcap, frames[:24], times[:24])
    runs = {}
    for trace in (False, True):
        d = tmp_path / ("two" if trace else "one")
        r = run(build(trace=trace, quiet=True), pcap, 300_000, d, "--no-skip")
        assert r.returncode == 0, r.stderr
        runs[trace] = result(d)
    one, two = runs[False], runs[True]
    assert one["evals_per_cycle"] == 1 and two["evals_per_cycle"] == 2
    assert one["gate"] is True and two["gate"] is True
    assert one["wire"] == two["wire"] and len(one["wire"]) > 20
    for k in ("cycles", "counters", "gated_edges", "gated_edges_by_clock"):
        assert one[k] == two[k], k


def test_receive_path_gating_at_its_limits(tmp_path: Path) -> None:
    """The receive path's gating (domain 6) with what the main stimulus does not send: a
    jumbo datagram of the largest frame the MAC takes (9018 bytes with the FCS), a frame
    one byte longer than that and a longer one (cut by the MAC, dropped and counted), and
    bursts of short frames back to back (the 12-cycle gap): every cycle's whole state
    equal to the ungated model's."""
    from scapy.layers.inet import ICMP, IP, UDP
    from scapy.layers.l2 import Ether
    from scapy.packet import Raw

    def to_board(payload) -> bytes:  # type: ignore[no-untyped-def]
        return bytes(Ether(dst=BOARD_MAC, src=PC_MAC) / IP(src=PC_IP, dst=BOARD_IP) / payload)

    jumbo = to_board(UDP(sport=40001, dport=7) / Raw(bytes(8972)))
    assert len(jumbo) + 4 == 9018
    over = to_board(UDP(sport=40001, dport=7) / Raw(bytes(8973)))
    longer = bytes(Ether(dst=BOARD_MAC, src=PC_MAC, type=0x0800) / Raw(bytes(9600)))
    burst = [to_board(ICMP(id=9, seq=i) / Raw(bytes(i))) for i in range(4)]
    burst += [to_board(UDP(sport=40001, dport=7) / Raw(bytes(i))) for i in range(4)]
    plan = [(2, jumbo), (60, over), (100, longer)] + [(140, f) for f in burst]
    plan += [(160, f) for f in burst]
    frames = [f for _, f in plan]
    times = [ms * TICK_CYCLES * 8 for ms, _ in plan]
    pcap = tmp_path / "in.pcap"
    write_pcap(pcap, frames, times)
    exe = build(quiet=True)
    cycles = 200 * TICK_CYCLES
    r = run(exe, pcap, cycles, tmp_path / "verify", "--gate-verify")
    assert r.returncode == 0, r.stderr[-2000:]
    v = result(tmp_path / "verify")
    assert v["gate_verified_cycles"] == v["cycles_evaluated"] == v["cycles"]
    c = v["counters"]
    assert v["to_board_frames"] == len(frames)
    assert c["MAC.RX_OVERSIZE"] == 2 and c["MAC.RX_FRAMES"] == len(frames) - 2
    assert c["STACK.ICMP_ECHO"] == 8 and c["STACK.UDP_DATAGRAMS"] == 9
    # the receive path's clock was off in some cycles between them
    assert v["gated_edges_by_clock"][6] < v["cycles_evaluated"]
