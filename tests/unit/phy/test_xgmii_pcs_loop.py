"""eth_mac_xgmii over pcs_baser in loopback (tests/tb/xgmii_pcs_loop.v): the PCS's blocks go
through a bit-level line model (baser_model.Channel) back into its receiver. Frames
(scapy-built, cocotbext-axi) go round back to back; a bit dropped on the line loses block
lock, the MAC sees Local Fault (the PCS's LF words), answers with Remote Fault, and the
link recovers by itself; frames go round again, with exact counts."""

from __future__ import annotations

import cocotb
from baser_model import Channel
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotb_run import run
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from unit.cnt_ev_mon import EvMon
from unit.mac.mac_tb import MAC_EV, make_frame, padded

XGMII_EV = [*MAC_EV, "tx_fault_drop", "rx_local_fault", "rx_remote_fault"]  # eth_mac_xgmii
PCS_EV = ["tx_enc_err", "rx_dec_err", "rx_ber", "rx_lock_loss", "rx_hi_ber"]


@cocotb.test(timeout_time=2, timeout_unit="ms")
async def loopback_with_slip(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, 6.4, "ns").start())
    dut.rst.value = 1
    dut.rx_block.value = 0
    dut.s_axis_tuser.value = 0
    mac_ev = EvMon(dut, XGMII_EV, signal="mac_cnt_ev",
                   values={"tx_bytes": ("mac_cnt_ev_len", 0, 16),
                           "rx_bytes": ("mac_cnt_ev_len", 16, 16)})  # fmt: skip
    pcs_ev = EvMon(dut, PCS_EV, signal="pcs_cnt_ev")
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
    chan = Channel(offset=40)

    async def line() -> None:
        while True:
            await RisingEdge(dut.clk)
            if int(dut.rx_slip.value):
                chan.drop_bit()
            chan.push(int(dut.tx_block.value))
            blk = chan.pull()
            dut.rx_block.value = blk if blk is not None else 0

    await ClockCycles(dut.clk, 4)
    # the monitor starts once the outputs have left X
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk)
    dut.rst.value = 0
    cocotb.start_soon(line())

    async def wait_link() -> None:
        for _ in range(20000):
            await RisingEdge(dut.clk)
            if int(dut.link_ok.value) and int(dut.block_lock.value):
                return
        raise AssertionError("link not up")

    async def round_trip(seed: int) -> list[bytes]:
        frames = [make_frame(n, seed=seed + n) for n in (46, 47, 100, 333, 1000, 1500)]
        for f in frames:
            await src.send(AxiStreamFrame(f))
        for f in frames:
            rx = await sink.recv()
            tu = rx.tuser if isinstance(rx.tuser, list) else [rx.tuser]
            assert bytes(rx.tdata) == padded(f) and not any(tu), "frame differs"
        return frames

    await wait_link()
    await ClockCycles(dut.clk, 200)  # the start-up faults have cleared
    sent = await round_trip(1)
    chan.drop_bit()  # the line slips one bit
    for _ in range(100):
        await RisingEdge(dut.clk)
        if not int(dut.block_lock.value):
            break
    assert not int(dut.block_lock.value), "lock kept on a slipped line"
    await wait_link()
    await ClockCycles(dut.clk, 400)
    sent += await round_trip(2)
    await ClockCycles(dut.clk, 20)
    assert sink.empty()
    m, p = mac_ev.counts(), pcs_ev.counts()
    total = sum(len(padded(f)) + 4 for f in sent)
    assert m["tx_frames"] == len(sent) and m["rx_frames"] == len(sent), m
    assert m["tx_bytes"] == total and m["rx_bytes"] == total, m
    assert m["rx_local_fault"] >= 1 and m["rx_remote_fault"] >= 1, m
    assert p["rx_lock_loss"] == 1 and p["tx_enc_err"] == 0, p
    for k in ("tx_underflow", "tx_abort", "rx_bad_fcs", "rx_runt", "rx_oversize", "tx_fault_drop"):
        assert m[k] == 0, (k, m)


def test_xgmii_pcs_loop() -> None:
    run("xgmii_pcs_loop", "test_xgmii_pcs_loop")
