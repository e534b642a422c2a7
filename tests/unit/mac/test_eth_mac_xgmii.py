"""eth_mac_xgmii: 10 Gbit/s XGMII MAC, TX and RX, checked with cocotbext-eth's XGMII source
and sink on the wire, cocotbext-axi on the user side and scapy-built frames.

Sizes: user frames of 14..199 bytes (wire frames 64..203 after padding and FCS)
exhaustively and a stride of 37 to 1514 (the long variant: every length 14..1514), and a
9000-byte jumbo, through RX and TX at once, back to back. The TX gaps on the wire are
measured byte by byte and compared gap for gap with those cocotbext-eth's XgmiiSource
(its own deficit idle count) makes for the same frames on the RX wire; their sum is 12
bytes per gap minus the final deficit (0..3).
"""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotb_run import run
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import XgmiiFrame, XgmiiSink, XgmiiSource
from mac_tb import PREAMBLE, drive_axis, make_frame, padded
from xgmii_tb import (
    CH_ERROR,
    CH_IDLE,
    LOCAL_FAULT,
    REMOTE_FAULT,
    XgmiiEvents,
    XgmiiWireMon,
    fcs,
    frame_lanes,
    xgmii_words,
)

IDLE_WORD = (int.from_bytes(bytes([CH_IDLE] * 8), "little"), 0xFF)


class TB:
    def __init__(self, dut, max_len: int = 1518, source: bool = True) -> None:
        self.dut = dut
        cocotb.start_soon(Clock(dut.tx_clk, 6.4, "ns").start())
        cocotb.start_soon(Clock(dut.rx_clk, 6.4, "ns").start(start_high=False))
        dut.tx_rst.value = 1
        dut.rx_rst.value = 1
        self.ev = XgmiiEvents(dut)
        if source:
            self.xgmii_src = XgmiiSource(dut.xgmii_rxd, dut.xgmii_rxc, dut.rx_clk, dut.rx_rst)
        else:
            dut.xgmii_rxd.value, dut.xgmii_rxc.value = IDLE_WORD
        self.axis_src = AxiStreamSource(
            AxiStreamBus.from_prefix(dut, "s_axis"), dut.tx_clk, dut.tx_rst
        )
        dut.cfg_ifg.value = 12
        dut.cfg_max_len.value = max_len
        dut.s_axis_tuser.value = 0
        self.tx_mon = XgmiiWireMon(dut.tx_clk, dut.xgmii_txd, dut.xgmii_txc)
        self.rx_mon = XgmiiWireMon(dut.rx_clk, dut.xgmii_rxd, dut.xgmii_rxc)

    async def reset(self) -> None:
        d = self.dut
        d.tx_rst.value = 1
        d.rx_rst.value = 1
        await ClockCycles(d.tx_clk, 5)
        self.xgmii_sink = XgmiiSink(d.xgmii_txd, d.xgmii_txc, d.tx_clk, d.tx_rst)
        self.axis_sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), d.rx_clk)
        d.tx_rst.value = 0
        d.rx_rst.value = 0
        cocotb.start_soon(self.tx_mon.run())
        cocotb.start_soon(self.rx_mon.run())
        await ClockCycles(d.tx_clk, 5)

    def counters(self) -> dict[str, int]:
        return self.ev.counts()

    def assert_counts(self, **want: int) -> None:
        """Every counter is as given, the others 0."""
        c = self.counters()
        got = {k: v for k, v in c.items() if v}
        assert got == {k: v for k, v in want.items() if v}, f"counters {got} != {want}"


def last_user(rx: AxiStreamFrame) -> bool:
    """tuser of a received frame's last beat: cocotbext-axi gives tuser per byte of a
    64-bit beat, so the flag may only be on the bytes of the last beat (the last 8)."""
    tu = rx.tuser
    if not isinstance(tu, list):
        return bool(tu)
    assert not any(tu[:-8]), "tuser set before the last beat"
    return bool(tu[-1]) if tu else False


def check_tx_frame(fr: XgmiiFrame, frame: bytes) -> None:
    """A frame captured by the XgmiiSink is the right wire image: preamble, padded frame,
    FCS, no control character inside."""
    body = padded(frame)
    assert fr.ctrl is None, "control character inside a TX frame"
    assert bytes(fr.data) == PREAMBLE + body + fcs(body), "TX wire frame differs"
    assert fr.check_fcs()


def size_plan() -> list[int]:
    if os.environ.get("XGMII_SIZES") == "all":
        return list(range(14, 1515))
    return list(range(14, 200)) + list(range(200, 1515, 37)) + [1514]


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def sizes_both_directions_back_to_back(dut) -> None:
    tb = TB(dut, max_len=9018)
    await tb.reset()
    lens = size_plan() + [9000]
    frames = [make_frame(n - 14, seed=i) for i, n in enumerate(lens)]
    for f in frames:
        await tb.axis_src.send(AxiStreamFrame(f))
        tb.xgmii_src.send_nowait(XgmiiFrame.from_payload(f))
    for i, f in enumerate(frames):
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == padded(f), f"RX frame {i} (length {lens[i]}) differs"
        assert not last_user(rx), f"RX frame {i} flagged bad"
        check_tx_frame(await tb.xgmii_sink.recv(), f)
    await ClockCycles(dut.tx_clk, 20)
    n = len(frames)
    # the gaps: gap for gap those of cocotbext-eth's deficit idle count, 9..15 bytes each,
    # 12 on average (the sum short of 12 per gap by the final deficit, 0..3)
    gaps = tb.tx_mon.gaps
    assert len(gaps) == n - 1
    assert gaps == tb.rx_mon.gaps, "TX gaps differ from cocotbext-eth's XgmiiSource"
    assert min(gaps) >= 9 and max(gaps) <= 15, sorted(set(gaps))
    assert 12 * (n - 1) - 3 <= sum(gaps) <= 12 * (n - 1), sum(gaps) - 12 * (n - 1)
    assert set(tb.tx_mon.start_lanes) == {0, 4} and set(tb.rx_mon.start_lanes) == {0, 4}
    total = sum(len(padded(f)) + 4 for f in frames)
    tb.assert_counts(tx_frames=n, tx_bytes=total, rx_frames=n, rx_bytes=total)


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def lane4_rx_random_gaps_and_ifg(dut) -> None:
    """RX: every frame started on lane 4, random gaps; TX: cfg_ifg = 20, random idle time."""
    tb = TB(dut)
    dut.cfg_ifg.value = 20
    await tb.reset()
    tb.xgmii_src.force_offset_start = True
    rng = random.Random(3)
    frames = [make_frame(rng.randrange(0, 300), seed=100 + i) for i in range(40)]
    back_to_back = frames[:20]

    async def feed_tx() -> None:
        for f in back_to_back:
            await tb.axis_src.send(AxiStreamFrame(f))
        await tb.axis_src.wait()
        for f in frames[20:]:
            await ClockCycles(dut.tx_clk, rng.randrange(0, 40))
            await tb.axis_src.send(AxiStreamFrame(f))
            await tb.axis_src.wait()

    async def feed_rx() -> None:
        for f in frames:
            tb.xgmii_src.ifg = rng.randrange(12, 40)
            await tb.xgmii_src.send(XgmiiFrame.from_payload(f))
            await tb.xgmii_src.wait()

    cocotb.start_soon(feed_tx())
    cocotb.start_soon(feed_rx())
    for f in frames:
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == padded(f) and not last_user(rx)
        check_tx_frame(await tb.xgmii_sink.recv(), f)
    await ClockCycles(dut.tx_clk, 30)
    assert set(tb.rx_mon.start_lanes) == {4}
    g = tb.tx_mon.gaps
    assert 20 * 19 - 3 <= sum(g[:19]) <= 20 * 19, g[:19]  # the back-to-back ones
    assert min(g) >= 17, g
    n = len(frames)
    total = sum(len(padded(f)) + 4 for f in frames)
    tb.assert_counts(tx_frames=n, tx_bytes=total, rx_frames=n, rx_bytes=total)


def raw(body: bytes, good_fcs: bool = True) -> XgmiiFrame:
    """A frame with preamble and FCS as given (no padding)."""
    f = fcs(body)
    if not good_fcs:
        f = bytes([f[0] ^ 0x01]) + f[1:]
    return XgmiiFrame(bytearray(PREAMBLE + body + f))


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def rx_bad_frames_counted(dut) -> None:
    tb = TB(dut, max_len=0)  # 0 selects the default limit, 1518
    await tb.reset()
    good = [make_frame(100 + i, seed=200 + i) for i in range(12)]
    expect: list[tuple[bytes | None, bool]] = []  # (data or None for "any", tuser)

    def send(fr: XgmiiFrame, out: bytes | None, bad: bool, emitted: bool = True) -> None:
        tb.xgmii_src.send_nowait(fr)
        if emitted:
            expect.append((out, bad))

    send(XgmiiFrame.from_payload(good[0]), good[0], False)
    send(raw(good[1], good_fcs=False), good[1], True)  # bad FCS
    corrupt = bytearray(XgmiiFrame.from_payload(good[2]).data)
    corrupt[30] ^= 0x40
    send(XgmiiFrame(corrupt), bytes(corrupt[8:-4]), True)  # bad FCS (payload bit)
    # /E/ in the middle of a frame whose FCS is right: the frame ends there, flagged
    er = XgmiiFrame.from_payload(good[3])
    er.ctrl = [0] * len(er.data)
    er.data[50], er.ctrl[50] = CH_ERROR, 1
    send(er, None, True)
    send(XgmiiFrame.from_payload(good[4]), good[4], False)
    # runts: 59 bytes + FCS, 20 bytes, 1 byte (5 with FCS), none (nothing comes out)
    send(raw(good[5][:59]), good[5][:59], True)
    send(raw(good[6][:20]), good[6][:20], True)
    send(raw(good[7][:1]), good[7][:1], True)
    send(raw(b""), None, True, emitted=False)
    # a start whose SFD is wrong is ignored and not counted
    bad_sfd = XgmiiFrame(bytearray(b"\x55" * 7 + b"\xd4" + good[8] + fcs(good[8])))
    tb.xgmii_src.send_nowait(bad_sfd)
    # oversize: 1519 bytes with a good FCS is cut; exactly 1518 is good
    big = make_frame(1519 - 18, seed=300)
    max_ok = make_frame(1518 - 18, seed=301)
    send(raw(big), None, True)
    send(raw(max_ok), max_ok, False)
    send(XgmiiFrame.from_payload(good[11]), good[11], False)

    for i, (data, bad) in enumerate(expect):
        rx = await tb.axis_sink.recv()
        assert last_user(rx) == bad, f"frame {i}: tuser {rx.tuser} expected {bad}"
        if data is not None:
            assert bytes(rx.tdata) == data, f"frame {i} data differs"
        else:
            assert len(rx.tdata) <= 1518
    await ClockCycles(dut.rx_clk, 50)
    assert tb.axis_sink.empty(), "an extra frame came out"
    goods = [good[0], good[4], max_ok, good[11]]
    tb.assert_counts(rx_frames=len(goods), rx_bytes=sum(len(f) + 4 for f in goods),
                     rx_bad_fcs=2, rx_runt=4, rx_oversize=1, rx_er=1)  # fmt: skip


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def tx_underflow_and_abort(dut) -> None:
    tb = TB(dut)
    tb.axis_src.pause = True  # the hand driver owns s_axis in this test
    await tb.reset()
    f0, f1, f2, f3 = (make_frame(n, seed=400 + n) for n in (80, 90, 30, 70))
    await drive_axis(dut, f0, beat=8)
    # underflow before beat 5: an /E/ word in its place, /T/, the rest of f1 dropped
    await drive_axis(dut, f1, gap_at=5, gap=3, beat=8)
    await drive_axis(dut, f2, beat=8)
    # tuser on the last beat: /E/ where the FCS would be
    await drive_axis(dut, f3, tuser=1, beat=8)
    await drive_axis(dut, f0, beat=8)
    check_tx_frame(await tb.xgmii_sink.recv(), f0)
    cut = await tb.xgmii_sink.recv()
    assert bytes(cut.data) == PREAMBLE + f1[:40] + bytes([CH_ERROR]), cut
    assert cut.ctrl[-1] == 1 and not any(cut.ctrl[:-1])
    check_tx_frame(await tb.xgmii_sink.recv(), f2)
    ab = await tb.xgmii_sink.recv()
    assert bytes(ab.data) == PREAMBLE + padded(f3) + bytes([CH_ERROR]), ab
    assert ab.ctrl[-1] == 1
    check_tx_frame(await tb.xgmii_sink.recv(), f0)
    await ClockCycles(dut.tx_clk, 20)
    assert tb.xgmii_sink.empty()
    tb.assert_counts(tx_frames=3, tx_underflow=1, tx_abort=1,
                     tx_bytes=sum(len(padded(f)) + 4 for f in (f0, f2, f0)))  # fmt: skip


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def faults_and_response(dut) -> None:
    """Local fault on RX: link down, TX sends Remote Fault and drops frames; Remote fault:
    TX idles and drops frames; cleared: frames flow again."""
    tb = TB(dut)
    await tb.reset()
    f = make_frame(100, seed=700)
    tb.xgmii_src.set_seq_os(LOCAL_FAULT)
    for _ in range(40):
        await RisingEdge(dut.rx_clk)
    assert int(dut.rx_local_fault.value) == 1 and int(dut.link_ok.value) == 0
    await ClockCycles(dut.tx_clk, 5)
    tb.tx_mon.record = True
    await tb.axis_src.send(AxiStreamFrame(f))
    await tb.axis_src.wait()
    await ClockCycles(dut.tx_clk, 30)
    rf = int.from_bytes(bytes([0x9C, 0, 0, 2]) * 2, "little")
    assert tb.tx_mon.words and all(w == (rf, 0x11) for w in tb.tx_mon.words), "no RF on TX"
    # a frame on RX during the fault is still received
    tb.xgmii_src.send_nowait(XgmiiFrame.from_payload(f))
    rx = await tb.axis_sink.recv()
    assert bytes(rx.tdata) == f and not last_user(rx)
    # remote fault: TX idles, frames dropped
    tb.xgmii_src.set_seq_os(REMOTE_FAULT)
    for _ in range(80):
        await RisingEdge(dut.rx_clk)
    assert int(dut.rx_remote_fault.value) == 1 and int(dut.rx_local_fault.value) == 0
    await ClockCycles(dut.tx_clk, 5)
    tb.tx_mon.words = []
    await tb.axis_src.send(AxiStreamFrame(f))
    await tb.axis_src.wait()
    await ClockCycles(dut.tx_clk, 30)
    assert all(w == IDLE_WORD for w in tb.tx_mon.words), "TX not idle in remote fault"
    assert tb.xgmii_sink.empty()
    # cleared: 128 columns (64 words) of idles
    tb.xgmii_src.set_seq_os(None)
    for _ in range(80):
        await RisingEdge(dut.rx_clk)
    assert int(dut.link_ok.value) == 1
    await ClockCycles(dut.tx_clk, 5)
    await tb.axis_src.send(AxiStreamFrame(f))
    check_tx_frame(await tb.xgmii_sink.recv(), f)
    tb.assert_counts(tx_frames=1, tx_bytes=len(f) + 4, rx_frames=1, rx_bytes=len(f) + 4,
                     tx_fault_drop=2, rx_local_fault=1, rx_remote_fault=1)  # fmt: skip


def os_word(kind: int, lane4: bool = False) -> tuple[int, int]:
    """A word with one fault sequence ordered set in the column of lane 0 (or 4), idles."""
    col = int.from_bytes(bytes([0x9C]) + kind.to_bytes(3, "big"), "little")
    idle = int.from_bytes(bytes([CH_IDLE] * 4), "little")
    return ((idle << 32) | col, 0xF1) if not lane4 else ((col << 32) | idle, 0x1F)


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def fault_thresholds(dut) -> None:
    """Four sequences fewer than 128 columns apart declare a fault; 128 columns without one
    clear it; a 128-column pause restarts the count (clause 46.3.4.2)."""
    tb = TB(dut, source=False)
    await tb.reset()
    words: list[tuple[int, int]] = []
    idle = [IDLE_WORD]
    lf, rf = os_word(LOCAL_FAULT), os_word(REMOTE_FAULT, lane4=True)
    words += (lf, *idle * 10) * 3 + (*idle * 64,)  # three, then 128 columns: no fault
    words += (lf, *idle * 62) * 3  # three more, 125 columns apart, counted from 1 again
    mark_lf = len(words)  # the fourth: declared
    words += (lf,)
    words += (*idle * 63,)  # 1 + 126 = 127 columns: still declared
    words += (*idle * 1,)  # the 128th column: cleared
    mark_clear = len(words) - 1
    words += (rf, rf, *idle * 2) + (rf,) * 2  # remote: four sequences
    mark_rf = len(words) - 1
    words += (*idle * 70,)
    seen: list[tuple[int, int]] = []

    async def watch() -> None:
        for _ in range(len(words) + 10):
            await RisingEdge(dut.rx_clk)
            seen.append((int(dut.rx_local_fault.value), int(dut.rx_remote_fault.value)))

    w = cocotb.start_soon(watch())
    for d, c in words:
        dut.xgmii_rxd.value, dut.xgmii_rxc.value = d, c
        await RisingEdge(dut.rx_clk)
    dut.xgmii_rxd.value, dut.xgmii_rxc.value = IDLE_WORD
    await w
    lat = 2  # word driven before edge k is in the fault state after edge k + 1
    lf_high = [i - lat for i, (lf_, _) in enumerate(seen) if lf_]
    assert lf_high == list(range(mark_lf, mark_clear)), (lf_high[:3], lf_high[-3:], mark_lf)
    rf_high = [i - lat for i, (_, rf_) in enumerate(seen) if rf_]
    assert rf_high and rf_high[0] == mark_rf, (rf_high[:3], mark_rf)
    assert rf_high[-1] - rf_high[0] + 1 == 64, len(rf_high)
    tb.assert_counts(rx_local_fault=1, rx_remote_fault=1)


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def latency_cycles(dut) -> None:
    """The latencies in docs/xgmii.md, counted in clock cycles, both RX start lanes."""
    tb = TB(dut, source=False)
    await tb.reset()
    f = make_frame(100, seed=600)  # 114 bytes + FCS: /T/ on lane 6 (lane 0 start)
    lat: dict[str, int] = {}
    for lane in (0, 4):
        data, ctrl = frame_lanes(f + fcs(f), start_lane=lane)
        words = xgmii_words(data, ctrl) + [IDLE_WORD] * 6
        first = (8 + lane) // 8  # the word holding the first frame byte
        term = (len(data) - 1) // 8  # the word holding /T/
        out: list[tuple[int, int]] = []
        for k, (d, c) in enumerate(words):
            dut.xgmii_rxd.value, dut.xgmii_rxc.value = d, c
            await RisingEdge(dut.rx_clk)
            if int(dut.m_axis_tvalid.value):
                out.append((k, int(dut.m_axis_tlast.value)))
        dut.xgmii_rxd.value, dut.xgmii_rxc.value = IDLE_WORD
        lat[f"rx_first_{lane}"] = out[0][0] - first
        lat[f"rx_last_{lane}"] = [k for k, last in out if last][0] - term
        rx = await tb.axis_sink.recv()
        assert bytes(rx.tdata) == f and not last_user(rx)
    # TX: the /S/ word is on xgmii_txd the cycle after the first beat is offered
    await tb.axis_src.send(AxiStreamFrame(f))
    while not int(dut.s_axis_tvalid.value):
        await RisingEdge(dut.tx_clk)
    cyc = 0
    while True:
        await RisingEdge(dut.tx_clk)
        cyc += 1
        if int(dut.xgmii_txc.value) & 1 and int(dut.xgmii_txd.value) & 0xFF == 0xFB:
            break
    lat["tx_start"] = cyc
    check_tx_frame(await tb.xgmii_sink.recv(), f)
    assert lat == {"rx_first_0": 3, "rx_last_0": 3, "rx_first_4": 4, "rx_last_4": 3,
                   "tx_start": 1}, lat  # fmt: skip


def test_eth_mac_xgmii() -> None:
    run("eth_mac_xgmii", "test_eth_mac_xgmii")


@pytest.mark.long
def test_eth_mac_xgmii_every_length() -> None:
    run("eth_mac_xgmii", "test_eth_mac_xgmii", testcase="sizes_both_directions_back_to_back",
        extra_env={"XGMII_SIZES": "all"})  # fmt: skip
