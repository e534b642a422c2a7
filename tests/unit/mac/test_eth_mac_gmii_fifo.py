"""eth_mac_gmii_fifo: the GMII MAC behind clock-crossing FIFOs, user side in the stack clock.

cocotbext-eth drives gmii_rx and captures gmii_tx, cocotbext-axi the user streams, scapy
builds the frames. Three unrelated clocks: gmii_tx_clk 125 MHz, gmii_rx_clk 125 MHz
from another oscillator (a slightly different period and phase), and the stack clock
clk faster (156.25 MHz) or slower (100 MHz) than the line.
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import GmiiFrame, GmiiSink, GmiiSource
from mac_tb import MAC_EV, PREAMBLE, EnMonitor, check_wire_frame, last_user, make_frame, padded
from unit.cnt_ev_mon import EvMon

TX_DEPTH = 2048
RX_DEPTH = 1024

# cnt_ev bits, all in clk: the MAC's, then the FIFOs' drops
COUNTERS = [*MAC_EV, "rx_fifo_drop", "tx_fifo_drop"]


class TB:
    def __init__(self, dut, clk_period: float) -> None:
        self.dut = dut
        d = dut
        for r in (d.rst, d.gmii_tx_rst, d.gmii_rx_rst):
            r.value = 1
        cocotb.start_soon(Clock(d.gmii_tx_clk, 8.0, "ns").start())
        cocotb.start_soon(Clock(d.gmii_rx_clk, 7.996, "ns").start(start_high=False))
        cocotb.start_soon(Clock(d.clk, clk_period, "ns").start())
        d.cfg_ifg.value = 12
        d.cfg_max_len.value = 1518
        d.s_axis_tuser.value = 0
        self.gmii_src = GmiiSource(d.gmii_rxd, d.gmii_rx_er, d.gmii_rx_dv, d.gmii_rx_clk)
        self.axis_src = AxiStreamSource(AxiStreamBus.from_prefix(d, "s_axis"), d.clk, d.rst)
        self.rx: list[tuple[bytes, bool]] = []
        # the strobes counted in clk (a stack reset only pauses them: see stack_reset_mid_traffic)
        self.ev = EvMon(d, COUNTERS, clk="clk", rst="rst", keep_on_rst=True,
                        values={"tx_bytes": ("cnt_ev_len", 0, 16),
                                "rx_bytes": ("cnt_ev_len", 16, 16)})  # fmt: skip

    async def reset(self) -> None:
        d = self.dut
        await ClockCycles(d.gmii_tx_clk, 10)
        self.gmii_sink = GmiiSink(d.gmii_txd, d.gmii_tx_er, d.gmii_tx_en, d.gmii_tx_clk)
        self.axis_sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), d.clk, d.rst)
        for r in (d.rst, d.gmii_tx_rst, d.gmii_rx_rst):
            r.value = 0
        await ClockCycles(d.gmii_tx_clk, 40)  # reset handshakes and the configuration
        cocotb.start_soon(self._collect())

    async def _collect(self) -> None:
        while True:
            f = await self.axis_sink.recv()
            self.rx.append((bytes(f.tdata), last_user(f)))

    def counters(self) -> dict[str, int]:
        """The events carried into clk so far (cnt_ev)."""
        return self.ev.counts()

    async def settle(self, quiet: int = 300) -> None:
        """Wait for both sources to finish and both outputs to stay idle ``quiet`` cycles."""
        await self.axis_src.wait()
        await self.gmii_src.wait()
        d = self.dut
        idle = 0
        while idle < quiet:
            await RisingEdge(d.gmii_tx_clk)
            busy = int(d.gmii_tx_en.value) or int(d.m_axis_tvalid.value)
            idle = 0 if busy else idle + 1


def rx_frame(f: bytes) -> GmiiFrame:
    return GmiiFrame.from_payload(f)


def expect(c: dict[str, int], **want: int) -> None:
    got = {k: c[k] for k in want}
    assert got == want, f"counters {got} != {want}"


@cocotb.test()
@cocotb.parametrize(clk_period=[6.4, 10.0])
async def both_directions_back_to_back(dut, clk_period: float) -> None:
    """Frames both ways at once, back to back: exact on the wire and on m_axis."""
    tb = TB(dut, clk_period)
    await tb.reset()
    mon = EnMonitor(dut.gmii_tx_clk, dut.gmii_tx_en)
    cocotb.start_soon(mon.run())
    rng = random.Random(int(clk_period * 10))
    sizes = [0, 1, 45, 46, 47, 60, 100, 200, 300] + [rng.randrange(0, 400) for _ in range(9)]
    frames = [make_frame(n, seed=i) for i, n in enumerate(sizes)]
    for f in frames:
        tb.axis_src.send_nowait(AxiStreamFrame(f))
        tb.gmii_src.send_nowait(rx_frame(f))
    for f in frames:
        check_wire_frame(await tb.gmii_sink.recv(), f)
    await tb.settle()
    assert tb.rx == [(padded(f), False) for f in frames]
    # the TX frame FIFO keeps the MAC fed: no underflow, even with clk below 125 MHz
    total = sum(len(padded(f)) + 4 for f in frames)
    expect(
        tb.counters(),
        tx_frames=len(frames), tx_bytes=total, tx_underflow=0, tx_abort=0,
        rx_frames=len(frames), rx_bytes=total, rx_fifo_drop=0, tx_fifo_drop=0,
    )  # fmt: skip
    assert mon.gaps and min(mon.gaps) >= 12, f"gaps {sorted(set(mon.gaps))}"
    if clk_period < 8.0:
        # a stack clock faster than the line keeps the wire at the minimum gap
        assert max(mon.gaps) == 12, f"gaps {sorted(set(mon.gaps))}"


@cocotb.test()
async def rx_bad_frames_dropped(dut) -> None:
    """Bad RX frames never reach m_axis (RX_DROP_BAD_FRAME=1) and are counted exactly."""
    tb = TB(dut, 6.4)
    await tb.reset()
    good = [make_frame(50 + 10 * i, seed=200 + i) for i in range(6)]
    corrupt = bytearray(rx_frame(good[1]).data)
    corrupt[30] ^= 0x40
    body = good[2][:20]
    runt = PREAMBLE + body + zlib.crc32(body).to_bytes(4, "little")  # 24 bytes: a runt
    er = rx_frame(good[3])
    er.error = [0] * len(er.data)
    er.error[40] = 1
    plan = [
        rx_frame(good[0]),
        GmiiFrame(corrupt),
        rx_frame(good[4]),
        GmiiFrame(bytearray(runt)),
        er,
        rx_frame(good[5]),
    ]
    for fr in plan:
        tb.gmii_src.send_nowait(fr)
    await tb.settle()
    assert tb.rx == [(padded(good[0]), False), (padded(good[4]), False), (padded(good[5]), False)]
    expect(tb.counters(), rx_frames=3, rx_bad_fcs=1, rx_runt=1, rx_er=1, rx_fifo_drop=0)


@cocotb.test()
async def rx_fifo_full_drops_whole_frames(dut) -> None:
    """m_axis stalled: frames that do not fit are dropped whole and counted."""
    tb = TB(dut, 6.4)
    await tb.reset()
    tb.axis_sink.pause = True
    frames = [make_frame(100 + 7 * i, seed=300 + i) for i in range(16)]  # ~2.2 KB > RX FIFO
    for f in frames:
        tb.gmii_src.send_nowait(rx_frame(f))
    await tb.gmii_src.wait()
    await ClockCycles(dut.clk, 100)
    dropped = tb.counters()["rx_fifo_drop"]
    assert dropped > 0, "the RX FIFO should have overflowed"
    tb.axis_sink.pause = False
    await tb.settle()
    want = [padded(f) for f in frames]
    got = [d for d, bad in tb.rx]
    assert not any(bad for _, bad in tb.rx)
    # what came out is an in-order subsequence of what went in, and the rest is counted
    it = iter(want)
    assert all(any(g == w for w in it) for g in got), "a frame out differs from every frame in"
    expect(tb.counters(), rx_frames=len(frames), rx_fifo_drop=len(frames) - len(got))
    # the stored frames fill the FIFO: at least RX_DEPTH minus one frame's worth
    assert sum(len(g) for g in got) > RX_DEPTH - max(len(w) for w in want)


@cocotb.test()
async def tx_abort_and_oversize_dropped(dut) -> None:
    """TX frames with tuser, or longer than the TX FIFO, never reach the wire; the IFG
    configured in the stack clock reaches the MAC."""
    tb = TB(dut, 10.0)
    dut.cfg_ifg.value = 20
    await tb.reset()
    mon = EnMonitor(dut.gmii_tx_clk, dut.gmii_tx_en)
    cocotb.start_soon(mon.run())
    f0, f1, f2 = (make_frame(80, seed=400 + i) for i in range(3))
    f3 = make_frame(10, seed=410)  # short: in the TX FIFO well before f0 has gone out
    big = make_frame(TX_DEPTH + 100, seed=499)
    tb.axis_src.send_nowait(AxiStreamFrame(f0))
    tb.axis_src.send_nowait(AxiStreamFrame(f3))
    tb.axis_src.send_nowait(AxiStreamFrame(f1, tuser=1))
    tb.axis_src.send_nowait(AxiStreamFrame(big))
    tb.axis_src.send_nowait(AxiStreamFrame(f2))
    for f in (f0, f3, f2):
        check_wire_frame(await tb.gmii_sink.recv(), f)
    await tb.settle()
    assert tb.gmii_sink.empty()
    expect(tb.counters(), tx_frames=3, tx_fifo_drop=2, tx_underflow=0, tx_abort=0)
    assert mon.bursts == [8 + len(padded(f)) + 4 for f in (f0, f3, f2)]
    assert mon.gaps[0] == 20, f"gap {mon.gaps[0]} after f0, cfg_ifg 20"


@cocotb.test()
async def stack_reset_mid_traffic(dut) -> None:
    """Resetting the stack clock domain alone, at a frame's start and in its middle: the
    PHY side keeps running, no cut frame comes out as good, traffic resumes."""
    tb = TB(dut, 6.4)
    await tb.reset()
    frames = [make_frame(250 + 13 * i, seed=500 + i) for i in range(9)]
    for f in frames:
        tb.gmii_src.send_nowait(rx_frame(f))
    for delay in (0, 120, 40):
        # reset while a frame arrives: from its start (its first bytes meet a FIFO in
        # reset), from its middle, and near its start; released while it still arrives;
        # then two frames in peace, so whatever the FIFO made of the cut one comes out
        for _ in range(3):
            await RisingEdge(dut.gmii_rx_dv)
        await ClockCycles(dut.gmii_rx_clk, delay)
        dut.rst.value = 1
        await ClockCycles(dut.clk, 40)
        dut.rst.value = 0
    await tb.gmii_src.wait()
    await ClockCycles(dut.gmii_tx_clk, 40)
    after = [make_frame(70 + 11 * i, seed=600 + i) for i in range(4)]
    for f in after:
        tb.gmii_src.send_nowait(rx_frame(f))
        tb.axis_src.send_nowait(AxiStreamFrame(f))
    for f in after:
        check_wire_frame(await tb.gmii_sink.recv(), f)
    await tb.settle()
    sent = [padded(f) for f in frames + after]
    good = [d for d, bad in tb.rx if not bad]
    it = iter(sent)
    assert all(any(g == w for w in it) for g in good), "a good frame out was never sent"
    assert good[-len(after) :] == [padded(f) for f in after]
    assert len(good) < len(sent), "the resets should have cost some frames"
    # the MAC's strobes (PHY domains) were not reset and every frame's reached clk
    expect(tb.counters(), rx_frames=len(frames) + len(after), tx_frames=len(after))


_ = Timer


def test_eth_mac_gmii_fifo() -> None:
    import cocotb_run

    cocotb_run.run(
        "eth_mac_gmii_fifo",
        "test_eth_mac_gmii_fifo",
        parameters={"TX_DEPTH": TX_DEPTH, "RX_DEPTH": RX_DEPTH},
        test_dir=Path(__file__).parent,
    )
