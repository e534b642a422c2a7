"""Test bench for tcp_core at DATA_W 8: drives ip_rx's TCP port with segments built by
scapy, collects the Ethernet frames it sends (parsed by scapy, checksums recomputed by
scapy and compared), drives the application's send stream, and collects the receive
stream and the events per session."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from scapy.layers.inet import IP, TCP, Ether
from unit.cnt_ev_mon import EvMon
from unit.tcp.siphash import siphash24

MAC = 0x020000000001
IP_US = 0xC0000201  # 192.0.2.1
PEER_MAC = 0x02CAFEBABE01
PEER_IP = "192.0.2.100"
TICK = 1000  # cycles per tick_1ms

CFG = {
    "cfg_mss": 1460,
    "cfg_rto_init": 40,
    "cfg_rto_min": 8,
    "cfg_rto_max": 100,
    "cfg_max_retries": 3,
    "cfg_time_wait": 10,
    "cfg_cc_off": 0,
    "cfg_dack_time": 0,
    "cfg_ka_idle": 0,
    "cfg_ka_intvl": 1,
    "cfg_ka_count": 2,
}

FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10

# tcp_core's cnt_ev bits in order (the register map's TCP counters, then ooo_kept and
# ooo_full, which the map does not carry yet)
EV_NAMES = [
    "rx_segments",
    "rx_bad_len",
    "rx_bad_csum",
    "rx_err_in",
    "rx_broadcast",
    "seg_session",
    "rst_no_session",
    "syn_full",
    "unacceptable",
    "out_of_order",
    "rst_rcvd",
    "challenge_ack",
    "rto",
    "aborted",
    "ack_unsent",
    "seg_sent",
    "data_seg_sent",
    "rexmit_seg",
    "established",
    "closed",
    "cut_to_window",
    "dup_ack_rcvd",
    "tx_frames",
    "app_tx_dropped",
    "persist_probe",
    "cwnd_cut",
    "delayed_ack",
    "keepalive",
    "ooo_kept",
    "ooo_full",
]


def ev(dut: Any) -> EvMon:
    return EvMon(dut, list(EV_NAMES))


def count(m: EvMon, name: str) -> int:
    return m.sums[EV_NAMES.index(name)]


ISN_KEY = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0")


def mac_str(v: int) -> str:
    return ":".join(f"{(v >> (8 * (5 - i))) & 0xFF:02x}" for i in range(6))


def ip_str(v: int) -> str:
    return ".".join(str((v >> (8 * (3 - i))) & 0xFF) for i in range(4))


def ip_int(s: str) -> int:
    a = [int(x) for x in s.split(".")]
    return (a[0] << 24) | (a[1] << 16) | (a[2] << 8) | a[3]


def check_isn(isn: int, ip: str, rport: int, lport: int, cycle: int, tick: int) -> None:
    """RFC 6528: isn = M + F, F = SipHash-2-4 under the key of (remote address, remote
    port, local port), M a clock of 250 per tick since reset."""
    msg = bytes(int(x) for x in ip.split(".")) + rport.to_bytes(2, "big") + lport.to_bytes(2, "big")
    m = (isn - siphash24(ISN_KEY, msg)) & 0xFFFFFFFF
    assert m % 250 == 0 and m // 250 <= cycle // tick + 1, f"ISN {isn:#x}: M = {m}"


@dataclass
class Seg:
    """A frame the core sent, parsed by scapy."""

    t: int  # cycle of its last byte
    raw: bytes
    pkt: Any
    flags: int = 0
    seq: int = 0
    ack: int = 0
    win: int = 0
    payload: bytes = b""
    sport: int = 0
    dport: int = 0
    options: list[Any] = field(default_factory=list)


def check_frame(raw: bytes) -> Any:
    """Parse a frame with scapy and check it field by field against scapy's own rebuild
    (lengths and both checksums recomputed by scapy)."""
    p = Ether(raw)
    assert p.type == 0x0800, f"not IPv4: {raw.hex()}"
    assert IP in p and TCP in p, f"no TCP: {p!r}"
    ip = p[IP]
    assert ip.version == 4 and ip.ihl == 5 and ip.proto == 6
    assert ip.len == len(raw) - 14, f"IP length {ip.len} for a {len(raw)}-byte frame"
    q = Ether(raw)
    del q[IP].chksum
    del q[IP].len
    del q[TCP].chksum
    rebuilt = bytes(q)
    assert rebuilt == raw, f"checksum or length differ from scapy's:\n{raw.hex()}\n{rebuilt.hex()}"
    return p


class TcpTb:
    def __init__(
        self,
        dut: Any,
        listen: tuple[int, ...] = (7, 80),
        rx_pause: float = 0.0,
        tx_pause: float = 0.0,
        seed: int = 1,
        tick: int = TICK,
    ) -> None:
        self.dut = dut
        self.tick = tick
        self.rng = random.Random(seed)
        self.cycle = 0
        self.frames: deque[Seg] = deque()
        self.all_frames: list[Seg] = []
        self.rx: dict[int, bytearray] = {}
        self.eof: dict[int, int] = {}
        self.events: list[tuple[int, int, int, str, int, int]] = []  # t flags sid ip port lport
        self.in_q: deque[tuple[bytes, int, bool, bool]] = deque()
        self.tx_q: deque[tuple[int, bytes, bool]] = deque()
        self.rx_pause = rx_pause
        self.tx_pause = tx_pause
        self.m_pause = 0.0
        self.nsess = 2 ** len(dut.s_tx_axis_tid)
        dut.cfg_mac.value = MAC
        dut.cfg_ip.value = IP_US
        dut.cfg_ttl.value = 64
        dut.cfg_df.value = 1
        nl = len(dut.cfg_listen_port) // 16
        v = 0
        for i, port in enumerate(listen[:nl]):
            v |= port << (16 * i)
        dut.cfg_listen_port.value = v
        for k, val in CFG.items():
            getattr(dut, k).value = val
        dut.cfg_isn_key.value = int.from_bytes(ISN_KEY, "little")
        dut.tick_1ms.value = 0
        dut.s_hdr_valid.value = 0
        dut.s_axis_tvalid.value = 0
        dut.s_axis_tkeep.value = 1
        dut.s_axis_tuser.value = 0
        dut.s_axis_tlast.value = 0
        dut.s_hdr_broadcast.value = 0
        dut.m_axis_tready.value = 1
        dut.m_rx_axis_tready.value = 1
        dut.s_tx_axis_tvalid.value = 0
        dut.s_tx_axis_tkeep.value = 1
        dut.s_tx_axis_tlast.value = 0
        dut.s_tx_axis_tid.value = 0
        dut.s_tx_close.value = 0
        dut.s_conn_valid.value = 0

    async def start(self) -> None:
        cocotb.start_soon(Clock(self.dut.clk, 8, unit="ns").start())
        self.dut.rst.value = 1
        for _ in range(5):
            await RisingEdge(self.dut.clk)
        self.dut.rst.value = 0
        cocotb.start_soon(self._mon())
        cocotb.start_soon(self._drive_in())
        cocotb.start_soon(self._drive_tx())

    # ---- monitors ----
    async def _mon(self) -> None:
        d = self.dut
        cur = bytearray()
        chunk = 1 << int(d.CHUNK_LOG2.value)  # a delivery turn's bytes at most
        turn = 0  # bytes of the current delivery turn so far
        while True:
            await RisingEdge(d.clk)
            self.cycle += 1
            d.tick_1ms.value = 1 if self.cycle % self.tick == 0 else 0
            if d.m_axis_tvalid.value and d.m_axis_tready.value:
                cur.append(int(d.m_axis_tdata.value))
                if d.m_axis_tlast.value:
                    self._frame(bytes(cur))
                    cur = bytearray()
            if d.m_rx_axis_tvalid.value and d.m_rx_axis_tready.value:
                sid = int(d.m_rx_axis_tid.value)
                if int(d.m_rx_axis_tkeep.value):
                    assert sid not in self.eof, f"data after end of stream on session {sid}"
                    self.rx.setdefault(sid, bytearray()).append(int(d.m_rx_axis_tdata.value))
                    turn += 1
                    assert turn <= chunk, f"a delivery turn of more than {chunk} bytes"
                if d.m_rx_axis_tlast.value:
                    turn = 0
                if d.m_rx_eof.value:
                    assert int(d.m_rx_axis_tkeep.value) == 0 and d.m_rx_axis_tlast.value
                    self.eof[sid] = self.cycle
            if d.ev_valid.value:
                self.events.append(
                    (
                        self.cycle,
                        int(d.ev_flags.value),
                        int(d.ev_sid.value),
                        ip_str(int(d.ev_ip.value)),
                        int(d.ev_port.value),
                        int(d.ev_lport.value),
                    )
                )
            d.m_axis_tready.value = 0 if self.m_pause and self.rng.random() < self.m_pause else 1
            d.m_rx_axis_tready.value = (
                0 if self.rx_pause and self.rng.random() < self.rx_pause else 1
            )

    def _frame(self, raw: bytes) -> None:
        p = check_frame(raw)
        t = p[TCP]
        assert p.dst == mac_str(PEER_MAC), f"frame to {p.dst}"
        assert p.src == mac_str(MAC)
        assert p[IP].src == ip_str(IP_US)
        s = Seg(
            self.cycle,
            raw,
            p,
            int(t.flags),
            t.seq,
            t.ack,
            t.window,
            bytes(t.payload),
            t.sport,
            t.dport,
            list(t.options),
        )
        self.frames.append(s)
        self.all_frames.append(s)

    # ---- drivers ----
    async def _taken(self, ready: Any) -> None:
        """Wait for the clock edge at which ``ready`` is high (the offer is taken)."""
        while True:
            await RisingEdge(self.dut.clk)
            if ready.value:
                return

    async def _drive_in(self) -> None:
        d = self.dut
        while True:
            if not self.in_q:
                await RisingEdge(d.clk)
                continue
            data, src_ip, bad, bcast = self.in_q.popleft()
            d.s_hdr_src_mac.value = PEER_MAC
            d.s_hdr_src_ip.value = src_ip
            d.s_hdr_dst_ip.value = IP_US
            d.s_hdr_len.value = len(data)
            d.s_hdr_broadcast.value = int(bcast)
            d.s_hdr_valid.value = 1
            await self._taken(d.s_hdr_ready)
            d.s_hdr_valid.value = 0
            # an empty payload comes from ip_rx as one beat with tkeep = 0, tlast = 1
            beats = [(b, 1) for b in data] or [(0, 0)]
            for i, (b, k) in enumerate(beats):
                d.s_axis_tdata.value = b
                d.s_axis_tkeep.value = k
                d.s_axis_tlast.value = int(i == len(beats) - 1)
                d.s_axis_tuser.value = int(bad and i == len(beats) - 1)
                d.s_axis_tvalid.value = 1
                await self._taken(d.s_axis_tready)
            d.s_axis_tvalid.value = 0
            d.s_axis_tlast.value = 0

    async def _drive_tx(self) -> None:
        d = self.dut
        while True:
            if not self.tx_q:
                await RisingEdge(d.clk)
                continue
            sid, data, close = self.tx_q.popleft()
            beats = [(b, 1) for b in data] or [(0, 0)]
            for i, (b, k) in enumerate(beats):
                while self.tx_pause and self.rng.random() < self.tx_pause:
                    d.s_tx_axis_tvalid.value = 0
                    await RisingEdge(d.clk)
                last = i == len(beats) - 1
                d.s_tx_axis_tdata.value = b
                d.s_tx_axis_tkeep.value = k
                d.s_tx_axis_tid.value = sid
                d.s_tx_axis_tlast.value = int(last)
                d.s_tx_close.value = int(close and last)
                d.s_tx_axis_tvalid.value = 1
                await self._taken(d.s_tx_axis_tready)
            d.s_tx_axis_tvalid.value = 0
            d.s_tx_close.value = 0

    # ---- actions ----
    def send(
        self,
        sport: int,
        dport: int,
        flags: int,
        seq: int,
        ack: int = 0,
        payload: bytes = b"",
        window: int = 65535,
        options: list[Any] | None = None,
        corrupt: bool = False,
        bad: bool = False,
        src: str = PEER_IP,
        bcast: bool = False,
        raw: bytes | None = None,
    ) -> None:
        if raw is None:
            pkt = (
                IP(src=src, dst=ip_str(IP_US))
                / TCP(
                    sport=sport,
                    dport=dport,
                    flags=flags,
                    seq=seq & 0xFFFFFFFF,
                    ack=ack & 0xFFFFFFFF,
                    window=window,
                    options=options or [],
                )
                / payload
            )
            raw = bytes(pkt)[20:]
        if corrupt:
            b = bytearray(raw)
            b[-1 if payload else 17] ^= 0x40
            raw = bytes(b)
        self.in_q.append((raw, ip_int(src), bad, bcast))

    async def connect(self, ip: str, port: int, lport: int, mac: int = PEER_MAC) -> None:
        """Ask for an active open (held until taken)."""
        d = self.dut
        d.s_conn_ip.value = ip_int(ip)
        d.s_conn_port.value = port
        d.s_conn_lport.value = lport
        d.s_conn_mac.value = mac
        d.s_conn_valid.value = 1
        await self._taken(d.s_conn_ready)
        d.s_conn_valid.value = 0

    def app_send(self, sid: int, data: bytes, close: bool = False) -> None:
        self.tx_q.append((sid, data, close))

    async def cycles(self, n: int) -> None:
        for _ in range(n):
            await RisingEdge(self.dut.clk)

    async def frame(self, limit: int = 20000) -> Seg:
        for _ in range(limit):
            if self.frames:
                return self.frames.popleft()
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"no frame within {limit} cycles")

    async def no_frame(self, n: int) -> None:
        await self.cycles(n)
        assert not self.frames, f"unexpected frame: {self.frames[0].pkt!r}"

    async def idle_in(self, limit: int = 20000) -> None:
        for _ in range(limit):
            if (
                not self.in_q
                and not int(self.dut.s_axis_tvalid.value)
                and not int(self.dut.s_hdr_valid.value)
            ):
                return
            await RisingEdge(self.dut.clk)
        raise AssertionError("input stuck")

    async def wait_rx(self, sid: int, n: int, limit: int = 50000) -> bytes:
        for _ in range(limit):
            if len(self.rx.get(sid, b"")) >= n:
                return bytes(self.rx[sid])
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"session {sid}: {len(self.rx.get(sid, b''))} of {n} bytes")

    async def wait_event(
        self, flag: int, sid: int | None = None, limit: int = 20000
    ) -> tuple[int, int, int, str, int, int]:
        for _ in range(limit):
            for e in self.events:
                if e[1] & flag and (sid is None or e[2] == sid):
                    self.events.remove(e)
                    return e
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"no event {flag:#x} for session {sid}: {self.events}")


class Peer:
    """One connection's peer side: sequence numbers kept here, segments via the bench."""

    def __init__(
        self,
        tb: TcpTb,
        sport: int,
        dport: int = 7,
        isn: int = 1000,
        mss: int | None = 1460,
        src: str = PEER_IP,
    ) -> None:
        self.tb = tb
        self.sport = sport
        self.dport = dport
        self.seq = isn
        self.mss = mss
        self.src = src
        self.rcv = 0  # next byte expected from the core
        self.sid = -1
        self.iss = 0
        self.peer_mss = 0

    def send(
        self,
        flags: int,
        payload: bytes = b"",
        seq: int | None = None,
        ack: int | None = None,
        **kw: Any,
    ) -> None:
        self.tb.send(
            self.sport,
            self.dport,
            flags,
            self.seq if seq is None else seq,
            self.rcv if ack is None else ack,
            payload,
            src=self.src,
            **kw,
        )

    async def connect(self) -> Seg:
        opts = [("MSS", self.mss)] if self.mss else []
        self.send(SYN, ack=0, options=opts)
        sa = await self.tb.frame()
        assert sa.flags == SYN | ACK, f"answer to SYN has flags {sa.flags:#x}"
        assert sa.ack == (self.seq + 1) & 0xFFFFFFFF
        assert sa.sport == self.dport and sa.dport == self.sport
        self.peer_mss = dict(sa.options).get("MSS", 0)
        check_isn(sa.seq, self.src, self.sport, self.dport, self.tb.cycle, self.tb.tick)
        self.seq += 1
        self.iss = sa.seq
        self.rcv = (sa.seq + 1) & 0xFFFFFFFF
        self.send(ACK)
        e = await self.tb.wait_event(1)
        assert e[3] == self.src and e[4] == self.sport and e[5] == self.dport
        self.sid = e[2]
        return sa

    def data(self, payload: bytes, flags: int = ACK | PSH, **kw: Any) -> None:
        self.send(flags, payload, **kw)
        self.seq = (self.seq + len(payload)) & 0xFFFFFFFF
