"""eth_rx: destination filter, EtherType demux (ARP whole, IPv4 and raw stripped), padding,
bad frames, runts, backpressure, the raw channel switched off (cfg_raw_en), exact counts of
the event strobes (cnt_ev); at DATA_W 8 and 64.

scapy builds every frame; what comes out is compared byte for byte with scapy's own
serialisation (ARP: the whole frame; IPv4/raw: the bytes after the 14-byte header) and the
header bus with scapy's fields.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiStreamFrame
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw
from unit.cnt_ev_mon import EvMon
from unit.eth.rxtb import PortMon, drain, frame, mac_int, send_all, start

MAC = "02:00:00:00:00:01"
PEER = "02:00:00:00:00:99"
RAW_TYPE = 0x88B5
FIELDS = ["dst_mac", "src_mac", "ethertype"]


def cfg() -> dict[str, int]:
    return {"cfg_mac": mac_int(MAC), "cfg_raw_ethertype": RAW_TYPE, "cfg_raw_en": 1}


def mons(dut, ready_p: float = 1.0, hdr_p: float = 1.0) -> dict[str, PortMon]:
    return {
        "arp": PortMon(dut, "m_arp", None, ready_p, seed=2),
        "ip": PortMon(dut, "m_ip", FIELDS, ready_p, hdr_p, seed=3),
        "raw": PortMon(dut, "m_raw", FIELDS, ready_p, hdr_p, seed=4),
    }


COUNTERS = ["frames", "bad_mac", "bad_ethertype", "runt"]  # cnt_ev bits
_EV: list[EvMon] = []


async def start_rx(dut, cfg: dict[str, int]):
    """start() (clock, configuration, reset), then count the strobes from there."""
    src = await start(dut, cfg)
    _EV[:] = [EvMon(dut, COUNTERS)]
    return src


def counters(dut) -> dict[str, int]:
    """The events counted from eth_rx's strobes (cnt_ev) since start_rx."""
    return _EV[0].counts()


def mixed_frames(rng: random.Random, n: int) -> list[tuple[bytes, bool, str]]:
    """(frame bytes, MAC-bad flag, expected output: arp/ip/raw/drop-reason)."""
    out: list[tuple[bytes, bool, str]] = []
    for _ in range(n):
        kind = rng.choice(["ip", "ip", "arp", "raw", "other_mac", "bcast_ip", "type", "runt"])
        plen = rng.choice([0, 1, 5, 17, 18, 19, 46, 100, rng.randint(0, 300)])
        payload = bytes(rng.getrandbits(8) for _ in range(plen))
        bad = rng.random() < 0.1
        if kind == "ip":
            f = Ether(dst=MAC, src=PEER) / IP(dst="192.0.2.1") / UDP() / Raw(payload)
        elif kind == "bcast_ip":
            f = Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER) / IP() / Raw(payload)
            kind = "ip"
        elif kind == "arp":
            f = Ether(dst=rng.choice([MAC, "ff:ff:ff:ff:ff:ff"]), src=PEER) / ARP(pdst="192.0.2.1")
        elif kind == "raw":
            f = Ether(dst=MAC, src=PEER, type=RAW_TYPE) / Raw(payload)
        elif kind == "other_mac":
            f = Ether(dst="02:00:00:00:00:02", src=PEER) / IP() / Raw(payload)
        elif kind == "type":
            f = Ether(dst=MAC, src=PEER, type=0x86DD) / Raw(payload)
        else:
            out.append((bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 13))), bad, "runt"))
            continue
        raw = bytes(f)
        if rng.random() < 0.5 and len(raw) < 60:
            raw = raw + bytes(60 - len(raw))  # Ethernet padding as the MAC delivers it
        out.append((raw, bad, kind))
    return out


def with_empty_last(f: bytes, bad: bool) -> AxiStreamFrame:
    """The frame followed by one byte with tkeep = 0: at 8 bits an empty last beat
    (tkeep = 0, tlast = 1, legal by docs/conventions.md), at 64 bits an empty lane at the
    end or, for a length that fills its last beat, an empty last beat."""
    return AxiStreamFrame(f + b"\xa5", tkeep=[1] * len(f) + [0], tuser=1 if bad else 0)


async def run_mix(
    dut, n: int, ready_p: float, hdr_p: float, seed: int, empty_last: bool = False
) -> None:
    rng = random.Random(seed)
    src = await start_rx(dut, cfg())
    m = mons(dut, ready_p, hdr_p)
    frames = mixed_frames(rng, n)
    if empty_last:
        # 13-byte runts: with the empty beat they span 14 beats, still 13 bytes
        for _ in range(6):
            runt = bytes(rng.getrandbits(8) for _ in range(13))
            frames.insert(rng.randrange(len(frames) + 1), (runt, False, "runt"))
    make = with_empty_last if empty_last else frame
    await send_all(src, [make(f, bad) for f, bad, _ in frames])
    kept = [(f, bad, k) for f, bad, k in frames if k in ("arp", "ip", "raw")]
    await drain(dut, list(m.values()), len(kept))
    exp: dict[str, list[tuple[bytes, bool]]] = {"arp": [], "ip": [], "raw": []}
    for f, bad, k in kept:
        exp[k].append((f, bad))
    for k, mon in m.items():
        assert len(mon.pkts) == len(exp[k]), f"{k}: {len(mon.pkts)} packets, expected {len(exp[k])}"
        for p, (f, bad) in zip(mon.pkts, exp[k], strict=True):
            assert p.tuser == int(bad), f"{k}: tuser {p.tuser} for a frame with bad={bad}"
            if k == "arp":
                assert bytes(p.data) == f
                continue
            e = Ether(f)
            assert bytes(p.data) == f[14:], f"{k}: payload differs"
            assert p.hdr == {
                "dst_mac": mac_int(e.dst),
                "src_mac": mac_int(e.src),
                "ethertype": e.type,
            }
            assert p.hdr_cycle <= p.first_cycle
    want = {
        "frames": len(frames),
        "bad_mac": sum(k == "other_mac" for _, _, k in frames),
        "bad_ethertype": sum(k == "type" for _, _, k in frames),
        "runt": sum(k == "runt" for _, _, k in frames),
    }
    assert counters(dut) == want


@cocotb.test()
async def mix_full_rate(dut) -> None:
    """Random mix of every frame kind, consumers always ready."""
    await run_mix(dut, 120, 1.0, 1.0, seed=11)


@cocotb.test()
async def mix_backpressure(dut) -> None:
    """Same mix with random tready and hdr_ready on every output."""
    await run_mix(dut, 80, 0.4, 0.5, seed=12)


@cocotb.test()
async def mix_empty_last_beat(dut) -> None:
    """The same mix with every frame ending in a byte whose tkeep is 0: it holds no byte,
    so outputs and counters are those of the frames without it (runts of 1..13 bytes stay
    runts, the header is taken from the kept bytes only)."""
    await run_mix(dut, 120, 0.7, 0.7, seed=14, empty_last=True)


@cocotb.test()
async def back_to_back_throughput(dut) -> None:
    """Back-to-back large IPv4 frames: the payload output keeps up with the input."""
    src = await start_rx(dut, cfg())
    m = mons(dut)
    kw = len(dut.s_axis_tkeep)
    frames = [bytes(Ether(dst=MAC, src=PEER) / IP() / Raw(bytes(1000))) for _ in range(6)]
    await send_all(src, [frame(f) for f in frames])
    await drain(dut, list(m.values()), 6)
    p = m["ip"].pkts
    span = p[-1].last_cycle - p[0].first_cycle
    in_beats = sum((len(f) + kw - 1) // kw for f in frames)
    # the input is back to back: each frame may cost at most 3 cycles more than its beats
    assert span <= in_beats + 3 * len(frames), f"{span} cycles for {in_beats} input beats"


@cocotb.test()
async def raw_ethertype_change(dut) -> None:
    """cfg_raw_ethertype changed between frames: frames of the new EtherType go to the raw
    channel (its header reporting the new type), those of the old one are counted as
    unknown EtherTypes; IPv4 and ARP are unaffected."""
    src = await start_rx(dut, cfg())
    m = mons(dut)
    new_type = 0x9000

    def raw_frame(t: int, n: int) -> bytes:
        return bytes(Ether(dst=MAC, src=PEER, type=t) / Raw(bytes(range(n))))

    ip = bytes(Ether(dst=MAC, src=PEER) / IP(dst="192.0.2.1") / UDP() / Raw(b"x" * 20))
    first = [raw_frame(RAW_TYPE, 50), ip, raw_frame(new_type, 47)]
    await send_all(src, [frame(f) for f in first])
    await drain(dut, list(m.values()), 2)
    await ClockCycles(dut.clk, 20)
    dut.cfg_raw_ethertype.value = new_type
    await ClockCycles(dut.clk, 4)
    second = [raw_frame(new_type, 46), raw_frame(RAW_TYPE, 60), ip, raw_frame(new_type, 100)]
    await send_all(src, [frame(f) for f in second])
    await drain(dut, list(m.values()), 5)
    raws = [first[0], second[0], second[3]]
    assert [bytes(p.data) for p in m["raw"].pkts] == [f[14:] for f in raws]
    assert [p.hdr["ethertype"] for p in m["raw"].pkts] == [RAW_TYPE, new_type, new_type]
    assert [bytes(p.data) for p in m["ip"].pkts] == [ip[14:]] * 2
    assert counters(dut) == {"frames": 7, "bad_mac": 0, "bad_ethertype": 2, "runt": 0}
    # the raw channel off (cfg_raw_en = 0, NET.ENABLES.RAW): its frames are dropped and
    # counted as unknown EtherTypes, IPv4 passes; back on, they pass again
    await ClockCycles(dut.clk, 20)
    dut.cfg_raw_en.value = 0
    await ClockCycles(dut.clk, 4)
    third = [raw_frame(new_type, 46), ip, raw_frame(new_type, 80)]
    await send_all(src, [frame(f) for f in third])
    await drain(dut, list(m.values()), 6)
    await ClockCycles(dut.clk, 20)
    assert len(m["raw"].pkts) == 3
    assert counters(dut) == {"frames": 10, "bad_mac": 0, "bad_ethertype": 4, "runt": 0}
    dut.cfg_raw_en.value = 1
    await ClockCycles(dut.clk, 4)
    await send_all(src, [frame(raw_frame(new_type, 52))])
    await drain(dut, list(m.values()), 7)
    assert [bytes(p.data) for p in m["raw"].pkts][-1] == raw_frame(new_type, 52)[14:]
    assert counters(dut) == {"frames": 11, "bad_mac": 0, "bad_ethertype": 4, "runt": 0}


@cocotb.test()
async def many_drops(dut) -> None:
    """More than 256 frames each of runts, foreign MACs and unknown EtherTypes: every
    strobe exact, IPv4 frames still pass."""
    rng = random.Random(13)
    src = await start_rx(dut, cfg())
    m = mons(dut)
    frames: list[tuple[bytes, str]] = []
    for _ in range(270):
        frames.append((bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 13))), "runt"))
        pl = Raw(bytes(rng.randint(0, 4)))
        frames.append((bytes(Ether(dst="02:00:00:00:00:02", src=PEER) / pl), "other_mac"))
        frames.append((bytes(Ether(dst=MAC, src=PEER, type=0x86DD) / pl), "type"))
    for _ in range(5):
        frames.append(
            (bytes(Ether(dst=MAC, src=PEER) / IP() / Raw(bytes(rng.randint(0, 30)))), "ip")
        )
    rng.shuffle(frames)
    await send_all(src, [frame(f) for f, _ in frames])
    ips = [f for f, k in frames if k == "ip"]
    await drain(dut, list(m.values()), len(ips))
    assert [bytes(p.data) for p in m["ip"].pkts] == [f[14:] for f in ips]
    want = {
        "frames": len(frames),
        "bad_mac": sum(k == "other_mac" for _, k in frames),
        "bad_ethertype": sum(k == "type" for _, k in frames),
        "runt": sum(k == "runt" for _, k in frames),
    }
    assert all(v >= 256 for v in want.values())
    await ClockCycles(dut.clk, 10)
    assert counters(dut) == want


@pytest.mark.parametrize("data_w", [8, 64])
def test_eth_rx(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "eth_rx",
        "test_eth_rx",
        parameters={"DATA_W": data_w},
        testcase=[
            "mix_full_rate",
            "mix_backpressure",
            "mix_empty_last_beat",
            "back_to_back_throughput",
            "raw_ethertype_change",
        ]
        + (["many_drops"] if data_w == 8 else []),
        test_dir=Path(__file__).parent,
    )
