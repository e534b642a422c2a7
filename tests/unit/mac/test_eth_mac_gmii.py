"""eth_mac_gmii: 1 Gbit/s GMII MAC, TX and RX, checked with cocotbext-eth on the wire,
cocotbext-axi on the user side and scapy-built frames.

Sizes: every payload 0..127 bytes (frames 14..141) exhaustively, a stride of 37 and a
random sample up to 1500, and a 9000-byte jumbo with cfg_max_len = 9018: all through RX
and TX at once, back to back at the minimum gap (the TX gap on the wire is checked to be
exactly 12 idle bytes and 8 preamble bytes per frame).
"""

from __future__ import annotations

import random
import zlib

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotb_run import run
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import GmiiFrame, GmiiSink, GmiiSource
from mac_tb import (
    PREAMBLE,
    EnMonitor,
    MacEvents,
    check_rx_copies,
    check_wire_frame,
    drive_axis,
    last_user,
    make_frame,
    padded,
)


class TB:
    def __init__(self, dut, max_len: int = 1518) -> None:
        self.dut = dut
        cocotb.start_soon(Clock(dut.tx_clk, 8, "ns").start())
        cocotb.start_soon(Clock(dut.rx_clk, 8, "ns").start(start_high=False))
        dut.tx_rst.value = 1
        dut.rx_rst.value = 1
        self.ev = MacEvents(dut, "tx_clk", "tx_rst", "rx_clk", "rx_rst")
        self.gmii_src = GmiiSource(dut.gmii_rxd, dut.gmii_rx_er, dut.gmii_rx_dv, dut.rx_clk)
        self.axis_src = AxiStreamSource(
            AxiStreamBus.from_prefix(dut, "s_axis"), dut.tx_clk, dut.tx_rst
        )
        dut.cfg_ifg.value = 12
        dut.cfg_max_len.value = max_len
        dut.s_axis_tuser.value = 0
        cocotb.start_soon(check_rx_copies(dut.u_core.u_rx, dut.rx_clk, max_len))

    async def reset(self) -> None:
        d = self.dut
        d.tx_rst.value = 1
        d.rx_rst.value = 1
        await ClockCycles(d.tx_clk, 5)
        # the monitors start once the outputs have left X
        self.gmii_sink = GmiiSink(d.gmii_txd, d.gmii_tx_er, d.gmii_tx_en, d.tx_clk)
        self.axis_sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), d.rx_clk)
        d.tx_rst.value = 0
        d.rx_rst.value = 0
        await ClockCycles(d.tx_clk, 5)

    def counters(self) -> dict[str, int]:
        """The MAC's events so far, counted from its strobes (cnt_ev)."""
        return self.ev.counts()


def size_plan() -> list[int]:
    rng = random.Random(7)
    sizes = list(range(0, 128)) + list(range(128, 1501, 37)) + [1500]
    sizes += [rng.randrange(128, 1501) for _ in range(8)]
    return sizes


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def sizes_both_directions_back_to_back(dut) -> None:
    tb = TB(dut, max_len=9018)
    await tb.reset()
    mon = EnMonitor(dut.tx_clk, dut.gmii_tx_en)
    cocotb.start_soon(mon.run())
    sizes = size_plan() + [9000 - 14]
    frames = [make_frame(n, seed=i) for i, n in enumerate(sizes)]
    for f in frames:
        await tb.axis_src.send(AxiStreamFrame(f))
        tb.gmii_src.send_nowait(GmiiFrame.from_payload(f))
    for i, f in enumerate(frames):
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == padded(f), f"RX frame {i} (payload {sizes[i]}) differs"
        assert not last_user(rx), f"RX frame {i} flagged bad"
        tx = await tb.gmii_sink.recv()
        check_wire_frame(tx, f)
    await ClockCycles(dut.tx_clk, 20)
    # wire timing: every frame is preamble + padded frame + FCS, gaps exactly 12 bytes
    assert mon.bursts == [8 + len(padded(f)) + 4 for f in frames]
    assert mon.gaps == [12] * (len(frames) - 1), f"gaps {sorted(set(mon.gaps))}"
    c = tb.counters()
    assert c["tx_frames"] == len(frames) and c["rx_frames"] == len(frames)
    total = sum(len(padded(f)) + 4 for f in frames)
    assert c["tx_bytes"] == total and c["rx_bytes"] == total
    for k in ("tx_underflow", "tx_abort", "rx_bad_fcs", "rx_runt", "rx_oversize", "rx_er"):
        assert c[k] == 0, k


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def random_gaps_and_ifg(dut) -> None:
    """Random idle time between frames in both directions, and a larger configured IFG."""
    tb = TB(dut)
    dut.cfg_ifg.value = 20
    await tb.reset()
    mon = EnMonitor(dut.tx_clk, dut.gmii_tx_en)
    cocotb.start_soon(mon.run())
    rng = random.Random(3)
    frames = [make_frame(rng.randrange(0, 300), seed=100 + i) for i in range(30)]

    async def feed_tx() -> None:
        for f in frames:
            await tb.axis_src.send(AxiStreamFrame(f))
            await tb.axis_src.wait()
            await ClockCycles(dut.tx_clk, rng.randrange(0, 40))

    async def feed_rx() -> None:
        for f in frames:
            tb.gmii_src.ifg = rng.randrange(1, 40)
            await tb.gmii_src.send(GmiiFrame.from_payload(f))
            await tb.gmii_src.wait()

    cocotb.start_soon(feed_tx())
    cocotb.start_soon(feed_rx())
    for f in frames:
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == padded(f) and not last_user(rx)
        check_wire_frame(await tb.gmii_sink.recv(), f)
    await ClockCycles(dut.tx_clk, 30)
    assert min(mon.gaps) >= 20, f"gap below cfg_ifg: {min(mon.gaps)}"
    c = tb.counters()
    assert c["tx_frames"] == 30 and c["rx_frames"] == 30


def raw_frame(body: bytes, preamble: bytes = PREAMBLE, fcs_ok: bool = True) -> GmiiFrame:
    fcs = zlib.crc32(body).to_bytes(4, "little")
    if not fcs_ok:
        fcs = bytes([fcs[0] ^ 0x01]) + fcs[1:]
    return GmiiFrame(bytearray(preamble + body + fcs))


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def rx_bad_frames_counted(dut) -> None:
    tb = TB(dut, max_len=0)  # 0 selects the default limit, 1518
    await tb.reset()
    good = [make_frame(100 + i, seed=200 + i) for i in range(12)]
    expect_out: list[tuple[bytes | None, bool]] = []  # (data or None for "any", tuser)

    def send(fr: GmiiFrame, out: bytes | None, bad: bool, emitted: bool = True) -> None:
        tb.gmii_src.send_nowait(fr)
        if emitted:
            expect_out.append((out, bad))

    send(GmiiFrame.from_payload(good[0]), good[0], False)
    # bad FCS (one bit of the FCS flipped), then a corrupted payload byte
    send(raw_frame(good[1], fcs_ok=False), good[1], True)
    corrupt = bytearray(GmiiFrame.from_payload(good[2]).data)
    corrupt[30] ^= 0x40
    send(GmiiFrame(corrupt), bytes(corrupt[8:-4]), True)
    send(GmiiFrame.from_payload(good[3]), good[3], False)
    # runts: 59 bytes + good FCS (63 total), 20 bytes, 3 bytes (nothing comes out)
    send(raw_frame(good[4][:59]), good[4][:59], True)
    send(raw_frame(good[5][:20]), good[5][:20], True)
    send(raw_frame(good[6][:1]), good[6][:1], True)
    send(raw_frame(b""), None, True, emitted=False)
    # short and missing preambles are fine
    send(raw_frame(padded(good[7]), preamble=b"\xd5"), padded(good[7]), False)
    send(raw_frame(padded(good[8]), preamble=b"\x55\x55\xd5"), padded(good[8]), False)
    # a frame without SFD (garbage first byte) is ignored entirely, not counted
    tb.gmii_src.send_nowait(GmiiFrame(bytearray(b"\x55\x12" + good[9])))
    # oversize: 1519 bytes with a good FCS; exactly 1518 is good
    big = make_frame(1519 - 18, seed=300)
    max_ok = make_frame(1518 - 18, seed=301)
    send(raw_frame(big), None, True)
    send(raw_frame(max_ok), max_ok, False)
    # rx_er in the middle of a frame whose FCS is right
    er_fr = GmiiFrame.from_payload(good[10])
    er_fr.error = [0] * len(er_fr.data)
    er_fr.error[40] = 1
    send(er_fr, None, True)
    send(GmiiFrame.from_payload(good[11]), good[11], False)

    for i, (data, bad) in enumerate(expect_out):
        rx = await tb.axis_sink.recv()
        assert last_user(rx) == bad, f"frame {i}: tuser {rx.tuser} expected {bad}"
        if data is not None:
            assert bytes(rx.tdata) == data, f"frame {i} data differs"
        elif data is None and bad:
            assert len(rx.tdata) <= 1518 - 4
    await ClockCycles(dut.rx_clk, 50)
    assert tb.axis_sink.empty(), "an extra frame came out"
    c = tb.counters()
    goods = [good[0], good[3], padded(good[7]), padded(good[8]), max_ok, good[11]]
    assert c["rx_frames"] == len(goods)
    assert c["rx_bytes"] == sum(len(padded(f)) + 4 for f in goods)
    assert c["rx_bad_fcs"] == 2
    assert c["rx_runt"] == 4
    assert c["rx_oversize"] == 1
    assert c["rx_er"] == 1


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def tx_underflow_and_abort(dut) -> None:
    tb = TB(dut)
    tb.axis_src.pause = True  # the hand driver owns s_axis in this test
    await tb.reset()
    f0, f1, f2, f3 = (make_frame(n, seed=400 + n) for n in (80, 90, 30, 70))
    await drive_axis(dut, f0)
    # underflow after 40 bytes: the frame is cut with tx_er, the rest is dropped
    await drive_axis(dut, f1, gap_at=40, gap=5)
    await drive_axis(dut, f2)
    # tuser on the last beat: bad FCS and tx_er on the wire (padded frame)
    await drive_axis(dut, f3, tuser=1)
    await drive_axis(dut, f0)
    check_wire_frame(await tb.gmii_sink.recv(), f0)
    cut = await tb.gmii_sink.recv()
    assert any(cut.error), "underflow frame without tx_er"
    assert not cut.check_fcs() or len(cut.data) < 8 + 64, "underflow left a good frame"
    assert bytes(cut.data[7 : 7 + 40]) == f1[:40]  # sink drops the first preamble byte
    check_wire_frame(await tb.gmii_sink.recv(), f2)
    ab = await tb.gmii_sink.recv()
    assert any(ab.error) and not ab.check_fcs(), "aborted frame has a good FCS"
    assert bytes(ab.data[7:-4]) == padded(f3)
    check_wire_frame(await tb.gmii_sink.recv(), f0)
    await ClockCycles(dut.tx_clk, 20)
    assert tb.gmii_sink.empty()
    c = tb.counters()
    assert c["tx_frames"] == 3 and c["tx_underflow"] == 1 and c["tx_abort"] == 1
    assert c["tx_bytes"] == sum(len(padded(f)) + 4 for f in (f0, f2, f0))


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def reset_mid_frame(dut) -> None:
    tb = TB(dut)
    await tb.reset()
    # payload without 0x55/0xd5 so the tail after reset cannot look like a preamble
    body = bytes((i % 0x50) for i in range(600))
    long_frame = make_frame(0, seed=500) + body
    after = make_frame(200, seed=501)
    tb.gmii_src.send_nowait(GmiiFrame.from_payload(long_frame))
    tb.gmii_src.send_nowait(GmiiFrame.from_payload(after))
    await tb.axis_src.send(AxiStreamFrame(long_frame))
    await ClockCycles(dut.tx_clk, 200)
    dut.rx_rst.value = 1
    dut.tx_rst.value = 1
    await ClockCycles(dut.tx_clk, 3)
    dut.rx_rst.value = 0
    dut.tx_rst.value = 0
    await ClockCycles(dut.tx_clk, 2)
    await tb.axis_src.send(AxiStreamFrame(after))
    rx = await tb.axis_sink.recv()
    while last_user(rx) and bytes(rx.tdata) != after:  # the cut frame may only come out bad
        rx = await tb.axis_sink.recv()
    assert bytes(rx.tdata) == after and not last_user(rx)
    cut = await tb.gmii_sink.recv()
    assert not cut.check_fcs(), "a frame cut by reset left with a good FCS"
    check_wire_frame(await tb.gmii_sink.recv(), after)
    await ClockCycles(dut.tx_clk, 30)
    c = tb.counters()
    assert c["rx_frames"] == 1 and c["tx_frames"] == 1
    assert c["rx_bytes"] == len(after) + 4 and c["tx_bytes"] == len(after) + 4


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def latency_cycles(dut) -> None:
    """The latencies documented in docs/mac.md, counted in clock cycles."""
    tb = TB(dut)
    await tb.reset()
    f = make_frame(100, seed=600)
    # RX: record the cycle of each event at the rising edge that samples it
    events: dict[str, int] = {}

    async def watch_rx() -> None:
        cyc = 0
        prev_dv = 0
        while "tlast" not in events:
            await RisingEdge(dut.rx_clk)
            cyc += 1
            dv, d = int(dut.gmii_rx_dv.value), int(dut.gmii_rxd.value)
            if dv and d == 0xD5 and "sfd" not in events:
                events["sfd"] = cyc
            if prev_dv and not dv and "end" not in events:
                events["end"] = cyc - 1  # cycle of the last FCS byte
            prev_dv = dv
            if int(dut.m_axis_tvalid.value):
                events.setdefault("first_out", cyc)
                if int(dut.m_axis_tlast.value):
                    events["tlast"] = cyc

    w = cocotb.start_soon(watch_rx())
    tb.gmii_src.send_nowait(GmiiFrame.from_payload(f))
    await w
    assert events["first_out"] - (events["sfd"] + 1) == 7, events
    assert events["tlast"] - events["end"] == 4, events
    rx = await tb.axis_sink.recv()
    assert bytes(rx.tdata) == f
    # TX: tvalid rises, the first preamble byte is on gmii_txd one cycle later
    tb.axis_src.pause = True
    await tb.axis_src.send(AxiStreamFrame(f))
    await RisingEdge(dut.tx_clk)
    tb.axis_src.pause = False
    cyc = 0
    while not int(dut.s_axis_tvalid.value):
        await RisingEdge(dut.tx_clk)
    while True:
        await RisingEdge(dut.tx_clk)
        cyc += 1
        if int(dut.gmii_tx_en.value):
            break
    assert cyc == 1 and int(dut.gmii_txd.value) == 0x55, cyc
    check_wire_frame(await tb.gmii_sink.recv(), f)


def test_eth_mac_gmii() -> None:
    run("eth_mac_gmii", "test_eth_mac_gmii")


_ = Timer  # re-exported for debugging sessions
