"""arp under random traffic at volume: a Verilator C++ driver (fuzz/arp_fuzz.cpp).

Random good and damaged ARP frames with bubbles and gaps, output backpressure, lookups and
millisecond ticks, all at once, for millions of cycles at DATA_W 8 and 64; the driver
checks every output frame, every lookup answer and the counters against its own
reference (see the header of arp_fuzz.cpp).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DRIVER = Path(__file__).resolve().parent / "fuzz" / "arp_fuzz.cpp"
BUILD = ROOT / "build" / "arp_fuzz"
PARAMS = {
    "ENTRIES": 16,
    "WAYS": 4,
    "RETRIES": 2,
    "RETRY_MS": 3,
    "EXPIRE_MS": 30,
    "REVALIDATE_MS": 20,
}
CYCLES = 1_000_000


def build(width: int) -> Path:
    # repeated lookups as the stack has them: compared through a register at 8 bits
    repeat = 2 if width == 8 else 1
    out = BUILD / f"w{width}"
    out.mkdir(parents=True, exist_ok=True)
    cmd = [
        "verilator",
        "--cc",
        "--exe",
        "--build",
        "-j",
        "2",
        "--top-module",
        "arp",
        f"-GDATA_W={width}",
        *(f"-G{k}={v}" for k, v in PARAMS.items()),
        f"-GREPEAT_LAT={repeat}",
        "-CFLAGS",
        f"-DDATA_W={width} -DWAYS={PARAMS['WAYS']} -DREPEAT_LAT={repeat} -O1",
        f"-I{ROOT / 'rtl' / 'arp'}",
        "-Mdir",
        str(out),
        str(ROOT / "rtl" / "arp" / "arp.v"),
        str(DRIVER),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out / "Varp"


@pytest.mark.skipif(shutil.which("verilator") is None, reason="verilator not installed")
@pytest.mark.parametrize("width", [8, 64])
def test_arp_fuzz(width: int) -> None:
    exe = build(width)
    for seed in (1, 2):
        r = subprocess.run(
            [str(exe), str(CYCLES), str(seed)], capture_output=True, text=True, timeout=600
        )
        assert r.returncode == 0, f"seed {seed}: {r.stderr}{r.stdout}"
        stats = dict(zip(r.stdout.split()[::2], r.stdout.split()[1::2], strict=True))
        # the run exercised what it claims to: replies, drops, timeouts, expiry
        keys = ("req_rx", "malformed", "reply_rx", "hit", "miss", "timeout", "expired", "fast")
        for key in keys:
            assert int(stats[key]) > 0, f"seed {seed}: nothing counted in {key}: {r.stdout}"
