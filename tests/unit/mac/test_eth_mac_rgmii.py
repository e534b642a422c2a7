"""eth_mac_rgmii: 10/100/1000 MAC on RGMII with the generic DDR models.

cocotbext-eth RgmiiSource drives rgmii_rxd/rx_ctl on the PHY's rgmii_rxc (8 ns at 1000,
40 ns at 100, 400 ns at 10 Mbit/s); RgmiiSink samples rgmii_txd/tx_ctl on the MAC's own
rgmii_txc (made from tx_clk90). At 1000: payloads 0..40 exhaustively and a sample up to
1500, both directions at once, back to back with the TX gap on the wire checked (12
bytes), then bad FCS and rx_er with exact counters. At 100: a size sample both ways, the
rgmii_txc period and the nibble gap checked, bad FCS and rx_er. At 10: one short and one full frame.
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Timer
from cocotb_run import run
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import GmiiFrame, RgmiiSink, RgmiiSource
from mac_tb import EnMonitor, MacEvents, check_wire_frame, last_user, make_frame, padded

SPEED = {1000: 2, 100: 1, 10: 0}


class TB:
    def __init__(self, dut, speed: int) -> None:
        self.dut = dut
        self.speed = speed
        dut.tx_rst.value = 1
        dut.rx_rst.value = 1
        self.ev = MacEvents(dut, "tx_clk", "tx_rst", "rgmii_rxc", "rx_rst")
        dut.cfg_speed.value = SPEED[speed]
        dut.cfg_ifg.value = 12
        dut.cfg_max_len.value = 1518
        dut.s_axis_tuser.value = 0
        self.rx_period = {1000: 8, 100: 40, 10: 400}[speed]
        self.mii = speed != 1000
        self.src = RgmiiSource(dut.rgmii_rxd, dut.rgmii_rx_ctl, dut.rgmii_rxc)
        self.src.mii_mode = self.mii
        self.axis_src = AxiStreamSource(
            AxiStreamBus.from_prefix(dut, "s_axis"), dut.tx_clk, dut.tx_rst
        )

    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.tx_clk, 8, "ns").start())
        await Timer(2, "ns")
        cocotb.start_soon(Clock(d.tx_clk90, 8, "ns").start())
        cocotb.start_soon(Clock(d.rgmii_rxc, self.rx_period, "ns").start(start_high=False))
        await ClockCycles(d.rgmii_rxc, 6)
        await ClockCycles(d.tx_clk, 6)
        self.sink = RgmiiSink(d.rgmii_txd, d.rgmii_tx_ctl, d.rgmii_txc)
        self.sink.mii_mode = self.mii
        self.axis_sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), d.rgmii_rxc)
        d.tx_rst.value = 0
        d.rx_rst.value = 0
        await ClockCycles(d.rgmii_rxc, 4)

    def counters(self) -> dict[str, int]:
        """The MAC's events so far, counted from its strobes (cnt_ev)."""
        return self.ev.counts()


async def both_ways(tb: TB, frames: list[bytes], nibbles_per_byte: int) -> None:
    dut = tb.dut
    mon = EnMonitor(dut.rgmii_txc, dut.rgmii_tx_ctl)
    cocotb.start_soon(mon.run())
    for f in frames:
        await tb.axis_src.send(AxiStreamFrame(f))
        tb.src.send_nowait(GmiiFrame.from_payload(f))
    for i, f in enumerate(frames):
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == padded(f) and not last_user(rx), f"RX frame {i}"
        check_wire_frame(await tb.sink.recv(), f)
    await ClockCycles(dut.rgmii_txc, 30)
    k = nibbles_per_byte
    assert mon.bursts == [k * (8 + len(padded(f)) + 4) for f in frames], mon.bursts
    assert mon.gaps == [12 * k] * (len(frames) - 1), f"gaps {sorted(set(mon.gaps))}"
    c = tb.counters()
    total = sum(len(padded(f)) + 4 for f in frames)
    assert c["tx_frames"] == c["rx_frames"] == len(frames)
    assert c["tx_bytes"] == c["rx_bytes"] == total


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def gigabit(dut) -> None:
    tb = TB(dut, 1000)
    await tb.start()
    sizes = list(range(0, 41)) + [46, 100, 555, 1023, 1500]
    await both_ways(tb, [make_frame(n, seed=i) for i, n in enumerate(sizes)], 1)
    await bad_input(tb)


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def fast_ethernet(dut) -> None:
    tb = TB(dut, 100)
    await tb.start()
    # rgmii_txc is 25 MHz: 5 tx_clk cycles per period
    t0 = None
    periods = []
    for _ in range(4):
        await cocotb.triggers.RisingEdge(dut.rgmii_txc)
        now = cocotb.utils.get_sim_time("ns")
        if t0 is not None:
            periods.append(now - t0)
        t0 = now
    assert periods == [40, 40, 40], periods
    sizes = [0, 1, 2, 13, 45, 46, 47, 200, 700]
    await both_ways(tb, [make_frame(n, seed=950 + i) for i, n in enumerate(sizes)], 2)
    await bad_input(tb)


async def bad_input(tb: TB) -> None:
    """Bad FCS, then rx_er (carried on the falling-edge rx_ctl), then a good frame."""
    dut = tb.dut
    base = tb.counters()
    f = make_frame(80, seed=900)
    bad = GmiiFrame.from_payload(f)
    bad.data[40] ^= 0x01
    tb.src.send_nowait(bad)
    er = GmiiFrame.from_payload(make_frame(90, seed=901))
    er.error = [0] * len(er.data)
    er.error[50] = 1
    tb.src.send_nowait(er)
    tb.src.send_nowait(GmiiFrame.from_payload(f))
    r1, r2, r3 = [await tb.axis_sink.recv() for _ in range(3)]
    assert last_user(r1) and last_user(r2) and not last_user(r3)
    assert bytes(r3.tdata) == padded(f)
    await ClockCycles(dut.rgmii_rxc, 20)
    c = tb.counters()
    assert c["rx_bad_fcs"] - base["rx_bad_fcs"] == 1
    assert c["rx_er"] - base["rx_er"] == 1
    assert c["rx_frames"] - base["rx_frames"] == 1


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def ten_megabit(dut) -> None:
    tb = TB(dut, 10)
    await tb.start()
    await both_ways(tb, [make_frame(n, seed=980 + n) for n in (0, 60)], 2)


def test_eth_mac_rgmii() -> None:
    run("eth_mac_rgmii", "test_eth_mac_rgmii")
