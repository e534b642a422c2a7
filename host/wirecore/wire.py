"""The board's wire record: every frame that crossed the virtual board's GMII port.

The virtual board writes each frame, both directions, to a classic pcap with nanosecond
stamps (magic 0xa1b23c4d, link type 1, frames without preamble, SFD and FCS). A stamp is
the cycle of the frame's first preamble byte on the port (cycle 0: the first cycle after
reset) x 8 ns, counted from the Unix epoch, so simulated time reads as 1970 dates: take
differences. A frame of L bytes occupies the wire for 8 + max(L, 60) + 4 cycles
(preamble and SFD, the frame padded to 60 bytes, FCS), one byte per cycle; a frame came
from the board when its source MAC is the board's.

:func:`read` iterates the whole records of such a file as :class:`Record` (t_ns,
direction, frame); :class:`Tail` follows a file that the board is still writing (a tool
marks where its run starts and reads what came after). The occupancy helpers turn
stamps into the design's figures on its wire: spacing and idle cycles between frames,
rates in simulated time, the fraction of the line they use.
"""

from __future__ import annotations

import enum
import itertools
import socket
import struct
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

NS_PER_CYCLE = 8  # 125 MHz, one byte per cycle on GMII
PREAMBLE = 8  # preamble and SFD, cycles
FCS = 4
MIN_FRAME = 60  # bytes without FCS; shorter frames are padded on the wire
IFG = 12  # minimum inter-frame gap, cycles
HEADER_LEN = 24
RECORD_HEADER = 16
LINKTYPE_ETHERNET = 1
# stamps before 2001-09-09 (10^9 s) are simulated time; wall-clock stamps are later
SIM_TIME_LIMIT_NS = 10**18

_MAGICS = {
    b"\x4d\x3c\xb2\xa1": ("<", 1),  # nanosecond, little-endian
    b"\xa1\xb2\x3c\x4d": (">", 1),
    b"\xd4\xc3\xb2\xa1": ("<", 1000),  # microsecond
    b"\xa1\xb2\xc3\xd4": (">", 1000),
}


class Direction(enum.IntEnum):
    TO_BOARD = 0
    FROM_BOARD = 1

    def __str__(self) -> str:
        return "to board" if self is Direction.TO_BOARD else "from board"


def frame_cycles(length: int) -> int:
    """Cycles a frame of ``length`` bytes (no FCS) occupies on the wire."""
    return PREAMBLE + max(length, MIN_FRAME) + FCS


def last_byte_ns(t_ns: int, length: int) -> int:
    """Time of the last byte (the FCS's last) of a frame stamped ``t_ns``."""
    return t_ns + (frame_cycles(length) - 1) * NS_PER_CYCLE


def end_ns(t_ns: int, length: int) -> int:
    """The first cycle after the frame: its stamp plus its occupancy."""
    return t_ns + frame_cycles(length) * NS_PER_CYCLE


@dataclass(frozen=True)
class Udp:
    src_ip: str
    dst_ip: str
    src_port: int
    dst_port: int
    payload: bytes


@dataclass(frozen=True)
class Tcp:
    src_ip: str
    dst_ip: str
    src_port: int
    dst_port: int
    seq: int
    flags: int
    payload: bytes


@dataclass(frozen=True)
class Record:
    t_ns: int
    direction: Direction
    frame: bytes

    @property
    def cycle(self) -> int:
        return self.t_ns // NS_PER_CYCLE

    @property
    def cycles(self) -> int:
        """Occupancy on the wire."""
        return frame_cycles(len(self.frame))

    @property
    def last_byte_ns(self) -> int:
        return last_byte_ns(self.t_ns, len(self.frame))

    @property
    def end_ns(self) -> int:
        return end_ns(self.t_ns, len(self.frame))

    def ipv4(self) -> tuple[int, bytes, bytes, bytes] | None:
        """(protocol, source, destination, IP payload cut to the total length), or None."""
        f = self.frame
        if len(f) < 34 or f[12:14] != b"\x08\x00" or f[14] >> 4 != 4:
            return None
        ihl = (f[14] & 0x0F) * 4
        total = int.from_bytes(f[16:18], "big")
        if ihl < 20 or total < ihl or 14 + total > len(f):
            return None
        return f[23], f[26:30], f[30:34], f[14 + ihl : 14 + total]

    def udp(self) -> Udp | None:
        """The UDP datagram the frame carries (parsed once), or None."""
        cached = self.__dict__.get("_udp_parsed", self)
        if cached is self:
            cached = self._udp()
            object.__setattr__(self, "_udp_parsed", cached)
        return cached  # type: ignore[return-value]

    def _udp(self) -> Udp | None:
        ip = self.ipv4()
        if ip is None or ip[0] != 17 or len(ip[3]) < 8:
            return None
        seg = ip[3]
        n = int.from_bytes(seg[4:6], "big")
        if n < 8 or n > len(seg):
            return None
        return Udp(
            socket.inet_ntoa(ip[1]),
            socket.inet_ntoa(ip[2]),
            int.from_bytes(seg[0:2], "big"),
            int.from_bytes(seg[2:4], "big"),
            seg[8:n],
        )

    def tcp(self) -> Tcp | None:
        """The TCP segment the frame carries, or None (no checksum check)."""
        ip = self.ipv4()
        if ip is None or ip[0] != 6 or len(ip[3]) < 20:
            return None
        seg = ip[3]
        off = (seg[12] >> 4) * 4
        if off < 20 or off > len(seg):
            return None
        return Tcp(
            socket.inet_ntoa(ip[1]),
            socket.inet_ntoa(ip[2]),
            int.from_bytes(seg[0:2], "big"),
            int.from_bytes(seg[2:4], "big"),
            int.from_bytes(seg[4:8], "big"),
            seg[13],
            seg[off:],
        )

    def icmp_echo(self) -> tuple[int, int, int] | None:
        """(type 8 request / 0 reply, identifier, sequence) of an ICMP echo, or None."""
        ip = self.ipv4()
        if ip is None or ip[0] != 1 or len(ip[3]) < 8 or ip[3][0] not in (0, 8):
            return None
        m = ip[3]
        return m[0], int.from_bytes(m[4:6], "big"), int.from_bytes(m[6:8], "big")


def mac_bytes(mac: str | bytes) -> bytes:
    if isinstance(mac, bytes):
        if len(mac) != 6:
            raise ValueError(f"a MAC address has 6 bytes, not {len(mac)}")
        return mac
    b = bytes(int(x, 16) for x in mac.split(":"))
    if len(b) != 6:
        raise ValueError(f"{mac!r} is not a MAC address")
    return b


@dataclass(frozen=True)
class PcapHeader:
    endian: str  # struct prefix
    scale: int  # ns per fraction unit: 1 (nanosecond pcap) or 1000 (microsecond)
    linktype: int

    @property
    def nanosecond(self) -> bool:
        return self.scale == 1


def parse_header(head: bytes) -> PcapHeader:
    if len(head) < HEADER_LEN or head[:4] not in _MAGICS:
        raise ValueError("not a classic pcap file")
    endian, scale = _MAGICS[head[:4]]
    linktype = struct.unpack_from(endian + "I", head, 20)[0] & 0x0FFFFFFF
    return PcapHeader(endian, scale, linktype)


def parse_records(
    data: bytes, hdr: PcapHeader, board_mac: bytes, pos: int = HEADER_LEN
) -> tuple[list[Record], int]:
    """The whole records in ``data`` from byte ``pos``; and where the next one starts."""
    out: list[Record] = []
    rec = struct.Struct(hdr.endian + "IIII")
    while pos + RECORD_HEADER <= len(data):
        sec, frac, incl, _ = rec.unpack_from(data, pos)
        if pos + RECORD_HEADER + incl > len(data):
            break  # the board has not written this record whole yet
        frame = data[pos + RECORD_HEADER : pos + RECORD_HEADER + incl]
        d = Direction.FROM_BOARD if frame[6:12] == board_mac else Direction.TO_BOARD
        out.append(Record(sec * 1_000_000_000 + frac * hdr.scale, d, frame))
        pos += RECORD_HEADER + incl
    return out, pos


def read(path: str | Path, board_mac: str | bytes) -> list[Record]:
    """Every whole record of the pcap at ``path``; ``board_mac`` sets the directions."""
    data = Path(path).read_bytes()
    hdr = parse_header(data)
    return parse_records(data, hdr, mac_bytes(board_mac))[0]


class Tail:
    """Follows a wire pcap that the board may still be writing.

    ``mark()`` notes where the file ends now (after its last whole record); ``read()``
    returns the whole records written since the mark (or since the start of the file)
    and moves the mark past them. ``settle()`` waits until the board has flushed what it
    had (the size stays the same for a while), bounded.
    """

    def __init__(self, path: str | Path, board_mac: str | bytes) -> None:
        self.path = Path(path)
        self.mac = mac_bytes(board_mac)
        self.pos = HEADER_LEN
        self.header: PcapHeader | None = None

    def _load(self, start: int) -> tuple[bytes, int]:
        with self.path.open("rb") as f:
            head = f.read(HEADER_LEN)
            if self.header is None:
                self.header = parse_header(head)
            f.seek(start)
            return f.read(), start

    def mark(self) -> int:
        data, base = self._load(self.pos)
        assert self.header is not None
        self.pos = parse_records(data, self.header, self.mac, 0)[1] + base
        return self.pos

    def read(self) -> list[Record]:
        data, base = self._load(self.pos)
        assert self.header is not None
        recs, end = parse_records(data, self.header, self.mac, 0)
        self.pos = base + end
        return recs

    def settle(self, quiet_s: float = 0.25, timeout: float = 3.0) -> None:
        t_end = time.monotonic() + timeout
        size, since = -1, time.monotonic()
        while time.monotonic() < t_end:
            now_size = self.path.stat().st_size
            if now_size != size:
                size, since = now_size, time.monotonic()
            elif time.monotonic() - since >= quiet_s:
                return
            time.sleep(0.05)


def simulated_time(hdr: PcapHeader | None, records: Sequence[Record]) -> bool:
    """True when the stamps are the board's simulated time (not the wall clock)."""
    if hdr is None or not hdr.nanosecond:
        return False
    return all(r.t_ns < SIM_TIME_LIMIT_NS for r in records[:1] + records[-1:])


# --------------------------------------------------------------------------- occupancy


def spacing_cycles(records: Sequence[Record]) -> list[int]:
    """Start-to-start distance of consecutive frames, in cycles."""
    return [(b.t_ns - a.t_ns) // NS_PER_CYCLE for a, b in itertools.pairwise(records)]


def idle_cycles(records: Sequence[Record]) -> list[int]:
    """Idle cycles on the wire between consecutive frames (the inter-frame gap)."""
    return [(b.t_ns - a.end_ns) // NS_PER_CYCLE for a, b in itertools.pairwise(records)]


def histogram(values: Iterable[int]) -> dict[int, int]:
    """Exact histogram: value -> occurrences, sorted by value."""
    h: dict[int, int] = {}
    for v in values:
        h[v] = h.get(v, 0) + 1
    return dict(sorted(h.items()))


@dataclass(frozen=True)
class Rate:
    """Frames of one direction on the wire, in simulated time."""

    frames: int
    frame_bytes: int  # frames as recorded (no FCS), all of them
    span_ns: int  # first stamp to last stamp
    frames_per_s: float  # (frames - 1) over the span
    bytes_per_s: float  # frame bytes after the first, over the span
    line_fraction: float  # 1.0: back to back at the minimum gap

    def to_dict(self) -> dict[str, float | int]:
        return {
            "frames": self.frames,
            "frame_bytes": self.frame_bytes,
            "span_ns": self.span_ns,
            "frames_per_s": self.frames_per_s,
            "bytes_per_s": self.bytes_per_s,
            "line_fraction": self.line_fraction,
        }


def rate(records: Sequence[Record]) -> Rate:
    """Rate of ``records`` (one direction, in time order) from the first stamp to the last.

    n frames give n - 1 start-to-start intervals: the rates count the frames after the
    first; the line fraction is the cycles those intervals need at the minimum gap
    (each frame's occupancy plus 12) over the cycles they took.
    """
    n = len(records)
    total = sum(len(r.frame) for r in records)
    if n < 2:
        return Rate(n, total, 0, 0.0, 0.0, 0.0)
    span = records[-1].t_ns - records[0].t_ns
    if span <= 0:
        return Rate(n, total, span, 0.0, 0.0, 0.0)
    need = sum(r.cycles + IFG for r in records[:-1]) * NS_PER_CYCLE
    return Rate(
        n,
        total,
        span,
        (n - 1) / span * 1e9,
        (total - len(records[0].frame)) / span * 1e9,
        need / span,
    )


def of(records: Iterable[Record], direction: Direction) -> list[Record]:
    return [r for r in records if r.direction == direction]
