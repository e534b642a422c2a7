"""The CFAR reference model (host/wirecore/cfar.py) against independent references: its
fixed-point FFT against numpy's floating-point FFT (within the rounding the definition
allows), its CFAR against a direct numpy sliding-window computation, the scene
generator's targets found, the twiddle table's quarter-turn symmetry the accelerator uses,
and the twiddle ROM in rtl/ generated from it up to date."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from wirecore import cfar

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fft_matches_float_fft(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = np.arange(cfar.N)
    for x in (
        rng.integers(-(1 << 15), 1 << 15, cfar.N),
        cfar.random_scene(seed).samples(),
        np.where(n % 2 == 0, 32767, -32768),
        np.round(32767 * np.cos(2 * np.pi * (100 + seed / 3) * n / cfar.N)).astype(np.int64),
    ):
        re, im = cfar.fft_fixed(x)
        ref = np.fft.fft(x) * 2**cfar.IN_SHIFT / cfar.N
        err = np.concatenate([re - ref.real, im - ref.imag])
        # each stage rounds (<= 1/2 LSB) and halves the errors before it; the twiddles'
        # rounding (2^-15 per component) adds an error relative to the values
        assert np.abs(err).max() <= 2 + np.abs(ref).max() / 2**cfar.TWID_FRAC
        assert np.sqrt((err**2).mean()) < 1.0 + np.sqrt((ref.real**2).mean()) / 2**cfar.TWID_FRAC


def test_cfar_matches_sliding_window() -> None:
    rng = np.random.default_rng(9)
    mag = rng.integers(0, 1 << 20, cfar.N)
    for guard, train, alpha in [(0, 1, 4096), (2, 16, 900), (15, 127, 300), (3, 0, 100)]:
        dets, _ = cfar.cfar(mag, guard, train, alpha)
        idx = np.arange(cfar.BINS)
        offs = np.arange(guard + 1, guard + train + 1)
        s = np.zeros(cfar.BINS, dtype=np.int64)
        for d in offs:
            s += mag[(idx - d) % cfar.N] + mag[(idx + d) % cfar.N]
        thr = alpha * s >> cfar.ALPHA_FRAC
        hit = np.nonzero(mag[: cfar.BINS] > thr)[0]
        assert [d.bin for d in dets] == list(hit)
        assert [d.thr for d in dets] == list(thr[hit])


@pytest.mark.parametrize("seed", range(10))
def test_scene_targets_found(seed: int) -> None:
    scene = cfar.random_scene(seed)
    dets = cfar.detect(scene.samples(), 2, 16, cfar.alpha_word(8.0, 16))
    assert sorted(d.bin for d in dets) == sorted(scene.targets)


def test_result_format() -> None:
    dets = [cfar.Detection(5, 1000, 99), cfar.Detection(511, (1 << 24) - 1, 1)]
    data = cfar.result_bytes(0x1234567, dets, 1)
    assert data[:8] == bytes.fromhex("01234567 0002 0001")
    assert cfar.parse_result(data) == (0x1234567, 2, dets[:1])


def test_twiddle_quarter_turn() -> None:
    """W^(k+256) = -i W^k exactly in the rounded table: the accelerator takes the second
    butterfly's twiddle of an odd stage from the first's this way."""
    wr, wi = cfar.twiddles()
    assert list(wr[256:]) == list(wi[:256])
    assert list(wi[256:]) == list(-wr[:256])


def test_twiddle_rom_up_to_date() -> None:
    gen = ROOT / "scripts" / "gen_cfar_twiddle.py"
    r = subprocess.run([sys.executable, str(gen), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
