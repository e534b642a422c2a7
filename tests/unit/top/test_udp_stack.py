"""udp_stack: the integrated stack end to end at DATA_W 8 and 64.

Frames built by scapy go in on the MAC side; out come UDP datagrams on the application
ports, raw frames on the raw channel, and on the MAC transmit side ARP replies, ICMP echo
replies, UDP datagrams sent by the applications and raw frames (all parsed by scapy).
Every drop of the receive path is checked exactly in the counts of the event strobes
(cnt_ev, the EV_* layout of docs/stack.md), also with the run-time enables off (ARP and
ICMP echo answers, the UDP checksum check, the raw channel). Both UDP transmit ports
are also driven at once: through the ARP lookup they share (misses, the requests they
cause, scapy-built replies, then hits; ICMP echo meanwhile) and in each checksum mode.
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
        "cfg_arp_answer": 1,
        "cfg_icmp_answer": 1,
        "cfg_udp_csum_check": 1,
        "cfg_raw_en": 1,
        "tick_1ms": 0,
        "s_udp_tx_hdr_valid": 0,
        "s_udp_tx_axis_tvalid": 0,
        "s_raw_tx_hdr_valid": 0,
        "s_raw_tx_axis_tvalid": 0,
    }


def ev_names(nports: int) -> list[str]:
    """udp_stack's cnt_ev bits in order, a per-port strobe giving NUM_PORTS bits, port 0
    first (docs/stack.md)."""
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
        "arp_expired", "arp_evicted", "arp_conflict", "arp_req_refused",
        "tx_frames", "raw_tx_frames", "raw_tx_abort",
    ]  # fmt: skip
    for c in ("frames", "abort", "long", "arp_miss", "sf_overflow"):
        names += [f"udp_tx_{c}[{g}]" for g in range(nports)]
    return names


_EV: list[EvMon] = []  # the strobes of the current test, counted since its reset


async def check_strobes(dut, evmon: EvMon) -> None:
    """Let the stack go quiet (the strobes follow their events by a few cycles)."""
    await ClockCycles(dut.clk, 50)
    assert sum(evmon.counts().values()) > 0


async def setup(dut, ready_p: float = 1.0, **over: int):
    """Clock, ``cfg()`` (with the ``cfg_*`` values of ``over`` instead), reset, monitors."""
    src = await start(dut, {**cfg(), **over})
    evmon = EvMon(dut, ev_names(int(dut.NUM_PORTS.value)))
    _EV[:] = [evmon]
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
    await run_receive_mix(dut, enables=True)


@cocotb.test()
async def receive_mix_enables_off(dut) -> None:
    """The same with every run-time enable off (NET.ENABLES 0): ARP requests for us and
    ICMP echo requests not answered but counted (arp_req_refused, icmp_dropped), raw frames
    dropped as unknown EtherTypes, UDP datagrams with a bad checksum delivered as good."""
    await run_receive_mix(dut, enables=False)


async def run_receive_mix(dut, enables: bool) -> None:
    rng = random.Random(50)
    on = int(enables)
    src, ports, raw, sink, evmon = await setup(
        dut,
        ready_p=0.7,
        cfg_arp_answer=on,
        cfg_icmp_answer=on,
        cfg_udp_csum_check=on,
        cfg_raw_en=on,
    )
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
        "icmp_dropped": 0,
        "arp_req_refused": 0,
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
            expect_tx["icmp"] += on
            want["icmp_dropped"] += 1 - on
        elif kind == "arp":
            f = bytes(
                Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC)
                / ARP(op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=IPA)
            )
            expect_tx["arp"] += on
            want["arp_req_refused"] += 1 - on
        elif kind == "raw":
            f = bytes(Ether(dst=MAC, src=PEER_MAC, type=RAW_TYPE) / Raw(data))
            want["eth_bad_ethertype"] += 1 - on
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
            exp_udp[p].append((f, on))  # cut-through: delivered with tuser = 1 (check on)
            want["udp_bad_csum"] += on
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
        if kind == "raw" and enables:
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
    got = evmon.counts()
    assert {k: got[k] for k in want} == want
    # the transmit side: one ARP reply per request, one echo reply per request, and a port
    # unreachable for each closed-port datagram unless it came while one was going out
    sent, dropped = got["icmp_unreach_sent"], got["icmp_unreach_dropped"]
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
    await ClockCycles(dut.clk, 10)
    assert cnt(dut, "udp_busy_drop") == 12
    assert cnt(dut, "udp_rx_datagrams") == 24
    replies = [Ether(bytes((await sink.recv()).tdata)) for _ in range(2)]
    assert sorted(ARP in r for r in replies) == [False, True]  # one ARP reply, one echo reply
    for r in replies:
        if ARP in r:
            assert r[ARP].op == 2 and r[ARP].pdst == PEER_IP
        else:
            assert r[ICMP].type == 0 and r[ICMP].id == 3 and bytes(r[ICMP].payload) == b"p" * 40
    await check_strobes(dut, evmon)


class TxReq:
    """One datagram for a UDP transmit port; ``dst_mac`` None: resolved by ARP
    (``hdr_dst_mac_valid`` = 0)."""

    def __init__(
        self,
        dst_ip: str,
        data: bytes,
        dst_mac: str | None = None,
        dport: int = 4321,
        csum: int = 0,
    ) -> None:
        self.dst_ip, self.data, self.dst_mac = dst_ip, data, dst_mac
        self.dport, self.csum = dport, csum


class UdpTx:
    """Drives every UDP transmit port at once (``s_udp_tx_*``, flattened), one queue of
    ``TxReq`` per port: each port offers its head's header, then its payload beat by beat
    with no gap once the header is taken, then the next datagram; every port owns its
    slice of each flattened signal."""

    def __init__(self, dut, nports: int = 2) -> None:
        self.dut = dut
        self.n = nports
        self.kw = len(dut.s_udp_tx_axis_tkeep) // nports
        self.queues: list[list[TxReq]] = [[] for _ in range(nports)]
        self.beat = [-1] * nports  # -1: the head's header is offered; k: its payload beat k
        self.hv = 0  # hdr_valid and tvalid as driven for the coming edge
        self.tv = 0
        dut.s_udp_tx_axis_tuser.value = 0
        self._drive()
        cocotb.start_soon(self._run())

    def send(self, port: int, req: TxReq) -> None:
        self.queues[port].append(req)

    def idle(self) -> bool:
        return not any(self.queues)

    def _beats(self, req: TxReq) -> list[bytes]:
        d, kw = req.data, self.kw
        return [d[i : i + kw] for i in range(0, len(d), kw)] or [b""]

    def _drive(self) -> None:
        d = self.dut
        f = {"dst_mac": 0, "dst_mac_valid": 0, "dst_ip": 0, "dst_port": 0, "src_port": 0}
        f.update({"len": 0, "csum": 0})
        hv = tv = tdata = tkeep = tlast = 0
        kw = self.kw
        for p in range(self.n):
            if not self.queues[p]:
                continue
            r = self.queues[p][0]
            f["dst_mac"] |= (mac_int(r.dst_mac) if r.dst_mac else 0) << (48 * p)
            f["dst_mac_valid"] |= int(r.dst_mac is not None) << p
            f["dst_ip"] |= ip_int(r.dst_ip) << (32 * p)
            f["dst_port"] |= r.dport << (16 * p)
            f["src_port"] |= PORTS[p] << (16 * p)
            f["len"] |= len(r.data) << (16 * p)
            f["csum"] |= r.csum << (16 * p)
            if self.beat[p] < 0:
                hv |= 1 << p
            else:
                beats = self._beats(r)
                b = beats[self.beat[p]]
                tv |= 1 << p
                tdata |= int.from_bytes(b.ljust(kw, b"\0"), "little") << (8 * kw * p)
                tkeep |= ((1 << len(b)) - 1) << (kw * p)
                tlast |= int(self.beat[p] == len(beats) - 1) << p
        for k, v in f.items():
            getattr(d, f"s_udp_tx_hdr_{k}").value = v
        d.s_udp_tx_hdr_valid.value = hv
        d.s_udp_tx_axis_tvalid.value = tv
        d.s_udp_tx_axis_tdata.value = tdata
        d.s_udp_tx_axis_tkeep.value = tkeep
        d.s_udp_tx_axis_tlast.value = tlast
        self.hv, self.tv = hv, tv

    async def _run(self) -> None:
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            hrv, trv = d.s_udp_tx_hdr_ready.value, d.s_udp_tx_axis_tready.value
            hr = int(hrv) if hrv.is_resolvable else 0
            tr = int(trv) if trv.is_resolvable else 0
            for p in range(self.n):
                if not self.queues[p]:
                    continue
                if self.beat[p] < 0:
                    if (self.hv >> p) & (hr >> p) & 1:
                        self.beat[p] = 0
                elif (self.tv >> p) & (tr >> p) & 1:
                    self.beat[p] += 1
                    if self.beat[p] == len(self._beats(self.queues[p][0])):
                        self.queues[p].pop(0)
                        self.beat[p] = -1
            self._drive()


def cnt(dut, name: str, port: int | None = None) -> int:
    """The events of strobe ``name`` (``port``: of a per-port strobe) since the reset."""
    return _EV[0].count(name if port is None else f"{name}[{port}]")


async def wait_until(dut, cond, what: str, limit: int = 5000) -> None:
    """Wait (at most ``limit`` cycles) until ``cond()`` holds."""
    for _ in range(limit):
        await RisingEdge(dut.clk)
        if cond():
            return
    raise AssertionError(f"timeout ({limit} cycles) waiting for {what}")


async def collect(dut, sink: AxiStreamSink, n: int, limit: int = 20000) -> list[Ether]:
    """Exactly ``n`` frames out of m_axis (within ``limit`` cycles, then 300 quiet ones),
    none aborted, parsed by scapy."""
    got: list[Ether] = []

    def take() -> None:
        while not sink.empty():
            fr = sink.recv_nowait()
            tu = fr.tuser
            assert not (any(tu) if isinstance(tu, list) else tu), "frame aborted (tuser)"
            got.append(Ether(bytes(fr.tdata)))

    for _ in range(limit):
        await RisingEdge(dut.clk)
        take()
        if len(got) >= n:
            break
    else:
        raise AssertionError(f"timeout: {len(got)} of {n} frames came out")
    await ClockCycles(dut.clk, 300)
    take()
    assert len(got) == n, f"{len(got)} frames came out, {n} expected"
    return got


def split_tx(frames: list[Ether]) -> tuple[list[Ether], list[Ether], list[list[Ether]]]:
    """Frames out by source: ARP, ICMP, then UDP per application port (by source port)."""
    arp = [f for f in frames if ARP in f]
    icmp = [f for f in frames if ICMP in f]
    udp = [[f for f in frames if UDP in f and f[UDP].sport == p] for p in PORTS]
    assert len(arp) + len(icmp) + sum(map(len, udp)) == len(frames), "unexpected frame"
    return arp, icmp, udp


def check_arp_requests(frames: list[Ether], targets: list[str]) -> None:
    """One broadcast ARP request from us for each of ``targets`` (in any order), field by
    field and byte for byte (arp_tx: THA 0, 42 bytes)."""
    assert sorted(f[ARP].pdst for f in frames) == sorted(targets), "ARP request targets"
    for f in frames:
        a = f[ARP]
        assert (a.op, a.psrc, a.hwsrc) == (1, IPA, MAC), f"not our request: {f!r}"
        assert f.dst == "ff:ff:ff:ff:ff:ff" and f.src == MAC
        exp = Ether(dst="ff:ff:ff:ff:ff:ff", src=MAC, type=0x0806) / ARP(
            op=1, hwsrc=MAC, psrc=IPA, hwdst="00:00:00:00:00:00", pdst=a.pdst
        )
        assert bytes(f) == bytes(exp), f"ARP request {f!r} differs from {exp!r}"


def arp_reply(mac: str, ip: str) -> bytes:
    """A peer's reply to our request (padded to 60 bytes, as the MAC delivers it)."""
    f = Ether(dst=MAC, src=mac) / ARP(op=2, hwsrc=mac, psrc=ip, hwdst=MAC, pdst=IPA)
    return bytes(f).ljust(60, b"\0")


def check_udp(f: Ether, dst_mac: str, req: TxReq, ident: int, mode: int, port: int) -> None:
    """A datagram of port ``port`` byte for byte: headers (identification ``ident``: one
    per request on that port, dropped ones included, docs/transmitter.md) and payload,
    and its UDP checksum field as ``mode`` makes it (0 zero, 1 computed, 2 given)."""
    assert f.dst == dst_mac, f"port {port} to {req.dst_ip}: MAC {f.dst}, not {dst_mac}"
    assert f[IP].dst == req.dst_ip and f[UDP].dport == req.dport
    assert bytes(f[UDP].payload) == req.data
    chk = f[UDP].chksum
    if mode == 0:
        assert chk == 0, f"mode 0: UDP checksum {chk:#06x}, not 0"
    elif mode == 2:
        assert chk == req.csum, f"mode 2: UDP checksum {chk:#06x}, not {req.csum:#06x}"
    else:
        g = f.copy()
        del g[UDP].chksum
        want = Ether(bytes(g))[UDP].chksum
        assert chk == want, f"mode 1: UDP checksum {chk:#06x}, computed {want:#06x}"
    exp = (
        Ether(dst=dst_mac, src=MAC)
        / IP(src=IPA, dst=req.dst_ip, ttl=64, id=ident, flags=0)
        / UDP(sport=PORTS[port], dport=req.dport, chksum=None if mode == 1 else chk)
        / Raw(req.data)
    )
    assert bytes(f) == bytes(exp), f"port {port}: frame differs from {exp!r}"


async def reset_with_modes(dut, modes: tuple[int, int]) -> None:
    """Reset the stack (its ARP cache and counters too) with checksum mode
    ``modes[p]`` on port p."""
    dut.rst.value = 1
    dut.cfg_udp_csum_mode.value = modes[0] | modes[1] << 2
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)


Expected = tuple[TxReq, int, str]  # a datagram, its identification, its next hop's MAC


class Ledger:
    """What arp_shared_lookup has asked of the two ports since the last reset: the
    identification each datagram gets (one per request, dropped ones included), the
    misses and the frames each port must count."""

    def __init__(
        self, dut, tx: UdpTx, rng: random.Random, hop: dict[str, str], modes: tuple[int, int]
    ) -> None:
        self.dut, self.tx, self.rng, self.hop, self.modes = dut, tx, rng, hop, modes
        self.ident = [0, 0]  # next identification of each port
        self.misses = [0, 0]
        self.frames = [0, 0]

    def queue(self, port: int, dst_ip: str, n: int, hit: bool) -> Expected | None:
        """Queue an ``n``-byte datagram to ``dst_ip``; what must come out if ``hit``."""
        rng = self.rng
        data = bytes(rng.getrandbits(8) for _ in range(n))
        req = TxReq(dst_ip, data, dport=rng.randrange(1024, 65536), csum=rng.randrange(65536))
        self.tx.send(port, req)
        self.ident[port] += 1
        if not hit:
            self.misses[port] += 1
            return None
        self.frames[port] += 1
        return req, self.ident[port] - 1, self.hop[dst_ip]

    def check_counters(self, req_tx: int, reply_rx: int) -> None:
        dut = self.dut
        assert [cnt(dut, "udp_tx_arp_miss", p) for p in range(2)] == self.misses
        assert [cnt(dut, "udp_tx_frames", p) for p in range(2)] == self.frames
        assert [cnt(dut, "udp_tx_abort", p) for p in range(2)] == [0, 0]
        assert cnt(dut, "arp_req_tx") == req_tx
        assert cnt(dut, "arp_reply_rx") == reply_rx
        assert cnt(dut, "arp_miss") == sum(self.misses)
        assert cnt(dut, "arp_hit") == sum(self.frames)

    def check_frames(self, udp: list[list[Ether]], exp: list[list[Expected | None]]) -> None:
        for p in range(2):
            assert len(udp[p]) == len(exp[p]), f"port {p}: {len(udp[p])} datagrams out"
            for f, e in zip(udp[p], exp[p], strict=True):
                assert e is not None
                check_udp(f, e[2], e[0], e[1], self.modes[p], p)


@cocotb.test()
async def arp_shared_lookup(dut) -> None:
    """Both UDP ports send to destinations ARP must resolve (dst_mac_valid = 0), at once
    and to different IPs (two in the subnet, one off it through the gateway): each
    destination's first datagram is dropped as a miss (the port's udp_tx_arp_miss strobe)
    and one broadcast request goes out for it (the gateway's IP for the off-subnet one);
    while one destination stays unresolved the other port and ICMP echo still send;
    after the replies every datagram of both ports carries its next hop's MAC. Two
    rounds, a reset between: both ports in mode 1 (each datagram stored, then looked up),
    then in modes 0 and 2 (looked up as the request is taken); the datagrams sent in
    pairs of the same length ask in the same cycle, and the grants must take turns."""
    rng = random.Random(70)
    src, _, _, sink, evmon = await setup(dut)
    tx = UdpTx(dut)
    ip_a, ip_b, ip_off, gw = "192.0.2.10", "192.0.2.11", "198.51.100.20", "192.0.2.254"
    mac_a, mac_b, mac_gw = "02:00:00:00:0a:0a", "02:00:00:00:0b:0b", "02:00:00:00:fe:fe"
    hop = {ip_a: mac_a, ip_b: mac_b, ip_off: mac_gw}
    # The sharing seen from inside (udp_stack's p_arp_req_valid, arp_req_ready, arp_grant,
    # arp_owner_reg): cycles a port's lookup request waited for the other port's (granted in
    # the same cycle, or in flight); the grants given while both ports asked; and those
    # of them that went to the port served last (none: round robin)
    waited = [0, 0]
    contended: list[int] = []
    unfair: list[int] = []

    async def watch() -> None:
        last = -1
        while True:
            await RisingEdge(dut.clk)
            v, rdy, own = (
                dut.p_arp_req_valid.value,
                dut.arp_req_ready.value,
                dut.arp_owner_reg.value,
            )
            if int(dut.rst.value) or not (v.is_resolvable and rdy.is_resolvable):
                last = -1
                continue
            v, rdy, own, gnt = int(v), int(rdy), int(own), int(dut.arp_grant.value)
            for p in range(2):
                if (v >> p) & 1 and (v == 0b11 and gnt != p or not rdy and own != p):
                    waited[p] += 1
            if v and rdy:
                if v == 0b11:
                    contended.append(gnt)
                    if gnt == last:
                        unfair.append(gnt)
                last = gnt

    cocotb.start_soon(watch())
    for modes in [(1, 1), (0, 2)]:
        await reset_with_modes(dut, modes)
        waited[:] = [0, 0]
        contended.clear()
        led = Ledger(dut, tx, rng, hop, modes)

        # 1. both ports at once (same lengths), nothing cached yet: a miss each, one
        # request for each IP
        n = rng.choice([1, 46, 200])
        led.queue(0, ip_a, n, hit=False)
        led.queue(1, ip_b, n, hit=False)
        out = await collect(dut, sink, 2)
        assert tx.idle()
        arp, icmp, udp = split_tx(out)
        check_arp_requests(arp, [ip_a, ip_b])
        led.check_counters(req_tx=2, reply_rx=0)

        # 2. only ip_b answers; port 0 sends to ip_a (still pending: a miss, no new
        # request) and to ip_off (a miss, a request for the gateway) while port 1 sends
        # to ip_b and a ping comes in
        await src.send(frame(arp_reply(mac_b, ip_b)))
        await wait_until(dut, lambda: cnt(dut, "arp_reply_rx") == 1, "ARP reply from ip_b")
        exp: list[list[Expected | None]] = [[], []]
        exp[1] = [led.queue(1, ip_b, rng.choice([18, 64, 333]), hit=True) for _ in range(3)]
        led.queue(0, ip_a, 64, hit=False)
        led.queue(0, ip_off, 333, hit=False)
        payload = bytes(rng.getrandbits(8) for _ in range(56))
        ping = Ether(dst=MAC, src=PEER_MAC) / IP(src=PEER_IP, dst=IPA) / ICMP(id=0x77, seq=5)
        await src.send(frame(bytes(ping / payload)))
        out = await collect(dut, sink, 5)
        assert tx.idle()
        arp, icmp, udp = split_tx(out)
        check_arp_requests(arp, [gw])  # the gateway's IP, not ip_off's
        assert len(icmp) == 1
        r = icmp[0]
        assert r.dst == PEER_MAC and r.src == MAC and r[IP].src == IPA and r[IP].dst == PEER_IP
        assert (r[ICMP].type, r[ICMP].code, r[ICMP].id, r[ICMP].seq) == (0, 0, 0x77, 5)
        assert bytes(r[ICMP].payload) == payload
        g = r.copy()
        del g[IP].chksum, g[ICMP].chksum
        g = Ether(bytes(g))
        assert (g[IP].chksum, g[ICMP].chksum) == (r[IP].chksum, r[ICMP].chksum)
        led.check_frames(udp, exp)
        led.check_counters(req_tx=3, reply_rx=1)

        # 3. ip_a and the gateway answer: both ports send to every destination, pair by
        # pair (each pair at once, the same length), alternating (no repeated lookup),
        # with a lone datagram of one port before some pairs (so the port served last
        # differs from pair to pair): all hits, no request more
        await src.send(frame(arp_reply(mac_a, ip_a)))
        await src.send(frame(arp_reply(mac_gw, gw)))
        await wait_until(dut, lambda: cnt(dut, "arp_reply_rx") == 3, "ARP replies")
        dsts = [(ip_a, ip_b), (ip_off, ip_a), (ip_a, ip_off), (ip_off, ip_b), (ip_b, ip_a)]
        for k, d in enumerate(dsts):
            exp = [[], []]
            if k in (1, 3):
                lone = 1 if k == 1 else 0
                exp[lone].append(led.queue(lone, ip_b, 18, hit=True))
                arp, icmp, udp = split_tx(await collect(dut, sink, 1))
                led.check_frames(udp, exp)
                exp = [[], []]
            n = rng.choice([1, 18, 46, 64, 200])
            for p in range(2):
                exp[p].append(led.queue(p, d[p], n, hit=True))
            out = await collect(dut, sink, 2)
            assert tx.idle()
            arp, icmp, udp = split_tx(out)
            assert arp == [] and icmp == []
            led.check_frames(udp, exp)
        led.check_counters(req_tx=3, reply_rx=3)
        assert unfair == [], f"modes {modes}: grants {contended} not round robin"
        # every pair asked in the same cycle, and each port waited for the other's lookup
        assert len(contended) >= 1 + len(dsts) and set(contended) == {0, 1}, contended
        assert all(waited), f"modes {modes}: a port never waited: {waited}"
        assert sink.empty()
        await check_strobes(dut, evmon)


@cocotb.test()
async def checksum_modes_per_port(dut) -> None:
    """cfg_udp_csum_mode differs between the ports (each mode on each port in turn, a
    reset between): both ports send at once, destination MAC given; each datagram's UDP
    checksum is 0 in mode 0 (whatever hdr_csum says), the computed one in mode 1 and
    hdr_csum in mode 2."""
    rng = random.Random(80)
    src, _, _, sink, evmon = await setup(dut)
    tx = UdpTx(dut)
    for modes in [(0, 1), (1, 2), (2, 0)]:
        await reset_with_modes(dut, modes)
        exp: list[list[TxReq]] = [[], []]
        for k in range(5):
            for p in range(2):
                n = rng.choice([1, 2, 17, 64, 301]) if k else 1  # odd and even lengths
                data = bytes(rng.getrandbits(8) for _ in range(n))
                csum = rng.randrange(1, 65536)  # never 0: mode 0 must still send 0
                req = TxReq(PEER_IP, data, PEER_MAC, rng.randrange(1, 65536), csum)
                tx.send(p, req)
                exp[p].append(req)
        out = await collect(dut, sink, 10)
        assert tx.idle()
        arp, icmp, udp = split_tx(out)
        assert arp == [] and icmp == []
        for p in range(2):
            for k, (f, req) in enumerate(zip(udp[p], exp[p], strict=True)):
                check_udp(f, PEER_MAC, req, k, modes[p], p)
            assert cnt(dut, "udp_tx_frames", p) == 5
            assert cnt(dut, "udp_tx_abort", p) == cnt(dut, "udp_tx_arp_miss", p) == 0
        assert cnt(dut, "arp_hit") == cnt(dut, "arp_miss") == 0  # the MAC given: no lookup
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
        testcase=["receive_mix", "receive_mix_enables_off", "transmit_udp_and_raw"],
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


@pytest.mark.parametrize("data_w", [8, 64])
def test_udp_stack_tx_ports(data_w: int) -> None:
    """Both UDP transmit ports at once: the ARP lookup they share (misses, requests,
    replies, hits; ICMP echo meanwhile) and a different checksum mode on each."""
    import cocotb_run

    cocotb_run.run(
        "udp_stack",
        "test_udp_stack",
        parameters={"DATA_W": data_w, "NUM_PORTS": 2},
        testcase=["arp_shared_lookup", "checksum_modes_per_port"],
        test_dir=Path(__file__).parent,
    )
