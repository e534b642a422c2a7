"""The generator's frames leave the stack exactly as the generator spaced them.

pktgen through udp_stack (pktgen_stack), the stack's output always ready (nothing else
transmits: every frame in the measured runs is one of the generator's UDP frames, checked),
millisecond ticks every TICK cycles, a period prime to every frame spacing, so that the
ticks fall at every phase of the stream (ARP's background pass runs at each of them).
After one priming run (the peer's address resolved, the stack's ARP lookup answered from
the cache once), runs at several gaps G: the generator offers its next header G + 1 cycles
after a payload's last beat, so its frames start ceil(L / KEEP_W) + G + 1 cycles apart
(pktgen's own header) when the stack stores each datagram (checksum mode 1; in the
cut-through mode 0 the payload waits while the stack sends the headers, and the spacing,
longer, is one value read from the generator's stamps); the test checks that every
frame's first beat on the stack's output is exactly that far from the previous one, and
that the time from the generator's own cycle stamp (payload bytes 8..15, the cycle its
header was taken) to that first beat is one value for every frame of every run (plus the
payload's beats in mode 1, which stores the datagram before it sends it). Checked in the
virtual board's configuration (8 bits, checksum mode 1: udp_tx_csum stores each datagram)
and with the cut-through mode 0, at 8 and 64 bits.
"""

from __future__ import annotations

import itertools
import struct
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource
from scapy.layers.inet import UDP
from unit.app.test_pktgen_stack import PEERS, arp_responder, ip_int, release_reset

PERIOD_NS = 8
TICK = 997  # cycles between tick_1ms strobes: prime, so every phase of a stream is hit
# (payload length, gap) of the measured runs: the board's 1472-byte stream at gap 1000,
# and short frames at gaps from a few cycles over the stack's frame time to a few ticks
RUNS = [(1472, 1000), (64, 60), (64, 700), (200, 2500)]
FRAMES = 12  # per run at least, and enough for 4 ticks


def cycle_now() -> int:
    return int(get_sim_time(unit="ns")) // PERIOD_NS


@cocotb.test()
async def spacing_exact_across_ticks(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, PERIOD_NS, unit="ns").start())
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
    source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
    keep_w = len(dut.m_axis_tkeep)
    store_fwd = int(dut.CSUM_MODE.value) == 1
    d = dut
    d.rst.value = 1
    for name in ("start", "stop", "tick_1ms", "cfg_lfsr"):
        getattr(d, name).value = 0
    d.cfg_ndst.value = 1
    d.cfg_fill.value = 0x5A
    d.cfg_src_port.value = 50002
    d.cfg_dst_ip_all.value = ip_int(PEERS[0][0])
    d.cfg_dst_port_all.value = PEERS[0][1]
    await release_reset(d)
    # the generator's cycle count is 0 in the first cycle after reset
    cycle0 = cycle_now() + 1
    await RisingEdge(d.clk)

    ticks: list[int] = []

    async def ticker() -> None:
        while True:
            await ClockCycles(d.clk, TICK - 1)
            d.tick_1ms.value = 1
            ticks.append(cycle_now())
            await RisingEdge(d.clk)
            d.tick_1ms.value = 0

    frames: list = []
    starts_ns: list[int] = []
    cocotb.start_soon(arp_responder(dut, sink, source, frames, starts_ns))
    cocotb.start_soon(ticker())

    async def run(length: int, gap: int, count: int, warmup_ms: int) -> None:
        d.cfg_len.value = length
        d.cfg_count.value = count
        d.cfg_gap.value = gap
        d.cfg_warmup_ms.value = warmup_ms
        d.start.value = 1
        await RisingEdge(d.clk)
        d.start.value = 0
        for _ in range(100 * TICK):
            await RisingEdge(d.clk)
            if not int(d.busy.value):
                break
        assert not int(d.busy.value)
        await ClockCycles(d.clk, 2 * length // keep_w + 100)  # the last frame out

    # priming run: the peer's address resolved, then one frame (the lookup through the
    # cache), and the gratuitous ARP out of the way
    await run(64, 0, 1, 3)
    await ClockCycles(d.clk, 3 * TICK)
    latencies: set[int] = set()
    for length, gap in RUNS:
        period = -(-length // keep_w) + gap + 1
        count = max(FRAMES, 4 * TICK // period + 2)
        n0 = len(frames)
        await run(length, gap, count, 0)
        got = frames[n0:]
        # nothing but the generator's frames
        assert len(got) == count and all(UDP in f for f in got), [f.summary() for f in got]
        starts = [t // PERIOD_NS for t in starts_ns[n0:]]
        stamps = [struct.unpack(">Q", bytes(f[UDP].payload)[8:16])[0] for f in got]
        gen = [b - a for a, b in itertools.pairwise(stamps)]
        if store_fwd:
            assert gen == [period] * (count - 1), gen
        else:
            # cut through, the generator's payload waits while the stack sends the
            # frame's headers: its own spacing is longer, and one value
            assert len(set(gen)) == 1 and gen[0] > period, gen
            period = gen[0]
        spacing = [b - a for a, b in itertools.pairwise(starts)]
        assert spacing == [period] * (count - 1), (length, gap, spacing)
        # the time from the generator's stamp to the wire, less the payload's beats when
        # the stack stores the datagram first (mode 1)
        stored = -(-length // keep_w) if store_fwd else 0
        latencies |= {s - (cycle0 + t) - stored for s, t in zip(starts, stamps, strict=True)}
        # ticks inside the run, at several phases of the frame period
        inside = [t for t in ticks if starts[0] < t < starts[-1]]
        assert len({(t - starts[0]) % period for t in inside}) >= 3, inside
    assert len(latencies) == 1, latencies


@pytest.mark.parametrize(("data_w", "csum_mode"), [(8, 1), (8, 0), (64, 1)])
def test_pktgen_spacing(data_w: int, csum_mode: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "pktgen_stack",
        "test_pktgen_spacing",
        parameters={"DATA_W": data_w, "CSUM_MODE": csum_mode},
        test_dir=Path(__file__).parent,
    )
