"""ipbus_target against the Python reference model of IPbus 2.0 (wirecore.ipbus.TargetModel).

Requests are built with wirecore.ipbus, driven into the target's UDP application port
with cocotbext-axi, and every reply is compared byte for byte with the model's reply for
the same request, the register-bus slave's memory with the model's, and the target's
event strobes (cnt_ev, counted) with the model's counters (and with hand-counted numbers
for the hostile cases).
"""

from __future__ import annotations

import random
import struct
import sys
from pathlib import Path

import cocotb
from cocotb.triggers import ClockCycles

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ctrl"))

from ipbus_tb import CLIENT_IP, CLIENT_MAC, CLIENT_PORT, TARGET_PORT, IPbusTB  # noqa: E402
from unit.cnt_ev_mon import EvMon  # noqa: E402
from wirecore import ipbus as ipb  # noqa: E402
from wirecore.ipbus import (  # noqa: E402
    CONF_READ,
    NI_READ,
    NI_WRITE,
    READ,
    RMW_BITS,
    RMW_SUM,
    WRITE,
    DictBus,
    TargetModel,
    Transaction,
    build_request,
)

CONF_BASE = 0x1000
NBUF = 4
PARAMS = {"NBUF": NBUF, "BUS_TIMEOUT_MS": 2, "CONF_BASE": CONF_BASE, "RX_AW": 12}


def is_err(a: int) -> bool:
    return 0x8000 <= a < 0x8100


def is_timeout(a: int) -> bool:
    return 0x9000 <= a < 0x9010


def new_bus() -> DictBus:
    return DictBus(err=is_err, timeout=is_timeout)


class Harness:
    """The RTL (through IPbusTB) and the model side by side."""

    def __init__(self, dut: object, seed: int = 1, allow: list[int] | None = None) -> None:
        self.tb = IPbusTB(dut, new_bus(), seed=seed, reg_latency=(1, 3))
        self.model = TargetModel(new_bus(), nbuf=NBUF, conf_base=CONF_BASE, allow=allow)
        self.expected: list[bytes] = []
        self.dests: list[int] = []
        self.dut = dut
        dut.cfg_allow_en.value = 1 if allow is not None else 0
        ips = (allow or []) + [0] * (4 - len(allow or []))
        dut.cfg_allow_ip.value = sum(ip << (32 * i) for i, ip in enumerate(ips))

    async def start(self) -> None:
        await self.tb.start()
        # the target's event strobes (cnt_ev: the model's counters in bit order)
        self.ev = EvMon(self.dut, list(ipb.COUNTERS))

    async def send(
        self,
        payload: bytes,
        src_ip: int = CLIENT_IP,
        bad: bool = False,
        length: int | None = None,
    ) -> bytes | None:
        ref = self.model.handle(payload, src_ip, bad=bad or (length is not None))
        if ref is not None:
            self.expected.append(ref)
            self.dests.append(src_ip)
        await self.tb.send(payload, src_ip=src_ip, bad=bad, length=length)
        return ref

    async def check(self) -> None:
        """All replies so far equal the model's; memory and counters agree."""
        await self.tb.idle(400)
        got = await self.tb.wait_replies(len(self.expected))
        await ClockCycles(self.dut.clk, 400)
        assert len(self.tb.replies) == len(self.expected), (
            f"{len(self.tb.replies)} replies, model expects {len(self.expected)}"
        )
        for i, (g, e, ip) in enumerate(zip(got, self.expected, self.dests, strict=True)):
            assert g.payload == e, f"reply {i}:\n rtl   {g.payload.hex()}\n model {e.hex()}"
            assert g.length == len(e)
            assert (g.dst_ip, g.dst_port, g.src_port) == (ip, CLIENT_PORT, TARGET_PORT)
            assert (g.dst_mac, g.dst_mac_valid) == (CLIENT_MAC, 1)
        assert self.tb.bus is not None
        assert self.tb.bus.mem == self.model.bus.mem  # type: ignore[attr-defined]
        self.check_counters()

    def check_counters(self) -> None:
        """The target's strobes counted so far equal the model's counters."""
        got = self.ev.counts()
        for name, value in self.model.cnt.items():
            assert got[name] == value, f"{name}: rtl {got[name]}, model {value}"

    def cnt(self, name: str) -> int:
        return self.ev.count(name)


def rand_transaction(rng: random.Random, maxn: int = 20) -> Transaction:
    ty = rng.choice([READ, WRITE, NI_READ, NI_WRITE, RMW_BITS, RMW_SUM, CONF_READ])
    # mostly memory, sometimes the error and timeout regions
    r = rng.random()
    addr = rng.randrange(0x0, 0x200) if r < 0.9 else rng.randrange(0x80F0, 0x8100)
    if ty in (RMW_BITS, RMW_SUM):
        masks = (rng.getrandbits(32), rng.getrandbits(32))
        return Transaction(ty, addr, 1, masks=masks[: 2 if ty == RMW_BITS else 1])
    n = rng.randint(0, maxn)
    data = [rng.getrandbits(32) for _ in range(n)] if ty in (WRITE, NI_WRITE) else []
    return Transaction(ty, addr, n, data=data, tid=rng.getrandbits(12))


@cocotb.test()
async def every_type_both_orders(dut):
    """Each transaction type, alone and several per packet, big- and little-endian."""
    h = Harness(dut)
    await h.start()
    for le in (False, True):
        ts = [
            Transaction(WRITE, 0x10, 4, data=[0x11111111, 0x22222222, 0x33333333, 0xDEADBEEF]),
            Transaction(READ, 0x10, 4),
            Transaction(NI_WRITE, 0x20, 3, data=[1, 2, 3]),
            Transaction(NI_READ, 0x20, 3),
            Transaction(RMW_BITS, 0x11, 1, masks=(0xFFFF0000, 0x000000AB)),
            Transaction(RMW_SUM, 0x12, 1, masks=(0xFFFFFFFF,)),
            Transaction(CONF_READ, 0x10 - CONF_BASE & 0xFFFFFFFF, 2),
            Transaction(READ, 0x10, 4),
        ]
        for i, t in enumerate(ts):
            t.tid = 0x100 + i
            # each alone, then all in one packet
            await h.send(build_request(0, [t], le))
        await h.send(build_request(0, ts, le))
    await h.check()
    assert h.tb.bus.mem[0x11] == 0x222200AB  # type: ignore[union-attr]
    assert h.tb.bus.mem[0x12] == 0x33333333 - 1  # type: ignore[union-attr]
    # replies really are little-endian on the wire for a little-endian request
    assert h.tb.replies[-1].payload[:4] == b"\xf0\x00\x00\x20"


@cocotb.test()
async def random_packets(dut):
    """Random mixes of transactions (including bus errors) in random byte order."""
    h = Harness(dut, seed=7)
    await h.start()
    rng = random.Random(7)
    for _ in range(40):
        ts = [rand_transaction(rng) for _ in range(rng.randint(1, 6))]
        await h.send(build_request(0, ts, rng.random() < 0.5))
    await h.check()
    assert h.model.cnt["bus_errors"] > 0 and h.model.cnt["transactions"] > 100


@cocotb.test()
async def bus_error_and_timeout(dut):
    """Unmapped -> info 4/5 with words done; silent slave -> info 6/7; packet ends there."""
    h = Harness(dut)
    await h.start()
    await h.send(build_request(0, [Transaction(READ, 0x7FFC, 8), Transaction(READ, 0, 1)]))
    await h.send(build_request(0, [Transaction(WRITE, 0x7FFE, 4, data=[1, 2, 3, 4])]))
    await h.send(build_request(0, [Transaction(READ, 0x9000 - 3, 6)]))
    await h.send(build_request(0, [Transaction(WRITE, 0x8FFF, 2, data=[5, 6])]))
    await h.send(build_request(0, [Transaction(RMW_SUM, 0x9001, 1, masks=(1,))]))
    await h.send(build_request(0, [Transaction(READ, 0x40, 2)]))  # still alive
    await h.check()
    _, _, _, r = ipb.parse_reply(h.tb.replies[0].payload)
    assert len(r) == 1 and (r[0].info, r[0].words) == (ipb.BUS_ERR_READ, 4)
    _, _, _, r = ipb.parse_reply(h.tb.replies[2].payload)
    assert (r[0].info, r[0].words) == (ipb.BUS_TIMEOUT_READ, 3)
    _, _, _, r = ipb.parse_reply(h.tb.replies[3].payload)
    assert (r[0].info, r[0].words) == (ipb.BUS_TIMEOUT_WRITE, 1)
    assert h.cnt("bus_errors") == 2 and h.cnt("bus_timeouts") == 3


@cocotb.test()
async def reliability(dut):
    """Packet IDs, out-of-order IDs dropped, status reply, resend of stored replies."""
    h = Harness(dut)
    await h.start()
    w = [Transaction(RMW_SUM, 0x30, 1, masks=(1,))]
    await h.send(build_request(1, w))  # accepted
    await h.send(build_request(3, w))  # dropped: expects 2
    await h.send(build_request(1, w))  # dropped: duplicate
    await h.send(build_request(0, w))  # ID 0: always executed
    for pid in range(2, 8):  # 2..7 accepted; ring of 4 keeps 4..7
        await h.send(build_request(pid, w, little_endian=pid % 2 == 0))
    st = await h.send(ipb.status_request())
    for pid in (7, 4, 5, 3, 1):  # 3 and 1 are gone from the ring
        await h.send(ipb.resend_request(pid))
    await h.check()
    assert st is not None
    s = ipb.parse_status(st)
    assert (s.mtu, s.nbuf, s.next_id) == (1472, NBUF, 8)
    assert s.rx_headers[0] == ipb.packet_header(7) and s.tx_headers[0] == ipb.packet_header(7)
    rep = [r.payload for r in h.tb.replies]
    # replies: 1, 0, 2..7, status, resends of 7, 4, 5
    assert rep[-3] == rep[7] and rep[-2] == rep[4] and rep[-1] == rep[5]
    assert h.tb.bus.mem[0x30] == 8  # type: ignore[union-attr]  # executed exactly 8 times
    assert h.cnt("id_dropped") == 2 and h.cnt("resend_miss") == 2
    assert h.cnt("resend") == 3 and h.cnt("status") == 1


@cocotb.test()
async def burst_of_16(dut):
    """16 requests back to back with a slow, stalling reply path: all answered in order."""
    h = Harness(dut, seed=3)
    await h.start()
    h.tb.tx_ready_prob = 0.6
    rng = random.Random(3)
    for i in range(16):
        ts = [
            Transaction(WRITE, 0x100 + i, 2, data=[i, rng.getrandbits(32)]),
            Transaction(READ, 0x100, 16),
        ]
        await h.send(build_request(0, ts, little_endian=True))
    await h.check()


@cocotb.test()
async def burst_of_16_full_size(dut):
    """uHAL's worst case: 16 requests of 1400 bytes back to back. With RX_AW = 13 and
    one-cycle slaves the input never back-pressures; behind slow transactions it does,
    and still nothing is lost."""
    h = Harness(dut, seed=9)
    await h.start()
    rng = random.Random(9)

    def big(i: int) -> bytes:
        d1 = [rng.getrandbits(32) for _ in range(255)]
        d2 = [rng.getrandbits(32) for _ in range(90)]
        ts = [
            Transaction(WRITE, 0x400 * i, 255, data=d1),
            Transaction(WRITE, 0x400 * i + 255, 90, data=d2),
        ]
        pkt = build_request(0, ts, little_endian=True)
        assert len(pkt) == 1400
        return pkt

    for i in range(16):
        await h.send(big(i))
    await h.check()
    if int(dut.RX_AW.value) >= 13:
        # each header taken 2 cycles after the previous request's last byte
        assert max(h.tb.hdr_gaps[1:16]) <= 2, f"back-pressure: {h.tb.hdr_gaps}"
    # 20 requests that each wait for a bus timeout: the 16-entry queue fills up and
    # the input holds the sender back; every request is still answered, in order
    for i in range(20):
        await h.send(build_request(0, [Transaction(READ, 0x9000 + (i % 16), 1)]))
    await h.check()
    assert max(h.tb.hdr_gaps[17:]) > 100, h.tb.hdr_gaps


@cocotb.test()
async def allow_list(dut):
    """With the allow-list on, writes from other IPs get info 5 and never execute."""
    other = 0xC0000263
    h = Harness(dut, allow=[0x0A000001, CLIENT_IP])
    await h.start()
    await h.send(build_request(0, [Transaction(WRITE, 0x50, 1, data=[0xAAAA])]))
    await h.send(
        build_request(0, [Transaction(READ, 0x50, 1), Transaction(WRITE, 0x50, 1, data=[7])]),
        src_ip=other,
    )
    await h.send(build_request(0, [Transaction(RMW_BITS, 0x50, 1, masks=(0, 1))]), src_ip=other)
    await h.send(build_request(0, [Transaction(READ, 0x50, 1)]), src_ip=other)
    await h.check()
    assert h.tb.bus.mem[0x50] == 0xAAAA  # type: ignore[union-attr]
    assert h.cnt("wp_rejected") == 2
    _, _, _, r = ipb.parse_reply(h.tb.replies[1].payload)
    assert [(x.info, x.words) for x in r] == [(0, 1), (ipb.BUS_ERR_WRITE, 0)]


@cocotb.test()
async def hostile_input(dut):
    """Malformed, lying and oversized input: right info code or dropped and counted."""
    h = Harness(dut, seed=5)
    await h.start()
    hdr = struct.pack(">I", ipb.packet_header(0))
    good = build_request(0, [Transaction(READ, 0, 1)])
    await h.send(good[:6])  # not a whole number of words
    await h.send(good[:3])  # shorter than a header
    await h.send(b"\x10\x00\x00\xf0" + good[4:])  # wrong protocol version
    await h.send(b"\x20\x00\x00\xe0" + good[4:])  # bad byte-order qualifier
    await h.send(struct.pack(">I", 0x200000F3))  # unknown packet type
    await h.send(struct.pack("<I", 0x200000F1) + bytes(60))  # status must be big-endian
    await h.send(good, bad=True)  # tuser on the last byte
    await h.send(good, length=len(good) + 4)  # fewer bytes than announced
    await h.send(bytes(1476))  # over the MTU
    # a write announcing 10 words with 3 present: bad header, nothing written
    await h.send(hdr + struct.pack(">5I", ipb.transaction_header(1, 10, WRITE), 0x60, 1, 2, 3))
    await h.send(hdr + struct.pack(">2I", 0x3000010F, 0))  # transaction version 3
    await h.send(hdr + struct.pack(">2I", 0x20000100, 0))  # info code not 0xF
    await h.send(hdr + struct.pack(">2I", ipb.transaction_header(2, 1, 0x7), 0))  # type 7
    await h.send(hdr + struct.pack(">4I", ipb.transaction_header(3, 2, RMW_BITS), 0, 0, 0))
    await h.send(hdr + struct.pack(">I", ipb.transaction_header(4, 1, READ)))  # no address
    # a reply that would overflow the MTU: the second read is not executed
    await h.send(build_request(0, [Transaction(READ, 0, 255), Transaction(READ, 0, 255)]))
    await h.send(good)  # and the target still answers
    await h.check()
    c = h.model.cnt
    assert (c["rx_malformed"], c["rx_bad"], c["rx_oversize"]) == (6, 2, 1)
    assert (c["bad_header"], c["reply_overflow"]) == (6, 1)
    assert 0x60 not in h.tb.bus.mem  # type: ignore[union-attr]
    assert len(h.tb.replies) == 8


def test_ipbus_target() -> None:
    import cocotb_run

    cocotb_run.run("ipbus_target", "test_ipbus", parameters=PARAMS)


def test_ipbus_target_uhal_burst() -> None:
    import cocotb_run

    cocotb_run.run(
        "ipbus_target",
        "test_ipbus",
        parameters={**PARAMS, "RX_AW": 13},
        testcase="burst_of_16_full_size",
    )


def test_ipbus_target_64() -> None:
    """The same tests with a 64-bit datapath (10 Gbit/s stack)."""
    import cocotb_run

    cocotb_run.run("ipbus_target", "test_ipbus", parameters={**PARAMS, "DATA_W": 64, "RX_AW": 13})
