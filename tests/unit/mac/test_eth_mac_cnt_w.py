"""CNT_W = 8: the MAC's counters are 8 bits wide, wrap at 256, and their 32-bit ports
read zero above bit 7.

eth_mac_stats directly: random strobes and byte counts in both domains for long enough
that every counter wraps (a Python model counts alongside). The MAC tops with CNT_W = 8
(eth_mac_gmii, eth_mac_mii, eth_mac_rgmii at 1000, eth_mac_gmii_fifo): frames both ways
(scapy-built, cocotbext-eth on the wire) until the byte counters have wrapped, checked
against the exact totals modulo 256.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotb_run import run
from cocotbext.axi import AxiStreamFrame
from cocotbext.eth import GmiiFrame
from mac_tb import check_wire_frame, last_user, make_frame, padded

CNT_W = 8
MOD = 1 << CNT_W
TX_STROBES = ["tx_frame", "tx_underflow", "tx_abort"]
RX_STROBES = ["rx_frame", "rx_bad_fcs", "rx_runt", "rx_oversize", "rx_er"]


async def drive_domain(dut, clk, strobes: list[str], frames_key: str, cycles: int, seed: int,
                       model: dict[str, int]) -> None:  # fmt: skip
    """Random one-cycle strobes (and a byte count with each frame) for ``cycles`` cycles."""
    rng = random.Random(seed)
    bytes_port = getattr(dut, f"stat_{frames_key}_bytes")
    for _ in range(cycles):
        await FallingEdge(clk)
        on = {s: rng.random() < 0.5 for s in strobes}
        for s in strobes:
            getattr(dut, f"stat_{s}").value = int(on[s])
            model[s] += on[s]
        n = rng.randrange(0, 1 << 16)
        bytes_port.value = n
        if on[f"{frames_key}_frame"]:
            model[f"{frames_key}_bytes"] += n
    await FallingEdge(clk)
    for s in strobes:
        getattr(dut, f"stat_{s}").value = 0


@cocotb.test()
async def stats_counters_wrap(dut) -> None:
    """Every counter of eth_mac_stats wraps at 2^CNT_W, upper port bits stay zero."""
    cocotb.start_soon(Clock(dut.tx_clk, 8, "ns").start())
    cocotb.start_soon(Clock(dut.rx_clk, 7, "ns").start())
    for s in TX_STROBES + RX_STROBES:
        getattr(dut, f"stat_{s}").value = 0
    dut.stat_tx_bytes.value = 0
    dut.stat_rx_bytes.value = 0
    dut.tx_rst.value = 1
    dut.rx_rst.value = 1
    await ClockCycles(dut.tx_clk, 3)
    await ClockCycles(dut.rx_clk, 3)
    dut.tx_rst.value = 0
    dut.rx_rst.value = 0
    model = {s: 0 for s in TX_STROBES + RX_STROBES + ["tx_bytes", "rx_bytes"]}
    tx = cocotb.start_soon(drive_domain(dut, dut.tx_clk, TX_STROBES, "tx", 700, 1, model))
    rx = cocotb.start_soon(drive_domain(dut, dut.rx_clk, RX_STROBES, "rx", 700, 2, model))
    await tx
    await rx
    await ClockCycles(dut.tx_clk, 2)
    await ClockCycles(dut.rx_clk, 2)
    assert all(model[s] > MOD for s in TX_STROBES + RX_STROBES), "every counter must wrap"
    names = {
        "tx_frame": "tx_frames", "tx_underflow": "tx_underflow", "tx_abort": "tx_abort",
        "rx_frame": "rx_frames", "rx_bad_fcs": "rx_bad_fcs", "rx_runt": "rx_runt",
        "rx_oversize": "rx_oversize", "rx_er": "rx_er", "tx_bytes": "tx_bytes",
        "rx_bytes": "rx_bytes",
    }  # fmt: skip
    for key, port in names.items():
        got = int(getattr(dut, f"cnt_{port}").value)
        assert got == model[key] % MOD, f"cnt_{port} = {got}, want {model[key]} mod {MOD}"
    # a reset clears them
    dut.tx_rst.value = 1
    await ClockCycles(dut.tx_clk, 2)
    assert int(dut.cnt_tx_frames.value) == 0 and int(dut.cnt_tx_bytes.value) == 0


def frames_to_wrap() -> list[bytes]:
    """Frames whose wire bytes (FCS included) add up past 2^CNT_W."""
    return [make_frame(n, seed=40 + i) for i, n in enumerate([0, 30, 46, 90, 17])]


def wire_total(frames: list[bytes]) -> int:
    return sum(len(padded(f)) + 4 for f in frames)


def check_counts(c: dict[str, int], frames: list[bytes]) -> None:
    total = wire_total(frames)
    assert total > MOD, "the byte counters must wrap"
    want = {"tx_frames": len(frames), "rx_frames": len(frames)}
    want |= {"tx_bytes": total % MOD, "rx_bytes": total % MOD}
    got = {k: c[k] for k in want}
    assert got == want, f"counters {got} != {want} (total {total})"


async def both_ways(tb, wire_src, wire_sink, clk) -> None:
    """Frames through TX and RX at once; each checked; then the counters."""
    frames = frames_to_wrap()
    for f in frames:
        await tb.axis_src.send(AxiStreamFrame(f))
        wire_src.send_nowait(GmiiFrame.from_payload(f))
    for f in frames:
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == padded(f) and not last_user(rx)
        check_wire_frame(await wire_sink.recv(), f)
    await ClockCycles(clk, 60)
    check_counts(tb.counters(), frames)


@cocotb.test()
async def top_gmii_wrap(dut) -> None:
    """eth_mac_gmii with CNT_W = 8: byte counters wrap, the wire stays exact."""
    from test_eth_mac_gmii import TB

    tb = TB(dut)
    await tb.reset()
    await both_ways(tb, tb.gmii_src, tb.gmii_sink, dut.tx_clk)


@cocotb.test()
async def top_mii_wrap(dut) -> None:
    """eth_mac_mii with CNT_W = 8."""
    from test_eth_mac_mii import TB

    tb = TB(dut)
    await tb.reset()
    await both_ways(tb, tb.mii_src, tb.mii_sink, dut.mii_tx_clk)


@cocotb.test()
async def top_rgmii_wrap(dut) -> None:
    """eth_mac_rgmii (1000) with CNT_W = 8."""
    from test_eth_mac_rgmii import TB

    tb = TB(dut, 1000)
    await tb.start()
    await both_ways(tb, tb.src, tb.sink, dut.tx_clk)


@cocotb.test()
async def top_fifo_wrap(dut) -> None:
    """eth_mac_gmii_fifo with CNT_W = 8: the MAC's counters wrap and cross into clk
    narrowed; the TX FIFO drop counter wraps too (257 dropped frames)."""
    from test_eth_mac_gmii_fifo import TB

    tb = TB(dut, 6.4)
    await tb.reset()
    frames = frames_to_wrap()
    for f in frames:
        tb.axis_src.send_nowait(AxiStreamFrame(f))
        tb.gmii_src.send_nowait(GmiiFrame.from_payload(f))
    for f in frames:
        check_wire_frame(await tb.gmii_sink.recv(), f)
    # one-byte frames with tuser: each dropped by the TX FIFO, never on the wire
    for _ in range(MOD + 1):
        tb.axis_src.send_nowait(AxiStreamFrame(b"\x00", tuser=1))
    await tb.settle()
    assert tb.rx == [(padded(f), False) for f in frames]
    assert tb.gmii_sink.empty()
    c = tb.counters()
    check_counts(c, frames)
    assert c["tx_fifo_drop"] == (MOD + 1) % MOD, f"tx_fifo_drop {c['tx_fifo_drop']}"
    assert c["rx_fifo_drop"] == 0


_ = RisingEdge
HERE = Path(__file__).parent


def test_stats_cnt_w8() -> None:
    run("eth_mac_stats", "test_eth_mac_cnt_w", parameters={"CNT_W": CNT_W},
        testcase="stats_counters_wrap", test_dir=HERE)  # fmt: skip


def test_gmii_cnt_w8() -> None:
    run("eth_mac_gmii", "test_eth_mac_cnt_w", parameters={"CNT_W": CNT_W},
        testcase="top_gmii_wrap", test_dir=HERE)  # fmt: skip


def test_mii_cnt_w8() -> None:
    run("eth_mac_mii", "test_eth_mac_cnt_w", parameters={"CNT_W": CNT_W},
        testcase="top_mii_wrap", test_dir=HERE)  # fmt: skip


def test_rgmii_cnt_w8() -> None:
    run("eth_mac_rgmii", "test_eth_mac_cnt_w", parameters={"CNT_W": CNT_W},
        testcase="top_rgmii_wrap", test_dir=HERE)  # fmt: skip


def test_gmii_fifo_cnt_w8() -> None:
    run("eth_mac_gmii_fifo", "test_eth_mac_cnt_w",
        parameters={"CNT_W": CNT_W, "TX_DEPTH": 2048, "RX_DEPTH": 1024},
        testcase="top_fifo_wrap", test_dir=HERE)  # fmt: skip
