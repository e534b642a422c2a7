"""Shared pieces of the MAC testbenches: frame building (scapy), checks, wire monitors."""

from __future__ import annotations

import random
import zlib

from cocotb.triggers import ReadOnly, RisingEdge
from scapy.layers.l2 import Ether
from unit.cnt_ev_mon import EvMon

PREAMBLE = b"\x55" * 7 + b"\xd5"

# the MAC's cnt_ev bits (eth_mac_stats): 0-3 in the transmit clock, 4-9 in the receive clock
MAC_EV = ["tx_frames", "tx_bytes", "tx_underflow", "tx_abort", "rx_frames", "rx_bytes",
          "rx_bad_fcs", "rx_runt", "rx_oversize", "rx_er"]  # fmt: skip


class MacEvents:
    """The MAC's event strobes counted in their own clocks, as counters fed by them would
    count: ``counts()`` maps each name of MAC_EV to its events (bytes: the lengths added)."""

    def __init__(self, dut, tx_clk: str, tx_rst: str, rx_clk: str, rx_rst: str) -> None:
        none4, none6 = [None] * 4, [None] * 6
        self.tx = EvMon(dut, [*MAC_EV[:4], *none6], clk=tx_clk, rst=tx_rst,
                        values={"tx_bytes": ("cnt_ev_len", 0, 16)})  # fmt: skip
        self.rx = EvMon(dut, [*none4, *MAC_EV[4:]], clk=rx_clk, rst=rx_rst,
                        values={"rx_bytes": ("cnt_ev_len", 16, 16)})  # fmt: skip

    def counts(self) -> dict[str, int]:
        return {**self.tx.counts(), **self.rx.counts()}


async def check_rx_copies(rx, clk, max_len: int) -> None:
    """Every cycle of ``clk``: the registers eth_mac_rx (``rx``) keeps for timing equal what
    they stand for. sfd_dup_reg and preamble_dup_reg are rxd_reg == 0xD5 / 0x55;
    max_len_m1_reg is the limit less one (``max_len``, 0 meaning 1518, held constant); in a
    frame and in the cycle its end is classified, delay_valid_reg[3], long_enough_reg and
    at_max_len_reg are cnt_reg >= 4, >= 64 and >= the limit."""
    limit = max_len or 1518
    while True:
        await RisingEdge(clk)
        await ReadOnly()
        if not all(s.value.is_resolvable for s in (rx.rxd_reg, rx.in_frame_reg, rx.end_reg)):
            continue  # before the first sample or the reset
        rxd = int(rx.rxd_reg.value)
        assert int(rx.sfd_dup_reg.value) == (rxd == 0xD5), f"sfd_dup_reg wrong, rxd_reg {rxd:#x}"
        assert int(rx.preamble_dup_reg.value) == (rxd == 0x55), (
            f"preamble_dup_reg wrong, rxd_reg {rxd:#x}"
        )
        assert int(rx.max_len_m1_reg.value) == limit - 1, "max_len_m1_reg is not the limit - 1"
        if int(rx.in_frame_reg.value) or int(rx.end_reg.value):
            cnt = int(rx.cnt_reg.value)
            assert int(rx.delay_valid_reg.value) >> 3 == (cnt >= 4), f"delay_valid_reg, cnt {cnt}"
            assert int(rx.long_enough_reg.value) == (cnt >= 64), f"long_enough_reg, cnt {cnt}"
            assert int(rx.at_max_len_reg.value) == (cnt >= limit), f"at_max_len_reg, cnt {cnt}"


def make_frame(payload_len: int, seed: int, ethertype: int = 0x88B5) -> bytes:
    """An Ethernet frame (no FCS) with ``payload_len`` random payload bytes, built by scapy."""
    rng = random.Random(seed)
    payload = bytes(rng.getrandbits(8) for _ in range(payload_len))
    pkt = Ether(dst="02:00:00:00:00:01", src="02:00:00:00:00:%02x" % (seed & 0xFF), type=ethertype)
    return bytes(pkt / payload)


def padded(frame: bytes) -> bytes:
    return frame + bytes(max(0, 60 - len(frame)))


def wire_bytes(frame: bytes) -> bytes:
    """What a correct transmitter puts on the wire for ``frame``: preamble, padding, FCS."""
    body = padded(frame)
    return PREAMBLE + body + zlib.crc32(body).to_bytes(4, "little")


def check_wire_frame(rx: object, frame: bytes) -> None:
    """A frame captured by a cocotbext-eth sink equals the correct wire image, no errors."""
    data = bytes(rx.data)  # type: ignore[attr-defined]
    err = list(rx.error or [])  # type: ignore[attr-defined]
    want = wire_bytes(frame)[7:]  # SFD, padded frame, FCS
    # cocotbext-eth's sinks drop the first byte after an idle line, so the preamble is
    # checked to be all 0x55 here; its exact length (7) comes from EnMonitor bursts.
    pre = data[: len(data) - len(want)]
    assert data.endswith(want), f"wire frame differs (len {len(data)} vs {len(want)}+pre)"
    assert pre == b"\x55" * len(pre) and len(pre) <= 7, f"bad preamble {pre.hex()}"
    assert not any(err), "tx_er asserted on a good frame"
    # independent parse by scapy
    pkt = Ether(data[len(pre) + 1 : -4])
    assert bytes(pkt)[: len(frame)] == frame


def last_user(rx: object) -> bool:
    """tuser of an AxiStreamFrame's last beat (the sink gives an int or a list)."""
    tu = rx.tuser  # type: ignore[attr-defined]
    if isinstance(tu, list):
        assert not any(tu[:-1]), "tuser set before the last beat"
        return bool(tu[-1]) if tu else False
    return bool(tu)


class EnMonitor:
    """Records (busy, idle) run lengths of an enable/valid signal, sampled every clock."""

    def __init__(self, clk: object, en: object, ce: object | None = None) -> None:
        self.clk = clk
        self.en = en
        self.ce = ce
        self.bursts: list[int] = []
        self.gaps: list[int] = []

    async def run(self) -> None:
        run_len = 0
        state = 0
        seen = False
        while True:
            await RisingEdge(self.clk)  # type: ignore[arg-type]
            if self.ce is not None and not int(self.ce.value):  # type: ignore[attr-defined]
                continue
            v = int(self.en.value)  # type: ignore[attr-defined]
            if v == state:
                run_len += 1
                continue
            if state == 1:
                self.bursts.append(run_len)
                seen = True
            elif seen:
                self.gaps.append(run_len)
            state = v
            run_len = 1


async def drive_axis(dut, data: bytes, gap_at: int | None = None, gap: int = 0,
                     tuser: int = 0, beat: int = 1) -> None:  # fmt: skip
    """Drive s_axis by hand in tx_clk, ``beat`` bytes a beat (tkeep when more than one),
    optionally dropping tvalid for ``gap`` cycles before beat ``gap_at``."""
    beats = [data[i : i + beat] for i in range(0, len(data), beat)]
    i = 0
    while i < len(beats):
        if gap_at is not None and i == gap_at and gap:
            dut.s_axis_tvalid.value = 0
            for _ in range(gap):
                await RisingEdge(dut.tx_clk)
            gap = 0
        b = beats[i]
        dut.s_axis_tdata.value = int.from_bytes(b.ljust(beat, b"\0"), "little")
        if beat > 1:
            dut.s_axis_tkeep.value = (1 << len(b)) - 1
        dut.s_axis_tvalid.value = 1
        dut.s_axis_tlast.value = int(i == len(beats) - 1)
        dut.s_axis_tuser.value = tuser if i == len(beats) - 1 else 0
        await RisingEdge(dut.tx_clk)
        if int(dut.s_axis_tready.value):
            i += 1
    dut.s_axis_tvalid.value = 0
    dut.s_axis_tlast.value = 0
    dut.s_axis_tuser.value = 0
