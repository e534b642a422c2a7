"""Shared pieces of the XGMII testbenches: the MAC's event names, a wire monitor that
measures start lanes and inter-frame gaps byte by byte, and frame checks."""

from __future__ import annotations

import zlib

from cocotb.triggers import RisingEdge
from mac_tb import MAC_EV
from unit.cnt_ev_mon import EvMon

CH_IDLE, CH_START, CH_TERM, CH_ERROR, CH_SEQ = 0x07, 0xFB, 0xFD, 0xFE, 0x9C
LOCAL_FAULT, REMOTE_FAULT = 0x000001, 0x000002  # sequence ordered set payloads

# eth_mac_xgmii's cnt_ev: the 1 Gbit/s MAC's ten, then the XGMII ones
XGMII_EV = [*MAC_EV, "tx_fault_drop", "rx_local_fault", "rx_remote_fault"]
TX_BITS = {0, 1, 2, 3, 10}


class XgmiiEvents:
    """eth_mac_xgmii's event strobes counted in their own clocks."""

    def __init__(self, dut, tx_clk: str = "tx_clk", tx_rst: str = "tx_rst",
                 rx_clk: str = "rx_clk", rx_rst: str = "rx_rst") -> None:  # fmt: skip
        tx_names = [n if i in TX_BITS else None for i, n in enumerate(XGMII_EV)]
        rx_names = [None if i in TX_BITS else n for i, n in enumerate(XGMII_EV)]
        self.tx = EvMon(dut, tx_names, clk=tx_clk, rst=tx_rst,
                        values={"tx_bytes": ("cnt_ev_len", 0, 16)})  # fmt: skip
        self.rx = EvMon(dut, rx_names, clk=rx_clk, rst=rx_rst,
                        values={"rx_bytes": ("cnt_ev_len", 16, 16)})  # fmt: skip

    def counts(self) -> dict[str, int]:
        return {**self.tx.counts(), **self.rx.counts()}


class XgmiiWireMon:
    """Watches an XGMII word bus lane by lane: the lane of every /S/ (start_lanes), the gap
    before each /S/ in bytes from the previous /T/ (included) to the /S/ (excluded), and
    every control/data lane count between frames (idle_bytes: all bytes neither in a frame
    nor /T/)."""

    def __init__(self, clk, d, c) -> None:
        self.clk, self.d, self.c = clk, d, c
        self.start_lanes: list[int] = []
        self.gaps: list[int] = []
        self.words: list[tuple[int, int]] = []
        self.record = False

    async def run(self) -> None:
        pos = 0
        last_term: int | None = None
        while True:
            await RisingEdge(self.clk)
            dv, cv = int(self.d.value), int(self.c.value)
            if self.record:
                self.words.append((dv, cv))
            for lane in range(8):
                b, ctl = (dv >> (8 * lane)) & 0xFF, (cv >> lane) & 1
                if ctl and b == CH_START:
                    self.start_lanes.append(lane)
                    if last_term is not None:
                        self.gaps.append(pos - last_term)
                elif ctl and b == CH_TERM:
                    last_term = pos
                pos += 1


def fcs(body: bytes) -> bytes:
    return zlib.crc32(body).to_bytes(4, "little")


def xgmii_words(data: bytes, ctrl: list[int]) -> list[tuple[int, int]]:
    """Bytes and their control flags, idles after, as (data, ctrl) words of 8 lanes."""
    data = bytearray(data)
    ctrl = list(ctrl)
    while len(data) % 8:
        data.append(CH_IDLE)
        ctrl.append(1)
    out = []
    for w in range(0, len(data), 8):
        d = int.from_bytes(data[w : w + 8], "little")
        c = sum(ctrl[w + k] << k for k in range(8))
        out.append((d, c))
    return out


def frame_lanes(body_with_fcs: bytes, start_lane: int = 0, sfd: int = 0xD5,
                term: int = CH_TERM) -> tuple[bytes, list[int]]:  # fmt: skip
    """A frame as XGMII lanes: idles up to start_lane, /S/, preamble, SFD, bytes, term."""
    data = bytes([CH_IDLE] * start_lane) + bytes([CH_START]) + b"\x55" * 6 + bytes([sfd])
    ctrl = [1] * start_lane + [1] + [0] * 7
    data += body_with_fcs + bytes([term])
    ctrl += [0] * len(body_with_fcs) + [1]
    return data, ctrl
