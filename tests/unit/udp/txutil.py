"""Shared cocotb helpers for the transmit-side unit tests (UDP/IP, ICMP, arbiter, raw).

A payload driver that can also send zero-length payloads (one beat with tkeep = 0, which
cocotbext-axi's source cannot express), a header-bus driver, a cycle counter, and a
frame-collecting wrapper around cocotbext-axi's AxiStreamSink.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamSink

DEFAULT_MAC = 0x020000000001
DEFAULT_IP = 0xC0000201  # 192.0.2.1


def mac_str(v: int) -> str:
    return ":".join(f"{(v >> (8 * (5 - i))) & 0xFF:02x}" for i in range(6))


def ip_str(v: int) -> str:
    return ".".join(str((v >> (8 * (3 - i))) & 0xFF) for i in range(4))


def ip_int(s: str) -> int:
    a = [int(x) for x in s.split(".")]
    return (a[0] << 24) | (a[1] << 16) | (a[2] << 8) | a[3]


def mac_int(s: str) -> int:
    return int(s.replace(":", ""), 16)


async def start_clock(dut: Any, period_ns: int = 8) -> None:
    cocotb.start_soon(Clock(dut.clk, period_ns, unit="ns").start())


async def reset(dut: Any, cycles: int = 4) -> None:
    dut.rst.value = 1
    for _ in range(cycles):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


class Cycles:
    """Edge index from simulation time: `now` is k at the k-th rising edge (clock period
    `period_ns`, first edge at time 0). A handshake "at edge k" is sampled at that edge."""

    def __init__(self, dut: Any, period_ns: int = 8) -> None:
        self.dut = dut
        self.period = period_ns

    @property
    def now(self) -> int:
        return int(get_sim_time(unit="ns") // self.period)


class _Null:
    """Stands in for an optional stream signal a port does not have."""

    value: Any = 0


class PayloadSource:
    """Drives an AXI4-Stream slave port beat by beat (byte lane 0 first).

    `send` queues one packet: `data` bytes (empty = one beat with tkeep 0), `tuser` on the
    last beat, optional idle cycles between beats (`gap_prob`).

    With `hdr` (the packets' HeaderSource), the header bus convention of
    docs/conventions.md is kept: packet n's first beat is offered only once header n has
    been transferred. Without it the payload runs independently of the headers (a
    producer that breaks the convention, for tests that check a module survives one).
    """

    def __init__(
        self,
        dut: Any,
        prefix: str,
        data_w: int,
        seed: int = 1,
        period_ns: int = 8,
        hdr: HeaderSource | None = None,
    ) -> None:
        self.dut = dut
        self.period = period_ns
        self.kw = data_w // 8
        self.p = prefix
        self.rng = random.Random(seed)
        self.queue: list[tuple[bytes, int, float, int, int]] = []
        self.busy = False
        self.hdr = hdr
        self.started = 0  # packets begun
        self._sig("tvalid").value = 0
        self._sig("tlast").value = 0
        self._sig("tkeep").value = 0
        self._sig("tdata").value = 0
        self._sig("tuser").value = 0
        cocotb.start_soon(self._run())

    def _sig(self, name: str) -> Any:
        full = f"{self.p}_{name}"
        if name in ("tkeep", "tuser") and not hasattr(self.dut, full):
            return _Null()
        return getattr(self.dut, full)

    def send(
        self,
        data: bytes,
        tuser: int = 0,
        gap_prob: float = 0.0,
        last_delay: int = 0,
        last_after: int = 0,
    ) -> None:
        """Queue a packet. `last_delay`: idle cycles inserted before its last beat;
        `last_after`: its last beat is not offered before this many cycles after its first."""
        self.queue.append((bytes(data), tuser, gap_prob, last_delay, last_after))

    def idle(self) -> bool:
        return not self.queue and not self.busy

    async def _run(self) -> None:
        clk = self.dut.clk
        while True:
            if not self.queue:
                await RisingEdge(clk)
                continue
            self.busy = True
            data, tuser, gap, last_delay, last_after = self.queue.pop(0)
            while self.hdr is not None and len(self.hdr.fired) <= self.started:
                await RisingEdge(clk)
            self.started += 1
            t_first = get_sim_time(unit="ns")
            beats = [data[i : i + self.kw] for i in range(0, len(data), self.kw)] or [b""]
            for n, chunk in enumerate(beats):
                while gap and self.rng.random() < gap:
                    self._sig("tvalid").value = 0
                    await RisingEdge(clk)
                last = n == len(beats) - 1
                if last and last_delay:
                    self._sig("tvalid").value = 0
                    for _ in range(last_delay):
                        await RisingEdge(clk)
                while last and get_sim_time(unit="ns") - t_first < last_after * self.period:
                    self._sig("tvalid").value = 0
                    await RisingEdge(clk)
                self._sig("tdata").value = int.from_bytes(chunk.ljust(self.kw, b"\0"), "little")
                self._sig("tkeep").value = (1 << len(chunk)) - 1
                self._sig("tlast").value = int(last)
                self._sig("tuser").value = int(last and tuser)
                self._sig("tvalid").value = 1
                while True:
                    await RisingEdge(clk)
                    if int(self._sig("tready").value):
                        break
            self._sig("tvalid").value = 0
            self._sig("tlast").value = 0
            self.busy = False


class HeaderSource:
    """Drives a valid/ready header bus `<prefix>_hdr_<field>`; records the handshake cycle."""

    def __init__(self, dut: Any, prefix: str, cycles: Cycles) -> None:
        self.dut = dut
        self.p = prefix
        self.cycles = cycles
        self.queue: list[dict[str, int]] = []
        self.fired: list[int] = []
        getattr(dut, f"{prefix}_hdr_valid").value = 0
        cocotb.start_soon(self._run())

    def send(self, **fields: int) -> None:
        self.queue.append(fields)

    def idle(self) -> bool:
        return not self.queue and not int(getattr(self.dut, f"{self.p}_hdr_valid").value)

    async def _run(self) -> None:
        valid = getattr(self.dut, f"{self.p}_hdr_valid")
        ready = getattr(self.dut, f"{self.p}_hdr_ready")
        while True:
            await RisingEdge(self.dut.clk)
            while self.queue:
                f = self.queue.pop(0)
                for k, v in f.items():
                    getattr(self.dut, f"{self.p}_hdr_{k}").value = v
                valid.value = 1
                while True:
                    await RisingEdge(self.dut.clk)
                    if int(ready.value):
                        break
                self.fired.append(self.cycles.now)
            valid.value = 0


@dataclass
class Beat:
    cycle: int
    first: bool
    last: bool


class FrameSink:
    """cocotbext-axi AxiStreamSink on `<prefix>` plus a beat monitor recording cycles."""

    def __init__(
        self,
        dut: Any,
        prefix: str,
        cycles: Cycles,
        pause: Callable[[], Iterator[int]] | None = None,
    ) -> None:
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, prefix), dut.clk, dut.rst)
        if pause is not None:
            self.sink.set_pause_generator(pause())
        self.dut = dut
        self.p = prefix
        self.cycles = cycles
        self.beats: list[Beat] = []
        cocotb.start_soon(self._mon())

    async def _mon(self) -> None:
        v = getattr(self.dut, f"{self.p}_tvalid")
        r = getattr(self.dut, f"{self.p}_tready")
        last = getattr(self.dut, f"{self.p}_tlast")
        first = True
        while True:
            await RisingEdge(self.dut.clk)
            if str(v.value) == "1" and str(r.value) == "1":
                lst = str(last.value) == "1"
                self.beats.append(Beat(self.cycles.now, first, lst))
                first = lst

    async def recv(self) -> tuple[bytes, int]:
        f = await self.sink.recv()
        tu = f.tuser
        last_user = int(tu[-1] if isinstance(tu, list) else (tu or 0))
        return bytes(f.tdata), last_user

    def count(self) -> int:
        return self.sink.count()


def random_pause(seed: int, p: float) -> Callable[[], Iterator[int]]:
    def gen() -> Iterator[int]:
        rng = random.Random(seed)
        while True:
            yield int(rng.random() < p)

    return gen


async def wait_cycles(dut: Any, n: int) -> None:
    for _ in range(n):
        await RisingEdge(dut.clk)
