"""eth_mac_mii: 10/100 MAC on MII (the GMII cores behind nibble adapters).

cocotbext-eth MiiSource/MiiSink on the wire, cocotbext-axi on the user side, scapy
frames. Sizes: every payload 0..64 exhaustively plus a stride of 97 up to 1500, both
directions at once, back to back (TX gap on the wire exactly 24 nibbles = 12 bytes, each
burst 2 x (8 + frame + 4) nibbles). Bad input with exact counters: bad FCS, runt, rx_er,
oversize; preambles of odd and even nibble counts and none at all; TX underflow and
tuser abort; RX reset mid-frame.
"""

from __future__ import annotations

import random
import zlib

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotb_run import run
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import GmiiFrame, MiiSink, MiiSource
from mac_tb import (
    EnMonitor,
    MacEvents,
    check_rx_copies,
    check_wire_frame,
    last_user,
    make_frame,
    padded,
)


class TB:
    def __init__(self, dut) -> None:
        self.dut = dut
        cocotb.start_soon(Clock(dut.mii_tx_clk, 40, "ns").start())
        cocotb.start_soon(Clock(dut.mii_rx_clk, 40, "ns").start(start_high=False))
        dut.tx_rst.value = 1
        dut.rx_rst.value = 1
        self.ev = MacEvents(dut, "mii_tx_clk", "tx_rst", "mii_rx_clk", "rx_rst")
        self.mii_src = MiiSource(dut.mii_rxd, dut.mii_rx_er, dut.mii_rx_dv, dut.mii_rx_clk)
        self.axis_src = AxiStreamSource(
            AxiStreamBus.from_prefix(dut, "s_axis"), dut.mii_tx_clk, dut.tx_rst
        )
        dut.cfg_ifg.value = 12
        dut.cfg_max_len.value = 1518
        cocotb.start_soon(check_rx_copies(dut.u_core.u_rx, dut.mii_rx_clk, 1518))

    async def reset(self) -> None:
        d = self.dut
        await ClockCycles(d.mii_tx_clk, 5)
        self.mii_sink = MiiSink(d.mii_txd, d.mii_tx_er, d.mii_tx_en, d.mii_tx_clk)
        self.axis_sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), d.mii_rx_clk)
        d.tx_rst.value = 0
        d.rx_rst.value = 0
        await ClockCycles(d.mii_tx_clk, 5)

    def counters(self) -> dict[str, int]:
        """The MAC's events so far, counted from its strobes (cnt_ev)."""
        return self.ev.counts()


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def sizes_both_directions_back_to_back(dut) -> None:
    tb = TB(dut)
    await tb.reset()
    mon = EnMonitor(dut.mii_tx_clk, dut.mii_tx_en)
    cocotb.start_soon(mon.run())
    sizes = list(range(0, 65)) + list(range(65, 1501, 97)) + [1500]
    frames = [make_frame(n, seed=i) for i, n in enumerate(sizes)]
    for f in frames:
        await tb.axis_src.send(AxiStreamFrame(f))
        tb.mii_src.send_nowait(GmiiFrame.from_payload(f))
    for i, f in enumerate(frames):
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == padded(f) and not last_user(rx), f"RX frame {i}"
        check_wire_frame(await tb.mii_sink.recv(), f)
    await ClockCycles(dut.mii_tx_clk, 40)
    assert mon.bursts == [2 * (8 + len(padded(f)) + 4) for f in frames]
    assert mon.gaps == [24] * (len(frames) - 1), f"gaps {sorted(set(mon.gaps))}"
    c = tb.counters()
    total = sum(len(padded(f)) + 4 for f in frames)
    assert c["tx_frames"] == c["rx_frames"] == len(frames)
    assert c["tx_bytes"] == c["rx_bytes"] == total


async def drive_nibbles(dut, nibbles: list[int], er_at: int | None = None) -> None:
    """Put raw nibbles on the MII receive side, then 24 idle nibbles."""
    for i, n in enumerate(nibbles):
        dut.mii_rxd.value = n
        dut.mii_rx_dv.value = 1
        dut.mii_rx_er.value = int(i == er_at)
        await RisingEdge(dut.mii_rx_clk)
    dut.mii_rx_dv.value = 0
    dut.mii_rx_er.value = 0
    for _ in range(24):
        await RisingEdge(dut.mii_rx_clk)


def to_nibbles(data: bytes) -> list[int]:
    out: list[int] = []
    for b in data:
        out += [b & 0xF, b >> 4]
    return out


def with_fcs(body: bytes, good: bool = True) -> bytes:
    fcs = zlib.crc32(body) ^ (0 if good else 0x80)
    return body + fcs.to_bytes(4, "little")


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def rx_preambles_and_bad_frames(dut) -> None:
    tb = TB(dut)
    await tb.reset()
    await RisingEdge(dut.mii_rx_clk)
    rng = random.Random(5)
    goods: list[bytes] = []
    expect: list[tuple[bytes | None, bool]] = []
    # preambles of 15 (odd), 16, 2 and 1... nibbles 5 before the D
    for pre in (15, 14, 1, 0):
        f = padded(make_frame(rng.randrange(46, 200), seed=700 + pre))
        await drive_nibbles(dut, [5] * pre + [5, 0xD] + to_nibbles(with_fcs(f)))
        goods.append(f)
        expect.append((f, False))
    f = padded(make_frame(80, seed=710))
    await drive_nibbles(dut, [5] * 15 + [0xD] + to_nibbles(with_fcs(f, good=False)))
    expect.append((f, True))
    f = make_frame(30, seed=711)  # runt: 48 bytes with a good FCS
    await drive_nibbles(dut, [5] * 15 + [0xD] + to_nibbles(with_fcs(f)))
    expect.append((f, True))
    f = padded(make_frame(90, seed=712))
    await drive_nibbles(dut, [5] * 15 + [0xD] + to_nibbles(with_fcs(f)), er_at=60)
    expect.append((None, True))
    f = make_frame(1519 - 18, seed=713)  # oversize by one byte
    await drive_nibbles(dut, [5] * 15 + [0xD] + to_nibbles(with_fcs(f)))
    expect.append((None, True))
    # an odd trailing nibble is dropped: the frame is still good
    f = padded(make_frame(70, seed=714))
    await drive_nibbles(dut, [5] * 15 + [0xD] + to_nibbles(with_fcs(f)) + [0x3])
    goods.append(f)
    expect.append((f, False))
    for i, (data, bad) in enumerate(expect):
        rx = await tb.axis_sink.recv()
        assert last_user(rx) == bad, f"frame {i}"
        if data is not None:
            assert bytes(rx.tdata) == data, f"frame {i} data"
    await ClockCycles(dut.mii_rx_clk, 20)
    assert tb.axis_sink.empty()
    c = tb.counters()
    assert c["rx_frames"] == len(goods)
    assert c["rx_bytes"] == sum(len(g) + 4 for g in goods)
    assert (c["rx_bad_fcs"], c["rx_runt"], c["rx_er"], c["rx_oversize"]) == (1, 1, 1, 1)


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def tx_underflow(dut) -> None:
    tb = TB(dut)
    tb.axis_src.pause = True
    await tb.reset()
    f1, f2 = make_frame(100, seed=800), make_frame(20, seed=801)
    data = f1
    i = 0
    stalled = False
    while i < len(data):
        if i == 50 and not stalled:  # tvalid low for 7 cycles mid-frame
            dut.s_axis_tvalid.value = 0
            await ClockCycles(dut.mii_tx_clk, 7)
            stalled = True
        dut.s_axis_tdata.value = data[i]
        dut.s_axis_tvalid.value = 1
        dut.s_axis_tlast.value = int(i == len(data) - 1)
        dut.s_axis_tuser.value = 0
        await RisingEdge(dut.mii_tx_clk)
        if int(dut.s_axis_tready.value):
            i += 1
    dut.s_axis_tvalid.value = 0
    tb.axis_src.pause = False
    await tb.axis_src.send(AxiStreamFrame(f2))
    f3 = make_frame(40, seed=802)
    await tb.axis_src.send(AxiStreamFrame(f3, tuser=1))  # abort: bad FCS, tx_er
    cut = await tb.mii_sink.recv()
    assert cut.error and any(cut.error) and not cut.check_fcs()
    check_wire_frame(await tb.mii_sink.recv(), f2)
    ab = await tb.mii_sink.recv()
    assert ab.error and any(ab.error) and not ab.check_fcs()
    assert bytes(ab.data[-64:-4]) == padded(f3)
    await ClockCycles(dut.mii_tx_clk, 40)
    c = tb.counters()
    assert c["tx_frames"] == 1 and c["tx_underflow"] == 1 and c["tx_abort"] == 1
    assert c["tx_bytes"] == len(padded(f2)) + 4


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def rx_reset_mid_frame(dut) -> None:
    """rx_rst in the middle of a frame: no good frame from it, the next one is clean."""
    tb = TB(dut)
    await tb.reset()
    await RisingEdge(dut.mii_rx_clk)
    body = padded(make_frame(0, seed=850) + bytes(i % 0x50 for i in range(200)))
    nib = [5] * 15 + [0xD] + to_nibbles(with_fcs(body))
    for i, n in enumerate(nib):
        if i == 150:
            dut.rx_rst.value = 1
        if i == 153:
            dut.rx_rst.value = 0
        dut.mii_rxd.value = n
        dut.mii_rx_dv.value = 1
        await RisingEdge(dut.mii_rx_clk)
    dut.mii_rx_dv.value = 0
    await ClockCycles(dut.mii_rx_clk, 24)
    good = padded(make_frame(100, seed=851))
    await drive_nibbles(dut, [5] * 15 + [0xD] + to_nibbles(with_fcs(good)))
    rx = await tb.axis_sink.recv()
    while last_user(rx):  # the cut frame may only come out flagged bad
        rx = await tb.axis_sink.recv()
    assert bytes(rx.tdata) == good
    await ClockCycles(dut.mii_rx_clk, 20)
    assert tb.axis_sink.empty()
    c = tb.counters()
    assert c["rx_frames"] == 1 and c["rx_bytes"] == len(good) + 4


def test_eth_mac_mii() -> None:
    run("eth_mac_mii", "test_eth_mac_mii")
