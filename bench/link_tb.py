"""cocotb measurements for bench/link.py (run under Icarus by that script) on the two-node
bench tests/tb/link_pair.v, the lanes joined straight (no skew, no errors) and both nodes on
one clock. Cycle stamps count rising edges of clk_a. Writes JSON to $LINK_BENCH_OUT."""

from __future__ import annotations

import json
import os
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge


class Stamps:
    """Rising-edge counter of clk_a and, per edge, what the bench watches."""

    def __init__(self, dut: Any) -> None:
        self.dut = dut
        self.cycle = 0
        self.tx_words: dict[int, int] = {}  # A's link_tx takes a word: data -> first cycle
        self.rx_words: dict[int, int] = {}  # B's link_rx gives it: data -> first cycle
        self.in_last: list[int] = []  # A's s_axis takes a last beat
        self.in_first: list[int] = []  # A's s_axis takes a first beat
        self.out_last: list[int] = []  # B's m_axis gives a last beat
        self.out_bytes = 0
        self.first_beat = True

    async def run(self) -> None:
        d = self.dut
        a = d.u_a
        b = d.u_b
        while True:
            await RisingEdge(d.clk_a)
            self.cycle += 1
            c = self.cycle
            if int(a.tx_valid.value) and int(a.tx_ready.value):
                self.tx_words.setdefault(int(a.tx_data.value), c)
            if int(b.rx_valid.value):
                self.rx_words.setdefault(int(b.rx_data.value), c)
            if int(d.a_s_tvalid.value) and int(d.a_s_tready.value):
                if self.first_beat:
                    self.in_first.append(c)
                self.first_beat = bool(int(d.a_s_tlast.value))
                if int(d.a_s_tlast.value):
                    self.in_last.append(c)
            if int(d.b_m_tvalid.value) and int(d.b_m_tready.value):
                self.out_bytes += bin(int(d.b_m_tkeep.value)).count("1")
                if int(d.b_m_tlast.value):
                    self.out_last.append(c)


async def carry(clk: Any, src: Any, dst: Any) -> None:
    while True:
        await FallingEdge(clk)
        dst.value = src.value


async def send(dut: Any, sizes: list[int], seed: int) -> None:
    """Transfers of the given sizes, back to back, each word unique (a counter)."""
    word = seed << 20
    for size in sizes:
        beats = (size + 3) // 4
        for n in range(beats):
            await FallingEdge(dut.clk_a)
            last = n == beats - 1
            nbytes = size - 4 * n if last else 4
            dut.a_s_tdata.value = word & 0xFFFFFFFF
            word += 1
            dut.a_s_tkeep.value = (1 << nbytes) - 1
            dut.a_s_tlast.value = last
            dut.a_s_tvalid.value = 1
            while not int(dut.a_s_tready.value):
                await FallingEdge(dut.clk_a)
    await FallingEdge(dut.clk_a)
    dut.a_s_tvalid.value = 0


async def cycles(dut: Any, n: int) -> None:
    for _ in range(n):
        await RisingEdge(dut.clk_a)


@cocotb.test()
async def bench_link(dut: Any) -> None:
    cocotb.start_soon(Clock(dut.clk_a, 10, "ns").start())
    cocotb.start_soon(Clock(dut.clk_b, 10, "ns").start())
    for p in ("a", "b"):
        getattr(dut, f"{p}_s_tvalid").value = 0
        getattr(dut, f"{p}_m_tready").value = 1
        getattr(dut, f"{p}_rx_raw").value = 0
    dut.rst_a.value = 1
    dut.rst_b.value = 1
    await cycles(dut, 4)
    await FallingEdge(dut.clk_a)
    dut.rst_a.value = 0
    dut.rst_b.value = 0
    cocotb.start_soon(carry(dut.clk_a, dut.a_tx_code, dut.b_rx_raw))
    cocotb.start_soon(carry(dut.clk_b, dut.b_tx_code, dut.a_rx_raw))
    st = Stamps(dut)
    cocotb.start_soon(st.run())
    for _ in range(10000):
        await RisingEdge(dut.clk_a)
        if int(dut.a_link_up.value) and int(dut.b_link_up.value):
            break
    up_at = st.cycle
    await cycles(dut, 50)

    # one 160-bit (20-byte) transfer: word latency of the lanes, transfer latency
    await send(dut, [20], 1)
    while not st.out_last:
        await RisingEdge(dut.clk_a)
    await cycles(dut, 50)
    lat = sorted({st.rx_words[w] - c for w, c in st.tx_words.items() if w in st.rx_words})
    single = {
        "transfer_bytes": 20,
        "word_latency_cycles": lat,
        "first_in_to_last_out_cycles": st.out_last[0] - st.in_first[0],
        "last_in_to_last_out_cycles": st.out_last[0] - st.in_last[0],
    }

    # back to back transfers per size: the delivered payload rate between the first and
    # the last transfer's ends
    sizes = [int(s) for s in os.environ["LINK_BENCH_SIZES"].split(",")]
    budget = int(os.environ.get("LINK_BENCH_CYCLES", "40000"))
    rows = []
    for size in sizes:
        count = max(3, min(20, budget // (size // 4 + 120)))
        st.out_last.clear()
        st.out_bytes = 0
        await send(dut, [size] * count, 2 + size)
        while len(st.out_last) < count:
            await RisingEdge(dut.clk_a)
        span = st.out_last[-1] - st.out_last[0]
        payload = size * (count - 1)
        rows.append(
            {
                "transfer_bytes": size,
                "transfers": count,
                "cycles": span,
                "cycles_per_transfer": span / (count - 1),
                "payload_bytes_per_cycle": payload / span,
            }
        )
        await cycles(dut, 20)
    with open(os.environ["LINK_BENCH_OUT"], "w") as f:
        json.dump({"link_up_cycle": up_at, "single": single, "back_to_back": rows}, f)
