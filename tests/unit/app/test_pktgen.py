"""pktgen: payload format, destinations in turn, gap in cycles, count, stop, primers.

Every datagram is checked byte for byte against an independent bit-level model of the
payload format (sequence number, timestamp, LFSR or constant fill), and its header
against the destination table; the monitor counts cycles to check gaps and back-to-back
operation, and the event strobes (cnt_ev: packets sent, bytes with cnt_ev_len) are counted
and compared exactly, per run (the difference over a run, as the PC tools take it).
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge
from unit.cnt_ev_mon import EvMon

MASK = 0x80200003


def model_payload(seq: int, ts: int, length: int, lfsr: bool, fill: int) -> bytes:
    """Independent bit-level model of the generator's payload."""
    out = bytearray(struct.pack(">QQ", seq, ts))
    s = (seq & 0xFFFFFFFF) ^ 0x9E3779B9
    if s == 0:
        s = 1
    while len(out) < length:
        if lfsr:
            for _ in range(8):
                lsb = s & 1
                s >>= 1
                if lsb:
                    s ^= MASK
            out.append(s & 0xFF)
        else:
            out.append(fill)
    return bytes(out[:length])


@dataclass
class Dgram:
    hdr_cycle: int
    ip: int
    port: int
    src_port: int
    length: int
    data: bytearray = field(default_factory=bytearray)
    first_beat: int = -1
    last_beat: int = -1
    stalls: int = 0  # cycles with tvalid low inside the payload
    time_in: int = 0  # cyc_in in the cycle the header was accepted


class Tb:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.kw = len(dut.m_axis_tkeep)
        self.cycle = 0
        self.dgrams: list[Dgram] = []
        self.hdr_ready_p = 1.0
        self.tready_p = 1.0
        self.ts_in = 0
        self.time_in = 0  # cyc_in driven when not 0: the external time base (CYC_EXT = 1)
        self.hdr_valid_rise: list[int] = []
        self.start_cycles: list[int] = []
        self.ip_all = 0
        self.port_all = 0
        cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())

    async def reset(self) -> None:
        d = self.dut
        d.rst.value = 1
        for name in ("start", "stop", "tick_1ms", "cfg_dst_we", "cfg_ts_ext", "cfg_lfsr"):
            getattr(d, name).value = 0
        d.ts_in.value = 0
        d.cyc_in.value = 0
        d.cfg_len.value = 64
        d.cfg_count.value = 1
        d.cfg_gap.value = 0
        d.cfg_ndst.value = 1
        d.cfg_fill.value = 0
        d.cfg_src_port.value = 5000
        d.cfg_warmup_ms.value = 0
        d.cfg_dst_addr.value = 0
        d.cfg_dst_ip.value = 0
        d.cfg_dst_port.value = 0
        d.cfg_dst_ip_all.value = 0
        d.cfg_dst_port_all.value = 0
        d.m_hdr_ready.value = 1
        d.m_axis_tready.value = 1
        await ClockCycles(d.clk, 3)
        d.rst.value = 0
        cocotb.start_soon(self.monitor())
        cocotb.start_soon(self.check_copies())
        self.ev = EvMon(d, ["packets", "bytes"], values={"bytes": ("cnt_ev_len", 0, 16)})
        self.ev_base = self.ev.counts()

    async def check_copies(self) -> None:
        """Every cycle: last_beat_dup_reg, the register pktgen keeps for timing, equals
        what it copies (last_beat, rem_reg <= KEEP_W)."""
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            await ReadOnly()
            assert int(d.last_beat_dup_reg.value) == int(d.last_beat.value), (
                "last_beat_dup_reg differs from last_beat"
            )

    async def write_dst(self, idx: int, ip: int, port: int) -> None:
        d = self.dut
        # the flat table ports (DST_RAM = 0) and the RAM write port (DST_RAM = 1)
        self.ip_all = (self.ip_all & ~(0xFFFFFFFF << (32 * idx))) | (ip << (32 * idx))
        self.port_all = (self.port_all & ~(0xFFFF << (16 * idx))) | (port << (16 * idx))
        d.cfg_dst_ip_all.value = self.ip_all
        d.cfg_dst_port_all.value = self.port_all
        d.cfg_dst_we.value = 1
        d.cfg_dst_addr.value = idx
        d.cfg_dst_ip.value = ip
        d.cfg_dst_port.value = port
        await RisingEdge(d.clk)
        d.cfg_dst_we.value = 0

    def run_counts(self) -> dict[str, int]:
        """The events counted since the last start (packets, bytes)."""
        now = self.ev.counts()
        return {k: now[k] - self.ev_base[k] for k in now}

    async def pulse(self, name: str) -> None:
        if name == "start":
            self.ev_base = self.ev.counts()
        getattr(self.dut, name).value = 1
        await RisingEdge(self.dut.clk)
        getattr(self.dut, name).value = 0

    async def monitor(self) -> None:
        d = self.dut
        cur: Dgram | None = None
        prev_hv = 0
        while True:
            await RisingEdge(d.clk)
            self.cycle += 1
            hv = int(d.m_hdr_valid.value)
            hr = int(d.m_hdr_ready.value)
            tv = int(d.m_axis_tvalid.value)
            tr = int(d.m_axis_tready.value)
            if int(d.start.value):
                self.start_cycles.append(self.cycle)
            if hv and not prev_hv:
                self.hdr_valid_rise.append(self.cycle)
            prev_hv = hv
            if cur is not None and cur.first_beat >= 0 and not tv:
                cur.stalls += 1
            if tv and tr:
                assert cur is not None, "payload beat without a header"
                if cur.first_beat < 0:
                    cur.first_beat = self.cycle
                keep = int(d.m_axis_tkeep.value)
                data = int(d.m_axis_tdata.value)
                last = int(d.m_axis_tlast.value)
                assert int(d.m_axis_tuser.value) == 0
                nbytes = bin(keep).count("1")
                assert keep == (1 << nbytes) - 1, f"tkeep not contiguous: {keep:#x}"
                if not last:
                    assert nbytes == self.kw, "partial beat before tlast"
                for i in range(nbytes):
                    cur.data.append((data >> (8 * i)) & 0xFF)
                if last:
                    cur.last_beat = self.cycle
                    self.dgrams.append(cur)
                    cur = None
            if hv and hr:
                assert cur is None, "header accepted while a payload is in progress"
                cur = Dgram(
                    self.cycle,
                    int(d.m_hdr_dst_ip.value),
                    int(d.m_hdr_dst_port.value),
                    int(d.m_hdr_src_port.value),
                    int(d.m_hdr_len.value),
                )
                assert int(d.m_hdr_dst_mac_valid.value) == 0
                cur.time_in = int(d.cyc_in.value)
            # random back-pressure for the next cycle
            d.m_hdr_ready.value = int(random.random() < self.hdr_ready_p)
            d.m_axis_tready.value = int(random.random() < self.tready_p)
            if self.ts_in:
                self.ts_in += 3
                d.ts_in.value = self.ts_in
            if self.time_in:
                # a time of a timing system: 8 ns a cycle, and a jump now and then
                self.time_in += 8 if random.random() < 0.95 else random.randrange(1, 1 << 20)
                d.cyc_in.value = self.time_in

    async def wait_idle(self, limit: int = 100000) -> None:
        for _ in range(limit):
            await RisingEdge(self.dut.clk)
            if not int(self.dut.busy.value):
                await ClockCycles(self.dut.clk, 2)
                return
        raise AssertionError("generator still busy")


DESTS = [(0xC0000201 + i, 6000 + 7 * i) for i in range(16)]


async def configure(tb: Tb, ndst: int) -> None:
    for i in range(16):
        await tb.write_dst(i, *DESTS[i])
    tb.dut.cfg_ndst.value = ndst


def check_run(tb: Tb, dgrams: list[Dgram], ndst: int, length: int, lfsr: bool, fill: int) -> None:
    """Headers, destinations in turn, per-destination sequences, timestamps, payloads."""
    ts0 = None
    for k, g in enumerate(dgrams):
        ip, port = DESTS[k % ndst]
        assert (g.ip, g.port) == (ip, port), f"datagram {k}: wrong destination"
        assert g.src_port == 5000
        assert g.length == length == len(g.data), f"datagram {k}: length"
        seq = k // ndst
        ts = struct.unpack(">Q", bytes(g.data[8:16]))[0] if length >= 16 else None
        if ts is not None:
            if ts0 is None:
                ts0 = ts - g.hdr_cycle
            assert ts == ts0 + g.hdr_cycle, f"datagram {k}: timestamp is not the header cycle"
        want = model_payload(seq, ts if ts is not None else 0, length, lfsr, fill)
        if length < 16:
            assert bytes(g.data) == want[: min(length, 8)] + bytes(g.data[8:]), k
        else:
            assert bytes(g.data) == want, f"datagram {k}: payload differs"
        assert g.stalls == 0, f"datagram {k}: tvalid dropped inside the payload"


@cocotb.test()
async def back_to_back_lfsr(dut) -> None:
    """Gap 0, always ready: every datagram takes exactly beats+1 cycles (header + payload)."""
    tb = Tb(dut)
    await tb.reset()
    await configure(tb, 3)
    length, count = 100, 7
    dut.cfg_len.value = length
    dut.cfg_count.value = count
    dut.cfg_lfsr.value = 1
    await tb.pulse("start")
    await tb.wait_idle()
    assert len(tb.dgrams) == count
    check_run(tb, tb.dgrams, 3, length, True, 0)
    assert tb.hdr_valid_rise[0] == tb.start_cycles[0] + 1, "first header the cycle after start"
    beats = -(-length // tb.kw)
    for a, b in zip(tb.dgrams, tb.dgrams[1:], strict=False):
        assert b.hdr_cycle == a.last_beat + 1, "not back to back"
    for g in tb.dgrams:
        assert g.first_beat == g.hdr_cycle + 1
        assert g.last_beat == g.hdr_cycle + beats
    assert tb.run_counts()["packets"] == count
    assert tb.run_counts()["bytes"] == count * length
    # completed passes through the table = sequence number of the pass in progress
    assert int(dut.status_round.value) == count // 3


@cocotb.test()
async def gap_constant_backpressure(dut) -> None:
    """Gap in cycles is exact; random back-pressure never corrupts or reorders data."""
    tb = Tb(dut)
    await tb.reset()
    await configure(tb, 16)
    gap, length, count = 5, 37, 20
    dut.cfg_len.value = length
    dut.cfg_count.value = count
    dut.cfg_gap.value = gap
    dut.cfg_fill.value = 0xA5
    await tb.pulse("start")
    await tb.wait_idle()
    assert len(tb.dgrams) == count
    check_run(tb, tb.dgrams, 16, length, False, 0xA5)
    # header offered exactly gap idle cycles after the previous last beat
    rises = tb.hdr_valid_rise[1:]
    for a, r in zip(tb.dgrams, rises, strict=False):
        assert r == a.last_beat + gap + 1, f"gap {r - a.last_beat - 1} != {gap}"

    # again with back-pressure on both header and payload, 3 destinations, LFSR
    tb.dgrams.clear()
    tb.hdr_ready_p = 0.5
    tb.tready_p = 0.6
    dut.cfg_ndst.value = 3
    dut.cfg_lfsr.value = 1
    dut.cfg_gap.value = 2
    dut.cfg_len.value = 53
    dut.cfg_count.value = 9
    await tb.pulse("start")
    await tb.wait_idle()
    assert len(tb.dgrams) == 9
    check_run(tb, tb.dgrams, 3, 53, True, 0)
    assert tb.run_counts()["packets"] == 9
    assert tb.run_counts()["bytes"] == 9 * 53


@cocotb.test()
async def short_lengths(dut) -> None:
    """Lengths below, at and just above the 16-byte header, and zero."""
    tb = Tb(dut)
    await tb.reset()
    await configure(tb, 2)
    for length in (0, 1, 7, 8, 15, 16, 17, 24):
        tb.dgrams.clear()
        dut.cfg_len.value = length
        dut.cfg_count.value = 3
        dut.cfg_lfsr.value = 1
        await tb.pulse("start")
        await tb.wait_idle()
        assert len(tb.dgrams) == 3, length
        check_run(tb, tb.dgrams, 2, length, True, 0)
        for k, g in enumerate(tb.dgrams):
            seq = struct.pack(">Q", k // 2)
            assert bytes(g.data[:8]) == seq[: min(8, length)]
        assert tb.run_counts()["bytes"] == 3 * length


@cocotb.test()
async def stop_mid_run(dut) -> None:
    """count = 0 runs until stop; the datagram in progress completes, then nothing more."""
    tb = Tb(dut)
    await tb.reset()
    await configure(tb, 1)
    dut.cfg_len.value = 64
    dut.cfg_count.value = 0
    dut.cfg_lfsr.value = 1
    tb.tready_p = 0.8
    await tb.pulse("start")
    await ClockCycles(dut.clk, 300)
    assert int(dut.busy.value) == 1
    await tb.pulse("stop")
    await tb.wait_idle()
    n = len(tb.dgrams)
    assert n >= 3
    await ClockCycles(dut.clk, 50)
    assert len(tb.dgrams) == n, "datagrams after stop"
    check_run(tb, tb.dgrams, 1, 64, True, 0)
    assert tb.run_counts()["packets"] == n
    assert tb.run_counts()["bytes"] == 64 * n
    # a new start restarts the sequence at 0 (and the run's counts)
    tb.dgrams.clear()
    tb.tready_p = 1.0
    dut.cfg_count.value = 2
    await tb.pulse("start")
    await tb.wait_idle()
    assert len(tb.dgrams) == 2
    check_run(tb, tb.dgrams, 1, 64, True, 0)
    assert tb.run_counts()["packets"] == 2


@cocotb.test()
async def warmup_primers_and_time_input(dut) -> None:
    """Primers: one zero-length datagram per destination, the wait in ticks, then seq 0."""
    tb = Tb(dut)
    await tb.reset()
    await configure(tb, 3)
    dut.cfg_len.value = 32
    dut.cfg_count.value = 4
    dut.cfg_warmup_ms.value = 2
    dut.cfg_ts_ext.value = 1
    tb.ts_in = 1 << 40
    await tb.pulse("start")
    for _ in range(200):
        await RisingEdge(dut.clk)
    assert len(tb.dgrams) == 3, "primers not sent"
    assert [(g.ip, g.port, g.length) for g in tb.dgrams] == [(*DESTS[i], 0) for i in range(3)]
    assert int(dut.m_hdr_valid.value) == 0, "run started before the warm-up ended"
    for _ in range(2):
        await tb.pulse("tick_1ms")
        await ClockCycles(dut.clk, 20)
    await tb.wait_idle()
    run = tb.dgrams[3:]
    assert len(run) == 4
    assert tb.run_counts()["packets"] == 4
    for k, g in enumerate(run):
        assert (g.ip, g.port) == DESTS[k % 3]
        seq, ts = struct.unpack(">QQ", bytes(g.data[:16]))
        assert seq == k // 3
        assert (1 << 40) < ts < (1 << 40) + 3 * (tb.cycle + 10), "timestamp not from ts_in"
        assert bytes(g.data) == model_payload(seq, ts, 32, False, 0)


@cocotb.test()
async def external_time_base(dut) -> None:
    """CYC_EXT = 1: the timestamp is cyc_in of the cycle the header was accepted, whatever
    that time base does (steps of 8, jumps), under random back-pressure; with
    cfg_ts_ext = 1 ts_in still wins. CYC_EXT = 0: cyc_in is ignored."""
    tb = Tb(dut)
    await tb.reset()
    await configure(tb, 2)
    tb.time_in = (1 << 50) + 12345
    dut.cyc_in.value = tb.time_in
    tb.hdr_ready_p = 0.6
    tb.tready_p = 0.8
    dut.cfg_len.value = 40
    dut.cfg_count.value = 12
    dut.cfg_gap.value = 3
    await tb.pulse("start")
    await tb.wait_idle()
    run = tb.dgrams
    assert len(run) == 12
    ext = int(dut.CYC_EXT.value)
    for k, g in enumerate(run):
        seq, ts = struct.unpack(">QQ", bytes(g.data[:16]))
        assert seq == k // 2
        if ext:
            assert ts == g.time_in, f"datagram {k}: timestamp {ts:#x}, cyc_in {g.time_in:#x}"
        else:
            assert ts < 1 << 32, f"datagram {k}: timestamp {ts:#x} is not the cycle counter"
        assert bytes(g.data) == model_payload(seq, ts, 40, False, 0)
    if ext:
        # ts_in, chosen per run, takes precedence over the time base
        dut.cfg_ts_ext.value = 1
        tb.ts_in = 1 << 40
        n = len(tb.dgrams)
        await tb.pulse("start")
        await tb.wait_idle()
        for g in tb.dgrams[n:]:
            ts = struct.unpack(">Q", bytes(g.data[8:16]))[0]
            assert (1 << 40) < ts < (1 << 40) + 3 * (tb.cycle + 10), "timestamp not from ts_in"


@pytest.mark.parametrize(
    ("data_w", "dst_ram", "cyc_ext"),
    [(8, 0, 0), (8, 1, 0), (64, 0, 0), (64, 1, 0), (8, 0, 1), (64, 0, 1)],
)
def test_pktgen(data_w: int, dst_ram: int, cyc_ext: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "pktgen",
        "test_pktgen",
        parameters={"DATA_W": data_w, "DST_RAM": dst_ram, "CYC_EXT": cyc_ext},
        # (with CYC_EXT = 1 the other tests' timestamp checks assume the counter inside)
        testcase="external_time_base" if cyc_ext else None,
        test_dir=Path(__file__).parent,
    )
