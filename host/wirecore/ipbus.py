"""IPbus 2.0 for the PC side: packet codec, a reference model of the wirecore target, and
a reliable client.

* :func:`build_request` / :func:`parse_reply` encode and decode control packets in
  either byte order.
* :class:`TargetModel` is the behavioural reference of ``rtl/app/ipbus_target.v``: the
  same rules, the same replies byte for byte, the same counters. Unit tests compare
  the RTL with it; :class:`ModelServer` serves it on a UDP socket.
* :class:`Client` is a small IPbus client for lossy links: it numbers its packets (non-zero
  packet IDs) and, when a reply does not come, runs the recovery loop ControlHub uses:
  ask for the target's status; if the next expected ID shows the request was lost, send
  it again, otherwise ask the target to resend its stored reply. A request is therefore
  executed exactly once, whatever the network drops or reorders. (uHAL's direct UDP
  client uses packet ID 0 and never retries.)
"""

from __future__ import annotations

import argparse
import random
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

# transaction types
READ = 0x0
WRITE = 0x1
NI_READ = 0x2
NI_WRITE = 0x3
RMW_BITS = 0x4
RMW_SUM = 0x5
CONF_READ = 0x6

# info codes
SUCCESS = 0x0
BAD_HEADER = 0x1
BUS_ERR_READ = 0x4
BUS_ERR_WRITE = 0x5
BUS_TIMEOUT_READ = 0x6
BUS_TIMEOUT_WRITE = 0x7
REQUEST = 0xF

INFO_TEXT = {
    SUCCESS: "success",
    BAD_HEADER: "bad header",
    BUS_ERR_READ: "bus error on read",
    BUS_ERR_WRITE: "bus error on write",
    BUS_TIMEOUT_READ: "bus timeout on read",
    BUS_TIMEOUT_WRITE: "bus timeout on write",
}

PT_CONTROL = 0x0
PT_STATUS = 0x1
PT_RESEND = 0x2

MAX_BYTES = 1472  # largest UDP payload the target takes and sends (Ethernet MTU)
MAX_WORDS_PER_TRANSACTION = 255


class IPbusError(Exception):
    """A transaction came back with an error info code."""

    def __init__(self, info: int, words_done: int, addr: int) -> None:
        self.info = info
        self.words_done = words_done
        self.addr = addr
        text = INFO_TEXT.get(info, f"info code {info}")
        super().__init__(f"IPbus {text} at 0x{addr:08x} after {words_done} word(s)")


class IPbusTimeout(Exception):
    """No reply, even after the recovery loop."""


def packet_header(pid: int, ptype: int = PT_CONTROL) -> int:
    return 0x200000F0 | (pid & 0xFFFF) << 8 | ptype


def transaction_header(tid: int, words: int, ttype: int, info: int = REQUEST) -> int:
    return 0x2 << 28 | (tid & 0xFFF) << 16 | (words & 0xFF) << 8 | (ttype & 0xF) << 4 | info


@dataclass
class Transaction:
    """One request transaction. ``data``: write data; ``masks``: (AND, OR) or (addend,)."""

    ttype: int
    addr: int
    words: int = 1
    data: Sequence[int] = ()
    masks: Sequence[int] = ()
    tid: int = 0

    def body(self) -> list[int]:
        hdr = transaction_header(self.tid, self.words, self.ttype)
        if self.ttype in (WRITE, NI_WRITE):
            return [hdr, self.addr, *self.data]
        if self.ttype in (RMW_BITS, RMW_SUM):
            return [hdr, self.addr, *self.masks]
        return [hdr, self.addr]

    def reply_words(self) -> int:
        if self.ttype in (READ, NI_READ, CONF_READ):
            return 1 + self.words
        if self.ttype in (RMW_BITS, RMW_SUM):
            return 2
        return 1


@dataclass
class Reply:
    tid: int
    ttype: int
    words: int
    info: int
    data: list[int] = field(default_factory=list)


def pack_words(words: Iterable[int], little_endian: bool) -> bytes:
    fmt = "<I" if little_endian else ">I"
    return b"".join(struct.pack(fmt, w & 0xFFFFFFFF) for w in words)


def unpack_words(data: bytes, little_endian: bool) -> list[int]:
    n = len(data) // 4
    return list(struct.unpack(("<" if little_endian else ">") + "I" * n, data[: 4 * n]))


def build_request(
    pid: int, transactions: Sequence[Transaction], little_endian: bool = False
) -> bytes:
    words = [packet_header(pid)]
    for t in transactions:
        words += t.body()
    return pack_words(words, little_endian)


def status_request() -> bytes:
    return pack_words([packet_header(0, PT_STATUS)] + [0] * 15, False)


def resend_request(pid: int) -> bytes:
    return pack_words([packet_header(pid, PT_RESEND)], False)


def reply_byte_order(payload: bytes) -> bool | None:
    """True if little-endian, False if big-endian, None if not an IPbus packet header."""
    if len(payload) < 4:
        return None
    if payload[0] == 0x20 and payload[3] >> 4 == 0xF:
        return False
    if payload[3] == 0x20 and payload[0] >> 4 == 0xF:
        return True
    return None


def parse_reply(payload: bytes) -> tuple[int, int, bool, list[Reply]]:
    """Decode a control reply: (packet ID, packet type, little-endian, transactions)."""
    le = reply_byte_order(payload)
    if le is None or len(payload) % 4:
        raise ValueError("not an IPbus 2.0 packet")
    words = unpack_words(payload, le)
    pid = (words[0] >> 8) & 0xFFFF
    ptype = words[0] & 0xF
    out: list[Reply] = []
    i = 1
    if ptype != PT_CONTROL:
        return pid, ptype, le, out
    while i < len(words):
        h = words[i]
        r = Reply(tid=(h >> 16) & 0xFFF, words=(h >> 8) & 0xFF, ttype=(h >> 4) & 0xF, info=h & 0xF)
        i += 1
        if r.ttype in (READ, NI_READ, CONF_READ):
            r.data = words[i : i + r.words]
            i += r.words
        elif r.ttype in (RMW_BITS, RMW_SUM) and r.info == SUCCESS:
            r.data = words[i : i + 1]
            i += 1
        out.append(r)
    return pid, ptype, le, out


@dataclass
class Status:
    mtu: int
    nbuf: int
    next_id: int
    history: list[int]
    rx_headers: list[int]
    tx_headers: list[int]


def parse_status(payload: bytes) -> Status:
    w = unpack_words(payload, False)
    if len(w) != 16 or w[0] != 0x200000F1:
        raise ValueError("not an IPbus status reply")
    return Status(w[1], w[2], (w[3] >> 8) & 0xFFFF, w[4:8], w[8:12], w[12:16])


def next_pid(pid: int) -> int:
    return 1 if pid >= 0xFFFF else pid + 1


# ---------------------------------------------------------------------------------------
# reference model of the target


class Bus:
    """Register-bus model for :class:`TargetModel`: read/write return 'ok', 'err' or
    'timeout'. Subclass or pass callables."""

    def read(self, addr: int) -> tuple[str, int]:
        raise NotImplementedError

    def write(self, addr: int, value: int) -> str:
        raise NotImplementedError


class DictBus(Bus):
    """Memory in a dict; addresses in ``err`` answer a bus error, in ``timeout`` never answer,
    addresses in ``readonly`` refuse writes; everything else is memory (default 0)."""

    def __init__(
        self,
        err: Callable[[int], bool] = lambda a: False,
        timeout: Callable[[int], bool] = lambda a: False,
        readonly: Callable[[int], bool] = lambda a: False,
    ) -> None:
        self.mem: dict[int, int] = {}
        self.err = err
        self.timeout = timeout
        self.readonly = readonly

    def read(self, addr: int) -> tuple[str, int]:
        if self.timeout(addr):
            return "timeout", 0
        if self.err(addr):
            return "err", 0
        return "ok", self.mem.get(addr, 0)

    def write(self, addr: int, value: int) -> str:
        if self.timeout(addr):
            return "timeout"
        if self.err(addr) or self.readonly(addr):
            return "err"
        self.mem[addr] = value & 0xFFFFFFFF
        return "ok"


COUNTERS = (
    "rx_packets rx_bad rx_oversize rx_malformed control status resend id_dropped resend_miss "
    "transactions bad_header bus_errors bus_timeouts wp_rejected reply_overflow tx_packets"
).split()


class TargetModel:
    """Behavioural model of ``ipbus_target``: feed request payloads, get replies."""

    def __init__(
        self,
        bus: Bus,
        nbuf: int = 4,
        max_bytes: int = MAX_BYTES,
        conf_base: int = 0,
        allow: Sequence[int] | Callable[[], Sequence[int] | None] | None = None,
    ) -> None:
        self.bus = bus
        self.nbuf = nbuf
        self.max_bytes = max_bytes
        self.maxw = max_bytes // 4
        self.conf_base = conf_base
        self.allow = allow  # None = allow-list off; or a callable returning the list
        self.expected = 1
        self.ring = 0
        self.slots: list[tuple[int, bytes] | None] = [None] * nbuf
        self.hist = 0
        self.rx_hist: list[int] = [0, 0, 0, 0]
        self.tx_hist: list[int] = [0, 0, 0, 0]
        self.cnt = dict.fromkeys(COUNTERS, 0)
        self.lock = threading.Lock()

    def _event(self, code: int) -> None:
        self.hist = ((self.hist << 8) | code) & ((1 << 128) - 1)

    def handle(self, payload: bytes, src_ip: int = 0, bad: bool = False) -> bytes | None:
        with self.lock:
            reply = self._handle(payload, src_ip, bad)
            if reply is not None:
                self.cnt["tx_packets"] += 1
            return reply

    def _handle(self, payload: bytes, src_ip: int, bad: bool) -> bytes | None:
        c = self.cnt
        c["rx_packets"] += 1
        n = len(payload)
        if n > self.max_bytes:
            c["rx_oversize"] += 1
            return None
        if bad:
            c["rx_bad"] += 1
            return None
        if n % 4 or n < 4:
            c["rx_malformed"] += 1
            return None
        b = payload
        if b[0] == 0x20 and b[3] >> 4 == 0xF and b[3] & 0xF <= 2:
            le = False
            ptype = b[3] & 0xF
        elif b[3] == 0x20 and b[0] == 0xF0:
            le, ptype = True, PT_CONTROL
        else:
            c["rx_malformed"] += 1
            self._event(0x3F)
            return None
        words = unpack_words(payload, le)
        pid = (words[0] >> 8) & 0xFFFF
        if ptype == PT_STATUS:
            c["status"] += 1
            self._event(0x11)
            return self._status()
        if ptype == PT_RESEND:
            for s in self.slots:
                if s is not None and s[0] == pid:
                    c["resend"] += 1
                    self._event(0x12)
                    return s[1]
            c["resend_miss"] += 1
            self._event(0x22)
            return None
        if pid != 0 and pid != self.expected:
            c["id_dropped"] += 1
            self._event(0x20)
            return None
        self._event(0x10)
        hdr = packet_header(pid)
        self.rx_hist = [hdr, *self.rx_hist[:3]]
        if pid != 0:
            self.slots[self.ring] = None
        out = self._control(words, le, src_ip)
        c["control"] += 1
        self.tx_hist = [hdr, *self.tx_hist[:3]]
        reply = pack_words(out, le)
        if pid != 0:
            self.slots[self.ring] = (pid, reply)
            self.ring = (self.ring + 1) % self.nbuf
            self.expected = next_pid(pid)
        return reply

    def _status(self) -> bytes:
        h = self.hist
        words = [0x200000F1, self.max_bytes, self.nbuf, packet_header(self.expected)]
        words += [(h >> (32 * i)) & 0xFFFFFFFF for i in range(4)]
        words += self.rx_hist + self.tx_hist
        return pack_words(words, False)

    def _control(self, words: list[int], le: bool, src_ip: int) -> list[int]:
        c = self.cnt
        out = [words[0]]
        nw = len(words)
        idx = 1
        while idx < nw:
            w = words[idx]
            ty = (w >> 4) & 0xF
            n = (w >> 8) & 0xFF
            tid = (w >> 16) & 0xFFF
            is_rd = ty in (READ, NI_READ, CONF_READ)
            is_wr = ty in (WRITE, NI_WRITE)
            is_rmw = ty in (RMW_BITS, RMW_SUM)
            okfmt = (w >> 28) == 2 and (w & 0xF) == 0xF and (is_rd or is_wr or is_rmw)
            okfmt = okfmt and (not is_rmw or n == 1)
            need = 1 if is_rd else (n + 1) if is_wr else 3 if ty == RMW_BITS else 2
            rwords = 1 + (n if is_rd else 1 if is_rmw else 0)
            remain = nw - idx - 1
            if (okfmt and len(out) + rwords > self.maxw) or len(out) >= self.maxw:
                c["reply_overflow"] += 1
                break
            c["transactions"] += 1

            def hdr(done: int, info: int, tid: int = tid, ty: int = ty) -> int:
                return transaction_header(tid, done, ty, info)

            if not okfmt or remain < need:
                c["bad_header"] += 1
                out.append(hdr(0, BAD_HEADER))
                break
            allow = self.allow() if callable(self.allow) else self.allow
            if (is_wr or is_rmw) and allow is not None and src_ip not in allow:
                c["wp_rejected"] += 1
                out.append(hdr(0, BUS_ERR_WRITE))
                break
            addr = words[idx + 1]
            if ty == CONF_READ:
                addr = (self.conf_base + addr) & 0xFFFFFFFF
            idx += 2
            incr = ty in (READ, WRITE, CONF_READ)
            info = SUCCESS
            done = 0
            data: list[int] = []
            if is_rd:
                for _ in range(n):
                    st, v = self.bus.read(addr)
                    if st != "ok":
                        info = BUS_ERR_READ if st == "err" else BUS_TIMEOUT_READ
                        break
                    data.append(v)
                    done += 1
                    addr = (addr + incr) & 0xFFFFFFFF
            elif is_wr:
                for i in range(n):
                    st = self.bus.write(addr, words[idx + i])
                    if st != "ok":
                        info = BUS_ERR_WRITE if st == "err" else BUS_TIMEOUT_WRITE
                        break
                    done += 1
                    addr = (addr + incr) & 0xFFFFFFFF
                idx += n
            else:
                masks = words[idx : idx + (2 if ty == RMW_BITS else 1)]
                idx += len(masks)
                st, old = self.bus.read(addr)
                if st != "ok":
                    info = BUS_ERR_READ if st == "err" else BUS_TIMEOUT_READ
                else:
                    if ty == RMW_BITS:
                        new = (old & masks[0]) | masks[1]
                    else:
                        new = (old + masks[0]) & 0xFFFFFFFF
                    st = self.bus.write(addr, new)
                    if st != "ok":
                        info = BUS_ERR_WRITE if st == "err" else BUS_TIMEOUT_WRITE
                    else:
                        done = 1
                        data = [old]
            if info in (BUS_ERR_READ, BUS_ERR_WRITE):
                c["bus_errors"] += 1
            elif info in (BUS_TIMEOUT_READ, BUS_TIMEOUT_WRITE):
                c["bus_timeouts"] += 1
            out.append(hdr(done, info))
            out += data
            if info != SUCCESS:
                break
        return out


class ModelServer:
    """Serves a :class:`TargetModel` on a UDP socket in a background thread."""

    def __init__(self, model: TargetModel, host: str = "127.0.0.1", port: int = 0) -> None:
        self.model = model
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((host, port))
        self.sock.settimeout(0.05)
        self.address = self.sock.getsockname()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data, peer = self.sock.recvfrom(65536)
            except TimeoutError:
                continue
            ip = struct.unpack(">I", socket.inet_aton(peer[0]))[0]
            reply = self.model.handle(data, ip)
            if reply is not None:
                self.sock.sendto(reply, peer)


class LossyLink:
    """A UDP relay between a client and a server that drops and reorders datagrams.

    The client sends to ``address``; the link forwards to ``server`` and relays replies
    back to the last client seen; both its sockets are bound to ``host``. Each datagram
    is dropped with probability ``loss``; with probability ``reorder`` it is held back
    and released after the next datagram in the same direction (or after ``hold`` s).
    """

    def __init__(
        self,
        server: tuple[str, int],
        loss: float = 0.05,
        reorder: float = 0.05,
        hold: float = 0.02,
        seed: int = 1,
        host: str = "127.0.0.1",
    ) -> None:
        self.server = server
        self.loss = loss
        self.reorder = reorder
        self.hold = hold
        self.rng = random.Random(seed)
        self.front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.front.bind((host, 0))
        self.back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.back.bind((host, 0))
        self.address = self.front.getsockname()
        self.client: tuple[str, int] | None = None
        self.dropped = 0
        self.reordered = 0
        self.forwarded = 0
        self._held: dict[int, tuple[float, bytes]] = {}
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._pump, args=(0,), daemon=True),
            threading.Thread(target=self._pump, args=(1,), daemon=True),
        ]

    def __enter__(self) -> LossyLink:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for t in self._threads:
            t.join()
        self.front.close()
        self.back.close()

    def _send(self, direction: int, data: bytes) -> None:
        if direction == 0:
            self.back.sendto(data, self.server)
        elif self.client is not None:
            self.front.sendto(data, self.client)
        self.forwarded += 1

    def _pump(self, direction: int) -> None:
        sock = self.front if direction == 0 else self.back
        sock.settimeout(0.005)
        while not self._stop.is_set():
            held = self._held.get(direction)
            if held is not None and time.monotonic() >= held[0]:
                del self._held[direction]
                self._send(direction, held[1])
            try:
                data, peer = sock.recvfrom(65536)
            except TimeoutError:
                continue
            if direction == 0:
                self.client = peer
            r = self.rng.random()
            if r < self.loss:
                self.dropped += 1
                continue
            if r < self.loss + self.reorder and direction not in self._held:
                self.reordered += 1
                self._held[direction] = (time.monotonic() + self.hold, data)
                continue
            self._send(direction, data)
            held = self._held.pop(direction, None)
            if held is not None:
                self._send(direction, held[1])


# ---------------------------------------------------------------------------------------
# reliable client


class Client:
    """IPbus 2.0 client with the reliability layer (non-zero packet IDs, status, resend).

    ``reliable=False`` uses packet ID 0 (like uHAL's direct UDP client): no recovery.
    """

    def __init__(
        self,
        host: str,
        port: int = 50001,
        timeout: float = 0.2,
        retries: int = 8,
        reliable: bool = True,
        little_endian: bool = False,
        max_bytes: int = 1400,
    ) -> None:
        self.target = (host, port)
        self.timeout = timeout
        self.retries = retries
        self.reliable = reliable
        self.little_endian = little_endian
        self.max_words = max_bytes // 4
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.connect(self.target)
        self.pid: int | None = None
        self.recoveries = 0
        self.resends = 0
        self.retransmits = 0
        self._tid = 0

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- low level --------------------------------------------------------------------
    def _recv_until(self, deadline: float, accept: Callable[[bytes], bool]) -> bytes | None:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except (TimeoutError, ConnectionRefusedError):
                if time.monotonic() >= deadline:
                    return None
                continue
            if accept(data):
                return data

    def status(self) -> Status:
        """Ask the target for its status (retrying on loss)."""
        for _ in range(self.retries):
            self.sock.send(status_request())
            data = self._recv_until(
                time.monotonic() + self.timeout,
                lambda d: len(d) == 64 and d[:4] == b"\x20\x00\x00\xf1",
            )
            if data is not None:
                return parse_status(data)
        raise IPbusTimeout(f"no status reply from {self.target[0]}:{self.target[1]}")

    def _is_reply(self, pid: int) -> Callable[[bytes], bool]:
        def accept(d: bytes) -> bool:
            le = reply_byte_order(d)
            if le is None or len(d) % 4:
                return False
            w = unpack_words(d[:4], le)[0]
            return w == packet_header(pid)

        return accept

    def exchange(self, transactions: Sequence[Transaction]) -> list[Reply]:
        """Send one control packet and return its replies (exactly-once when reliable)."""
        for t in transactions:
            t.tid = self._tid
            self._tid = (self._tid + 1) & 0xFFF
        if not self.reliable:
            pkt = build_request(0, transactions, self.little_endian)
            self.sock.send(pkt)
            data = self._recv_until(time.monotonic() + self.timeout, self._is_reply(0))
            if data is None:
                raise IPbusTimeout("no reply (packet ID 0: no recovery)")
            return parse_reply(data)[3]
        if self.pid is None:
            self.pid = self.status().next_id
        pid = self.pid
        pkt = build_request(pid, transactions, self.little_endian)
        self.sock.send(pkt)
        accept = self._is_reply(pid)
        data = self._recv_until(time.monotonic() + self.timeout, accept)
        attempt = 0
        while data is None:
            attempt += 1
            if attempt > self.retries:
                raise IPbusTimeout(f"packet {pid}: no reply after {self.retries} recoveries")
            self.recoveries += 1
            st = self.status()
            if st.next_id == pid:
                self.retransmits += 1
                self.sock.send(pkt)  # the request was lost: send it again
            elif st.next_id == next_pid(pid):
                self.resends += 1
                self.sock.send(resend_request(pid))  # the reply was lost: ask for it
            else:
                raise IPbusTimeout(f"packet {pid}: target expects {st.next_id} (another client?)")
            data = self._recv_until(time.monotonic() + self.timeout, accept)
        self.pid = next_pid(pid)
        return parse_reply(data)[3]

    # -- transactions -----------------------------------------------------------------
    @staticmethod
    def _check(replies: list[Reply], transactions: Sequence[Transaction]) -> None:
        for t, r in zip(transactions, replies, strict=False):
            if r.info != SUCCESS:
                raise IPbusError(r.info, r.words, t.addr)
        if len(replies) < len(transactions):
            raise IPbusError(BAD_HEADER, 0, transactions[len(replies)].addr)

    def run(self, transactions: Sequence[Transaction]) -> list[Reply]:
        """Execute transactions, packing as many per packet as fit; raise on any error."""
        out: list[Reply] = []
        batch: list[Transaction] = []
        req = rep = 1
        for t in transactions:
            tq, tr = len(t.body()), t.reply_words()
            if batch and (req + tq > self.max_words or rep + tr > self.max_words):
                replies = self.exchange(batch)
                self._check(replies, batch)
                out += replies
                batch, req, rep = [], 1, 1
            batch.append(t)
            req += tq
            rep += tr
        if batch:
            replies = self.exchange(batch)
            self._check(replies, batch)
            out += replies
        return out

    def read(self, addr: int, n: int = 1, incr: bool = True) -> list[int]:
        ts = []
        for off in range(0, n, MAX_WORDS_PER_TRANSACTION):
            k = min(MAX_WORDS_PER_TRANSACTION, n - off)
            ts.append(Transaction(READ if incr else NI_READ, addr + (off if incr else 0), k))
        return [v for r in self.run(ts) for v in r.data]

    def write(self, addr: int, values: Sequence[int], incr: bool = True) -> None:
        ts = []
        for off in range(0, len(values), MAX_WORDS_PER_TRANSACTION):
            chunk = list(values[off : off + MAX_WORDS_PER_TRANSACTION])
            a = addr + (off if incr else 0)
            ts.append(Transaction(WRITE if incr else NI_WRITE, a, len(chunk), chunk))
        self.run(ts)

    def rmw_bits(self, addr: int, and_mask: int, or_mask: int) -> int:
        return self.run([Transaction(RMW_BITS, addr, 1, masks=(and_mask, or_mask))])[0].data[0]

    def rmw_sum(self, addr: int, addend: int) -> int:
        return self.run([Transaction(RMW_SUM, addr, 1, masks=(addend & 0xFFFFFFFF,))])[0].data[0]

    def config_read(self, addr: int, n: int = 1) -> list[int]:
        return self.run([Transaction(CONF_READ, addr, n)])[0].data


def serve_main(argv: list[str] | None = None) -> int:
    """``python -m wirecore.ipbus``: serve the reference model of the whole control plane
    (the register map, memory and IPbus counters) on a UDP port, e.g. for tools and tests
    without a board."""
    from wirecore import regmap

    p = argparse.ArgumentParser(
        prog="python -m wirecore.ipbus",
        description="Serve the IPbus reference model of ipbus_ctrl (register map + memory) on UDP.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (%(default)s)")
    p.add_argument("--port", type=int, default=50001, help="UDP port (%(default)s)")
    args = p.parse_args(argv)
    bus = regmap.MapModel()

    class _Bus(Bus):
        def read(self, addr: int) -> tuple[str, int]:
            name = next(
                (
                    f"cnt_ipb_{r.name.lower()}"
                    for a, r in bus.regs.items()
                    if a == addr and r.kind == regmap.CNT and r.port_name.startswith("ipb_")
                ),
                None,
            )
            if name is not None:
                return "ok", model.cnt[name[8:]]
            return bus.read(addr)

        def write(self, addr: int, value: int) -> str:
            return bus.write(addr, value)

    model = TargetModel(_Bus(), allow=bus.allow_list)
    server = ModelServer(model, args.host, args.port)
    print(f"IPbus model serving on {server.address[0]}:{server.address[1]}", flush=True)
    with server:
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(serve_main())
