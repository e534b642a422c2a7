"""udp_rx: port demultiplexing, checksum (pseudo-header, zero = none), lengths, closed
ports (counter and strobe), flagged input, backpressure; cut-through (tuser on bad
datagrams) and store-and-forward (bad datagrams dropped) at DATA_W 8 and 64; busy ports
(BUSY_WAIT): a port that does not take a header in time loses that datagram (counted)
while the other ports keep receiving; the checksum check switched off (cfg_csum_check).
Every event strobe (cnt_ev) is counted and checked exactly.

scapy builds every datagram; checksums come from scapy's in4_chksum over the
pseudo-header, so the expected verdicts do not come from the code under test.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge
from scapy.layers.inet import IP, UDP, in4_chksum
from scapy.packet import Raw
from unit.cnt_ev_mon import EvMon
from unit.eth.rxtb import HdrSource, PortMon, drain, frame, ip_int, start, wait_idle

MY_IP = "192.0.2.1"
PORTS = [7, 5000, 0, 40000]  # slot 2 is closed (0)
FIELDS = ["src_mac", "src_ip", "src_port", "dst_port", "len"]
CAP_BYTES = 256  # store-and-forward buffer used in the test
# cnt_ev bits
EV_NAMES = ["datagrams", "bad_len", "closed_port", "bad_csum", "err_in", "oversize", "busy_drop"]


def datagram(src: str, dst: str, sport: int, dport: int, data: bytes, zero: bool) -> bytes:
    u = bytearray(bytes(UDP(sport=sport, dport=dport, len=8 + len(data), chksum=0) / Raw(data)))
    if not zero:
        c = in4_chksum(17, IP(src=src, dst=dst), bytes(u))
        u[6:8] = (c or 0xFFFF).to_bytes(2, "big")
    return bytes(u)


def make(rng: random.Random, kind: str, sf: bool, dports: list[int] | None = None) -> dict:
    src = f"198.51.100.{rng.randint(1, 254)}"
    dst = rng.choice([MY_IP, "255.255.255.255"])
    open_ports = dports if dports is not None else [p for p in PORTS if p]
    dport = rng.choice(open_ports)
    n = rng.choice([0, 1, 7, 8, 9, 15, 16, 17, 64, rng.randint(0, 240)])
    if kind == "oversize":
        n = rng.randint(CAP_BYTES - 7, CAP_BYTES + 40)
    if kind == "short_in":
        n = rng.randint(1, 64)
    data = bytes(rng.getrandbits(8) for _ in range(n))
    zero = kind == "good" and rng.random() < 0.2
    if kind == "closed":
        dport = rng.choice([1, 8, 4999, 65535])
    if kind == "bad_pseudo":
        # the checksum made over a pseudo-header whose source or destination IP differs
        # in one bit from the one the datagram arrives with (each byte of either address
        # enters the sum in its own beat at 8 bits)
        k = rng.randrange(64)
        addr = [int.from_bytes(bytes(map(int, a.split("."))), "big") for a in (src, dst)]
        addr[k // 32] ^= 1 << (k % 32)
        alt = [".".join(str(x) for x in a.to_bytes(4, "big")) for a in addr]
        b = datagram(alt[0], alt[1], rng.getrandbits(16), dport, data, False)
    elif kind == "csum_ffff":
        # a datagram whose one's-complement sum is 0: its checksum is sent as 0xFFFF
        # (RFC 768; 0 means none) and must verify as good. The last data word (at an even
        # offset) is set to the checksum computed with it at 0, which makes the sum 0xFFFF
        n2 = rng.randrange(2, 200, 2)
        sport = rng.getrandbits(16)
        data = bytes(rng.getrandbits(8) for _ in range(n2 - 2)) + b"\0\0"
        c = int.from_bytes(datagram(src, dst, sport, dport, data, False)[6:8], "big")
        b = datagram(src, dst, sport, dport, data[:-2] + c.to_bytes(2, "big"), False)
        assert b[6:8] == b"\xff\xff", b[6:8]
    else:
        b = datagram(src, dst, rng.getrandbits(16), dport, data, zero)
    ip_len = len(b)
    exp = "bad_csum" if kind == "bad_pseudo" else "good"
    if kind == "extra":  # IP payload longer than the UDP length: the rest is ignored
        b = b + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 9)))
        ip_len = len(b)
    elif kind == "bad_csum":
        # flip one bit of the source port or the data (not the length, port or checksum
        # fields, so the checksum is the only thing wrong)
        bb = bytearray(b)
        k = rng.choice([0, 1] + list(range(8, len(bb))))
        bb[k] ^= 1 << rng.randint(0, 7)
        b = bytes(bb)
        exp = "bad_csum"
    elif kind == "short_len":
        bb = bytearray(b)
        bb[4:6] = rng.randint(0, 7).to_bytes(2, "big")
        b = bytes(bb)
        exp = "bad_len"
    elif kind == "long_len":
        bb = bytearray(b)
        bb[4:6] = (len(b) + rng.randint(1, 100)).to_bytes(2, "big")
        b = bytes(bb)
        exp = "bad_len"
    elif kind == "short_in":
        # the input ends before the UDP length (and the IP length) without being flagged
        # bad: never good (cut-through: what came, tuser = 1; counted as arrived bad)
        b = b[: rng.randint(8, len(b) - 1)]
        exp = "err_in"
    elif kind == "runt":
        b = b[: rng.randint(1, 7)]
        ip_len = len(b)
        exp = "bad_len"
    elif kind == "closed":
        exp = "closed"
    elif kind == "oversize":
        exp = "oversize" if (sf and len(b) > CAP_BYTES) else "good"
    bad_in = kind == "err_in"
    if bad_in:
        exp = "err_in"
    return {
        "bytes": b,
        "ip_len": ip_len,
        "src": src,
        "dst": dst,
        "mac": rng.getrandbits(48),
        "exp": exp,
        "bad_in": bad_in,
    }


KINDS = [
    "good",
    "good",
    "good",
    "csum_ffff",
    "extra",
    "bad_csum",
    "bad_pseudo",
    "short_len",
    "long_len",
    "runt",
    "closed",
    "err_in",
    "oversize",
    "short_in",
]


# per-port application behaviour: (tready probability, hdr_ready probability, hdr_delay)
PortCfg = tuple[float, float, int | None]


async def run_mix(
    dut,
    n: int,
    ready_p: float,
    hdr_p: float,
    seed: int,
    kinds: list[str] = KINDS,
    ports: list[PortCfg] | None = None,
    busy: frozenset[int] = frozenset(),
    dports: list[int] | None = None,
    csum_check: bool = True,
) -> dict[str, int]:
    """Send ``n`` datagrams of ``kinds``, check every output, the closed-port strobes and
    every event strobe; return the counts. With ``csum_check`` false the check is off
    (cfg_csum_check = 0): a datagram with a bad checksum is a good one.

    ``ports`` overrides ``ready_p``/``hdr_p`` per port (PortMon's hdr_delay included);
    the datagrams for the ports in ``busy`` must all be dropped as busy (cnt_busy_drop),
    everything else delivered as usual."""
    sf = int(dut.STORE_FWD.value) == 1
    rng = random.Random(seed)
    cfg_ports = sum(p << (16 * i) for i, p in enumerate(PORTS))
    src = await start(dut, {"cfg_udp_port": cfg_ports, "cfg_csum_check": int(csum_check)})
    evmon = EvMon(dut, EV_NAMES)
    hsrc = HdrSource(dut, "s", ["src_mac", "src_ip", "dst_ip", "len", "broadcast"])
    cfgs = ports if ports is not None else [(ready_p, hdr_p, None)] * len(PORTS)
    mons = [
        PortMon(dut, "m", FIELDS, rp, hp, index=i, nports=len(PORTS), seed=seed + i, hdr_delay=hd)
        for i, (rp, hp, hd) in enumerate(cfgs)
    ]
    closed: list[tuple[int, int, int, int, int, int]] = []

    async def watch_closed() -> None:
        while True:
            await RisingEdge(dut.clk)
            if int(dut.closed_valid.value):
                closed.append(
                    tuple(
                        int(getattr(dut, f"closed_{f}").value)
                        for f in (
                            "src_mac",
                            "src_ip",
                            "dst_ip",
                            "src_port",
                            "dst_port",
                            "broadcast",
                        )
                    )
                )

    async def dup_regs_equal() -> None:
        """Every cycle: taking_dup_reg, the copy of udp_rx's `taking` kept for timing,
        equals it."""
        while True:
            await RisingEdge(dut.clk)
            await ReadOnly()
            assert int(dut.taking_dup_reg.value) == int(dut.taking.value), (
                "taking_dup_reg differs from taking"
            )

    cocotb.start_soon(watch_closed())
    cocotb.start_soon(dup_regs_equal())
    dgs = [make(rng, rng.choice(kinds), sf, dports) for _ in range(n)]
    if not csum_check:
        for d in dgs:
            if d["exp"] == "bad_csum":
                d["exp"] = "good"
    for d in dgs:
        hsrc.send(
            {
                "src_mac": d["mac"],
                "src_ip": ip_int(d["src"]),
                "dst_ip": ip_int(d["dst"]),
                "len": d["ip_len"],
                "broadcast": int(d["dst"] != MY_IP),
            }
        )
        await src.send(frame(d["bytes"], d["bad_in"]))
    await wait_idle(src)
    exp: list[list[tuple[dict, int]]] = [[] for _ in PORTS]
    for d in dgs:
        e = d["exp"]
        delivered = e == "good" or (not sf and e in ("bad_csum", "err_in"))
        if delivered:
            dport = int.from_bytes(d["bytes"][2:4], "big")
            exp[PORTS.index(dport)].append((d, int(e != "good")))
    busy_drops = sum(len(exp[k]) for k in busy)
    for k in busy:
        exp[k] = []
    await drain(dut, mons, sum(len(x) for x in exp))
    for i, mon in enumerate(mons):
        assert len(mon.pkts) == len(exp[i]), f"port {i}: {len(mon.pkts)} out, {len(exp[i])} exp"
        for p, (d, tuser) in zip(mon.pkts, exp[i], strict=True):
            b = d["bytes"]
            ulen = int.from_bytes(b[4:6], "big")
            assert p.hdr == {
                "src_mac": d["mac"],
                "src_ip": ip_int(d["src"]),
                "src_port": int.from_bytes(b[0:2], "big"),
                "dst_port": int.from_bytes(b[2:4], "big"),
                "len": ulen - 8,
            }
            assert bytes(p.data) == b[8:ulen], f"port {i}: payload differs"
            assert p.tuser == tuser, f"port {i}: tuser {p.tuser}, expected {tuser}"
            assert p.hdr_cycle <= p.first_cycle
    want = {
        "datagrams": n,
        "bad_len": sum(d["exp"] == "bad_len" for d in dgs),
        "closed_port": sum(d["exp"] == "closed" for d in dgs),
        "bad_csum": sum(d["exp"] == "bad_csum" for d in dgs),
        "err_in": sum(d["exp"] == "err_in" for d in dgs),
        "oversize": sum(d["exp"] == "oversize" for d in dgs),
        "busy_drop": busy_drops,
    }
    assert evmon.counts() == want
    evmon.stop()
    want_closed = [
        (
            d["mac"],
            ip_int(d["src"]),
            ip_int(d["dst"]),
            int.from_bytes(d["bytes"][0:2], "big"),
            int.from_bytes(d["bytes"][2:4], "big"),
            int(d["dst"] != MY_IP),
        )
        for d in dgs
        if d["exp"] == "closed"
    ]
    assert closed == want_closed
    return want


@cocotb.test()
async def mix_full_rate(dut) -> None:
    """Random mix of good and bad datagrams, applications always ready."""
    await run_mix(dut, 120, 1.0, 1.0, seed=31)


@cocotb.test()
async def mix_backpressure(dut) -> None:
    """The same with random tready / hdr_ready on every port."""
    await run_mix(dut, 70, 0.3, 0.5, seed=32)


@cocotb.test()
async def csum_check_off(dut) -> None:
    """cfg_csum_check = 0 (NET.ENABLES.UDP_CSUM_CHECK): datagrams with a bad checksum come
    out as good ones (no tuser, not dropped, not counted as bad_csum); the other checks
    stand."""
    got = await run_mix(dut, 80, 1.0, 1.0, seed=38, kinds=["good", "bad_csum", "runt", "closed"],
                        csum_check=False)  # fmt: skip
    assert got["bad_csum"] == 0 and got["datagrams"] == 80


@cocotb.test()
async def many_drops(dut) -> None:
    """More than 256 datagrams each of short ones and ones to closed ports: every strobe
    exact."""
    got = await run_mix(dut, 560, 1.0, 1.0, seed=33, kinds=["runt", "closed"])
    assert got["datagrams"] >= 256 and got["bad_len"] >= 256 and got["closed_port"] >= 256


@cocotb.test()
async def wait_forever(dut) -> None:
    """BUSY_WAIT < 0 (the default): a port that takes each header only after 300 cycles
    still gets every datagram (nothing dropped, cnt_busy_drop 0); the others wait."""
    assert dut.BUSY_WAIT.value.to_signed() < 0
    ports: list[PortCfg] = [(0.7, 0.0, 300), (1.0, 1.0, None), (1.0, 1.0, None), (0.5, 0.5, None)]
    got = await run_mix(dut, 40, 1.0, 1.0, seed=37, ports=ports)
    assert got["busy_drop"] == 0


@cocotb.test()
async def busy_never(dut) -> None:
    """BUSY_WAIT >= 0: port 0 never takes a header (its tready is high, so a leaked
    payload beat would show up as a beat without header): every datagram for it is
    dropped and counted; port 1 is slow within BUSY_WAIT, port 3 always takes headers;
    both with random payload backpressure, and both get everything byte-exact."""
    bw = int(dut.BUSY_WAIT.value)
    ports: list[PortCfg] = [(1.0, 0.0, None), (0.5, 0.0, bw), (1.0, 0.0, None), (0.6, 1.0, None)]
    got = await run_mix(dut, 70, 1.0, 1.0, seed=34, ports=ports, busy=frozenset({0}))
    assert got["busy_drop"] >= 3


@cocotb.test()
async def busy_boundary(dut) -> None:
    """BUSY_WAIT >= 1, payload always taken: a port that takes the header in the
    header's cycle BUSY_WAIT gets every datagram, one a cycle later (port 0) none."""
    bw = int(dut.BUSY_WAIT.value)
    assert bw >= 1
    ports: list[PortCfg] = [(1.0, 0.0, bw + 1), (1.0, 0.0, bw), (1.0, 0.0, None), (1.0, 0.0, 0)]
    got = await run_mix(dut, 70, 1.0, 1.0, seed=35, ports=ports, busy=frozenset({0}))
    assert got["busy_drop"] >= 3


@cocotb.test()
async def busy_many(dut) -> None:
    """More than 256 datagrams dropped for a port that never takes a header, each
    counted (busy_drop); port 1 keeps receiving."""
    ports: list[PortCfg] = [(1.0, 0.0, None), (0.8, 1.0, None), (1.0, 0.0, None), (1.0, 0.0, None)]
    got = await run_mix(
        dut,
        400,
        1.0,
        1.0,
        seed=36,
        ports=ports,
        busy=frozenset({0}),
        kinds=["good"],
        dports=[7, 7, 7, 7, 5000],
    )
    assert got["busy_drop"] >= 256


@pytest.mark.parametrize("store_fwd", [0, 1])
@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_rx(data_w: int, store_fwd: int) -> None:
    import cocotb_run

    params = {"DATA_W": data_w, "NUM_PORTS": len(PORTS), "STORE_FWD": store_fwd}
    if store_fwd:
        params["FIFO_DEPTH"] = CAP_BYTES // (data_w // 8)
    cocotb_run.run(
        "udp_rx",
        "test_udp_rx",
        parameters=params,
        testcase=["mix_full_rate", "mix_backpressure", "wait_forever", "csum_check_off"],
        test_dir=Path(__file__).parent,
    )


def test_udp_rx_many() -> None:
    import cocotb_run

    params = {"DATA_W": 8, "NUM_PORTS": len(PORTS), "STORE_FWD": 0}
    cocotb_run.run(
        "udp_rx",
        "test_udp_rx",
        parameters=params,
        testcase="many_drops",
        test_dir=Path(__file__).parent,
    )


@pytest.mark.parametrize("store_fwd", [0, 1])
@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_rx_busy(data_w: int, store_fwd: int) -> None:
    import cocotb_run

    params = {"DATA_W": data_w, "NUM_PORTS": len(PORTS), "STORE_FWD": store_fwd, "BUSY_WAIT": 3}
    if store_fwd:
        params["FIFO_DEPTH"] = CAP_BYTES // (data_w // 8)
    cocotb_run.run(
        "udp_rx",
        "test_udp_rx",
        parameters=params,
        testcase=["busy_never", "busy_boundary"],
        test_dir=Path(__file__).parent,
    )


def test_udp_rx_busy_many() -> None:
    import cocotb_run

    params = {"DATA_W": 8, "NUM_PORTS": len(PORTS), "STORE_FWD": 0, "BUSY_WAIT": 0}
    cocotb_run.run(
        "udp_rx",
        "test_udp_rx",
        parameters=params,
        testcase=["busy_many", "busy_never"],
        test_dir=Path(__file__).parent,
    )
