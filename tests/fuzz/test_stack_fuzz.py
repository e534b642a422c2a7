"""Fuzz of udp_stack at volume, compiled with Verilator (stack_fuzz.cpp).

scapy builds a pool of valid frames of every kind the stack handles (UDP to open and
closed ports, with and without checksum, IP options, broadcasts, ICMP, ARP, raw
EtherType, foreign MACs and EtherTypes, fragments, other protocols); 20,000 frames at
each width (make test; 100,000, STACK_FUZZ_FRAMES, in make test-long) are drawn from it
and mutated (truncation, bit flips, field corruption, random garbage, MAC error flag). The
C++ driver streams them through the stack with random gaps and random backpressure on
every output and writes what came out plus the counters; meanwhile both UDP transmit
ports send datagrams of their own (up to one per ten input frames each, random sizes and
payload gaps). This file's reference model (written from the protocol rules, not from
the RTL) decides for every frame what must come out; the test checks:
  - no hang (the driver stops taking input -> failure) and everything expected came out;
  - every datagram delivered with tuser = 0 is exactly the model's (header and bytes),
    and every one the model marks bad carries tuser = 1: nothing corrupted passes as good;
  - every drop counter equals the model's count;
  - every frame the stack sends (ICMP echo replies, port unreachables, ARP) parses with
    scapy with its checksums right, and their numbers equal the stack's counters;
  - ICMP: every message reaching the echo responder lands in the model's counter
    (dropped, aborted, bad checksum, replied), the echo replies are the model's frames
    byte for byte and in order (identification, TTL, addresses, RFC 1624 checksum
    update), and the aborted frames (tuser) are exactly the model's;
  - tshark passes every frame sent (checksums, no malformed frame, no expert warning);
  - UDP transmit: every datagram asked for leaves once, byte for byte the frame scapy
    builds for it (identification per port, checksum 0 on port 0, computed on the others),
    in its port's order, whole between the other sources' frames;
  - ARP: malformed frames counted exactly; the replies sent are the model's for the
    requests for our IP, byte for byte and in order, any left out no more than the
    frames counted as receive overruns.
At 8 bits the stack is built with the registered transmit arbiter (TX_ARB_REG = 1, as
udp_echo_node builds it), at 64 bits with the default one; two UDP ports (5000, 6000), and
at 8 bits also one and three (test_stack_fuzz_ports, 10,000 frames; a third of the volume
in make test-long).

The volume runs (marker long) feed the short runs' frames first, then more of the same
draw. Every frame kind and mutation occurs thousands of times in
the short runs, and they reach every counter and every kind of frame out that the volume
runs reach, but ip_bad_len (a corrupted total length under a still valid header checksum:
0 or 1 time in 100,000 frames; tests/unit/ip/test_ip_rx.py checks it on purpose).
"""

from __future__ import annotations

import os
import random
import struct
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from syn import verilator_build

DRIVER = Path(__file__).resolve().parent / "stack_fuzz.cpp"
N_FRAMES = int(os.environ.get("STACK_FUZZ_FRAMES", "100000"))  # the volume runs
FRAMES = [pytest.param(20_000, id="20k"), pytest.param(N_FRAMES, id="long", marks=pytest.mark.long)]
PORT_FRAMES = [
    pytest.param(10_000, id="10k"),
    pytest.param(N_FRAMES // 3, id="long", marks=pytest.mark.long),
]

MAC = bytes.fromhex("020000000001")
IP = bytes([192, 0, 2, 1])
MASK = bytes([255, 255, 255, 0])
BCAST_SUBNET = bytes([192, 0, 2, 255])
RAW_TYPE = 0x88B5
PORTS = [5000, 6000]  # the UDP ports of the two-port stack (port p: 5000 + 1000 * p)


def udp_ports(np: int) -> list[int]:
    return [5000 + 1000 * p for p in range(np)]


# ---------------------------------------------------------------- reference model
def ones_sum(b: bytes) -> int:
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(f">{len(b) // 2}H", b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


@dataclass
class Expect:
    udp: list[list[tuple[str, int]]] = field(default_factory=lambda: [[] for _ in range(4)])
    raw: list[tuple[str, int]] = field(default_factory=list)
    cnt: Counter = field(default_factory=Counter)
    icmp_in: int = 0
    icmp_replies: list[bytes] = field(default_factory=list)  # the echo replies, in order
    icmp_aborted_frames: int = 0  # replies that must end with tuser (the MAC aborts them)
    arp_wellformed: int = 0  # ARP frames that pass arp_rx's checks
    arp_replies: list[bytes] = field(default_factory=list)  # the replies they call for


def arp_model(e: Expect, f: bytes, bad: bool) -> None:
    """An ARP frame reaching the ARP block (docs/arp.md): malformed (counted exactly) when
    bad (tuser), shorter than 42 bytes, htype not 1, ptype not 0x0800, hlen not 6, plen
    not 4, opcode not 1 or 2, or a group sender MAC; else well-formed, and a request
    whose TPA is our IP from a sender not claiming our IP calls for a reply to its SHA
    and SPA. (A well-formed frame arriving while arp_rx still holds an earlier one is
    dropped as an overrun, which depends on timing: see run_fuzz.)"""
    from scapy.layers.l2 import ARP, Ether

    if (
        bad
        or len(f) < 42
        or f[14:16] != b"\x00\x01"
        or f[16:18] != b"\x08\x00"
        or f[18] != 6
        or f[19] != 4
        or f[20:22] not in (b"\x00\x01", b"\x00\x02")
        or f[22] & 1
    ):
        e.cnt["arp_malformed"] += 1
        return
    e.arp_wellformed += 1
    sha, spa, tpa = f[22:28], f[28:32], f[38:42]
    if f[21] == 1 and tpa == IP and spa != IP:
        me, peer = MAC.hex(":"), sha.hex(":")
        r = Ether(dst=peer, src=me) / ARP(
            op=2, hwsrc=me, psrc=".".join(map(str, IP)), hwdst=peer, pdst=".".join(map(str, spa))
        )
        e.arp_replies.append(bytes(r))


def icmp_echo_model(e: Expect, f: bytes, p: bytes, hl: int, tlen: int, bad_in: bool) -> None:
    """One ICMP message reaching the echo responder (docs/transmitter.md, icmp_echo):
    counted once in dropped (not an answerable echo request: type not 8, a broadcast
    destination, length under 8, or the message ending within its first 4 bytes), else aborted
    (its frame bad or truncated: the reply ends with tuser), else bad_csum (the message's
    one's-complement sum not 0xFFFF: a reply of 26 bytes or more is under way by cut-through
    and ends with tuser, a shorter one is dropped before its first byte), else replies.
    Each message's header takes the next identification (from 0), whatever it becomes."""
    from scapy.layers.inet import IP as SIP

    c = e.cnt
    rid = e.icmp_in & 0xFFFF
    e.icmp_in += 1
    hlen = tlen - hl
    msg = p[hl : min(len(p), tlen)]
    if p[16:20] != IP or hlen < 8 or len(msg) <= 4 or msg[0] != 8:
        c["icmp_dropped"] += 1
        return
    if bad_in:
        c["icmp_aborted"] += 1
        e.icmp_aborted_frames += 1
        return
    if ones_sum(msg) != 0xFFFF:
        c["icmp_bad_csum"] += 1
        e.icmp_aborted_frames += int(hlen >= 26)
        return
    c["icmp_replies"] += 1
    # type 8 -> 0 and the checksum updated by RFC 1624 eqn. 3: HC' = ~(~HC + ~0x0800)
    s = (~int.from_bytes(msg[2:4], "big") & 0xFFFF) + 0xF7FF
    hc = ~((s & 0xFFFF) + (s >> 16)) & 0xFFFF
    m = b"\0" + msg[1:2] + hc.to_bytes(2, "big") + msg[4:]
    ip = SIP(
        id=rid,
        flags=0,
        ttl=64,
        proto=1,
        src=".".join(map(str, IP)),
        dst=".".join(map(str, p[12:16])),
    )
    e.icmp_replies.append(f[6:12] + MAC + b"\x08\x00" + bytes(ip / m))


def model(frames: list[tuple[bytes, bool]], ports: list[int] = PORTS) -> Expect:
    e = Expect()
    c = e.cnt
    for f, bad in frames:
        c["eth_rx_frames"] += 1
        if len(f) < 14:
            c["eth_runt"] += 1
            continue
        if f[0:6] != MAC and f[0:6] != b"\xff" * 6:
            c["eth_bad_mac"] += 1
            continue
        et = int.from_bytes(f[12:14], "big")
        if et == 0x0806:
            arp_model(e, f, bad)
            continue
        if et == RAW_TYPE and et != 0x0800:
            e.raw.append((f"{f[0:6].hex()} {f[6:12].hex()} {f[14:].hex() or '-'}", int(bad)))
            continue
        if et != 0x0800:
            c["eth_bad_ethertype"] += 1
            continue
        p = f[14:]
        c["ip_rx_packets"] += 1
        ihl = p[0] & 15 if p else 0
        lim = 20 if ihl < 5 else ihl * 4
        if len(p) < lim:
            c["ip_runt"] += 1
            continue
        if p[0] >> 4 != 4 or ihl < 5:
            c["ip_bad_hdr"] += 1
            continue
        hl = ihl * 4
        if ones_sum(p[:hl]) != 0xFFFF:
            c["ip_bad_csum"] += 1
            continue
        tlen = int.from_bytes(p[2:4], "big")
        if tlen < hl:
            c["ip_bad_len"] += 1
            continue
        dst = p[16:20]
        if dst not in (IP, b"\xff" * 4, BCAST_SUBNET):
            c["ip_not_for_us"] += 1
            continue
        if (p[6] & 0x20) or ((p[6] & 0x1F) << 8 | p[7]):
            c["ip_fragment"] += 1
            continue
        proto = p[9]
        if proto not in (1, 17):
            c["ip_bad_proto"] += 1
            continue
        trunc = len(p) < tlen
        if trunc:
            c["ip_truncated"] += 1
        d = p[hl:tlen]
        bad_in = bad or trunc
        if proto == 1:
            icmp_echo_model(e, f, p, hl, tlen, bad_in)
            continue
        c["udp_rx_datagrams"] += 1
        ip_len = tlen - hl
        if len(d) < 8:
            c["udp_bad_len"] += 1
            continue
        ulen = int.from_bytes(d[4:6], "big")
        if ulen < 8 or ulen > ip_len:
            c["udp_bad_len"] += 1
            continue
        dport = int.from_bytes(d[2:4], "big")
        if dport not in ports:
            c["udp_closed_port"] += 1
            continue
        u = d[:ulen]
        csum_field = int.from_bytes(d[6:8], "big")
        pseudo = p[12:16] + p[16:20] + bytes([0, 17]) + ulen.to_bytes(2, "big")
        csum_bad = csum_field != 0 and ones_sum(pseudo + u) != 0xFFFF
        if bad_in:
            c["udp_err_in"] += 1
        elif csum_bad:
            c["udp_bad_csum"] += 1
        tuser = int(bad_in or csum_bad)
        hdr = f"{f[6:12].hex()} {p[12:16].hex()} {int.from_bytes(d[0:2], 'big')} {dport} {ulen - 8}"
        e.udp[ports.index(dport)].append((f"{hdr} {u[8:].hex() or '-'}", tuser))
    return e


# ---------------------------------------------------------------- frame generation
def base_pool(rng: random.Random, n: int, ports: list[int] = PORTS) -> list[bytes]:
    from scapy.layers.inet import ICMP, UDP, IPOption_NOP
    from scapy.layers.inet import IP as SIP
    from scapy.layers.l2 import ARP, Ether
    from scapy.packet import Raw

    me, peer = "02:00:00:00:00:01", "02:00:00:00:00:99"
    pool: list[bytes] = []
    for _ in range(n):
        k = rng.random()
        size = rng.choice(
            [0, 1, 7, 8, 9, 17, 18, 26, 64, 200, 512, 1000, 1472, rng.randint(0, 1472)]
        )
        data = bytes(rng.getrandbits(8) for _ in range(size))
        dst_mac = rng.choice([me] * 8 + ["ff:ff:ff:ff:ff:ff", "02:00:00:00:00:02"])
        dst_ip = rng.choice(["192.0.2.1"] * 8 + ["255.255.255.255", "192.0.2.255", "192.0.2.3"])
        opts = [IPOption_NOP()] * (4 * rng.choice([0, 0, 0, 1, 3, 10]))
        ip = SIP(
            src=f"192.0.2.{rng.randint(2, 254)}", dst=dst_ip, options=opts, id=rng.getrandbits(16)
        )
        if rng.random() < 0.03:
            ip.flags = "MF"
        if k < 0.6:
            dport = rng.choice(ports * 6 + [7, 53])
            u = UDP(sport=rng.getrandbits(16), dport=dport)
            if rng.random() < 0.2:
                u.chksum = 0
            pkt = Ether(dst=dst_mac, src=peer) / ip / u / Raw(data[: 1472 - len(opts)])
        elif k < 0.7:
            pkt = (
                Ether(dst=dst_mac, src=peer) / ip / ICMP(id=rng.getrandbits(16)) / Raw(data[:1400])
            )
        elif k < 0.78:
            pkt = Ether(dst=dst_mac, src=peer) / ARP(
                op=rng.choice([1, 2]), hwsrc=peer, psrc="192.0.2.77", pdst="192.0.2.1"
            )
        elif k < 0.88:
            pkt = Ether(dst=dst_mac, src=peer, type=RAW_TYPE) / Raw(data)
        elif k < 0.93:
            ip.proto = rng.choice([6, 47, 89])
            pkt = Ether(dst=dst_mac, src=peer) / ip / Raw(data[:1400])
        else:
            pkt = Ether(dst=dst_mac, src=peer, type=rng.choice([0x86DD, 0x88CC, 0x8100])) / Raw(
                data
            )
        b = bytes(pkt)[:1514]
        pool.append(b)
    return pool


def mutate(rng: random.Random, b: bytes) -> bytes:
    r = rng.random()
    if r < 0.45:
        return b
    bb = bytearray(b)
    if r < 0.6:  # truncation
        return bytes(bb[: rng.randint(1, len(bb))])
    if r < 0.75:  # bit flips anywhere
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(bb))
            bb[i] ^= 1 << rng.randint(0, 7)
        return bytes(bb)
    if r < 0.92:  # header field corruption (first 50 bytes)
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(min(len(bb), 50))
            bb[i] = rng.getrandbits(8)
        return bytes(bb)
    # random garbage, sometimes behind a valid Ethernet header
    g = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 120)))
    return (b[:14] + g) if rng.random() < 0.5 else g


def make_frames(seed: int, n: int, ports: list[int] = PORTS) -> list[tuple[bytes, bool]]:
    rng = random.Random(seed)
    pool = base_pool(rng, 800, ports)
    out = []
    for _ in range(n):
        b = mutate(rng, rng.choice(pool))
        if len(b) < 60 and rng.random() < 0.7:
            b = b + bytes(60 - len(b))  # padded as a MAC delivers it
        out.append((b, rng.random() < 0.04))
    return out


# ---------------------------------------------------------------- build and run
def tx_arb_reg(width: int) -> int:
    """The transmit arbiter's form fuzzed at ``width``: the registered one (TX_ARB_REG = 1,
    as udp_echo_node builds it) at 8 bits, the default combinational one at 64 bits (the
    virtual board's 8-bit stack runs the default too)."""
    return 1 if width == 8 else 0


def build(width: int, np: int = 2) -> Path:
    arb = tx_arb_reg(width)
    params = {"DATA_W": width, "NUM_PORTS": np, "ICMP_UNREACH": 1, "TX_ARB_REG": arb}
    return verilator_build.build(
        "udp_stack", [DRIVER], params=params, defines={"DATA_W": width, "NP": np}, name="stack_fuzz"
    )


def write_frames(path: Path, frames: list[tuple[bytes, bool]]) -> None:
    with path.open("wb") as fh:
        for b, bad in frames:
            fh.write(struct.pack("<HB", len(b), int(bad)) + b)


def udp_expected(
    reqs: list[list[tuple[str, str, int, bytes]]], ports: list[int] = PORTS
) -> list[list[bytes]]:
    """The frames the driver's transmit requests must become, per port, built by scapy:
    destination MAC given, from our addresses and the port's source port (5000, 6000),
    identification counting the port's datagrams from 0, no DF, TTL 64, UDP checksum 0 on
    port 0 (cfg_udp_csum_mode 0) and computed on the others (mode 1)."""
    from scapy.layers.inet import IP as SIP
    from scapy.layers.inet import UDP
    from scapy.layers.l2 import Ether

    out: list[list[bytes]] = [[] for _ in ports]
    for p, rs in enumerate(reqs):
        for k, (mac, ip, dport, pay) in enumerate(rs):
            u = UDP(sport=ports[p], dport=dport)
            if p == 0:
                u.chksum = 0
            f = (
                Ether(dst=mac, src=MAC.hex(":"))
                / SIP(src=".".join(map(str, IP)), dst=ip, id=k & 0xFFFF, flags=0, ttl=64)
                / u
                / pay
            )
            out[p].append(bytes(f))
    return out


def check_tx(
    frames: list[tuple[int, bytes]],
    cnt: dict[str, int],
    exp: Expect,
    udp_exp: list[list[bytes]],
    ports: list[int] = PORTS,
) -> None:
    """Every frame the stack sent, parsed with scapy: from our MAC, and an ARP frame
    from our addresses or an IPv4 packet from our IP whose IP and ICMP checksums verify
    (an echo reply or a port unreachable); frames ending with tuser (aborted: the MAC
    sends them with a bad FCS) are only counted. The kinds' numbers must equal the
    stack's counters; the echo replies are the model's, byte for byte and in order, and
    the aborted frames are the model's echo replies that must end with tuser."""
    from scapy.layers.inet import ICMP
    from scapy.layers.inet import IP as SIP
    from scapy.layers.l2 import ARP, Ether

    kinds: Counter = Counter()
    arp_sent: list[bytes] = []
    udp_sent: list[list[bytes]] = [[] for _ in ports]
    for i, (tuser, b) in enumerate(frames):
        if tuser:
            kinds["aborted"] += 1
            continue
        e = Ether(b)
        where = f"transmitted frame {i} ({b[:64].hex()})"
        assert e.src == "02:00:00:00:00:01", f"{where}: source MAC"
        if ARP in e:
            a = e[ARP]
            assert (a.hwsrc, a.psrc) == ("02:00:00:00:00:01", "192.0.2.1"), where
            assert a.op in (1, 2), f"{where}: ARP op {a.op}"
            if a.op == 2:
                arp_sent.append(b)
            kinds["arp_reply" if a.op == 2 else "arp_request"] += 1
            continue
        if SIP in e and e[SIP].proto == 17:  # a datagram of a UDP transmit port
            p = ports.index(int.from_bytes(b[34:36], "big"))
            k = len(udp_sent[p])
            assert k < len(udp_exp[p]), f"{where}: a datagram more than port {p} was asked for"
            assert b == udp_exp[p][k], (
                f"{where}: port {p} datagram {k} is not {udp_exp[p][k][:64].hex()}"
            )
            udp_sent[p].append(b)
            continue
        assert SIP in e and ICMP in e, f"{where}: neither ARP, UDP nor ICMP over IPv4"
        ip = e[SIP]
        assert ip.version == 4 and ip.src == "192.0.2.1", where
        assert ip.len <= len(b) - 14, f"{where}: total length {ip.len} beyond the frame"
        hdr = b[14 : 14 + 4 * ip.ihl]
        assert ones_sum(hdr) == 0xFFFF, f"{where}: IP header checksum"
        assert ones_sum(b[14 + 4 * ip.ihl : 14 + ip.len]) == 0xFFFF, f"{where}: ICMP checksum"
        t = e[ICMP].type
        assert t in (0, 3), f"{where}: ICMP type {t}"
        if t == 0:
            k = kinds["echo_reply"]
            assert k < len(exp.icmp_replies), f"{where}: echo reply beyond the model's"
            want = exp.icmp_replies[k]
            assert b == want, f"{where}: echo reply {k} is not the model's {want[:64].hex()}"
        kinds["echo_reply" if t == 0 else "unreach"] += 1
    assert kinds["echo_reply"] == cnt["icmp_replies"], f"{kinds} against the counters {cnt}"
    assert kinds["unreach"] == cnt["icmp_unreach_sent"], kinds
    assert kinds["arp_reply"] == cnt["arp_reply_tx"], kinds
    assert kinds["echo_reply"] == len(exp.icmp_replies), kinds
    for p in range(len(ports)):
        assert len(udp_sent[p]) == len(udp_exp[p]), f"port {p}: {len(udp_sent[p])} datagrams sent"
    # ARP replies: the model's for the requests arp_rx took, byte for byte and in order
    # (a subsequence: the ones left out are requests dropped as overruns)
    it = iter(exp.arp_replies)
    for k, b in enumerate(arp_sent):
        assert any(b == r for r in it), f"ARP reply {k} ({b.hex()}) not the model's, in order"
    missed = len(exp.arp_replies) - len(arp_sent)
    assert 0 <= missed <= cnt["arp_rx_overrun"] <= exp.arp_wellformed, (missed, cnt)
    assert kinds["aborted"] == exp.icmp_aborted_frames, kinds


def run_fuzz(width: int, seed: int, n: int, tmp: Path, np: int = 2) -> None:
    ports = udp_ports(np)
    exe = build(width, np)
    frames = make_frames(seed, n, ports)
    fin, fout = tmp / "frames.bin", tmp / "out.txt"
    write_frames(fin, frames)
    # each UDP transmit port sends up to n / 10 datagrams while the input lasts
    r = verilator_build.run(exe, fin, fout, seed, n // 10, check=False)
    text = fout.read_text() if fout.exists() else ""
    assert r.returncode == 0, f"driver exit {r.returncode}: {text[-500:]} {r.stderr[-500:]}"
    exp = model(frames, ports)
    got_udp: list[list[tuple[str, int]]] = [[] for _ in ports]
    got_raw: list[tuple[str, int]] = []
    got_tx: list[tuple[int, bytes]] = []
    reqs: list[list[tuple[str, str, int, bytes]]] = [[] for _ in ports]
    cnt: dict[str, int] = {}
    tx_seen = -1
    for line in text.splitlines():
        w = line.split(" ")
        if w[0] == "U":
            got_udp[int(w[1])].append((" ".join(w[3:]), int(w[2])))
        elif w[0] == "R":
            got_raw.append((" ".join(w[2:]), int(w[1])))
        elif w[0] == "C":
            cnt[w[1]] = int(w[2])
        elif w[0] == "X":
            got_tx.append((int(w[1]), bytes.fromhex(w[2]) if w[2] != "-" else b""))
        elif w[0] == "T":
            tx_seen = int(w[1])
        elif w[0] == "S":
            ip = ".".join(str(x) for x in bytes.fromhex(w[3]))
            reqs[int(w[1])].append(
                (bytes.fromhex(w[2]).hex(":"), ip, int(w[4]), bytes.fromhex(w[5]))
            )
    for p in range(np):
        g, e = got_udp[p], exp.udp[p]
        assert len(g) == len(e), f"port {p}: {len(g)} datagrams out, model says {len(e)}"
        for i, (gi, ei) in enumerate(zip(g, e, strict=True)):
            if ei[1] == 0:  # the model says good: must be delivered exactly, as good
                assert gi == ei, f"port {p} datagram {i}: {gi[0][:120]} != {ei[0][:120]}"
            else:  # bad: must never be marked good
                assert gi[1] == 1, f"port {p} datagram {i}: bad datagram delivered as good"
                assert gi[0].split(" ")[:5] == ei[0].split(" ")[:5], f"port {p} #{i} header"
    assert len(got_raw) == len(exp.raw)
    for gi, ei in zip(got_raw, exp.raw, strict=True):
        assert gi[1] == ei[1]
        if ei[1] == 0:
            assert gi[0] == ei[0]
    for k, v in exp.cnt.items():
        assert cnt[k] == v, f"cnt_{k}: {cnt[k]}, model says {v}"
    for k in cnt:
        if k.startswith(("eth_", "ip_", "udp_")) and k not in exp.cnt:
            assert cnt[k] == 0, f"cnt_{k}: {cnt[k]}, model says 0"
    # every ICMP message reaching icmp_echo lands in exactly one of its four counters,
    # the model's
    icmp_out = ("icmp_replies", "icmp_aborted", "icmp_dropped", "icmp_bad_csum")
    assert sum(cnt[k] for k in icmp_out) == exp.icmp_in
    for k in icmp_out:
        assert cnt[k] == exp.cnt[k], f"cnt_{k}: {cnt[k]}, model says {exp.cnt[k]}"
    # every closed-port datagram is answered with a port unreachable or counted as not
    # answered (broadcast, rate limit of 255 without a millisecond tick, or busy)
    closed = cnt["udp_closed_port"]
    assert cnt["icmp_unreach_sent"] + cnt["icmp_unreach_dropped"] == closed
    assert 0 < cnt["icmp_unreach_sent"] <= 255 or closed == 0
    assert tx_seen == cnt["tx_frames"], f"{tx_seen} frames left, cnt_tx_frames {cnt['tx_frames']}"
    assert all(len(r) > 0 for r in reqs), "the transmit ports sent nothing"
    check_tx(got_tx, cnt, exp, udp_expected(reqs, ports), ports)
    check_tshark([b for tu, b in got_tx if not tu], tmp / "tx.pcap")


def check_tshark(frames: list[bytes], pcap: Path) -> None:
    """Every frame sent (not aborted), padded to 60 bytes as the MAC sends it, passes
    tshark with IPv4 and UDP checksum checks on (ICMP's are always checked): no
    malformed frame, no bad checksum, no other expert warning. UDP payloads are decoded
    as data (random ports would otherwise wake payload heuristics), and ARP's
    duplicate-address detection is off (the fuzz's mutated requests from one IP carry
    many sender MACs, each answered)."""
    from scapy.layers.l2 import Ether
    from scapy.utils import wrpcap
    from tshark_check import assert_tshark_clean

    wrpcap(str(pcap), [Ether(b.ljust(60, b"\0")) for b in frames])
    assert_tshark_clean(
        pcap, "-d", "udp.port==1-65535,data", "-o", "arp.detect_duplicate_ips:FALSE", strict=True
    )


@pytest.mark.parametrize("n", FRAMES)
@pytest.mark.parametrize("width", [8, 64])
def test_stack_fuzz(width: int, n: int, tmp_path: Path) -> None:
    run_fuzz(width, seed=1000 + width, n=n, tmp=tmp_path)


@pytest.mark.parametrize("n", PORT_FRAMES)
@pytest.mark.parametrize("np", [1, 3])
def test_stack_fuzz_ports(np: int, n: int, tmp_path: Path) -> None:
    """The stack with one and with three UDP ports (8 bits)."""
    run_fuzz(8, seed=2000 + np, n=n, tmp=tmp_path, np=np)
