"""Frame sources for the arbiters' tests (eth_tx_arb, nic_tx_arb): N inputs on flattened
s_axis_* ports, each with its own queue of frames, and frames tagged with their input and
sequence number."""

from __future__ import annotations

import random
from typing import Any

import cocotb
from cocotb.triggers import RisingEdge


class MultiSource:
    """Drives the flattened s_axis_* ports of N inputs, each with its own frame queue."""

    def __init__(self, dut: Any, n: int, data_w: int, gap: float = 0.0, seed: int = 1) -> None:
        self.dut = dut
        self.n = n
        self.w = data_w
        self.kw = data_w // 8
        self.q: list[list[tuple[bytes, int, int]]] = [[] for _ in range(n)]
        self.t = 0
        self.cur: list[list[bytes] | None] = [None] * n
        self.user = [0] * n
        self.gap = gap
        self.rng = random.Random(seed)
        self.hold = [False] * n
        self.wait = [0] * n
        self.started = [False] * n
        self._drive()
        cocotb.start_soon(self._run())

    def send(self, port: int, data: bytes, tuser: int = 0, at: int = 0) -> None:
        """Queue a frame on `port`, presented no earlier than cycle `at` of this source."""
        self.q[port].append((data, tuser, at))

    def idle(self) -> bool:
        return all(not q for q in self.q) and all(c is None for c in self.cur)

    def _load(self, p: int) -> None:
        if self.cur[p] is None and self.q[p] and self.q[p][0][2] <= self.t:
            data, tu, _at = self.q[p].pop(0)
            self.cur[p] = [data[i : i + self.kw] for i in range(0, len(data), self.kw)]
            self.user[p] = tu

    def _drive(self) -> None:
        d = k = v = last = u = 0
        for p in range(self.n):
            self._load(p)
            beats = self.cur[p]
            if beats is None or self.hold[p]:
                continue
            chunk = beats[0]
            d |= int.from_bytes(chunk.ljust(self.kw, b"\0"), "little") << (p * self.w)
            k |= ((1 << len(chunk)) - 1) << (p * self.kw)
            v |= 1 << p
            if len(beats) == 1:
                last |= 1 << p
                u |= self.user[p] << p
        self.dut.s_axis_tdata.value = d
        self.dut.s_axis_tkeep.value = k
        self.dut.s_axis_tvalid.value = v
        self.dut.s_axis_tlast.value = last
        self.dut.s_axis_tuser.value = u

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.dut.clk)
            self.t += 1
            rv = self.dut.s_axis_tready.value
            v = int(self.dut.s_axis_tvalid.value)
            r = int(rv) if rv.is_resolvable else 0
            for p in range(self.n):
                beats = self.cur[p]
                if (v >> p) & 1 and (r >> p) & 1 and beats is not None:
                    beats.pop(0)
                    self.started[p] = True
                    if not beats:
                        self.cur[p] = None
                        self.started[p] = False
            # random idle stretches between frames (never inside one, so that the frames
            # stay gap-free), so requests appear while another input's frame is under way
            for p in range(self.n):
                if self.cur[p] is None and self.gap > 0 and self.rng.random() < self.gap:
                    self.wait[p] = self.rng.randrange(1, 12)
                elif self.wait[p]:
                    self.wait[p] -= 1
                self.hold[p] = self.wait[p] > 0 and not self.started[p]
            self._drive()


def tagged(port: int, seq: int, n: int) -> bytes:
    body = bytes([port, seq & 0xFF]) + bytes((port * 37 + seq + j) & 0xFF for j in range(n))
    return body
