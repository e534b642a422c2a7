"""arp under random traffic at volume: a Verilator C++ driver (fuzz/arp_fuzz.cpp).

Random good and damaged ARP frames with bubbles and gaps, output backpressure, lookups and
millisecond ticks, all at once, for millions of cycles at DATA_W 8 and 64; the driver
checks every output frame, every lookup answer and the counters against its own
reference (see the header of arp_fuzz.cpp).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from syn import verilator_build

DRIVER = Path(__file__).resolve().parent / "fuzz" / "arp_fuzz.cpp"
PARAMS = {
    "ENTRIES": 16,
    "WAYS": 4,
    "RETRIES": 2,
    "RETRY_MS": 3,
    "EXPIRE_MS": 30,
    "REVALIDATE_MS": 20,
}
CYCLES = 1_000_000
# each seed alone exercises every kind of run the test counts; the second is volume
SEEDS = [1, pytest.param(2, marks=pytest.mark.long)]


def build(width: int) -> Path:
    # repeated lookups as the stack has them: compared through a register at 8 bits
    repeat = 2 if width == 8 else 1
    return verilator_build.build(
        "arp",
        [DRIVER],
        params={"DATA_W": width, **PARAMS, "REPEAT_LAT": repeat},
        defines={"DATA_W": width, "WAYS": PARAMS["WAYS"], "REPEAT_LAT": repeat},
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("width", [8, 64])
def test_arp_fuzz(width: int, seed: int) -> None:
    r = verilator_build.run(build(width), CYCLES, seed)
    stats = dict(zip(r.stdout.split()[::2], r.stdout.split()[1::2], strict=True))
    # the run exercised what it claims to: replies, drops, timeouts, expiry
    keys = ("req_rx", "malformed", "reply_rx", "hit", "miss", "timeout", "expired", "fast")
    for key in keys:
        assert int(stats[key]) > 0, f"seed {seed}: nothing counted in {key}: {r.stdout}"
