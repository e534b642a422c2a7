"""CA-CFAR detection on sample blocks: the fixed-point reference model of the accelerator
(docs/cfar.md), the frame formats, and a scene generator.

Written from the algorithm's definition (docs/cfar.md "Fixed point"):

- a block is 1024 real signed 16-bit samples x[n] (two frames of 512);
- the FFT is the radix-2 decimation-in-time recursion X = combine(FFT(even), FFT(odd)),
  every combine step rounding its outputs to nearest (halves up) after halving them:
  ``X[k] = rnd((E[k] * 2^14 + W^k * O[k]) / 2^15)``, ``X[k + n/2]`` with the minus sign,
  where ``W^k`` is the twiddle ``exp(-2*pi*i*k/n)`` rounded to 2^-14 per component; the
  samples enter scaled by 2^7, so the output is ``DFT(x) * 2^7 / 1024`` to within rounding;
- magnitudes ``|re| + |im|``;
- cell-averaging CFAR over bins 0..511: the training sum S of the ``train`` cells on each
  side beyond ``guard`` guard cells (bin indices modulo 1024), the threshold
  ``(alpha * S) >> 12`` (alpha is the threshold factor divided by the number of training
  cells, 12 fraction bits), a detection where the magnitude is greater than the threshold.

The scene generator makes blocks with sinusoidal targets at known bins plus seeded noise.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

N = 1024  # samples per block (FFT size)
FRAME_SAMPLES = N // 2  # samples per frame
ID_BYTES = 8  # identifier before the samples
PAYLOAD_BYTES = ID_BYTES + 2 * FRAME_SAMPLES  # 1032
BINS = N // 2  # bins the CFAR scans (0..511; a real block's other half mirrors them)
IN_SHIFT = 7  # samples enter the FFT as x * 2^7
DATA_W = 24  # FFT data width (signed, per component)
TWID_FRAC = 14  # twiddle fraction bits (16-bit signed twiddles)
TWID_W = 16
MAG_W = 25  # |re| + |im|, unsigned
ALPHA_FRAC = 12  # cfg_alpha fraction bits
ALPHA_W = 16
GUARD_MAX = 15  # cfg_guard is 4 bits
TRAIN_MAX = 127  # cfg_train is 7 bits
RESULT_HDR = 8  # block id (4), found (2), listed (2)
DET_BYTES = 10  # bin (2), magnitude (4), threshold (4)


def twiddles(n: int = N) -> tuple[np.ndarray, np.ndarray]:
    """The twiddles W^k = exp(-2*pi*i*k/n), k = 0..n/2-1, as integers scaled by 2^14
    (rounded to nearest): (real parts, imaginary parts)."""
    k = np.arange(n // 2)
    ang = 2 * np.pi * k / n
    scale = 1 << TWID_FRAC
    wr = np.round(np.cos(ang) * scale).astype(np.int64)
    wi = np.round(-np.sin(ang) * scale).astype(np.int64)
    return wr, wi


_WR, _WI = twiddles(N)


def _rnd_half(v: np.ndarray) -> np.ndarray:
    """v / 2^15 rounded to nearest, halves up (v an integer array)."""
    return (v + (1 << TWID_FRAC)) >> (TWID_FRAC + 1)


def _fft_rec(re: np.ndarray, im: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = len(re)
    if n == 1:
        return re, im
    er, ei = _fft_rec(re[0::2], im[0::2])
    odr, odi = _fft_rec(re[1::2], im[1::2])
    step = N // n  # W_n^k = W_N^(k * N / n)
    wr = _WR[: n // 2 * step : step]
    wi = _WI[: n // 2 * step : step]
    pr = odr * wr - odi * wi
    pi = odr * wi + odi * wr
    hr = er << TWID_FRAC
    hi = ei << TWID_FRAC
    out_r = np.concatenate([_rnd_half(hr + pr), _rnd_half(hr - pr)])
    out_i = np.concatenate([_rnd_half(hi + pi), _rnd_half(hi - pi)])
    return out_r, out_i


def fft_fixed(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The accelerator's FFT of one block of 1024 signed 16-bit samples: (re, im), int64."""
    x = np.asarray(samples, dtype=np.int64)
    assert x.shape == (N,) and x.min() >= -(1 << 15) and x.max() < 1 << 15
    re, im = _fft_rec(x << IN_SHIFT, np.zeros(N, dtype=np.int64))
    lim = 1 << (DATA_W - 1)
    assert max(abs(re).max(), abs(im).max()) < lim, "FFT value outside the data width"
    return re, im


def magnitudes(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    """|re| + |im| per bin."""
    return np.abs(re) + np.abs(im)


@dataclass(frozen=True)
class Detection:
    bin: int
    mag: int
    thr: int


def cfar(mag: np.ndarray, guard: int, train: int, alpha: int) -> tuple[list[Detection], int]:
    """Cell-averaging CFAR over bins 0..511 of the 1024 magnitudes: (detections in bin
    order, training sum of bin 0, kept for tests that look inside)."""
    assert 0 <= guard <= GUARD_MAX and 0 <= train <= TRAIN_MAX and 0 <= alpha < 1 << ALPHA_W
    m = [int(v) for v in mag]
    dets = []
    s0 = 0
    for k in range(BINS):
        s = 0
        for d in range(guard + 1, guard + train + 1):
            s += m[(k - d) % N] + m[(k + d) % N]
        if k == 0:
            s0 = s
        thr = alpha * s >> ALPHA_FRAC
        if m[k] > thr:
            dets.append(Detection(k, m[k], thr))
    return dets, s0


def block_id(first_seq: int) -> int:
    """A block's id: its first frame's sequence number / 2."""
    return first_seq >> 1


def result_bytes(bid: int, dets: list[Detection], max_det: int) -> bytes:
    """The accelerator's result for one block: block id (u32), detections found (u16),
    detections listed (u16, at most max_det), then per listed detection bin (u16),
    magnitude (u32), threshold (u32); big-endian."""
    listed = dets[:max_det]
    out = struct.pack(">IHH", bid & 0xFFFFFFFF, len(dets), len(listed))
    for d in listed:
        out += struct.pack(">HII", d.bin, d.mag, d.thr)
    return out


def parse_result(data: bytes) -> tuple[int, int, list[Detection]]:
    """(block id, detections found, listed detections) of a result."""
    bid, found, listed = struct.unpack_from(">IHH", data)
    assert len(data) == RESULT_HDR + DET_BYTES * listed, f"{len(data)} bytes for {listed}"
    dets = [
        Detection(*struct.unpack_from(">HII", data, RESULT_HDR + DET_BYTES * i))
        for i in range(listed)
    ]
    return bid, found, dets


def detect(samples: np.ndarray, guard: int, train: int, alpha: int) -> list[Detection]:
    """The accelerator's detections for one block of 1024 samples."""
    re, im = fft_fixed(samples)
    return cfar(magnitudes(re, im), guard, train, alpha)[0]


def alpha_word(factor: float, train: int) -> int:
    """cfg_alpha for a threshold of ``factor`` times the training cells' mean."""
    return min((1 << ALPHA_W) - 1, round(factor * (1 << ALPHA_FRAC) / max(1, 2 * train)))


def frame_payload(seq: int, samples: np.ndarray, tag: int = 0) -> bytes:
    """One sample frame's payload: identifier (tag u32, sequence number u32), then 512
    signed 16-bit samples, big-endian."""
    s = np.asarray(samples, dtype=np.int64)
    assert s.shape == (FRAME_SAMPLES,)
    return struct.pack(">II", tag & 0xFFFFFFFF, seq & 0xFFFFFFFF) + s.astype(">i2").tobytes()


def block_payloads(first_seq: int, samples: np.ndarray, tag: int = 0) -> tuple[bytes, bytes]:
    """The two frame payloads of one block (sequence numbers first_seq, first_seq + 1)."""
    assert first_seq % 2 == 0
    return (
        frame_payload(first_seq, samples[:FRAME_SAMPLES], tag),
        frame_payload(first_seq + 1, samples[FRAME_SAMPLES:], tag),
    )


@dataclass
class Scene:
    """A block of samples: sinusoids at whole bins (``targets``: bin -> amplitude in
    sample units) plus Gaussian noise of standard deviation ``noise``, seeded."""

    seed: int
    targets: dict[int, float] = field(default_factory=dict)
    noise: float = 200.0

    def samples(self) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        n = np.arange(N)
        x = rng.normal(0.0, self.noise, N)
        for b, amp in sorted(self.targets.items()):
            phase = rng.uniform(0, 2 * np.pi)
            x += amp * np.cos(2 * np.pi * b * n / N + phase)
        return np.clip(np.round(x), -(1 << 15), (1 << 15) - 1).astype(np.int64)


def random_scene(seed: int, count: int = 4, noise: float = 200.0) -> Scene:
    """A scene of ``count`` targets at distinct random bins in 16..495, well apart,
    with amplitudes 1000..4000 (a target bin's magnitude far above the noise's)."""
    rng = np.random.default_rng(seed + 1_000_003)
    bins: list[int] = []
    while len(bins) < count:
        b = int(rng.integers(16, BINS - 16))
        if all(abs(b - o) > 40 for o in bins):
            bins.append(b)
    amps = rng.uniform(1000, 4000, count)
    return Scene(seed, {b: float(a) for b, a in zip(bins, amps, strict=True)}, noise)


class Assembler:
    """The accelerator's frame rules, without timing (a frame never finds both sample
    buffers busy): frames in, blocks and drop events out. ``frame`` takes one frame's
    outcome at the input (its sequence number, or None when the frame is too short to
    carry one; ``good`` = right length and not bad) and returns the events it causes:
    'block' (with the block's first sequence number in ``blocks``), 'bad', 'len',
    'order', 'lost'."""

    def __init__(self) -> None:
        self.pending: int | None = None  # first frame stored, waiting for its second
        self.blocks: list[int] = []

    def frame(self, seq: int | None, length_ok: bool, bad: bool) -> list[str]:
        ev: list[str] = []
        if seq is not None and seq % 2 == 0 and self.pending is not None:
            ev.append("lost")  # a new first frame overwrites the stored one
            self.pending = None
        if bad:
            return [*ev, "bad"]
        if not length_ok or seq is None:
            return [*ev, "len"]
        if seq % 2 == 0:
            self.pending = seq
            return ev
        if self.pending is not None and seq == self.pending + 1:
            self.blocks.append(self.pending)
            self.pending = None
            return [*ev, "block"]
        return [*ev, "order"]
