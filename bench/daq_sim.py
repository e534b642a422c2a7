"""Generator goodput in simulation, counted in cycles, at 8 and 64 bits.

``tests/tb/pktgen_loopback.v`` (pktgen feeding seq_sink) runs under Icarus with a
cycle-exact model of an Ethernet line between them: a datagram of L payload bytes
occupies ``wire_bytes(L)`` = preamble 8 + Ethernet/IPv4/UDP headers 42 + L + FCS 4 +
inter-frame gap 12 byte times (frames padded to 64 bytes), KEEP_W byte times per clock;
the line takes the next header as soon as it is free, the first frame byte leaves the
cycle after, and each payload beat is taken just in time for its bytes to leave. The
generator is at full rate when the line never idles waiting for a header and never
starves in a payload. Goodput fraction = datagrams x wire_bytes(L) / byte times the line
was busy from the first frame to the end of the last: 1.000 means the theoretical
maximum. Loss and errors are the sink's own counters (sequence check and payload check).

Second, through the stack: ``tests/tb/pktgen_stack.v`` (pktgen on a port of
rtl/top/udp_stack.v) with a cycle-exact MAC model on the stack's frame output: each
frame's bytes leave KEEP_W per cycle, then padding to 60 bytes, FCS 4, inter-frame gap
12 and the next preamble 8; the MAC takes a beat only when the line is ready for its bytes,
a beat missing mid-frame is an underflow (a real MAC would abort the frame). The bench
answers the stack's ARP requests (the generator's primers), then counts from the first
UDP frame to the end of the last: goodput fraction = datagrams x wire_bytes(L) / line byte
times; loss = datagrams missing among the frames' sequence numbers. The millisecond tick
runs fast only until the first datagram, then at its real rate: the stack's ARP timers
take a few cycles of the transmit path on every tick (negligible at 1 per 125 000 cycles,
0.5 % at the 1 per 500 cycles a sped-up simulation would use).

Run: ``.venv/bin/python bench/daq_sim.py`` (prints a table, writes
bench/results/daq_sim.json). The same file is the cocotb test module it runs.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LENGTHS = (1472, 64)
PREFIX = 8 + 14 + 20 + 8  # bytes on the wire before the first payload byte


def wire_bytes(payload: int) -> int:
    return 8 + max(14 + 20 + 8 + payload + 4, 64) + 12


try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, RisingEdge
    from unit.cnt_ev_mon import EvMon

    # seq_sink's cnt_ev bits
    SINK_EV = ["packets", "bytes", "lost", "gaps", "ooo", "bad", "len_err", "short",
               "payload_err"]  # fmt: skip
except ImportError:  # pragma: no cover - the benchmark driver needs only the standard library
    cocotb = None  # type: ignore[assignment]

if cocotb is not None:

    @cocotb.test()
    async def goodput(dut) -> None:
        kw = int(dut.DATA_W.value) // 8
        cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
        results = []
        for length in LENGTHS:
            target_cycles = 40000 if kw == 1 else 12000
            n = max(20, target_cycles * kw // wire_bytes(length))
            for name in ("start", "stop", "tick_1ms", "clear", "wire_hdr_ready", "wire_tready"):
                getattr(dut, name).value = 0
            dut.rst.value = 1
            dut.cfg_len.value = length
            dut.cfg_count.value = n
            dut.cfg_gap.value = 0
            dut.cfg_lfsr.value = 1
            dut.cfg_fill.value = 0
            await ClockCycles(dut.clk, 3)
            dut.rst.value = 0
            # the generator's and the sink's event strobes, counted
            gen_ev = EvMon(dut, ["packets", "bytes"], signal="gen_cnt_ev")
            sink_ev = EvMon(dut, SINK_EV, signal="sink_cnt_ev",
                            values={"lost": ("sink_cnt_ev_lost", 0, 32)})  # fmt: skip
            await RisingEdge(dut.clk)
            dut.start.value = 1
            await RisingEdge(dut.clk)
            dut.start.value = 0
            c = 0
            free_byte = 0  # wire byte position where the line is free again
            first_start = None
            start_byte = 0
            consumed = 0
            in_frame = False
            frame_len = 0
            underflows = 0
            late_bytes = 0
            frames = 0
            last_end = 0
            while frames < n:
                # readies for cycle c
                hdr_ready = (not in_frame) and free_byte < (c + 2) * kw
                tready = in_frame and c * kw >= start_byte + PREFIX + consumed - kw
                dut.wire_hdr_ready.value = int(hdr_ready)
                dut.wire_tready.value = int(tready)
                await RisingEdge(dut.clk)
                if int(dut.mon_hdr_fire.value):
                    s = max(free_byte, (c + 1) * kw)
                    if first_start is None:
                        first_start = s
                    else:
                        late_bytes += s - free_byte
                    start_byte = s
                    frame_len = int(dut.mon_hdr_len.value)
                    free_byte = s + wire_bytes(frame_len)
                    consumed = 0
                    in_frame = True
                elif tready:
                    if int(dut.mon_beat_fire.value):
                        consumed += kw
                        if int(dut.mon_tlast.value):
                            in_frame = False
                            frames += 1
                            last_end = free_byte
                    else:
                        underflows += 1
                c += 1
                if c > 50 * target_cycles:
                    raise AssertionError("generator stalled")
            await ClockCycles(dut.clk, 4)
            busy = last_end - (first_start or 0)
            gen = gen_ev.count("packets")
            sink = sink_ev.counts()
            gen_ev.stop()
            sink_ev.stop()
            res = {
                "where": "port",
                "data_w": 8 * kw,
                "payload": length,
                "datagrams": n,
                "generator_sent": gen,
                "sink_received": sink["packets"],
                "sink_lost": sink["lost"],
                "sink_payload_errors": sink["payload_err"],
                "sink_other_errors": sum(
                    sink[k] for k in ("gaps", "ooo", "bad", "len_err", "short")
                ),
                "cycles": c,
                "line_idle_bytes": late_bytes,
                "payload_underflows": underflows,
                "goodput_fraction": n * wire_bytes(length) / busy if busy else 0.0,
                # at the line's clock: 125 MHz x 8 bits (1 Gbit/s), 156.25 MHz x 64 (10 Gbit/s)
                "line_clock_MHz": 125.0 if kw == 1 else 156.25,
                "goodput_MBps": (
                    n * length / (busy / kw / (125e6 if kw == 1 else 156.25e6)) / 1e6
                    if busy
                    else 0.0
                ),
            }
            results.append(res)
        Path(os.environ["DAQ_SIM_OUT"]).write_text(json.dumps(results))

    @cocotb.test()
    async def goodput_stack(dut) -> None:
        from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource
        from scapy.layers.l2 import ARP, Ether

        kw = int(dut.DATA_W.value) // 8
        cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
        source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        our_mac, peer_mac = 0x020000000002, "52:54:00:00:00:01"
        results = []
        for length in LENGTHS:
            target_cycles = 16000 if kw == 1 else 6000
            n = max(10, target_cycles * kw // wire_bytes(length))
            dut.rst.value = 1
            for name in ("start", "stop", "tick_1ms", "m_axis_tready"):
                getattr(dut, name).value = 0
            dut.cfg_len.value = length
            dut.cfg_count.value = n
            dut.cfg_gap.value = 0
            dut.cfg_ndst.value = 1
            dut.cfg_lfsr.value = 1
            dut.cfg_fill.value = 0
            dut.cfg_src_port.value = 50002
            dut.cfg_warmup_ms.value = 1
            dut.cfg_dst_ip_all.value = 0xC0000201
            dut.cfg_dst_port_all.value = 50003
            dut.cfg_mac.value = our_mac
            dut.cfg_ip.value = 0xC0000202
            dut.cfg_netmask.value = 0xFFFFFF00
            dut.cfg_gateway.value = 0xC0000201
            await ClockCycles(dut.clk, 5)
            dut.rst.value = 0
            # the generator's strobes and the stack's ARP misses (udp_stack cnt_ev with one
            # port: EV_UDP_TX + 3 = 46), counted
            gen_ev = EvMon(dut, ["packets", "bytes"], signal="gen_cnt_ev")
            stk_names: list[str | None] = [None] * 48
            stk_names[46] = "udp_tx_arp_miss"
            stk_ev = EvMon(dut, stk_names, signal="stk_cnt_ev")
            # let the stack's start-up traffic (its gratuitous ARP) out first: 10 fast ticks
            dut.m_axis_tready.value = 1
            for _ in range(10):
                await ClockCycles(dut.clk, 499)
                dut.tick_1ms.value = 1
                await RisingEdge(dut.clk)
                dut.tick_1ms.value = 0
            dut.m_axis_tready.value = 0
            await ClockCycles(dut.clk, 5)
            dut.start.value = 1
            await RisingEdge(dut.clk)
            dut.start.value = 0
            c = 0
            wire_next = 0  # line byte position where the MAC's next byte goes out
            frame = bytearray()
            in_frame = False
            first_start = None
            seqs: list[int] = []
            underflows = 0
            other: list[str] = []  # frames between the datagrams (ARP traffic)
            other_bytes = 0
            idle_before: list[tuple[int, int]] = []  # (frame index, idle line bytes before it)
            ticks = 0
            last_end = 0
            while len(seqs) < n:
                # the MAC takes a beat whose bytes go out during the next cycle (a late
                # beat goes out when it comes: the line idled)
                ready = (c + 2) * kw > wire_next
                dut.m_axis_tready.value = int(ready)
                # millisecond ticks: fast during the generator's warm-up, then at the real
                # rate (125 000 or 156 250 cycles), as a board would see them
                period = 500 if first_start is None else (125_000 if kw == 1 else 156_250)
                tick = c % period == period - 1
                dut.tick_1ms.value = int(tick)
                await RisingEdge(dut.clk)
                ticks += tick
                if ready:
                    if int(dut.m_axis_tvalid.value):
                        keep = int(dut.m_axis_tkeep.value)
                        nb = bin(keep).count("1")
                        data = int(dut.m_axis_tdata.value)
                        if not in_frame:
                            in_frame = True
                            if first_start is not None and (c + 1) * kw > wire_next:
                                idle_before.append((len(seqs), (c + 1) * kw - wire_next))
                            start = max(wire_next, (c + 1) * kw)
                            wire_next = start
                            frame = bytearray()
                        frame += bytes((data >> (8 * i)) & 0xFF for i in range(nb))
                        wire_next = max(wire_next, (c + 1) * kw) + nb
                        if int(dut.m_axis_tlast.value):
                            in_frame = False
                            wire_next += max(60 - len(frame), 0) + 4 + 12 + 8
                            pkt = Ether(bytes(frame))
                            if ARP in pkt and pkt[ARP].op == 1 and pkt[ARP].pdst == "192.0.2.1":
                                reply = Ether(dst="02:00:00:00:00:02", src=peer_mac) / ARP(
                                    op=2, hwsrc=peer_mac, psrc="192.0.2.1",
                                    hwdst="02:00:00:00:00:02", pdst="192.0.2.2",
                                )  # fmt: skip
                                await source.send(AxiStreamFrame(bytes(reply)))
                            elif len(frame) >= 42 + 16 and frame[12:14] == b"\x08\x00":
                                if first_start is None:
                                    first_start = start
                                seqs.append(int.from_bytes(frame[42:50], "big"))
                                last_end = wire_next
                            elif first_start is not None:
                                other.append(pkt.summary())
                                other_bytes += wire_next - start
                    elif in_frame:
                        underflows += 1
                c += 1
                if c > 40 * target_cycles + 20000:
                    raise AssertionError(f"stalled: {len(seqs)} of {n} frames")
            busy = last_end - (first_start or 0)
            results.append(
                {
                    "where": "udp_stack",
                    "data_w": 8 * kw,
                    "payload": length,
                    "datagrams": n,
                    "generator_sent": gen_ev.count("packets"),
                    "frames": len(seqs),
                    "lost": n - len(set(seqs)),
                    "in_order": seqs == list(range(n)),
                    "stack_arp_miss": stk_ev.count("udp_tx_arp_miss"),
                    "other_frames": other,
                    "idle_before_frames": idle_before[:20],
                    "line_utilisation": (n * wire_bytes(length) + other_bytes) / busy
                    if busy
                    else 0.0,
                    "payload_underflows": underflows,
                    "cycles": c,
                    "goodput_fraction": n * wire_bytes(length) / busy if busy else 0.0,
                    "line_clock_MHz": 125.0 if kw == 1 else 156.25,
                    "goodput_MBps": (
                        n * length / (busy / kw / (125e6 if kw == 1 else 156.25e6)) / 1e6
                        if busy
                        else 0.0
                    ),
                }
            )
        Path(os.environ["DAQ_SIM_OUT"]).write_text(json.dumps(results))


def main() -> int:
    sys.path.insert(0, str(ROOT / "tests"))
    import cocotb_run

    rows: list[dict] = []
    out = ROOT / "build" / "bench" / "daq_sim_part.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    for top, test in (("pktgen_loopback", "goodput"), ("pktgen_stack", "goodput_stack")):
        for data_w in (8, 64):
            cocotb_run.run(
                top,
                "daq_sim",
                parameters={"DATA_W": data_w},
                testcase=test,
                extra_env={"DAQ_SIM_OUT": str(out), "PYTHONPATH": str(ROOT / "bench")},
                test_dir=ROOT / "bench",
            )
            rows += json.loads(out.read_text())
    hdr = f"{'where':<9} {'width':>5} {'payload':>7} {'datagrams':>9} {'goodput':>8} "
    hdr += f"{'MB/s':>7} {'lost':>5} {'errors':>6} {'underflow':>9}"
    print(hdr)
    for r in rows:
        if r["where"] == "port":
            lost = r["generator_sent"] - r["sink_received"] + r["sink_lost"]
            errors = r["sink_payload_errors"] + r["sink_other_errors"]
        else:
            lost = r["lost"]
            errors = int(not r["in_order"]) + r["stack_arp_miss"] - 1  # 1 miss: the primer
        print(
            f"{r['where']:<9} {r['data_w']:>5} {r['payload']:>7} {r['datagrams']:>9} "
            f"{r['goodput_fraction']:>8.4f} {r['goodput_MBps']:>7.1f} {lost:>5} {errors:>6} "
            f"{r['payload_underflows']:>9}"
        )
    doc = {
        "benchmark": "daq_sim",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "where": "port: pktgen -> line model -> seq_sink (tests/tb/pktgen_loopback.v); "
        "udp_stack: pktgen -> udp_stack -> MAC model (tests/tb/pktgen_stack.v); Icarus",
        "results": rows,
    }
    res_dir = ROOT / "bench" / "results"
    res_dir.mkdir(parents=True, exist_ok=True)
    (res_dir / "daq_sim.json").write_text(json.dumps(doc, indent=1) + "\n")
    ok = all(
        r["goodput_fraction"] > 0.9999
        and r["payload_underflows"] == 0
        and (
            r["sink_received"] == r["generator_sent"] == r["datagrams"]
            and r["sink_lost"] == 0
            and r["sink_payload_errors"] + r["sink_other_errors"] == 0
            if r["where"] == "port"
            else r["lost"] == 0 and r["in_order"] and r["stack_arp_miss"] == 1
        )
        for r in rows
    )
    print("full rate, zero loss" if ok else "BELOW FULL RATE OR LOSS")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
