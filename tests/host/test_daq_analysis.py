"""Loss, gaps, duplicates, rates and fits on synthetic captures with known answers."""

from __future__ import annotations

import numpy as np
import pytest
from wirecore.daq.analysis import line_rate_goodput, linfit, stream_stats, wire_bytes
from wirecore.daq.rx import Capture


def cap_of(seqs: list[int], length: int = 1000, dt_ns: int = 1000) -> Capture:
    n = len(seqs)
    return Capture(
        np.array(seqs, np.uint64),
        np.zeros(n, np.uint64),
        np.full(n, length, np.uint32),
        np.arange(n, dtype=np.int64) * dt_ns,
        np.zeros(n, np.uint32),
        np.zeros(n, np.uint16),
    )


def test_no_loss() -> None:
    st = stream_stats(cap_of(list(range(100))), sent=100)
    assert (st.received, st.unique, st.lost, st.success, st.gap_events) == (100, 100, 0, 1.0, 0)
    assert st.duration_s == pytest.approx(99e-6)
    assert st.packets_per_s == pytest.approx(1e6)
    assert st.mbytes_per_s == pytest.approx(1000.0)  # 1000 bytes per µs
    assert st.jitter["p50_us"] == pytest.approx(1.0)


def test_gaps_duplicates_late_and_tail() -> None:
    seqs = [0, 1, 2, 5, 6, 6, 3, 9, 10]  # lost 4, 7, 8 and 11 (tail, sent = 12)
    st = stream_stats(cap_of(seqs), sent=12)
    assert st.duplicates == 1
    assert st.late == 1  # the 3 (the second 6 is a duplicate, not late)
    assert st.unique == 8
    assert st.lost == 4
    assert st.gap_hist == {1: 2, 2: 1}  # {4}, {7, 8}, {11}
    assert st.gap_events == 3
    assert st.success == pytest.approx(8 / 12)


def test_unknown_sent_uses_span_and_ignores_short() -> None:
    c = cap_of([10, 11, 13])
    c.length[1] = 8  # too short: not in the format, ignored
    st = stream_stats(c)
    assert (st.received, st.ignored, st.expected, st.lost) == (2, 1, 4, 2)
    assert st.gap_hist == {2: 1}


def test_nothing_received() -> None:
    st = stream_stats(Capture.empty(), sent=5)
    assert (st.received, st.lost, st.success) == (0, 5, 0.0)


def test_linfit_and_wire_model() -> None:
    x = np.array([16, 64, 512, 1472])
    f = linfit(x, 0.016 * x + 20.0)
    assert f.slope == pytest.approx(0.016)
    assert f.intercept == pytest.approx(20.0)
    assert f.r2 == pytest.approx(1.0)
    with pytest.raises(ValueError):
        linfit([1, 1], [2, 3])
    assert wire_bytes(1472) == 1472 + 66
    assert wire_bytes(1) == 8 + 64 + 12  # padded to the 64-byte minimum frame
    assert line_rate_goodput(1472) == pytest.approx(125e6 * 1472 / 1538)


def test_delay_variation_removes_offset_and_drift() -> None:
    n = 1000
    clock = 125e6
    send_cycles = np.arange(n, dtype=np.uint64) * 1000  # one datagram every 8 µs
    extra = np.zeros(n)
    extra[500] = 50.0  # one datagram held 50 µs in a queue
    # arrival = offset + send time * (1 + 20 ppm drift) + the extra delay
    arrive_ns = 7e9 + send_cycles.astype(np.float64) * 8.0 * (1 + 20e-6) + extra * 1e3
    c = cap_of(list(range(n)))
    c.fpga_ts = send_cycles
    c.t_ns = arrive_ns.astype(np.int64)
    from wirecore.daq.analysis import delay_variation_us

    d = delay_variation_us(c, clock)
    assert d.min() == pytest.approx(0.0)
    assert d[500] == pytest.approx(50.0, abs=0.2)
    assert np.delete(d, 500).max() < 0.2  # drift and offset gone
