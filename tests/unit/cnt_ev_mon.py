"""Counts a block's cnt_ev strobes (one bit per cnt_* port, in port order) so a test can
check that each counter stepped exactly once per strobe: counters kept elsewhere
(stat_counters) from the strobes then count what the block's own counters count."""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge
from cocotb.utils import get_sim_time


class EvMon:
    """Sums every bit of ``dut.cnt_ev`` at each rising edge while ``rst`` is low (the
    cycle before a counter steps); ``names`` are the counters in port order, ``name[k]``
    for element k of a port of several 32-bit counters."""

    def __init__(self, dut, names: list[str], clk: str = "clk", rst: str = "rst") -> None:
        self.dut = dut
        self.names = names
        self.clk = getattr(dut, clk)
        self.rst = getattr(dut, rst)
        assert len(dut.cnt_ev) == len(names), f"cnt_ev has {len(dut.cnt_ev)} bits"
        self.sums = [0] * len(names)
        self.last = [0] * len(names)  # the strobes of the last edge sampled ...
        self.last_time = -1  # ... and its time
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
            self.last_time = get_sim_time("step")
            self.last = [n >> i & 1 for i in range(len(self.names))]
            if n:
                for i in range(len(self.names)):
                    self.sums[i] += self.last[i]

    def counts(self) -> dict[str, int]:
        return dict(zip(self.names, self.sums, strict=True))

    def check(self, wrap: int, names: list[str] | None = None) -> None:
        """Every counter (or those named) equals the sum of its strobes modulo ``wrap``.
        Read in the time step of an edge whose strobes were just summed, a counter may not
        show that edge's step yet: it then may equal the sum without them."""
        same_step = get_sim_time("step") == self.last_time
        for name in names or self.names:
            i = self.names.index(name)
            got = self.read(name)
            want = {self.sums[i] % wrap}
            if same_step:
                want.add((self.sums[i] - self.last[i]) % wrap)
            assert got in want, f"cnt_{name} = {got}, but its cnt_ev strobes sum to {want}"

    def read(self, name: str) -> int:
        """Counter ``name`` (``name[k]``: the k-th 32-bit counter of port cnt_name)."""
        base, _, idx = name.partition("[")
        v = int(getattr(self.dut, f"cnt_{base}").value)
        k = int(idx.rstrip("]")) if idx else 0
        return (v >> (32 * k)) & 0xFFFFFFFF

    def stop(self) -> None:
        self._task.cancel()
