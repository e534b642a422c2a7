"""seq_sink: sequence check (in order, gaps, late/duplicates), payload check, bad input.

Datagrams are built by an independent bit-level model of the pktgen payload format and
driven with cocotbext-axi (random tvalid pauses); every counter is compared exactly with
a Python model of the checker.
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource
from unit.cnt_ev_mon import EvMon

MASK = 0x80200003


def model_payload(seq: int, ts: int, length: int, lfsr: bool, fill: int) -> bytes:
    out = bytearray(struct.pack(">QQ", seq, ts))
    s = (seq & 0xFFFFFFFF) ^ 0x9E3779B9 or 1
    while len(out) < length:
        if lfsr:
            for _ in range(8):
                s = (s >> 1) ^ MASK if s & 1 else s >> 1
            out.append(s & 0xFF)
        else:
            out.append(fill)
    return bytes(out[:length])


@dataclass
class Model:
    """Reference model of the checker's counters."""

    sync_first: bool = False
    first: bool = True
    expected: int = 0
    c: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            (
                "packets",
                "bytes",
                "lost",
                "gaps",
                "ooo",
                "bad",
                "len_err",
                "short",
                "payload_err",
            ),
            0,
        )
    )
    last_ts: int = 0

    def feed(
        self, seq: int, ts: int, nbytes: int, hdr_len: int, tuser: bool, fill_ok: bool
    ) -> None:
        c = self.c
        if tuser:
            c["bad"] += 1
        elif nbytes != hdr_len:
            c["len_err"] += 1
        elif nbytes < 16:
            c["short"] += 1
        elif not fill_ok:
            c["payload_err"] += 1
        else:
            exp = seq if (self.first and self.sync_first) else self.expected
            self.first = False
            c["packets"] += 1
            c["bytes"] += nbytes
            self.last_ts = ts
            if seq == exp:
                self.expected = seq + 1
            elif seq > exp:
                c["gaps"] += 1
                c["lost"] += seq - exp
                self.expected = seq + 1
            else:
                c["ooo"] += 1


class Tb:
    def __init__(self, dut) -> None:
        self.dut = dut
        cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
        self.src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)

    async def reset(self) -> None:
        d = self.dut
        d.rst.value = 1
        d.clear.value = 0
        d.cfg_sync_first.value = 0
        d.cfg_check.value = 1
        d.cfg_fill.value = 0
        d.s_hdr_valid.value = 0
        d.s_hdr_len.value = 0
        d.s_hdr_src_mac.value = 0x020000000002
        d.s_hdr_src_ip.value = 0xC0000202
        d.s_hdr_src_port.value = 5000
        d.s_hdr_dst_port.value = 6000
        await ClockCycles(d.clk, 3)
        d.rst.value = 0
        await RisingEdge(d.clk)
        # the event strobes (cnt_ev, the model's counters in bit order), counted from here
        self.ev = EvMon(d, list(Model().c), values={"bytes": ("cnt_ev_len", 0, 17),
                                                    "lost": ("cnt_ev_lost", 0, 32)})  # fmt: skip

    async def send(self, payload: bytes, hdr_len: int | None = None, tuser: int = 0) -> None:
        d = self.dut
        d.s_hdr_len.value = len(payload) if hdr_len is None else hdr_len
        d.s_hdr_valid.value = 1
        while True:
            await RisingEdge(d.clk)
            if int(d.s_hdr_ready.value):
                break
        d.s_hdr_valid.value = 0
        await self.src.send(AxiStreamFrame(payload, tuser=tuser))
        await self.src.wait()

    async def settle(self) -> None:
        await ClockCycles(self.dut.clk, 4)

    def counters(self) -> dict[str, int]:
        """The events counted from the strobes since reset (lost, bytes: value sums)."""
        return self.ev.counts()

    async def clear(self) -> None:
        self.dut.clear.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.clear.value = 0
        await RisingEdge(self.dut.clk)


def pause(p: float):
    while True:
        yield random.random() < p


@cocotb.test()
async def in_order_and_gaps(dut) -> None:
    tb = Tb(dut)
    await tb.reset()
    m = Model()
    seqs = [0, 1, 2, 5, 6, 6, 3, 7, 10, 11, 12]
    for k, seq in enumerate(seqs):
        length = 16 + 13 * k
        await tb.send(model_payload(seq, 1000 + k, length, True, 0))
        m.feed(seq, 1000 + k, length, length, False, True)
    await tb.settle()
    assert tb.counters() == m.c
    assert m.c["gaps"] == 2 and m.c["lost"] == 4 and m.c["ooo"] == 2
    assert int(dut.status_expected.value) == 13
    assert int(dut.status_last_ts.value) == 1000 + len(seqs) - 1


@cocotb.test()
async def bad_input_counted_and_ignored(dut) -> None:
    """Each kind of bad datagram is counted once and never moves the sequence check."""
    tb = Tb(dut)
    await tb.reset()
    good = [model_payload(s, s, 64, True, 0) for s in range(4)]
    await tb.send(good[0])
    await tb.send(model_payload(50, 0, 64, True, 0), tuser=1)  # flagged bad
    await tb.send(good[1][:40], hdr_len=64)  # truncated: fewer bytes than hdr_len
    await tb.send(good[1] + b"\x00", hdr_len=64)  # longer than hdr_len
    await tb.send(model_payload(60, 0, 12, True, 0))  # shorter than the header
    corrupt_fill = bytearray(good[1])
    corrupt_fill[40] ^= 0x10
    await tb.send(bytes(corrupt_fill))
    corrupt_seq = bytearray(good[1])
    corrupt_seq[7] ^= 0x08  # seq 1 -> 9: the LFSR seed no longer matches
    await tb.send(bytes(corrupt_seq))
    await tb.send(good[1])
    await tb.send(good[2])
    await tb.settle()
    c = tb.counters()
    assert c == {
        "packets": 3,
        "bytes": 192,
        "lost": 0,
        "gaps": 0,
        "ooo": 0,
        "bad": 1,
        "len_err": 2,
        "short": 1,
        "payload_err": 2,
    }, c
    assert int(dut.status_expected.value) == 3
    # constant-fill check
    dut.cfg_check.value = 2
    dut.cfg_fill.value = 0x5A
    await tb.send(model_payload(3, 0, 33, False, 0x5A))
    await tb.send(model_payload(4, 0, 33, False, 0x5B))
    dut.cfg_check.value = 0  # no check: any fill is good
    await tb.send(model_payload(4, 0, 33, False, 0x77))
    await tb.settle()
    c = tb.counters()
    assert (c["packets"], c["payload_err"]) == (5, 3)
    assert int(dut.status_expected.value) == 5


@cocotb.test()
async def sync_first_and_clear(dut) -> None:
    tb = Tb(dut)
    await tb.reset()
    # expect 0: starting at 3 counts 3 lost
    await tb.send(model_payload(3, 0, 16, True, 0))
    await tb.settle()
    base = tb.counters()
    assert (base["lost"], base["gaps"], base["packets"]) == (3, 1, 1)
    # clear restarts the sequence check (no event of its own)
    await tb.clear()
    assert tb.counters() == base
    dut.cfg_sync_first.value = 1
    big = (1 << 40) + 7
    for s in (big, big + 1, big + 3):
        await tb.send(model_payload(s, 0, 20, True, 0))
    await tb.settle()
    c = {k: v - base[k] for k, v in tb.counters().items()}
    assert (c["packets"], c["lost"], c["gaps"]) == (3, 1, 1), c
    assert int(dut.status_expected.value) == big + 4


@cocotb.test()
async def random_mix(dut) -> None:
    """Random sequences, lengths, corruptions and tvalid pauses against the model."""
    tb = Tb(dut)
    await tb.reset()
    tb.src.set_pause_generator(pause(0.3))
    rng = random.Random(7)
    m = Model()
    seq = 0
    for _ in range(60):
        r = rng.random()
        seq = seq + 1 if r < 0.7 else (seq + rng.randint(2, 9) if r < 0.85 else rng.randint(0, seq))
        length = rng.choice([16, 17, 23, 64, 65, 130, rng.randint(0, 200)])
        ts = rng.getrandbits(64)
        pl = bytearray(model_payload(seq, ts, length, True, 0))
        hdr_len, tuser, fill_ok = length, 0, True
        kind = rng.random()
        if kind < 0.08:
            tuser = 1
        elif kind < 0.14 and length > 1:
            pl = pl[: rng.randint(1, length - 1)]
        elif kind < 0.22 and length > 16:
            pl[rng.randint(16, length - 1)] ^= 1 << rng.randint(0, 7)
            fill_ok = False
        if not pl:
            continue
        await tb.send(bytes(pl), hdr_len=hdr_len, tuser=tuser)
        m.feed(seq, ts, len(pl), hdr_len, bool(tuser), fill_ok)
    await tb.settle()
    assert tb.counters() == m.c
    assert int(dut.status_expected.value) == m.expected
    assert int(dut.status_last_ts.value) == m.last_ts


@pytest.mark.parametrize("data_w", [8, 64])
def test_seq_sink(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "seq_sink", "test_seq_sink", parameters={"DATA_W": data_w}, test_dir=Path(__file__).parent
    )
