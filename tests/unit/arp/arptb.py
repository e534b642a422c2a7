"""Testbench helpers for the ARP engine: clock, reset, streams, lookups, millisecond ticks.

scapy builds every ARP frame sent to the module and parses every frame it sends;
cocotbext-axi drives and receives the AXI streams.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from scapy.layers.l2 import ARP, Ether
from unit.cnt_ev_mon import EvMon

OUR_MAC = "02:00:00:00:00:01"
OUR_IP = "192.168.10.2"
NETMASK = "255.255.255.0"
GATEWAY = "192.168.10.1"
BCAST_MAC = "ff:ff:ff:ff:ff:ff"
TICK_GAP = 40  # clock cycles between two tick_1ms strobes in the tests

COUNTERS = (
    "req_rx",
    "reply_tx",
    "req_tx",
    "garp_tx",
    "reply_rx",
    "malformed",
    "rx_overrun",
    "hit",
    "miss",
    "timeout",
    "expired",
    "evicted",
    "conflict",
    "req_refused",
)


def ip2int(ip: str) -> int:
    return int(ipaddress.IPv4Address(ip))


def mac2int(mac: str) -> int:
    return int(mac.replace(":", ""), 16)


def int2mac(v: int) -> str:
    return ":".join(f"{(v >> (8 * (5 - i))) & 0xFF:02x}" for i in range(6))


def set_of(ip: str, sets: int) -> int:
    """The documented cache set index: XOR of the four bytes, low log2(sets) bits."""
    b = ipaddress.IPv4Address(ip).packed
    return (b[0] ^ b[1] ^ b[2] ^ b[3]) & (sets - 1)


def arp_frame(
    op: int,
    src_mac: str,
    src_ip: str,
    dst_ip: str,
    eth_dst: str = BCAST_MAC,
    tha: str = "00:00:00:00:00:00",
) -> bytes:
    return bytes(
        Ether(dst=eth_dst, src=src_mac)
        / ARP(op=op, hwsrc=src_mac, psrc=src_ip, hwdst=tha, pdst=dst_ip)
    )


@dataclass
class Lookup:
    hit: bool
    mac: str
    latency: int  # cycles from the handshake cycle to the cycle arp_resp_valid is high


class ArpTB:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.width = len(dut.s_axis_tdata)
        cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
        self.ways = int(dut.WAYS.value)
        self.sets = int(dut.ENTRIES.value) // self.ways
        # documented lookup latency through the cache (docs/arp.md): the request is
        # registered, the set is read one way per cycle through a two-stage pipeline, then
        # the decision is registered
        self.lk_cycles = self.ways + 4
        # ... and at most this when a received frame's operation (WAYS + 3 cycles and the
        # cycle of its cache write) goes first
        self.lk_cycles_max = 2 * self.ways + 7
        # a repeated lookup of the last hit (REPEAT_LAT: 1, or 2 with the compare registered)
        self.repeat_cycles = int(dut.REPEAT_LAT.value)
        self.retries = int(dut.RETRIES.value)
        self.retry_ms = int(dut.RETRY_MS.value)
        self.expire_ms = int(dut.EXPIRE_MS.value)
        self.reval_ms = int(dut.REVALIDATE_MS.value)
        self.hold_ms = int(dut.GARP_HOLD_MS.value)
        # the event strobes (cnt_ev, COUNTERS in bit order), counted as counters would be
        self.evmon = EvMon(dut, list(COUNTERS))
        cocotb.start_soon(self._check_copies())

    async def _check_copies(self) -> None:
        """Every cycle out of reset, each register arp keeps as a copy for timing
        (<name>_dup_reg) equals what it copies: the age thresholds' times are now_reg - T
        + 1 (modulo the time stamps' width), ev_ready_dup_reg is ev_ready and
        u_tx.last_dup_reg is u_tx.last."""
        d = self.dut
        mod = 1 << len(d.now_reg)
        dups = {
            "expire_from_dup_reg": self.expire_ms,
            "reval_from_dup_reg": self.reval_ms,
            "retry_from_dup_reg": self.retry_ms,
        }
        while True:
            await FallingEdge(d.clk)
            if str(d.rst.value) != "0" or not str(d.now_reg.value).isdigit():
                continue  # not out of reset yet
            now = int(d.now_reg.value)
            for name, ms in dups.items():
                got, want = int(getattr(d, name).value), (now - ms + 1) % mod
                assert got == want, f"{name} {got} != now_reg - {ms} + 1 = {want}"
            for dup, plain in (
                (d.ev_ready_dup_reg, d.ev_ready),
                (d.u_tx.last_dup_reg, d.u_tx.last),
            ):
                assert int(dup.value) == int(plain.value), f"{dup._name} != {plain._name}"

    async def reset(self, ip: str = OUR_IP, mac: str = OUR_MAC, gateway: str = GATEWAY) -> None:
        d = self.dut
        d.rst.value = 1
        d.tick_1ms.value = 0
        d.cfg_mac.value = mac2int(mac)
        d.cfg_ip.value = ip2int(ip)
        d.cfg_netmask.value = ip2int(NETMASK)
        d.cfg_gateway.value = ip2int(gateway)
        d.cfg_answer.value = 1
        d.arp_req_valid.value = 0
        d.arp_req_ip.value = 0
        await ClockCycles(d.clk, 5)
        d.rst.value = 0
        await ClockCycles(d.clk, 20)

    async def start(self, expect_garp: bool = True) -> None:
        """Reset, let the start-up gratuitous ARP go out and check it."""
        await self.reset()
        await self.ms(self.hold_ms + 1)
        if expect_garp:
            f = await self.recv()
            check_garp(f, OUR_MAC, OUR_IP)
        await self.quiet()

    async def ms(self, n: int) -> None:
        """n millisecond ticks, TICK_GAP cycles apart."""
        for _ in range(n):
            self.dut.tick_1ms.value = 1
            await RisingEdge(self.dut.clk)
            self.dut.tick_1ms.value = 0
            await ClockCycles(self.dut.clk, TICK_GAP - 1)

    async def send(self, data: bytes, tuser: int = 0, wait: bool = True) -> None:
        """Send one frame; with ``wait``, return once its last beat has been taken."""
        await self.source.send(AxiStreamFrame(data, tuser=tuser))
        if wait:
            await self.source.wait()

    async def recv(self, timeout: int = 2000) -> Ether:
        """The next frame the module sends, parsed by scapy (fails after timeout cycles)."""
        for _ in range(timeout):
            if not self.sink.empty():
                frame = self.sink.recv_nowait()
                assert not frame.tuser, "frame sent with tuser set"
                return Ether(bytes(frame.tdata))
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"no frame within {timeout} cycles")

    async def quiet(self, cycles: int = 300) -> None:
        """Assert the module sends nothing for ``cycles`` cycles."""
        for _ in range(cycles):
            await RisingEdge(self.dut.clk)
            assert self.sink.empty(), (
                f"unexpected frame: {Ether(bytes(self.sink.recv_nowait().tdata)).summary()}"
            )

    async def take_lookup(self, ip: str) -> None:
        """Offer a lookup of ``ip`` until the module takes it."""
        d = self.dut
        d.arp_req_ip.value = ip2int(ip)
        d.arp_req_valid.value = 1
        while True:
            await RisingEdge(d.clk)
            if int(d.arp_req_ready.value):
                break
        d.arp_req_valid.value = 0

    async def lookup(self, ip: str) -> Lookup:
        d = self.dut
        await self.take_lookup(ip)
        for n in range(1, 200):
            await RisingEdge(d.clk)
            if int(d.arp_resp_valid.value):
                hit = bool(int(d.arp_resp_hit.value))
                mac = int2mac(int(d.arp_resp_mac.value))
                await ClockCycles(d.clk, 2)  # the strobes follow 1 to 2 cycles later
                return Lookup(hit, mac, n)
        raise AssertionError(f"lookup of {ip}: no response")

    def counters(self) -> dict[str, int]:
        """Every event counted so far from the strobes (cnt_ev), by name."""
        return self.evmon.counts()

    def check_counters(self, before: dict[str, int], **delta: int) -> None:
        """Every counter moved by exactly ``delta`` (0 for the ones not named)."""
        now = self.counters()
        for c in COUNTERS:
            want = before[c] + delta.get(c, 0)
            assert now[c] == want, f"{c}: {now[c]} != {want} (all: {now})"


def check_garp(f: Ether, mac: str, ip: str) -> None:
    a = f[ARP]
    assert f.dst == BCAST_MAC and f.src == mac and f.type == 0x0806
    assert a.hwtype == 1 and a.ptype == 0x0800 and a.hwlen == 6 and a.plen == 4
    assert a.op == 1 and a.hwsrc == mac and a.psrc == ip and a.pdst == ip
    assert a.hwdst == "00:00:00:00:00:00"


def check_reply(f: Ether, to_mac: str, to_ip: str, mac: str = OUR_MAC, ip: str = OUR_IP) -> None:
    a = f[ARP]
    assert f.dst == to_mac and f.src == mac and f.type == 0x0806, f.summary()
    assert a.hwtype == 1 and a.ptype == 0x0800 and a.hwlen == 6 and a.plen == 4
    assert a.op == 2 and a.hwsrc == mac and a.psrc == ip, a.summary()
    assert a.hwdst == to_mac and a.pdst == to_ip, a.summary()


def check_request(f: Ether, target_ip: str, eth_dst: str = BCAST_MAC) -> None:
    a = f[ARP]
    assert f.dst == eth_dst and f.src == OUR_MAC and f.type == 0x0806, f.summary()
    assert a.hwtype == 1 and a.ptype == 0x0800 and a.hwlen == 6 and a.plen == 4
    assert a.op == 1 and a.hwsrc == OUR_MAC and a.psrc == OUR_IP, a.summary()
    assert a.hwdst == "00:00:00:00:00:00" and a.pdst == target_ip, a.summary()
