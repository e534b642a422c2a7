"""Analysis of data-acquisition runs: loss from sequence numbers, gaps, rates, jitter, fits."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from wirecore.daq.fmt import HEADER_LEN
from wirecore.daq.rx import Capture

# Ethernet framing around a UDP payload: preamble+SFD 8, Ethernet header 14, IPv4 20,
# UDP 8, FCS 4, inter-frame gap 12; frames shorter than 64 bytes are padded.
WIRE_OVERHEAD = 8 + 14 + 20 + 8 + 4 + 12


def wire_bytes(payload: int) -> int:
    """Bytes a datagram of ``payload`` bytes occupies on Ethernet, gap included."""
    frame = max(14 + 20 + 8 + payload + 4, 64)
    return 8 + frame + 12


def line_rate_goodput(payload: int, bit_rate: float = 1e9) -> float:
    """Highest payload rate in bytes/s at ``bit_rate`` for ``payload``-byte datagrams."""
    return bit_rate / 8 * payload / wire_bytes(payload)


@dataclass
class StreamStats:
    received: int  # datagrams that carried a sequence number (>= 16 bytes)
    ignored: int  # shorter datagrams (not in the format)
    unique: int
    duplicates: int
    late: int  # arrived after a higher sequence number (reordered)
    first_seq: int
    last_seq: int
    expected: int  # datagrams the sender sent (if known) or the span first..last
    lost: int
    success: float  # unique / expected
    gap_events: int  # places where the sequence jumped forward by more than 1
    gap_hist: dict[int, int]  # jump size (missing datagrams) -> occurrences
    bytes: int
    duration_s: float  # first to last arrival
    mbytes_per_s: float  # payload MB/s (10^6 bytes)
    packets_per_s: float
    jitter: dict[str, float] = field(default_factory=dict)  # inter-arrival statistics, µs

    def to_dict(self) -> dict:
        d = asdict(self)
        d["gap_hist"] = {str(k): v for k, v in self.gap_hist.items()}
        return d


def inter_arrival_us(cap: Capture) -> np.ndarray:
    """Inter-arrival times in µs (kernel timestamps), arrival order."""
    if len(cap) < 2:
        return np.zeros(0)
    return np.diff(cap.t_ns).astype(np.float64) / 1e3


def jitter_stats(ia_us: np.ndarray) -> dict[str, float]:
    if len(ia_us) == 0:
        return {}
    p = np.percentile(ia_us, [1, 50, 99, 99.9])
    return {
        "mean_us": float(ia_us.mean()),
        "std_us": float(ia_us.std()),
        "min_us": float(ia_us.min()),
        "p1_us": float(p[0]),
        "p50_us": float(p[1]),
        "p99_us": float(p[2]),
        "p999_us": float(p[3]),
        "max_us": float(ia_us.max()),
    }


def stream_stats(
    cap: Capture, sent: int | None = None, first_seq: int | None = None
) -> StreamStats:
    """Loss and rate of a stream whose sender numbers its datagrams 0, 1, 2, ...

    ``sent``: how many the sender says it sent (then loss counts the tail too);
    ``first_seq``: the first sequence number it sent (default: 0 if ``sent`` is given,
    else the lowest received).
    """
    ok = cap.length >= HEADER_LEN
    seq = cap.seq[ok].astype(np.int64)
    received = int(ok.sum())
    ignored = len(cap) - received
    nbytes = int(cap.length.sum())
    if received == 0:
        exp = sent or 0
        return StreamStats(
            0, ignored, 0, 0, 0, -1, -1, exp, exp, 0.0 if exp else 1.0, 0, {}, nbytes, 0.0, 0, 0
        )
    uniq = np.unique(seq)
    unique = len(uniq)
    duplicates = received - unique
    running_max = np.maximum.accumulate(seq)
    late = int(np.count_nonzero(seq[1:] < running_max[:-1]))
    lo = int(uniq[0]) if first_seq is None and sent is None else int(first_seq or 0)
    hi = int(uniq[-1])
    if sent is not None:
        expected = sent
        in_range = uniq[(uniq >= lo) & (uniq < lo + sent)]
    else:
        expected = hi - lo + 1
        in_range = uniq[uniq >= lo]
    lost = max(expected - len(in_range), 0)
    # gaps: missing runs between consecutive received sequence numbers (and the ends)
    edges = np.concatenate(([lo - 1], in_range, [lo + expected] if sent is not None else []))
    d = np.diff(edges) - 1
    d = d[d > 0]
    sizes, counts = np.unique(d, return_counts=True)
    gap_hist = {int(s): int(c) for s, c in zip(sizes, counts, strict=True)}
    t = cap.t_ns
    dur = float(t.max() - t.min()) / 1e9 if len(t) > 1 else 0.0
    # rate over the arrival span: n-1 inter-arrival intervals carry n-1 datagrams
    if dur > 0:
        mbps = (nbytes - int(cap.length[int(np.argmin(t))])) / dur / 1e6
        pps = (len(cap) - 1) / dur
    else:
        mbps = pps = 0.0
    return StreamStats(
        received=received,
        ignored=ignored,
        unique=unique,
        duplicates=duplicates,
        late=late,
        first_seq=int(uniq[0]),
        last_seq=hi,
        expected=expected,
        lost=lost,
        success=(len(in_range) / expected) if expected else 1.0,
        gap_events=int(len(d)),
        gap_hist=gap_hist,
        bytes=nbytes,
        duration_s=dur,
        mbytes_per_s=mbps,
        packets_per_s=pps,
        jitter=jitter_stats(inter_arrival_us(cap)),
    )


@dataclass
class LinFit:
    slope: float
    intercept: float
    r2: float


def linfit(x: np.ndarray | list[float], y: np.ndarray | list[float]) -> LinFit:
    """Least-squares line y = slope * x + intercept, with the coefficient of determination."""
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    if len(xa) < 2 or np.ptp(xa) == 0:
        raise ValueError("a linear fit needs at least two distinct x values")
    slope, intercept = np.polyfit(xa, ya, 1)
    pred = slope * xa + intercept
    ss_res = float(((ya - pred) ** 2).sum())
    ss_tot = float(((ya - ya.mean()) ** 2).sum())
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0
    return LinFit(float(slope), float(intercept), r2)


def summary(values: np.ndarray | list[float]) -> dict[str, float]:
    """n, mean, std, min, median, p99, max of a sample."""
    a = np.asarray(values, dtype=np.float64)
    if len(a) == 0:
        return {"n": 0}
    return {
        "n": int(len(a)),
        "mean": float(a.mean()),
        "std": float(a.std()),
        "min": float(a.min()),
        "median": float(np.median(a)),
        "p99": float(np.percentile(a, 99)),
        "max": float(a.max()),
    }


def delay_variation_us(cap: Capture, clock_hz: float) -> np.ndarray:
    """One-way delay variation of each datagram (µs, arrival order, 0 = the fastest).

    The FPGA stamps every datagram with its cycle counter when it hands the header to the
    stack; arrival minus send time is the one-way delay plus an unknown constant offset
    between the clocks, and a slow linear drift (the two oscillators differ by some ppm).
    A least-squares line through (send time, delay) removes both; what remains is the
    variation of the delay: queueing in switches, the NIC and the PC's receive path.
    """
    ok = cap.length >= HEADER_LEN
    if int(ok.sum()) < 3:
        return np.zeros(0)
    send_us = cap.fpga_ts[ok].astype(np.float64) * (1e6 / clock_hz)
    arrive_us = (cap.t_ns[ok] - cap.t_ns[ok].min()).astype(np.float64) / 1e3
    send_us -= send_us.min()
    delay = arrive_us - send_us
    if np.ptp(send_us) > 0:
        slope, intercept = np.polyfit(send_us, delay, 1)
        delay = delay - (slope * send_us + intercept)
    return delay - delay.min()
