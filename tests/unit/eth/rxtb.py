"""Shared testbench pieces for the receive-path tests (eth_rx, ip_rx, udp_rx, udp_stack).

The input side is driven by cocotbext-axi's AxiStreamSource; the outputs are watched by
:class:`PortMon`, an independent cycle-level consumer that drives ``tready`` and
``hdr_ready`` (optionally at random), records every header handshake and every payload
packet, and checks the stream rules of docs/conventions.md as it goes: header before
(or with) the first payload beat, tkeep contiguous and all ones except on the last beat,
no payload without a header.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource

_SHARED: dict[str, int] = {}


@dataclass
class Pkt:
    hdr: dict[str, int] | None
    data: bytearray = field(default_factory=bytearray)
    tuser: int = 0
    hdr_cycle: int = -1
    first_cycle: int = -1
    last_cycle: int = -1


class PortMon:
    """Consumer for one output port: ``<prefix>_axis_*`` plus optional ``<prefix>_hdr_*``.

    ``index``/``nports`` select one slice of flattened multi-port signals.
    ``hdr_delay`` (instead of the random ``hdr_ready_p``): a slow application that raises
    ``hdr_ready`` only once a header has been offered for ``hdr_delay`` cycles, so the
    handshake completes in the header's cycle ``hdr_delay`` (counting from 0).
    """

    def __init__(
        self,
        dut,
        prefix: str,
        fields: list[str] | None,
        ready_p: float = 1.0,
        hdr_ready_p: float = 1.0,
        index: int = 0,
        nports: int = 1,
        seed: int = 1,
        hdr_delay: int | None = None,
    ) -> None:
        self.dut = dut
        self.prefix = prefix
        self.fields = fields
        self.ready_p = ready_p
        self.hdr_ready_p = hdr_ready_p
        self.index = index
        self.nports = nports
        self.rng = random.Random(seed)
        self.hdr_delay = hdr_delay
        self.hdr_wait = 0  # cycles the current header has been offered without handshake
        self.pkts: list[Pkt] = []
        self.hdrs: list[tuple[int, dict[str, int]]] = []
        self.cur: Pkt | None = None
        self.cycle = 0
        self.kw = len(getattr(dut, f"{prefix}_axis_tkeep")) // nports
        self.beats = 0
        self._set("axis_tready", 0)
        if fields is not None:
            self._set("hdr_ready", 0)
        cocotb.start_soon(self._run())

    def _sig(self, name: str):
        return getattr(self.dut, f"{self.prefix}_{name}")

    def _bits(self, name: str, width: int) -> int:
        v = int(self._sig(name).value)
        return (v >> (self.index * width)) & ((1 << width) - 1)

    def _data(self, nbytes: int) -> int:
        """tdata of this port; only the first ``nbytes`` lanes must be 0/1 (others may be X)."""
        s = str(self._sig("axis_tdata").value)  # MSB first
        dw = self.kw * 8
        lo = len(s) - (self.index + 1) * dw
        bits = s[lo : lo + dw]
        used = bits[len(bits) - 8 * nbytes :] if nbytes else ""
        assert all(c in "01" for c in used), f"{self.prefix}: X/Z in kept bytes of tdata"
        return int("".join("1" if c == "1" else "0" for c in bits), 2)

    def _set(self, name: str, bit: int) -> None:
        s = self._sig(name)
        if self.nports == 1:
            s.value = bit
        else:
            # several monitors share one flattened signal: keep the bits in one place
            key = f"{self.prefix}_{name}"
            v = _SHARED.get(key, 0)
            v = (v & ~(1 << self.index)) | (bit << self.index)
            _SHARED[key] = v
            s.value = v

    async def _run(self) -> None:
        clk = self.dut.clk
        while True:
            await RisingEdge(clk)
            self.cycle += 1
            if self.fields is not None:
                hv = self._bits("hdr_valid", 1)
                hr = self._bits("hdr_ready", 1)
                self.hdr_wait = self.hdr_wait + 1 if (hv and not hr) else 0
                if hv and hr:
                    h = {}
                    for f in self.fields:
                        sig = self._sig(f"hdr_{f}")
                        w = len(sig) // self.nports
                        h[f] = self._bits(f"hdr_{f}", w)
                    self.hdrs.append((self.cycle, h))
            tv = self._bits("axis_tvalid", 1)
            tr = self._bits("axis_tready", 1)
            if tv and tr:
                keep = self._bits("axis_tkeep", self.kw)
                last = self._bits("axis_tlast", 1)
                user = self._bits("axis_tuser", 1)
                self.beats += 1
                if self.cur is None:
                    if self.fields is not None:
                        assert len(self.hdrs) > len(self.pkts), (
                            f"{self.prefix}: payload beat before its header"
                        )
                        hc, h = self.hdrs[len(self.pkts)]
                    else:
                        hc, h = self.cycle, None
                    self.cur = Pkt(hdr=h, hdr_cycle=hc, first_cycle=self.cycle)
                n = 0
                while n < self.kw and (keep >> n) & 1:
                    n += 1
                assert keep == (1 << n) - 1, f"{self.prefix}: tkeep {keep:#x} not contiguous"
                data = self._data(n)
                if not last:
                    assert n == self.kw, f"{self.prefix}: partial beat before tlast"
                for i in range(n):
                    self.cur.data.append((data >> (8 * i)) & 0xFF)
                if last:
                    self.cur.tuser = user
                    self.cur.last_cycle = self.cycle
                    self.pkts.append(self.cur)
                    self.cur = None
            self._set("axis_tready", int(self.rng.random() < self.ready_p))
            if self.fields is not None:
                if self.hdr_delay is None:
                    self._set("hdr_ready", int(self.rng.random() < self.hdr_ready_p))
                else:
                    self._set("hdr_ready", int(self.hdr_wait >= self.hdr_delay))


async def start(dut, cfg: dict[str, int]) -> AxiStreamSource:
    """Start the clock, apply cfg_* values, reset, and return the input source."""
    _SHARED.clear()
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    for k, v in cfg.items():
        getattr(dut, k).value = v
    dut.rst.value = 1
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    return src


def frame(data: bytes, bad: bool = False) -> AxiStreamFrame:
    """An input frame; ``bad`` sets tuser on its last beat (MAC error)."""
    return AxiStreamFrame(data, tuser=1 if bad else 0)


async def wait_idle(src: AxiStreamSource, limit: int = 30000) -> None:
    """Wait until the source has sent everything; fail (no hang) if the DUT stops taking."""
    for _ in range(limit):
        await RisingEdge(src.clock)
        if src.idle():
            return
    raise AssertionError("input stalled: the DUT stopped taking beats")


async def send_all(src: AxiStreamSource, frames: list[AxiStreamFrame]) -> None:
    for f in frames:
        await src.send(f)
    await wait_idle(src)


async def drain(dut, mons: list[PortMon], expected: int, limit: int = 20000) -> None:
    """Wait until the monitors together hold ``expected`` packets (or fail at ``limit``)."""
    for _ in range(limit):
        await RisingEdge(dut.clk)
        if sum(len(m.pkts) for m in mons) >= expected:
            await ClockCycles(dut.clk, 20)
            return
    got = sum(len(m.pkts) for m in mons)
    raise AssertionError(f"timeout: {got} of {expected} packets came out")


def mac_int(mac: str) -> int:
    return int(mac.replace(":", ""), 16)


def ip_int(ip: str) -> int:
    a, b, c, d = (int(x) for x in ip.split("."))
    return (a << 24) | (b << 16) | (c << 8) | d


class HdrSource:
    """Drives a ``<prefix>_hdr_*`` valid/ready header bus from a queue of field dicts."""

    def __init__(self, dut, prefix: str, fields: list[str]) -> None:
        self.dut = dut
        self.prefix = prefix
        self.fields = fields
        self.queue: list[dict[str, int]] = []
        getattr(dut, f"{prefix}_hdr_valid").value = 0
        for f in fields:
            getattr(dut, f"{prefix}_hdr_{f}").value = 0
        cocotb.start_soon(self._run())

    def send(self, hdr: dict[str, int]) -> None:
        self.queue.append(hdr)

    async def _run(self) -> None:
        valid = getattr(self.dut, f"{self.prefix}_hdr_valid")
        ready = getattr(self.dut, f"{self.prefix}_hdr_ready")
        while True:
            await RisingEdge(self.dut.clk)
            if int(valid.value) and int(ready.value):
                self.queue.pop(0)
            if self.queue:
                for f in self.fields:
                    getattr(self.dut, f"{self.prefix}_hdr_{f}").value = self.queue[0][f]
                valid.value = 1
            else:
                valid.value = 0
