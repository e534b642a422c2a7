"""The DAQ tools' figures on the board's own wire, in simulated time.

A virtual board writes every frame that crosses its port to its wire pcap with the cycle
of the frame's first byte (:mod:`wirecore.wire`). A tool that talks to a virtual board
marks the end of that file before its run, reads the frames written during the run
after it, and reports what the design did on its port, beside what the PC saw:

* :func:`generator_figures`: the generator's frames (rate, spacing and idle cycles as
  exact histograms, sequence gaps, the cycles from the generator's timestamp to the
  wire);
* :func:`echo_pairs` and :func:`turnaround`: requests into the board matched with their
  echoes, and the cycles between them;
* :class:`Session`: the board's statistics before and after the run, split into the
  drops of the PC side (the TAP interface's counters), of the link (the harness's queue
  towards the board and its impairments) and of the board itself (its counters).

Everything here is computed from records and statistics passed in, so it works on a pcap
from any source; :func:`find_board` and :class:`Session` find a virtual board that is up.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wirecore import wire
from wirecore.netns import NETNS_DIR
from wirecore.wire import NS_PER_CYCLE, Direction, Record

SECTION_WIRE = "[bold]on the board's wire (simulated time)[/bold]"
SECTION_PC = "[bold]at the PC (wall clock)[/bold]"


# --------------------------------------------------------------------------- the board


@dataclass
class BoardWire:
    """Where a virtual board that is up keeps its wire record."""

    name: str
    ip: str
    mac: str
    pcap: Path
    ns: str
    tap: str


def _in_namespace(ns: str) -> bool:
    """Whether this process is in the named network namespace."""
    try:
        here = os.stat("/proc/self/ns/net")
        there = os.stat(Path(NETNS_DIR) / ns)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def find_board(ip: str) -> BoardWire | None:
    """The virtual board that is up at ``ip`` and writes a wire pcap, or None.

    Boards in different namespaces may share an address: the one in this process's
    namespace is taken, else the only one with that address, else none."""
    from wirecore.vboard import BoardError, VirtualBoard

    found: list[BoardWire] = []
    for name in VirtualBoard.names():
        try:
            b = VirtualBoard.load(name)
        except (BoardError, OSError, ValueError, TypeError):
            continue
        if b.cfg.ip != ip or not b.running():
            continue
        pcap = getattr(b, "wire_pcap", None)
        if pcap is None:
            pcap = Path(b.cfg.pcap) if b.cfg.pcap else b.dir / "wire.pcap"
        found.append(BoardWire(name, ip, b.cfg.mac, Path(pcap), b.cfg.ns, b.cfg.tap))
    here = [f for f in found if _in_namespace(f.ns)]
    pick = here if here else found
    if len(pick) != 1 or not pick[0].pcap.exists():
        return None
    return pick[0]


def _numbers(d: Any, prefix: str = "") -> dict[str, int]:
    """The integer leaves of a JSON object, as dotted names."""
    out: dict[str, int] = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(_numbers(v, f"{prefix}{k}."))
    elif isinstance(d, int) and not isinstance(d, bool):
        out[prefix[:-1]] = d
    return out


def deltas(before: dict[str, int], after: dict[str, int], wrap: int = 0) -> dict[str, int]:
    """after - before for every name in both (modulo ``wrap`` if not 0), nonzero only."""
    out = {}
    for k, v in after.items():
        if k in before:
            d = v - before[k]
            if wrap:
                d %= wrap
            if d:
                out[k] = d
    return out


def tap_counters(ns: str, tap: str) -> dict[str, int]:
    """The TAP interface's own counters (the kernel's, the PC side of the link)."""
    try:
        r = subprocess.run(
            ["ip", "-n", ns, "-j", "-s", "link", "show", "dev", tap],
            capture_output=True,
            text=True,
            timeout=5,
        )
        link = json.loads(r.stdout)[0]["stats64"]
    except (OSError, subprocess.SubprocessError, ValueError, IndexError, KeyError):
        return {}
    return {f"{d}_{k}": v for d in ("rx", "tx") for k, v in link.get(d, {}).items()}


@dataclass
class Drops:
    """Where frames were lost during a run, by place (deltas of the counters)."""

    pc: dict[str, int] = field(default_factory=dict)  # the TAP's counters
    link: dict[str, int] = field(default_factory=dict)  # the harness: queue, impairments
    board: dict[str, int] = field(default_factory=dict)  # the design's counters
    counters: dict[str, int] = field(default_factory=dict)  # every design counter's delta
    impaired: dict[str, int] = field(default_factory=dict)  # frames the link altered

    def rows(self) -> list[tuple[str, str]]:
        def show(d: dict[str, int]) -> str:
            return ", ".join(f"{k} {v}" for k, v in d.items()) or "none"

        return [
            ("PC side drops (TAP interface)", show(self.pc)),
            ("link drops (harness queue, impairments)", show(self.link)),
            ("board drops (its counters)", show(self.board)),
        ] + ([("link impairments", show(self.impaired))] if self.impaired else [])

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {"pc": self.pc, "link": self.link, "board": self.board, "impaired": self.impaired}


# the statistics' "link" object (docs/virtual-board.md): the counters of frames the link
# lost (its queue towards the board, impairments per direction "rx"/"tx") and of frames it
# altered but delivered
LINK_LOSSES = ("queue_drops", "lost")
LINK_EVENTS = ("duplicated", "reordered", "corrupted", "fcs_corrupted", "delayed")


def split_drops(before: dict, after: dict, tap0: dict[str, int], tap1: dict[str, int]) -> Drops:
    """Drops between two statistics snapshots of the board (and two of its TAP)."""
    pc_after = _numbers(after.get("pc")) or tap1
    pc_before = _numbers(before.get("pc")) or tap0
    pc = {k: v for k, v in deltas(pc_before, pc_after).items() if "drop" in k or "err" in k}
    changed = deltas(_numbers(before.get("link")), _numbers(after.get("link")))
    link = {k: v for k, v in changed.items() if k.rsplit(".", 1)[-1] in LINK_LOSSES}
    impaired = {k: v for k, v in changed.items() if k.rsplit(".", 1)[-1] in LINK_EVENTS}
    for k in ("tap_queue_full", "tap_write_errors", "from_board_bad_fcs", "from_board_aborted"):
        d = after.get(k, 0) - before.get(k, 0)
        if d:
            link[k] = d
    counters = deltas(_numbers(before.get("counters")), _numbers(after.get("counters")), wrap=2**32)
    board = {k: v for k, v in counters.items() if "DROP" in k.upper()}
    return Drops(pc, link, board, counters, impaired)


class Session:
    """A tool's run against a virtual board: marks the wire and the statistics before,
    reads the frames and the drops after."""

    def __init__(self, bw: BoardWire) -> None:
        from wirecore.vboard import VirtualBoard

        self.bw = bw
        self.board = VirtualBoard.load(bw.name)
        self.tail = wire.Tail(bw.pcap, bw.mac)
        self.stats0: dict = {}
        self.tap0: dict[str, int] = {}

    def start(self) -> None:
        self.tail.settle(quiet_s=0.15, timeout=1.0)
        self.tail.mark()
        self.stats0 = self._stats()
        self.tap0 = tap_counters(self.bw.ns, self.bw.tap)

    def _stats(self) -> dict:
        try:
            return self.board.stats()
        except Exception:  # noqa: BLE001 - statistics are extra; the figures go on without
            return {}

    def finish(self) -> tuple[list[Record], Drops, bool]:
        """Frames of the run, the drops, and whether the stamps are simulated time."""
        self.tail.settle()
        recs = self.tail.read()
        drops = split_drops(
            self.stats0, self._stats(), self.tap0, tap_counters(self.bw.ns, self.bw.tap)
        )
        return recs, drops, wire.simulated_time(self.tail.header, recs)


def open_session(ip: str, enabled: bool) -> tuple[Session | None, str]:
    """A session with the virtual board at ``ip``, or None and why not."""
    if not enabled:
        return None, "off (--no-wire)"
    bw = find_board(ip)
    if bw is None:
        return None, f"no virtual board with a wire record is up at {ip}"
    try:
        s = Session(bw)
        s.start()
    except (OSError, ValueError) as e:
        return None, f"cannot read {bw.pcap}: {e}"
    return s, ""


WALL_CLOCK = (
    "the board's pcap has wall-clock stamps (`--pcap-clock wall`): no simulated time to report"
)


# --------------------------------------------------------------------------- figures


def ns_text(cycles: float) -> str:
    return f"{cycles:,.0f} cycles = {cycles * NS_PER_CYCLE:,.0f} ns"


def hist_text(h: dict[int, int], limit: int = 8) -> str:
    """An exact histogram as 'value ×count' (the most frequent ``limit``)."""
    if not h:
        return "-"
    top = sorted(h.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    more = f" (+{len(h) - limit} more values)" if len(h) > limit else ""
    return ", ".join(f"{k} ×{v}" for k, v in sorted(top)) + more


def seq_of(payload: bytes) -> int | None:
    return int.from_bytes(payload[:8], "big") if len(payload) >= 16 else None


@dataclass
class GeneratorFigures:
    frames: int
    payload_bytes: int
    rate: wire.Rate
    payload_mbytes_per_s: float  # payload after the first frame over the span
    spacing: dict[int, int]  # start-to-start cycles -> occurrences (exact)
    idle: dict[int, int]  # idle cycles between frames -> occurrences
    seq_lost: int  # sequence numbers missing on the wire (per destination)
    seq_gap_events: int
    to_wire: dict[int, int]  # cycles from the generator's timestamp to the frame's first byte

    def to_dict(self) -> dict[str, Any]:
        return {
            "frames": self.frames,
            "payload_bytes": self.payload_bytes,
            "rate": self.rate.to_dict(),
            "payload_mbytes_per_s": self.payload_mbytes_per_s,
            "spacing_cycles": {str(k): v for k, v in self.spacing.items()},
            "idle_cycles": {str(k): v for k, v in self.idle.items()},
            "seq_lost": self.seq_lost,
            "seq_gap_events": self.seq_gap_events,
            "timestamp_to_wire_cycles": {str(k): v for k, v in self.to_wire.items()},
        }


def payload_mbytes_per_s(frames: Sequence[Record]) -> float:
    """UDP payload MB/s (10^6 bytes) of frames in time order: the payload after the first
    frame over the span from the first stamp to the last."""
    if len(frames) < 2 or frames[-1].t_ns <= frames[0].t_ns:
        return 0.0
    pay = [len(u.payload) if (u := r.udp()) is not None else 0 for r in frames]
    return (sum(pay) - pay[0]) / (frames[-1].t_ns - frames[0].t_ns) * 1e3


def flow_rows(label: str, frames: Sequence[Record], ideal_mbytes_per_s: float) -> list:
    """Rows for one direction's frames: count, payload rate, frames/s, line use."""
    if not frames:
        return [(label, "no frames")]
    rt = wire.rate(frames)
    mb = payload_mbytes_per_s(frames)
    return [
        (
            label,
            f"{len(frames)} frames, {mb:.2f} MB/s payload ({100 * mb / ideal_mbytes_per_s:.1f} % "
            f"of the line-rate maximum), {rt.frames_per_s:,.0f} frames/s, line use "
            f"{rt.line_fraction:.4f}",
        )
    ]


def generator_frames(
    records: Iterable[Record], dst_ports: Sequence[int], min_len: int = 16
) -> list[Record]:
    """The frames the board sent to ``dst_ports`` with a payload in the DAQ format."""
    out = []
    for r in records:
        if r.direction != Direction.FROM_BOARD:
            continue
        u = r.udp()
        if u is not None and u.dst_port in dst_ports and len(u.payload) >= min_len:
            out.append(r)
    return out


def generator_figures(frames: Sequence[Record]) -> GeneratorFigures:
    """Rate, exact spacing and gaps of the generator's frames (in time order)."""
    udps = [r.udp() for r in frames]
    payloads = [u.payload for u in udps if u is not None]
    rt = wire.rate(frames)
    pay = sum(len(p) for p in payloads)
    mbps = payload_mbytes_per_s(frames)
    lost = events = 0
    last: dict[int, int] = {}
    for u in udps:
        assert u is not None
        s = seq_of(u.payload)
        if s is None:
            continue
        prev = last.get(u.dst_port)
        if prev is not None and s > prev + 1:
            lost += s - prev - 1
            events += 1
        last[u.dst_port] = s if prev is None else max(prev, s)
    to_wire = wire.histogram(
        r.cycle - int.from_bytes(p[8:16], "big") for r, p in zip(frames, payloads, strict=True)
    )
    return GeneratorFigures(
        len(frames),
        pay,
        rt,
        mbps,
        wire.histogram(wire.spacing_cycles(frames)),
        wire.histogram(wire.idle_cycles(frames)),
        lost,
        events,
        to_wire,
    )


@dataclass(frozen=True)
class EchoPair:
    request: Record  # the frame with the request's first byte
    reply: Record  # the frame with the reply's first byte
    payload: int  # UDP payload bytes (TCP: the bytes of the PC's write)
    request_end: Record | None = None  # the frame with the request's last byte (TCP)
    reply_end: Record | None = None  # the frame with the reply's last byte (TCP)

    @property
    def last_in_first_out(self) -> int:
        """Cycles from the request's last byte in to the reply's first byte out."""
        end = self.request_end or self.request
        return (self.reply.t_ns - end.last_byte_ns) // NS_PER_CYCLE

    @property
    def first_in_last_out(self) -> int:
        """Cycles from the request's first byte in to the reply's last byte out."""
        end = self.reply_end or self.reply
        return (end.last_byte_ns - self.request.t_ns) // NS_PER_CYCLE

    @property
    def first_in_first_out(self) -> int:
        return (self.reply.t_ns - self.request.t_ns) // NS_PER_CYCLE


def echo_pairs(records: Iterable[Record], port: int, ip: str | None = None) -> list[EchoPair]:
    """UDP requests to the board's ``port`` (and address ``ip``, if given) matched with the
    first reply from it that carries the same payload to the same address (in time
    order)."""
    waiting: dict[tuple[str, int, bytes], Record] = {}
    out: list[EchoPair] = []
    for r in records:
        u = r.udp()
        if u is None:
            continue
        if r.direction == Direction.TO_BOARD and u.dst_port == port and ip in (None, u.dst_ip):
            waiting.setdefault((u.src_ip, u.src_port, u.payload), r)
        elif r.direction == Direction.FROM_BOARD and u.src_port == port and ip in (None, u.src_ip):
            req = waiting.pop((u.dst_ip, u.dst_port, u.payload), None)
            if req is not None:
                out.append(EchoPair(req, r, len(u.payload)))
    return out


def tcp_echo_pairs(
    records: Iterable[Record], port: int, local_port: int, writes: Sequence[int], ip: str
) -> list[EchoPair]:
    """The PC's writes on its connection from ``local_port`` to the board's echo at
    ``ip``:``port`` (``writes``: their sizes, in order) matched with their echoes: an
    echo returns byte k of the PC's stream as byte k of the board's, whatever the
    segments. Each pair holds the frames carrying the write's first and last bytes in
    and the echo's first and last bytes out (the first copy of each on the wire, so a
    retransmission does not move them). Positions count from the connection's SYNs; a
    write whose bytes are not all on the wire in both directions has no pair."""
    M = 1 << 32
    isn: list[int | None] = [None, None]  # PC's, board's
    segs: tuple[list[tuple[int, int, Record]], ...] = ([], [])  # (position, bytes, frame)
    for r in records:
        t = r.tcp()
        if t is None:
            continue
        if r.direction == Direction.TO_BOARD:
            if (t.dst_ip, t.dst_port, t.src_port) != (ip, port, local_port):
                continue
            side = 0
        else:
            if (t.src_ip, t.src_port, t.dst_port) != (ip, port, local_port):
                continue
            side = 1
        if t.flags & 0x02:  # SYN: the connection's numbering starts
            isn[side] = t.seq
        elif isn[side] is not None and t.payload:
            segs[side].append(((t.seq - isn[side] - 1) % M, len(t.payload), r))

    def holder(side: int, byte: int) -> Record | None:
        for pos, n, rec in segs[side]:  # in time order: the first copy on the wire
            if (byte - pos) % M < n:
                return rec
        return None

    out: list[EchoPair] = []
    start = 0
    for n in writes:
        ends = [holder(side, b) for side in (0, 1) for b in (start, start + n - 1)]
        if all(e is not None for e in ends):
            a, b, c, d = ends
            out.append(EchoPair(a, c, n, b, d))  # type: ignore[arg-type]
        start += n
    return out


def ping_pairs(records: Iterable[Record]) -> list[tuple[Record, Record]]:
    """ICMP echo requests to the board matched with its replies (identifier, sequence)."""
    waiting: dict[tuple[int, int], Record] = {}
    out = []
    for r in records:
        e = r.icmp_echo()
        if e is None:
            continue
        if r.direction == Direction.TO_BOARD and e[0] == 8:
            waiting[e[1:]] = r
        elif r.direction == Direction.FROM_BOARD and e[0] == 0 and e[1:] in waiting:
            out.append((waiting.pop(e[1:]), r))
    return out


def turnaround(pairs: Sequence[EchoPair]) -> dict[str, dict[int, int]]:
    """Exact histograms of the turnaround (cycles) of every pair."""
    return {
        "last_in_first_out": wire.histogram(p.last_in_first_out for p in pairs),
        "first_in_last_out": wire.histogram(p.first_in_last_out for p in pairs),
    }
