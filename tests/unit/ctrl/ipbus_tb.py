"""Testbench helpers for the IPbus target: drive its UDP application port with
cocotbext-axi streams, model a register-bus slave, collect replies.

Used by tests/unit/app/test_ipbus*.py (cocotb coroutines only; no pytest entry here).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from wirecore.ipbus import DictBus

CLIENT_IP = 0xC0000201
CLIENT_MAC = 0x020000000001
CLIENT_PORT = 40000
TARGET_PORT = 50001


@dataclass
class TxReply:
    dst_mac: int
    dst_mac_valid: int
    dst_ip: int
    dst_port: int
    src_port: int
    length: int
    payload: bytes


class IPbusTB:
    """Drives a DUT exposing the ipbus_target UDP ports (s_hdr_*, s_axis_*, m_hdr_*,
    m_axis_*) and tick_1ms; optionally serves its register-bus master (reg_*)."""

    def __init__(
        self,
        dut: object,
        bus: DictBus | None = None,
        tick_period: int = 100,
        seed: int = 1,
        reg_latency: tuple[int, int] = (1, 1),
    ) -> None:
        self.dut = dut
        self.bus = bus
        self.rng = random.Random(seed)
        self.tick_period = tick_period
        self.reg_latency = reg_latency
        self.cycle = 0
        self.replies: list[TxReply] = []
        self._hdrs: list[dict[str, int]] = []
        self.bus_requests = 0
        self.last_in_cycle = 0
        self.first_out_cycles: list[int] = []  # reply header handshake, per reply
        self.first_byte_cycles: list[int] = []  # first reply payload byte, per reply
        self.last_byte_cycles: list[int] = []  # last reply payload byte, per reply
        self._in_frame = False
        self.hdr_waits: list[int] = []  # cycles each request header waited for s_hdr_ready
        # cycles from the previous request's last byte to this header's acceptance
        self.hdr_gaps: list[int] = []
        self.tx_ready_prob = 1.0
        d = dut
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(d, "s_axis"), d.clk, d.rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), d.clk, d.rst)

    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk, 8, unit="ns").start())
        d.rst.value = 1
        d.tick_1ms.value = 0
        d.s_hdr_valid.value = 0
        for name in (
            "s_hdr_src_mac",
            "s_hdr_src_ip",
            "s_hdr_src_port",
            "s_hdr_dst_port",
            "s_hdr_len",
        ):
            getattr(d, name).value = 0
        d.m_hdr_ready.value = 1
        if self.bus is not None:
            d.reg_ack.value = 0
            d.reg_err.value = 0
            d.reg_rdata.value = 0
        await ClockCycles(d.clk, 5)
        d.rst.value = 0
        await ClockCycles(d.clk, 2)
        cocotb.start_soon(self._clock_count())
        cocotb.start_soon(self._hdr_monitor())
        cocotb.start_soon(self._collect())
        if self.bus is not None:
            cocotb.start_soon(self._reg_slave())

    async def _clock_count(self) -> None:
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            self.cycle += 1
            d.tick_1ms.value = 1 if self.cycle % self.tick_period == 0 else 0
            if self.tx_ready_prob < 1.0:
                d.m_axis_tready.value = int(self.rng.random() < self.tx_ready_prob)
                d.m_hdr_ready.value = int(self.rng.random() < self.tx_ready_prob)
            if int(d.m_axis_tvalid.value) and int(d.m_axis_tready.value):
                if not self._in_frame:
                    self.first_byte_cycles.append(self.cycle)
                    self._in_frame = True
                if int(d.m_axis_tlast.value):
                    self.last_byte_cycles.append(self.cycle)
                    self._in_frame = False
            # record the cycle of the last request byte
            if (
                int(d.s_axis_tvalid.value)
                and int(d.s_axis_tready.value)
                and int(d.s_axis_tlast.value)
            ):
                self.last_in_cycle = self.cycle

    async def _hdr_monitor(self) -> None:
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            if int(d.m_hdr_valid.value) and int(d.m_hdr_ready.value):
                self._hdrs.append(
                    dict(
                        dst_mac=int(d.m_hdr_dst_mac.value),
                        dst_mac_valid=int(d.m_hdr_dst_mac_valid.value),
                        dst_ip=int(d.m_hdr_dst_ip.value),
                        dst_port=int(d.m_hdr_dst_port.value),
                        src_port=int(d.m_hdr_src_port.value),
                        length=int(d.m_hdr_len.value),
                        cycle=self.cycle,
                    )
                )

    async def _collect(self) -> None:
        while True:
            frame = await self.sink.recv()
            h = self._hdrs.pop(0)
            self.first_out_cycles.append(h.pop("cycle"))
            assert not any(frame.tuser or [0]), "reply marked bad"
            self.replies.append(TxReply(payload=bytes(frame.tdata), **h))

    async def _reg_slave(self) -> None:
        d = self.dut
        assert self.bus is not None
        pending: list[tuple[int, str, int]] = []  # (due cycle, status, rdata)
        while True:
            await RisingEdge(d.clk)
            d.reg_ack.value = 0
            d.reg_err.value = 0
            now = self.cycle
            if pending and pending[0][0] <= now:
                _, st, v = pending.pop(0)
                if st == "ok":
                    d.reg_ack.value = 1
                    d.reg_rdata.value = v
                elif st == "err":
                    d.reg_err.value = 1
            if int(d.reg_req.value):
                self.bus_requests += 1
                addr = int(d.reg_addr.value)
                if int(d.reg_we.value):
                    st, v = self.bus.write(addr, int(d.reg_wdata.value)), 0
                else:
                    st, v = self.bus.read(addr)
                lat = self.rng.randint(*self.reg_latency)
                if st != "timeout":
                    pending.append((now + lat, st, v))

    async def send(
        self,
        payload: bytes,
        src_ip: int = CLIENT_IP,
        length: int | None = None,
        bad: bool = False,
        src_port: int = CLIENT_PORT,
    ) -> None:
        """Present one datagram: header, then payload (tuser on the last beat if bad)."""
        d = self.dut
        d.s_hdr_src_mac.value = CLIENT_MAC
        d.s_hdr_src_ip.value = src_ip
        d.s_hdr_src_port.value = src_port
        d.s_hdr_dst_port.value = TARGET_PORT
        d.s_hdr_len.value = len(payload) if length is None else length
        d.s_hdr_valid.value = 1
        waited = 0
        while True:
            await RisingEdge(d.clk)
            if int(d.s_hdr_ready.value):
                break
            waited += 1
        self.hdr_waits.append(waited)
        self.hdr_gaps.append(self.cycle - self.last_in_cycle)
        d.s_hdr_valid.value = 0
        tuser = [0] * len(payload)
        if bad and payload:
            tuser[-1] = 1
        frame = AxiStreamFrame(payload, tuser=tuser) if payload else AxiStreamFrame(b"")
        await self.source.send(frame)

    async def wait_replies(self, n: int, max_cycles: int = 200000) -> list[TxReply]:
        start = self.cycle
        while len(self.replies) < n:
            await ClockCycles(self.dut.clk, 10)
            assert self.cycle - start < max_cycles, (
                f"timeout waiting for {n} replies, got {len(self.replies)}"
            )
        return self.replies[:n]

    async def idle(self, cycles: int = 200) -> None:
        """Wait until the source is drained and a further `cycles` pass."""
        while not self.source.empty() or int(self.dut.s_axis_tvalid.value):
            await RisingEdge(self.dut.clk)
        await ClockCycles(self.dut.clk, cycles)
        await Timer(1, "ns")
