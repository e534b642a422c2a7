"""udp_stack: the integrated stack end to end at DATA_W 8 and 64.

Frames built by scapy go in on the MAC side; out come UDP datagrams on the application
ports, raw frames on the raw channel, and on the MAC transmit side ARP replies, ICMP echo
replies, UDP datagrams sent by the applications and raw frames (all parsed by scapy).
Every drop counter of the receive path is checked exactly, and every counter equals the
sum of its cnt_ev strobe (the EV_* layout of docs/stack.md).
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamSink
from scapy.layers.inet import ICMP, IP, UDP, IPerror, UDPerror
from scapy.layers.l2 import ARP, Ether
from scapy.packet import Raw
from unit.cnt_ev_mon import EvMon
from unit.eth.rxtb import PortMon, drain, frame, ip_int, mac_int, start, wait_idle

MAC = "02:00:00:00:00:01"
IPA = "192.0.2.1"
PEER_MAC = "02:00:00:00:00:99"
PEER_IP = "192.0.2.77"
PORTS = [5000, 6000]
RAW_TYPE = 0x88B5
RX_FIELDS = ["src_mac", "src_ip", "src_port", "dst_port", "len"]


def cfg() -> dict[str, int]:
    return {
        "cfg_mac": mac_int(MAC),
        "cfg_ip": ip_int(IPA),
        "cfg_netmask": ip_int("255.255.255.0"),
        "cfg_gateway": ip_int("192.0.2.254"),
        "cfg_ttl": 64,
        "cfg_df": 0,
        "cfg_raw_ethertype": RAW_TYPE,
        "cfg_udp_port": PORTS[0] | (PORTS[1] << 16),
        "cfg_udp_csum_mode": 0b0101,  # both ports: computed checksum
        "cfg_unreach_per_ms": 255,  # port unreachable on (tick_1ms stays 0: 255 at most)
        "tick_1ms": 0,
        "s_udp_tx_hdr_valid": 0,
        "s_udp_tx_axis_tvalid": 0,
        "s_raw_tx_hdr_valid": 0,
        "s_raw_tx_axis_tvalid": 0,
    }


def ev_names(nports: int) -> list[str]:
    """udp_stack's cnt_ev bits: its cnt_* ports in order, a port of NUM_PORTS counters
    giving NUM_PORTS bits (docs/stack.md)."""
    names = [
        "eth_rx_frames", "eth_bad_mac", "eth_bad_ethertype", "eth_runt",
        "ip_rx_packets", "ip_runt", "ip_bad_hdr", "ip_bad_csum", "ip_bad_len",
        "ip_not_for_us", "ip_fragment", "ip_bad_proto", "ip_truncated",
        "udp_rx_datagrams", "udp_bad_len", "udp_closed_port", "udp_bad_csum", "udp_err_in",
        "udp_oversize", "udp_busy_drop",
        "icmp_replies", "icmp_aborted", "icmp_dropped", "icmp_bad_csum",
        "icmp_unreach_sent", "icmp_unreach_dropped",
        "arp_req_rx", "arp_reply_tx", "arp_req_tx", "arp_garp_tx", "arp_reply_rx",
        "arp_malformed", "arp_rx_overrun", "arp_hit", "arp_miss", "arp_timeout",
        "arp_expired", "arp_evicted", "arp_conflict",
        "tx_frames", "raw_tx_frames", "raw_tx_abort",
    ]  # fmt: skip
    for c in ("frames", "abort", "long", "arp_miss", "sf_overflow"):
        names += [f"udp_tx_{c}[{g}]" for g in range(nports)]
    return names


async def check_strobes(dut, evmon: EvMon) -> None:
    """Once the stack is quiet, every counter equals the sum of its cnt_ev strobe."""
    await ClockCycles(dut.clk, 50)
    evmon.check(1 << 32)
    assert sum(evmon.sums) > 0


async def setup(dut, ready_p: float = 1.0):
    src = await start(dut, cfg())
    evmon = EvMon(dut, ev_names(int(dut.NUM_PORTS.value)))
    ports = [
        PortMon(dut, "m_udp_rx", RX_FIELDS, ready_p, ready_p, index=i, nports=2, seed=40 + i)
        for i in range(2)
    ]
    raw = PortMon(dut, "m_raw_rx", ["dst_mac", "src_mac"], ready_p, ready_p, seed=45)
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
    return src, ports, raw, sink, evmon


def udp_frame(dport: int, data: bytes, **ipkw: object) -> bytes:
    ip = IP(src=PEER_IP, dst=IPA, **ipkw)
    return bytes(Ether(dst=MAC, src=PEER_MAC) / ip / UDP(sport=1234, dport=dport) / Raw(data))


@cocotb.test()
async def receive_mix(dut) -> None:
    """UDP to both ports, ICMP echo, ARP request, raw frames and bad frames of each layer."""
    rng = random.Random(50)
    src, ports, raw, sink, evmon = await setup(dut, ready_p=0.7)
    frames: list[tuple[bytes, bool]] = []
    exp_udp: list[list[tuple[bytes, int]]] = [[], []]
    exp_raw: list[bytes] = []
    expect_tx = {"arp": 0, "icmp": 0}
    closed: list[tuple[int, int]] = []  # (source port, destination port) of closed-port datagrams
    want = {
        "eth_bad_mac": 0,
        "eth_bad_ethertype": 0,
        "ip_bad_csum": 0,
        "ip_fragment": 0,
        "ip_not_for_us": 0,
        "udp_bad_csum": 0,
        "udp_closed_port": 0,
    }
    for _ in range(60):
        kind = rng.choice(
            [
                "udp",
                "udp",
                "udp",
                "icmp",
                "arp",
                "raw",
                "mac",
                "type",
                "ipcsum",
                "frag",
                "other_ip",
                "udpcsum",
                "closed",
            ]
        )
        data = bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 18, 100, 300])))
        p = rng.randrange(2)
        if kind == "udp":
            f = udp_frame(PORTS[p], data)
            exp_udp[p].append((f, 0))
        elif kind == "icmp":
            f = bytes(Ether(dst=MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=IPA) / ICMP(id=7) / data)
            expect_tx["icmp"] += 1
        elif kind == "arp":
            f = bytes(
                Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC)
                / ARP(op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=IPA)
            )
            expect_tx["arp"] += 1
        elif kind == "raw":
            f = bytes(Ether(dst=MAC, src=PEER_MAC, type=RAW_TYPE) / Raw(data))
        elif kind == "mac":
            f = bytes(Ether(dst="02:00:00:00:00:05", src=PEER_MAC) / IP() / Raw(data))
            want["eth_bad_mac"] += 1
        elif kind == "type":
            f = bytes(Ether(dst=MAC, src=PEER_MAC, type=0x88CC) / Raw(data))
            want["eth_bad_ethertype"] += 1
        elif kind == "ipcsum":
            f = udp_frame(PORTS[p], data, chksum=0x1234)
            want["ip_bad_csum"] += 1
        elif kind == "frag":
            f = udp_frame(PORTS[p], data, flags="MF")
            want["ip_fragment"] += 1
        elif kind == "other_ip":
            f = bytes(Ether(dst=MAC, src=PEER_MAC) / IP(dst="192.0.2.9") / UDP() / Raw(data))
            want["ip_not_for_us"] += 1
        elif kind == "udpcsum":
            b = bytearray(udp_frame(PORTS[p], data + b"x"))
            b[-1] ^= 0x01  # payload bit flip: only the UDP checksum can tell
            f = bytes(b)
            exp_udp[p].append((f, 1))  # cut-through: delivered with tuser = 1
            want["udp_bad_csum"] += 1
        else:
            sport = rng.randrange(1024, 65536)
            dport = rng.choice([7777, 1, 65535])
            f = bytes(
                Ether(dst=MAC, src=PEER_MAC)
                / IP(src=PEER_IP, dst=IPA)
                / UDP(sport=sport, dport=dport)
                / Raw(data)
            )
            closed.append((sport, dport))
            want["udp_closed_port"] += 1
        if len(f) < 60:
            f = f + bytes(60 - len(f))  # as the MAC delivers it
        if kind == "raw":
            exp_raw.append(f)  # the raw channel passes the padding on
        frames.append((f, False))
    for f, bad in frames:
        await src.send(frame(f, bad))
    await wait_idle(src)
    await drain(dut, [*ports, raw], sum(len(x) for x in exp_udp) + len(exp_raw))
    for i in range(2):
        assert len(ports[i].pkts) == len(exp_udp[i])
        for p, (f, tuser) in zip(ports[i].pkts, exp_udp[i], strict=True):
            e = Ether(f)
            assert bytes(p.data) == bytes(e[UDP].payload)[: e[UDP].len - 8]
            assert p.tuser == tuser
            assert p.hdr == {
                "src_mac": mac_int(PEER_MAC),
                "src_ip": ip_int(PEER_IP),
                "src_port": 1234,
                "dst_port": PORTS[i],
                "len": e[UDP].len - 8,
            }
    assert [bytes(p.data) for p in raw.pkts] == [f[14:] for f in exp_raw]
    got = {k: int(getattr(dut, f"cnt_{k}").value) for k in want}
    assert got == want
    # the transmit side: one ARP reply per request, one echo reply per request, and a port
    # unreachable for each closed-port datagram unless it came while one was going out
    sent = int(dut.cnt_icmp_unreach_sent.value)
    dropped = int(dut.cnt_icmp_unreach_dropped.value)
    assert sent + dropped == len(closed) and (sent > 0 or not closed)
    expect_tx["unreach"] = sent
    n_tx = expect_tx["arp"] + expect_tx["icmp"] + sent
    seen = {"arp": 0, "icmp": 0, "unreach": 0}
    quoted: list[tuple[int, int]] = []
    for _ in range(n_tx):
        fr = await sink.recv()
        e = Ether(bytes(fr.tdata))
        assert e.dst == PEER_MAC and e.src == MAC
        if ARP in e:
            assert e[ARP].op == 2 and e[ARP].psrc == IPA and e[ARP].hwsrc == MAC
            seen["arp"] += 1
        elif e[ICMP].type == 3:
            assert e[ICMP].code == 3 and e[IP].src == IPA and e[IP].dst == PEER_IP
            chk_ip, chk_icmp = e[IP].chksum, e[ICMP].chksum
            del e[IP].chksum, e[ICMP].chksum
            e2 = Ether(bytes(e))
            assert (e2[IP].chksum, e2[ICMP].chksum) == (chk_ip, chk_icmp)
            q = e2[ICMP].payload  # the quoted IPv4 header and UDP header
            assert q[IPerror].src == PEER_IP and q[IPerror].dst == IPA
            assert q[IPerror].proto == 17
            quoted.append((q[UDPerror].sport, q[UDPerror].dport))
            seen["unreach"] += 1
        else:
            assert e[ICMP].type == 0 and e[IP].src == IPA and e[IP].dst == PEER_IP
            seen["icmp"] += 1
    assert seen == expect_tx
    it = iter(closed)  # the messages quote closed-port datagrams, in order
    assert all(any(q == c for c in it) for q in quoted)
    assert sink.empty()
    await check_strobes(dut, evmon)


async def drive_port(dut, prefix: str, index: int, nports: int, kw: int, data: bytes) -> None:
    """Drive one payload on slice ``index`` of a flattened stream port, beat by beat."""
    sigs = {s: getattr(dut, f"{prefix}_axis_{s}") for s in ("tdata", "tkeep", "tvalid", "tlast")}
    beats = [data[i : i + kw] for i in range(0, len(data), kw)] or [b""]
    for n, b in enumerate(beats):
        sigs["tdata"].value = int.from_bytes(b.ljust(kw, b"\0"), "little") << (8 * kw * index)
        sigs["tkeep"].value = ((1 << len(b)) - 1) << (kw * index)
        sigs["tlast"].value = int(n == len(beats) - 1) << index
        sigs["tvalid"].value = 1 << index
        while True:
            await RisingEdge(dut.clk)
            if (int(getattr(dut, f"{prefix}_axis_tready").value) >> index) & 1:
                break
    sigs["tvalid"].value = 0


@cocotb.test()
async def transmit_udp_and_raw(dut) -> None:
    """A datagram from application port 1 (checksum computed) and a raw frame go out."""
    src, ports, raw, sink, evmon = await setup(dut)
    kw = len(dut.s_axis_tkeep)
    data = bytes(range(200))
    dut.s_udp_tx_hdr_dst_mac.value = mac_int(PEER_MAC) << 48
    dut.s_udp_tx_hdr_dst_mac_valid.value = 0b10
    dut.s_udp_tx_hdr_dst_ip.value = ip_int(PEER_IP) << 32
    dut.s_udp_tx_hdr_dst_port.value = 4321 << 16
    dut.s_udp_tx_hdr_src_port.value = PORTS[1] << 16
    dut.s_udp_tx_hdr_len.value = len(data) << 16
    dut.s_udp_tx_hdr_csum.value = 0
    dut.s_udp_tx_hdr_valid.value = 0b10
    while True:
        await RisingEdge(dut.clk)
        if (int(dut.s_udp_tx_hdr_ready.value) >> 1) & 1:
            break
    dut.s_udp_tx_hdr_valid.value = 0
    dut.s_udp_tx_axis_tuser.value = 0
    await drive_port(dut, "s_udp_tx", 1, 2, kw, data)
    fr = await sink.recv()
    e = Ether(bytes(fr.tdata))
    assert e.dst == PEER_MAC and e.src == MAC
    assert e[IP].src == IPA and e[IP].dst == PEER_IP
    assert e[UDP].sport == PORTS[1] and e[UDP].dport == 4321
    assert bytes(e[UDP].payload) == data
    chk = e[UDP].chksum
    del e[UDP].chksum
    assert Ether(bytes(e))[UDP].chksum == chk, "UDP checksum is not the computed one"
    # raw frame
    dut.s_raw_tx_hdr_dst_mac.value = mac_int(PEER_MAC)
    dut.s_raw_tx_hdr_valid.value = 1
    dut.s_raw_tx_axis_tuser.value = 0
    while True:
        await RisingEdge(dut.clk)
        if int(dut.s_raw_tx_hdr_ready.value):
            break
    dut.s_raw_tx_hdr_valid.value = 0
    await drive_port(dut, "s_raw_tx", 0, 1, kw, b"raw channel payload")
    fr = await sink.recv()
    e = Ether(bytes(fr.tdata))
    assert e.type == RAW_TYPE and e.dst == PEER_MAC and e.src == MAC
    assert bytes(e.payload).startswith(b"raw channel payload")
    await check_strobes(dut, evmon)


@cocotb.test()
async def stalled_port_does_not_stall_the_stack(dut) -> None:
    """RX_BUSY_WAIT: port 0 never takes a header; port 1, ping and ARP keep working."""
    src, _, _, sink, evmon = await setup(dut)
    ports = [
        PortMon(dut, "m_udp_rx", RX_FIELDS, 1.0, 0.0, index=0, nports=2, seed=60),
        PortMon(dut, "m_udp_rx", RX_FIELDS, 1.0, 1.0, index=1, nports=2, seed=61),
    ]
    frames, exp1 = [], []
    for k in range(12):
        data = bytes((k * 11 + i) & 0xFF for i in range(40 + 10 * k))
        frames.append(udp_frame(PORTS[0], data))  # to the stalled port
        f = udp_frame(PORTS[1], data)
        frames.append(f)
        exp1.append(f)
    ping = Ether(dst=MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=IPA) / ICMP(id=3) / (b"p" * 40)
    arp = Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(
        op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=IPA
    )
    frames += [bytes(ping), bytes(arp)]
    for f in frames:
        await src.send(frame(f.ljust(60, b"\0"), False))
    await wait_idle(src)
    await drain(dut, ports, len(exp1))
    assert ports[0].pkts == []  # nothing of a dropped datagram reaches the stalled port
    assert [bytes(p.data) for p in ports[1].pkts] == [bytes(Ether(f)[UDP].payload) for f in exp1]
    assert int(dut.cnt_udp_busy_drop.value) == 12
    assert int(dut.cnt_udp_rx_datagrams.value) == 24
    replies = [Ether(bytes((await sink.recv()).tdata)) for _ in range(2)]
    assert sorted(ARP in r for r in replies) == [False, True]  # one ARP reply, one echo reply
    for r in replies:
        if ARP in r:
            assert r[ARP].op == 2 and r[ARP].pdst == PEER_IP
        else:
            assert r[ICMP].type == 0 and r[ICMP].id == 3 and bytes(r[ICMP].payload) == b"p" * 40
    await check_strobes(dut, evmon)


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_stack_busy(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "udp_stack",
        "test_udp_stack",
        parameters={"DATA_W": data_w, "NUM_PORTS": 2, "RX_BUSY_WAIT": 4},
        testcase="stalled_port_does_not_stall_the_stack",
        test_dir=Path(__file__).parent,
    )


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_stack(data_w: int) -> None:
    import cocotb_run

    cocotb_run.run(
        "udp_stack",
        "test_udp_stack",
        parameters={"DATA_W": data_w, "NUM_PORTS": 2, "ICMP_UNREACH": 1},
        testcase=["receive_mix", "transmit_udp_and_raw"],
        test_dir=Path(__file__).parent,
    )


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_stack_tx_pipe(data_w: int) -> None:
    """TX_PIPE: every transmit source (ARP, ICMP echo, raw, both UDP ports, the
    port-unreachable sender) through a register slice in front of the arbiter."""
    import cocotb_run

    cocotb_run.run(
        "udp_stack",
        "test_udp_stack",
        parameters={"DATA_W": data_w, "NUM_PORTS": 2, "ICMP_UNREACH": 1, "TX_PIPE": 255},
        testcase=["receive_mix", "transmit_udp_and_raw"],
        test_dir=Path(__file__).parent,
    )


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_stack_tx_arb_reg(data_w: int) -> None:
    """TX_PIPE with TX_ARB_REG = 1: the slices, then the arbiter's registered output
    (eth_tx_arb REG_OUT = 1), as udp_echo_node builds it."""
    import cocotb_run

    cocotb_run.run(
        "udp_stack",
        "test_udp_stack",
        parameters={
            "DATA_W": data_w,
            "NUM_PORTS": 2,
            "ICMP_UNREACH": 1,
            "TX_PIPE": 255,
            "TX_ARB_REG": 1,
        },
        testcase=["receive_mix", "transmit_udp_and_raw"],
        test_dir=Path(__file__).parent,
    )
