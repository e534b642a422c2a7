"""Counts a block's cnt_ev strobes (one bit per cnt_* port, in port order) so a test can
check that each counter stepped exactly once per strobe: counters kept elsewhere
(stat_counters) from the strobes then count what the block's own counters count."""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge


class EvMon:
    """Sums every bit of ``dut.cnt_ev`` at each rising edge while ``rst`` is low (the
    cycle before a counter steps); ``names`` are the counters in port order."""

    def __init__(self, dut, names: list[str], clk: str = "clk", rst: str = "rst") -> None:
        self.dut = dut
        self.names = names
        self.clk = getattr(dut, clk)
        self.rst = getattr(dut, rst)
        assert len(dut.cnt_ev) == len(names), f"cnt_ev has {len(dut.cnt_ev)} bits"
        self.sums = [0] * len(names)
        self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        while True:
            await RisingEdge(self.clk)
            if not self.rst.value.is_resolvable or int(self.rst.value):
                self.sums = [0] * len(self.names)
                continue
            v = self.dut.cnt_ev.value
            assert v.is_resolvable, f"cnt_ev is {v}"
            n = int(v)
            if n:
                for i in range(len(self.names)):
                    if n >> i & 1:
                        self.sums[i] += 1

    def counts(self) -> dict[str, int]:
        return dict(zip(self.names, self.sums, strict=True))

    def check(self, wrap: int, names: list[str] | None = None) -> None:
        """Every counter (or those named) equals the sum of its strobes modulo ``wrap``."""
        for name in names or self.names:
            got = int(getattr(self.dut, f"cnt_{name}").value)
            want = self.sums[self.names.index(name)] % wrap
            assert got == want, f"cnt_{name} = {got}, but its cnt_ev strobes sum to {want}"

    def stop(self) -> None:
        self._task.cancel()
