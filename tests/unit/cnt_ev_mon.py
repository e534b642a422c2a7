"""Counts a block's event strobes (its ``cnt_ev`` output, one bit per kind of event) so a
test can check what the block reports against what it was sent: the counters themselves
live in stat_counters, which counts these same strobes (docs/conventions.md, "Counters")."""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge


class EvMon:
    """Sums every bit of the strobe vector ``signal`` (``dut.cnt_ev`` by default) at each
    rising edge of ``clk`` while ``rst`` is low, as a counter fed by it would: ``names`` are
    the bits in order (None for a bit not counted). ``values`` makes a bit a value counter:
    name -> (value signal, lsb, width), the value added with each strobe (a frame's
    length, say). A reset restarts the sums at 0, as it does the counters, unless
    ``keep_on_rst``."""

    def __init__(
        self,
        dut,
        names: list[str | None],
        clk: str = "clk",
        rst: str = "rst",
        signal: str = "cnt_ev",
        values: dict[str, tuple[str, int, int]] | None = None,
        keep_on_rst: bool = False,
    ) -> None:
        self.dut = dut
        self.names = names
        self.clk = getattr(dut, clk)
        self.rst = getattr(dut, rst)
        self.sig = getattr(dut, signal)
        assert len(self.sig) == len(names), f"{signal} has {len(self.sig)} bits, not {len(names)}"
        self.values = {
            names.index(n): (getattr(dut, s), lsb, w) for n, (s, lsb, w) in (values or {}).items()
        }
        self.sums = [0] * len(names)
        self.keep_on_rst = keep_on_rst
        self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.clk)
            if not self.rst.value.is_resolvable or int(self.rst.value):
                if not self.keep_on_rst:
                    self.sums = [0] * len(self.names)
                continue
            v = self.sig.value
            assert v.is_resolvable, f"{self.sig._name} is {v}"
            n = int(v)
            if not n:
                continue
            for i in range(len(self.names)):
                if n >> i & 1:
                    if i in self.values:
                        s, lsb, w = self.values[i]
                        bits = str(s.value)  # MSB first; the other slices may be unknown
                        field = bits[len(bits) - lsb - w : len(bits) - lsb]
                        self.sums[i] += int(field, 2)
                    else:
                        self.sums[i] += 1

    def counts(self) -> dict[str, int]:
        """name -> events (value sums for value counters) since the monitor started."""
        return {n: c for n, c in zip(self.names, self.sums, strict=True) if n is not None}

    def count(self, name: str) -> int:
        return self.counts()[name]

    def stop(self) -> None:
        self._task.cancel()
