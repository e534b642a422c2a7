"""A UDP receive path for the PC that keeps up with 1 Gbit/s of 1472-byte datagrams.

:class:`Receiver` takes up to ``batch`` datagrams per system call with ``recvmmsg(2)``
(called through ctypes, which releases the GIL), into one preallocated buffer, with a
kernel receive timestamp per datagram (``SO_TIMESTAMPNS``) and the sender's address.
Everything per datagram after the call is done with numpy on whole batches: the
sequence number, the FPGA timestamp, the length, the receive time. Payloads are not
copied out unless asked (``keep_payloads``).

The socket asks for a large receive buffer (``SO_RCVBUFFORCE`` when allowed, which
root may use beyond ``net.core.rmem_max``; otherwise ``SO_RCVBUF``, which the kernel
caps at ``net.core.rmem_max``: raise it with ``sysctl -w net.core.rmem_max=67108864``).
:attr:`Receiver.rcvbuf` tells what the kernel granted.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

MSG_WAITFORONE = 0x10000
SO_TIMESTAMPNS = 35
SO_RCVBUFFORCE = 33
SLOT = 2048  # bytes per datagram slot (1472-byte payloads and a little more)
CTRL = 64  # control buffer per datagram (one SCM_TIMESTAMPNS needs 32)


class _Iovec(ctypes.Structure):
    _fields_ = [("iov_base", ctypes.c_void_p), ("iov_len", ctypes.c_size_t)]


class _Msghdr(ctypes.Structure):
    _fields_ = [
        ("msg_name", ctypes.c_void_p),
        ("msg_namelen", ctypes.c_uint32),
        ("msg_iov", ctypes.POINTER(_Iovec)),
        ("msg_iovlen", ctypes.c_size_t),
        ("msg_control", ctypes.c_void_p),
        ("msg_controllen", ctypes.c_size_t),
        ("msg_flags", ctypes.c_int),
    ]


class _Mmsghdr(ctypes.Structure):
    _fields_ = [("msg_hdr", _Msghdr), ("msg_len", ctypes.c_uint)]


_libc: ctypes.CDLL | None = None


def _lib() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        _libc.recvmmsg.argtypes = [
            ctypes.c_int,
            ctypes.POINTER(_Mmsghdr),
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.c_void_p,
        ]
        _libc.recvmmsg.restype = ctypes.c_int
        _libc.sendmmsg.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int]
        _libc.sendmmsg.restype = ctypes.c_int
    return _libc


def set_rcvbuf(sock: socket.socket, size: int) -> int:
    """Ask for a receive buffer of ``size`` bytes; return what the kernel granted."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, size)
    except OSError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, size)
    # Linux reports twice the usable size (it counts its bookkeeping)
    return sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) // 2


def rmem_max() -> int | None:
    """net.core.rmem_max, or None if it cannot be read."""
    try:
        with open("/proc/sys/net/core/rmem_max") as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


@dataclass
class Capture:
    """What a run received, one entry per datagram, in arrival order."""

    seq: np.ndarray  # uint64, payload bytes 0..7 (0 if shorter than 8 bytes)
    fpga_ts: np.ndarray  # uint64, payload bytes 8..15 (0 if shorter than 16)
    length: np.ndarray  # uint32, payload bytes
    t_ns: np.ndarray  # int64, receive time (kernel timestamp, CLOCK_REALTIME ns)
    src_ip: np.ndarray  # uint32, sender's IPv4 address
    src_port: np.ndarray  # uint16
    payloads: list[bytes] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.seq)

    @classmethod
    def empty(cls) -> Capture:
        return cls(
            np.zeros(0, np.uint64),
            np.zeros(0, np.uint64),
            np.zeros(0, np.uint32),
            np.zeros(0, np.int64),
            np.zeros(0, np.uint32),
            np.zeros(0, np.uint16),
        )

    @classmethod
    def concat(cls, parts: list[Capture]) -> Capture:
        if not parts:
            return cls.empty()
        return cls(
            *(np.concatenate([getattr(p, f) for p in parts]) for f in _ARRAYS),
            payloads=[b for p in parts for b in p.payloads],
        )


_ARRAYS = ("seq", "fpga_ts", "length", "t_ns", "src_ip", "src_port")


class Receiver:
    """Batch UDP receiver (recvmmsg) with kernel timestamps; see the module docstring."""

    def __init__(
        self,
        bind: tuple[str, int] = ("0.0.0.0", 0),
        batch: int = 64,
        rcvbuf: int = 32 * 1024 * 1024,
        keep_payloads: int = 0,
    ) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.rcvbuf = set_rcvbuf(self.sock, rcvbuf)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.bind(bind)
        self.sock.setblocking(True)
        self.fd = self.sock.fileno()
        self.batch = batch
        self.keep_payloads = keep_payloads
        self._timeout: float | None = None
        self.calls = 0
        self.truncated = 0
        # one contiguous buffer for the data, the addresses and the control messages
        self._data = np.zeros((batch, SLOT), np.uint8)
        self._names = np.zeros((batch, 16), np.uint8)
        self._ctrl = np.zeros((batch, CTRL), np.uint8)
        self._iov = (_Iovec * batch)()
        self._msgs = (_Mmsghdr * batch)()
        for i in range(batch):
            self._iov[i].iov_base = self._data[i].ctypes.data
            self._iov[i].iov_len = SLOT
            h = self._msgs[i].msg_hdr
            h.msg_name = self._names[i].ctypes.data
            h.msg_namelen = 16
            h.msg_iov = ctypes.pointer(self._iov[i])
            h.msg_iovlen = 1
            h.msg_control = self._ctrl[i].ctypes.data
            h.msg_controllen = CTRL
        self._iov64 = np.frombuffer(self._iov, np.uint64).reshape(batch, 2)
        raw = np.frombuffer(self._msgs, np.uint8).reshape(batch, ctypes.sizeof(_Mmsghdr))
        self._m32 = raw.view(np.uint32)  # namelen at word 2, msg_len at word 14, flags 13
        self._m64 = raw.view(np.uint64)  # controllen at word 5
        self._lib = _lib()

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Receiver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _set_timeout(self, timeout: float) -> None:
        if timeout != self._timeout:
            sec = int(timeout)
            usec = int((timeout - sec) * 1e6)
            self.sock.setsockopt(
                socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", sec, max(usec, 1))
            )
            self._timeout = timeout

    def recv_batch(self, timeout: float = 0.1) -> Capture | None:
        """Wait up to ``timeout`` s for datagrams; return those that came (None if none)."""
        self._set_timeout(timeout)
        n = self.batch
        self._m32[:, 2] = 16
        self._m64[:, 5] = CTRL
        got = self._lib.recvmmsg(self.fd, self._msgs, n, MSG_WAITFORONE, None)
        self.calls += 1
        if got < 0:
            e = ctypes.get_errno()
            if e in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR):
                return None
            raise OSError(e, os.strerror(e))
        return self._unpack(got)

    def echo_batch(self, timeout: float = 0.1) -> int:
        """Receive a batch and send every datagram back to its sender (sendmmsg with the
        same message headers); return how many were echoed."""
        self._set_timeout(timeout)
        self._m32[:, 2] = 16
        self._m64[:, 5] = CTRL
        got = self._lib.recvmmsg(self.fd, self._msgs, self.batch, MSG_WAITFORONE, None)
        if got <= 0:
            return 0
        self._iov64[:got, 1] = self._m32[:got, 14]
        self._m64[:got, 5] = 0  # no control data on the way back
        sent = 0
        while sent < got:
            k = self._lib.sendmmsg(self.fd, ctypes.byref(self._msgs[sent]), got - sent, 0)
            if k <= 0:
                break  # a full queue or an unreachable sender: drop the rest, like a wire
            sent += k
        self._iov64[:got, 1] = SLOT
        return sent

    def _unpack(self, n: int) -> Capture:
        length = self._m32[:n, 14].copy()
        self.truncated += int(np.count_nonzero(self._m32[:n, 13] & socket.MSG_TRUNC))
        data = self._data[:n]
        hdr = data[:, :16].copy()
        hdr[length < 8, :8] = 0
        hdr[length < 16, 8:] = 0
        be = hdr.view(">u8")
        seq = be[:, 0].astype(np.uint64)
        fts = be[:, 1].astype(np.uint64)
        ctrl = self._ctrl[:n]
        # cmsghdr (16 bytes: len, level, type) then struct timespec
        c32 = ctrl[:, :16].view(np.int32)
        ok = (c32[:, 2] == socket.SOL_SOCKET) & (c32[:, 3] == SO_TIMESTAMPNS)
        ts = ctrl[:, 16:32].view(np.int64)
        t_ns = ts[:, 0] * 1_000_000_000 + ts[:, 1]
        if not ok.all():
            t_ns = np.where(ok, t_ns, time.time_ns())
        names = self._names[:n]
        src_port = names[:, 2:4].copy().view(">u2")[:, 0].astype(np.uint16)
        src_ip = names[:, 4:8].copy().view(">u4")[:, 0].astype(np.uint32)
        cap = Capture(seq, fts, length, t_ns.astype(np.int64), src_ip, src_port)
        if self.keep_payloads > 0:
            k = min(n, self.keep_payloads)
            cap.payloads = [bytes(data[i, : length[i]]) for i in range(k)]
            self.keep_payloads -= k
        return cap

    def collect(
        self,
        packets: int | None = None,
        seconds: float | None = None,
        idle: float = 1.0,
        first_timeout: float = 5.0,
        on_batch: Callable[[int, int], None] | None = None,
        stop: Callable[[], bool] | None = None,
        min_length: int = 0,
    ) -> Capture:
        """Receive until ``packets`` datagrams of at least ``min_length`` bytes came,
        ``seconds`` passed since the first, nothing came for ``idle`` s (after the first),
        or ``stop()`` returns True.
        ``on_batch(total_packets, total_bytes)`` is called after every batch."""
        parts: list[Capture] = []
        total = nbytes = 0
        start = time.monotonic()
        first: float | None = None
        last = start
        while True:
            now = time.monotonic()
            if stop is not None and stop():
                break
            if first is None:
                if now - start > first_timeout:
                    break
            else:
                if seconds is not None and now - first >= seconds:
                    break
                if now - last > idle:
                    break
            c = self.recv_batch(0.05)
            if c is None:
                continue
            last = time.monotonic()
            if first is None:
                first = last
            parts.append(c)
            total += len(c) if min_length == 0 else int(np.count_nonzero(c.length >= min_length))
            nbytes += int(c.length.sum())
            if on_batch is not None:
                on_batch(total, nbytes)
            if packets is not None and total >= packets:
                break
        return Capture.concat(parts)


class BatchSender:
    """Sends many datagrams per system call with ``sendmmsg(2)`` on a connected socket."""

    def __init__(self, sock: socket.socket, batch: int = 64) -> None:
        self.sock = sock
        self.batch = batch
        self._iov = (_Iovec * batch)()
        self._msgs = (_Mmsghdr * batch)()
        for i in range(batch):
            h = self._msgs[i].msg_hdr
            h.msg_iov = ctypes.pointer(self._iov[i])
            h.msg_iovlen = 1
        self._keep: list[bytes] = []
        self._lib = _lib()

    def send(self, payloads: list[bytes]) -> int:
        """Send up to ``batch`` payloads; return how many the kernel took."""
        n = min(len(payloads), self.batch)
        self._keep = payloads[:n]
        for i in range(n):
            p = self._keep[i]
            self._iov[i].iov_base = ctypes.cast(ctypes.c_char_p(p), ctypes.c_void_p)
            self._iov[i].iov_len = len(p)
        got = self._lib.sendmmsg(self.sock.fileno(), self._msgs, n, 0)
        if got < 0:
            e = ctypes.get_errno()
            if e in (errno.EAGAIN, errno.EWOULDBLOCK, errno.ENOBUFS, errno.ECONNREFUSED):
                return 0
            raise OSError(e, os.strerror(e))
        return got


class SeqSender:
    """Sends datagrams in the DAQ payload format with ``sendmmsg(2)``, as fast as the
    kernel takes them: a per-datagram 16-byte header (sequence number, timestamp) and
    one shared body (the constant fill), gathered by two iovecs per datagram, so the
    per-datagram work in Python is nil."""

    def __init__(self, sock: socket.socket, length: int, fill: int = 0, batch: int = 64) -> None:
        self.sock = sock
        self.batch = batch
        self.length = length
        self._hdr = np.zeros((batch, 16), np.uint8)
        self._body = np.full(max(length - 16, 1), fill & 0xFF, np.uint8)
        self._iov = (_Iovec * (2 * batch))()
        self._msgs = (_Mmsghdr * batch)()
        for i in range(batch):
            self._iov[2 * i].iov_base = self._hdr[i].ctypes.data
            self._iov[2 * i].iov_len = min(16, length)
            self._iov[2 * i + 1].iov_base = self._body.ctypes.data
            self._iov[2 * i + 1].iov_len = max(length - 16, 0)
            h = self._msgs[i].msg_hdr
            h.msg_iov = ctypes.pointer(self._iov[2 * i])
            h.msg_iovlen = 2
        self._be = self._hdr.view(">u8")
        self._lib = _lib()

    def send(self, first_seq: int, n: int, ts: int = 0) -> int:
        """Send datagrams with sequence numbers first_seq .. first_seq + n - 1 (n <= batch);
        return how many the kernel took (the rest may be sent again)."""
        n = min(n, self.batch)
        self._be[:n, 0] = np.arange(first_seq, first_seq + n, dtype=np.uint64)
        self._be[:n, 1] = ts
        got = self._lib.sendmmsg(self.sock.fileno(), self._msgs, n, 0)
        if got < 0:
            e = ctypes.get_errno()
            if e in (errno.EAGAIN, errno.EWOULDBLOCK, errno.ENOBUFS, errno.ECONNREFUSED):
                return 0
            raise OSError(e, os.strerror(e))
        return got
