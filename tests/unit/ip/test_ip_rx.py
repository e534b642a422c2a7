"""ip_rx: every header check with its exact count of event strobes (cnt_ev), IP
options, Ethernet padding, broadcasts, truncation, MAC-flagged frames, backpressure; at
DATA_W 8 and 64; with TCP = 1, TCP segments (protocol 6) on the TCP port among the rest.

scapy builds every packet (checksums included) and parses the accepted ones to produce
the expected header-bus fields and payload bytes.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge
from scapy.layers.inet import ICMP, IP, TCP, UDP, IPOption_NOP, IPOption_Router_Alert, IPOption_RR
from scapy.packet import Raw
from unit.cnt_ev_mon import EvMon
from unit.eth.rxtb import HdrSource, PortMon, drain, frame, ip_int, mac_int, start, wait_idle

MY_IP = "192.0.2.1"
MASK = "255.255.255.0"
PEER_IP = "192.0.2.77"
PEER_MAC = "02:00:00:00:00:99"
FIELDS = ["src_mac", "src_ip", "dst_ip", "protocol", "len", "broadcast"]
# cnt_ev bits
EV_NAMES = [
    "packets", "runt", "bad_hdr", "bad_csum", "bad_len", "not_for_us", "fragment", "bad_proto",
    "truncated",
]  # fmt: skip


def csum(b: bytes) -> int:
    if len(b) % 2:
        b += b"\0"
    s = sum(int.from_bytes(b[i : i + 2], "big") for i in range(0, len(b), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def with_ihl(pkt: bytes, ihl: int) -> bytes:
    """Rewrite the IHL nibble and recompute the checksum over 20 bytes."""
    b = bytearray(pkt)
    b[0] = (b[0] & 0xF0) | ihl
    b[10:12] = b"\0\0"
    b[10:12] = csum(bytes(b[:20])).to_bytes(2, "big")
    return bytes(b)


def make(rng: random.Random, kind: str, tcp: bool = False) -> tuple[bytes, str]:
    """(IP packet bytes as eth_rx delivers them, expected: icmp/udp/tcp/trunc_*/reason).
    ``tcp``: the block accepts protocol 6 (TCP = 1), so it is no bad protocol."""
    plen = rng.choice([0, 1, 7, 8, 9, 18, 26, 64, rng.randint(0, 200)])
    if kind in ("long", "trunc_long"):
        plen = rng.choice([228, 229, 247, 248, 249, rng.randint(250, 1400)])
    data = bytes(rng.getrandbits(8) for _ in range(plen))
    # options: none, NOP padding, or real ones with a length byte (Router Alert, Record
    # Route with 1..9 slots, padded by scapy with EOL), up to the longest header (IHL 15)
    opts = rng.choice(
        [
            [],
            [],
            [IPOption_NOP()] * (4 * rng.choice([1, 2, 10])),
            [IPOption_Router_Alert()],
            [IPOption_RR(routers=[f"198.51.100.{i + 1}" for i in range(rng.randint(1, 9))])],
            [
                IPOption_NOP(),
                IPOption_Router_Alert(),
                IPOption_NOP(),
                IPOption_NOP(),
                IPOption_NOP(),
            ],
        ]
    )
    dst = MY_IP
    if kind == "bcast":
        dst = rng.choice(["255.255.255.255", "192.0.2.255"])
    if kind == "not_for_us":
        dst = rng.choice(["192.0.2.2", "10.0.0.1", "192.0.3.255"])
    if kind == "dst_pos":
        # one byte off cfg_ip, the subnet broadcast or 255.255.255.255, in every position
        base = rng.choice([MY_IP, "192.0.2.255", "255.255.255.255"])
        dst = base
        if rng.random() < 0.7:
            octets = [int(x) for x in base.split(".")]
            i = rng.randrange(4)
            octets[i] ^= 1 << rng.randrange(8)
            dst = ".".join(str(x) for x in octets)
        ok = dst in (MY_IP, "192.0.2.255", "255.255.255.255")
        kind = "udp" if ok else "dst_off"
    ip = IP(src=PEER_IP, dst=dst, options=opts, id=rng.getrandbits(16), ttl=rng.randint(1, 255))
    if kind == "fragment":
        if rng.random() < 0.5:
            ip.flags = "MF"
        else:
            ip.frag = rng.randint(1, 8191)
    if kind == "bad_proto":
        p = ip.copy()
        p.proto = rng.choice([47, 50, 255] if tcp else [6, 47, 50, 255])
        b = bytes(p / Raw(data))
    elif kind in ("empty", "trunc_empty"):
        # total length = header length: an empty IP payload
        p = ip.copy()
        p.proto = rng.choice([1, 17])
        b = bytes(p)
    elif kind == "icmp":
        b = bytes(ip / ICMP(id=rng.getrandbits(16)) / Raw(data))
    elif kind == "tcp":
        seg = TCP(sport=rng.getrandbits(16), dport=rng.getrandbits(16), seq=rng.getrandbits(32))
        b = bytes(ip / seg / Raw(data))
    else:
        b = bytes(ip / UDP(sport=rng.getrandbits(16), dport=rng.getrandbits(16)) / Raw(data))
    exp = {"bcast": "udp", "long": "udp"}.get(kind, kind)
    if kind == "dst_off":
        exp = "not_for_us"
    if kind == "empty":
        exp = "icmp" if b[9] == 1 else "udp"
    if kind == "bad_csum":
        bb = bytearray(b)
        bb[10] ^= 1 << rng.randint(0, 7)
        b = bytes(bb)
    elif kind == "bad_hdr":
        if rng.random() < 0.5:
            bb = bytearray(b)
            bb[0] = (rng.choice([0, 5, 6, 15]) << 4) | (bb[0] & 15)
            bb[10:12] = b"\0\0"
            ihl = bb[0] & 15
            bb[10:12] = csum(bytes(bb[: ihl * 4])).to_bytes(2, "big")
            b = bytes(bb)
        else:
            b = with_ihl(b, rng.randint(0, 4))
    elif kind == "bad_len":
        bb = bytearray(b)
        ihl = bb[0] & 15
        bb[2:4] = rng.randint(0, ihl * 4 - 1).to_bytes(2, "big")
        bb[10:12] = b"\0\0"
        bb[10:12] = csum(bytes(bb[: ihl * 4])).to_bytes(2, "big")
        b = bytes(bb)
    elif kind == "runt":
        b = b[: rng.randint(1, (b[0] & 15) * 4 - 1)]
    elif kind == "trunc_empty":
        # the frame ends within the header of an empty packet: a runt
        b = b[: rng.randint(1, len(b) - 1)]
        exp = "runt"
    elif kind in ("trunc", "trunc_long"):
        hl = (b[0] & 15) * 4
        if len(b) > hl + 1:
            b = b[: rng.randint(hl, len(b) - 1)]
            exp = "trunc_" + ROUTES[b[9]]
    if exp in ("udp", "icmp", "tcp") and rng.random() < 0.5 and len(b) < 46:
        b = b + bytes(46 - len(b))  # Ethernet padding
    elif exp in ("udp", "icmp", "tcp") and rng.random() < 0.2:
        b = b + bytes(rng.randint(1, 9))  # padding beyond the minimum frame too
    return b, exp


ROUTES = {1: "icmp", 17: "udp", 6: "tcp"}  # the port a protocol leaves on
KINDS = [
    "udp",
    "udp",
    "icmp",
    "bcast",
    "bad_csum",
    "bad_hdr",
    "bad_len",
    "not_for_us",
    "fragment",
    "bad_proto",
    "runt",
    "trunc",
]
COUNTERS = {
    "runt": "runt",
    "bad_hdr": "bad_hdr",
    "bad_csum": "bad_csum",
    "bad_len": "bad_len",
    "not_for_us": "not_for_us",
    "fragment": "fragment",
    "bad_proto": "bad_proto",
}


async def dup_regs_equal(dut) -> None:
    """Every cycle: need_dup_reg and taking_dup_reg, the copies of ip_rx's `need` and
    `taking` kept for timing, equal them."""
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        assert int(dut.need_dup_reg.value) == int(dut.need.value), "need_dup_reg differs from need"
        assert int(dut.taking_dup_reg.value) == int(dut.taking.value), (
            "taking_dup_reg differs from taking"
        )


async def run_mix(
    dut, n: int, ready_p: float, hdr_p: float, seed: int, kinds: list[str] = KINDS
) -> dict[str, int]:
    """Send ``n`` packets of ``kinds``, check every output and every event strobe
    (cnt_ev); return the counts."""
    rng = random.Random(seed)
    tcp = int(dut.TCP.value) == 1
    if tcp:
        kinds = [*kinds, "tcp", "tcp"]
    src = await start(dut, {"cfg_ip": ip_int(MY_IP), "cfg_netmask": ip_int(MASK)})
    checker = cocotb.start_soon(dup_regs_equal(dut))
    evmon = EvMon(dut, EV_NAMES)
    hsrc = HdrSource(dut, "s", ["src_mac"])
    mons = {
        "icmp": PortMon(dut, "m_icmp", FIELDS, ready_p, hdr_p, seed=seed + 1),
        "udp": PortMon(dut, "m_udp", FIELDS, ready_p, hdr_p, seed=seed + 2),
    }
    if tcp:  # (the TCP port has no protocol field: it is 6)
        tcp_fields = [f for f in FIELDS if f != "protocol"]
        mons["tcp"] = PortMon(dut, "m_tcp", tcp_fields, ready_p, hdr_p, seed=seed + 3)
    else:
        dut.m_tcp_hdr_ready.value = 1
        dut.m_tcp_axis_tready.value = 1
    pkts = [make(rng, rng.choice(kinds), tcp) for _ in range(n)]
    bads = [rng.random() < 0.1 for _ in range(n)]
    macs = [mac_int(PEER_MAC) + rng.getrandbits(8) for _ in range(n)]
    for (b, _), bad, mac in zip(pkts, bads, macs, strict=True):
        hsrc.send({"src_mac": mac})
        await src.send(frame(b, bad))
    await wait_idle(src)
    exp: dict[str, list[tuple[bytes, int, int, bool]]] = {k: [] for k in mons}
    for (b, e), bad, mac in zip(pkts, bads, macs, strict=True):
        if e in ("udp", "icmp", "tcp"):
            exp[e].append((b, mac, int(bad), False))
        elif e.startswith("trunc_"):
            exp[e[6:]].append((b, mac, 1, True))
    await drain(dut, list(mons.values()), sum(len(v) for v in exp.values()))
    for k, mon in mons.items():
        assert len(mon.pkts) == len(exp[k]), f"{k}: {len(mon.pkts)} out, {len(exp[k])} expected"
        for p, (b, mac, tuser, _trunc) in zip(mon.pkts, exp[k], strict=True):
            ip = IP(b)
            hl = ip.ihl * 4
            want_hdr = {
                "src_mac": mac,
                "src_ip": ip_int(ip.src),
                "dst_ip": ip_int(ip.dst),
                "protocol": ip.proto,
                "len": ip.len - hl,
                "broadcast": int(ip.dst != MY_IP),
            }
            if k == "tcp":
                del want_hdr["protocol"]
            assert p.hdr == want_hdr
            want = b[hl : ip.len]
            assert bytes(p.data) == want, f"{k}: payload differs ({len(p.data)} vs {len(want)})"
            assert p.tuser == tuser
            assert p.hdr_cycle <= p.first_cycle
    want_cnt = {c: 0 for c in COUNTERS.values()}
    for _, e in pkts:
        if e in COUNTERS:
            want_cnt[COUNTERS[e]] += 1
    want_cnt["truncated"] = sum(e.startswith("trunc_") for _, e in pkts)
    want_cnt["packets"] = n
    assert evmon.counts() == want_cnt
    evmon.stop()
    checker.cancel()
    return want_cnt


@cocotb.test()
async def mix_full_rate(dut) -> None:
    """Random mix of valid, broadcast, optioned, padded and every kind of bad packet."""
    await run_mix(dut, 150, 1.0, 1.0, seed=21)


@cocotb.test()
async def mix_backpressure(dut) -> None:
    """The same with random tready / hdr_ready on both outputs."""
    await run_mix(dut, 80, 0.35, 0.5, seed=22)


@cocotb.test()
async def many_drops(dut) -> None:
    """More than 256 packets each of runts and truncated ones: every strobe exact."""
    got = await run_mix(dut, 560, 1.0, 1.0, seed=23, kinds=["runt", "trunc"])
    assert got["packets"] >= 256 and got["runt"] >= 256 and got["truncated"] >= 256


EDGE_KINDS = ["empty", "empty", "trunc_empty", "long", "trunc_long", "udp", "trunc", "dst_pos"]


@cocotb.test()
async def edge_lengths(dut) -> None:
    """Empty IP payloads (total length = header length, 20 bytes and with options,
    padded or not), runts of them, total lengths past 255 (both length bytes matter) and
    truncations of them; destinations one bit off cfg_ip, the subnet broadcast and
    255.255.255.255 in every byte."""
    await run_mix(dut, 90, 1.0, 1.0, seed=24, kinds=EDGE_KINDS)


@cocotb.test()
async def edge_lengths_backpressure(dut) -> None:
    """The same with random tready / hdr_ready on both outputs."""
    await run_mix(dut, 60, 0.4, 0.5, seed=25, kinds=EDGE_KINDS)


@pytest.mark.parametrize(
    ("data_w", "fifo_depth"),
    [(8, None), (64, None), (64, 8)],
    ids=["8", "64", "64-fifo8"],
)
def test_ip_rx(data_w: int, fifo_depth: int | None) -> None:
    """fifo_depth None: the default (64 beats at DATA_W 8, 16 at 64); 8 at DATA_W 64 is the
    smallest FIFO the parameter check allows (64 bytes, more than the longest header)."""
    import cocotb_run

    params = {"DATA_W": data_w}
    if fifo_depth is not None:
        params["FIFO_DEPTH"] = fifo_depth
    cocotb_run.run(
        "ip_rx",
        "test_ip_rx",
        parameters=params,
        testcase=[
            "mix_full_rate",
            "mix_backpressure",
            "edge_lengths",
            "edge_lengths_backpressure",
        ]
        + (["many_drops"] if data_w == 8 else []),
        test_dir=Path(__file__).parent,
    )


@pytest.mark.parametrize("data_w", [8, 64])
def test_ip_rx_tcp(data_w: int) -> None:
    """TCP = 1: protocol 6 leaves on m_tcp_* (header fields and payload exact), the other
    routes and every check as with TCP = 0."""
    import cocotb_run

    cocotb_run.run(
        "ip_rx",
        "test_ip_rx",
        parameters={"DATA_W": data_w, "TCP": 1},
        testcase=["mix_full_rate", "mix_backpressure"],
        test_dir=Path(__file__).parent,
    )
