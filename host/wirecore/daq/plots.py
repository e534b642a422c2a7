"""PNG plots of data-acquisition runs (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from wirecore.daq.analysis import LinFit, StreamStats  # noqa: E402


def stream_plot(
    path: Path,
    ia_us: np.ndarray,
    st: StreamStats,
    title: str = "",
    delays: np.ndarray | None = None,
) -> None:
    """Inter-arrival jitter histogram, the distribution of sequence gaps and, given the
    one-way delay variation, its course over the run."""
    panels = 3 if delays is not None and len(delays) else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 4))
    a, b = axes[0], axes[1]
    if len(ia_us):
        hi = float(np.percentile(ia_us, 99.9)) * 1.2 or 1.0
        a.hist(np.clip(ia_us, 0, hi), bins=200, log=True, color="tab:blue")
    a.set_xlabel("inter-arrival time (µs)")
    a.set_ylabel("datagrams")
    a.set_title(
        f"{st.mbytes_per_s:.1f} MB/s, {st.packets_per_s:.0f} pkt/s, "
        f"success {100 * st.success:.3f} %"
    )
    if st.gap_hist:
        sizes = sorted(st.gap_hist)
        b.bar([str(s) for s in sizes], [st.gap_hist[s] for s in sizes], color="tab:red")
    else:
        b.text(0.5, 0.5, "no gaps", ha="center", va="center", transform=b.transAxes)
    b.set_xlabel("gap size (datagrams missing in a row)")
    b.set_ylabel("occurrences")
    b.set_title(f"lost {st.lost} of {st.expected}")
    if panels == 3 and delays is not None:
        c = axes[2]
        c.plot(np.arange(len(delays)), delays, ",", color="tab:green")
        c.set_xlabel("datagram (arrival order)")
        c.set_ylabel("one-way delay variation (µs)")
        c.set_title(f"p99 {np.percentile(delays, 99):.1f} µs, max {delays.max():.1f} µs")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def latency_plot(
    path: Path, sizes: np.ndarray, rtt_us: np.ndarray, medians: dict[int, float], fit: LinFit
) -> None:
    """Round-trip time against payload size, every sample, the medians and the fit."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.scatter(sizes, rtt_us, s=4, alpha=0.25, color="tab:gray", label="samples")
    xs = np.array(sorted(medians))
    ax.plot(xs, [medians[x] for x in xs], "o", color="tab:blue", label="median")
    ax.plot(
        xs,
        fit.slope * xs + fit.intercept,
        "-",
        color="tab:red",
        label=f"fit: {fit.slope * 1e3:.3f} ns/byte, {fit.intercept:.1f} µs",
    )
    ax.set_xlabel("payload (bytes)")
    ax.set_ylabel("round trip (µs)")
    # outliers (scheduling hiccups) would flatten the plot: show up to 3x the medians
    top = min(float(np.percentile(rtt_us, 99)) * 1.2, max(medians.values()) * 3)
    ax.set_ylim(0, max(top, max(medians.values()) * 1.2))
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def daq_plot(path: Path, ns: list[int], results: dict[str, dict[int, dict[str, float]]]) -> None:
    """Event-building time against the number of boards: median, bars from min to p99."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for mode, color in (("sequential", "tab:red"), ("grouped", "tab:blue")):
        r = results.get(mode)
        if not r:
            continue
        med = [r[n]["median"] for n in ns]
        lo = [r[n]["median"] - r[n]["min"] for n in ns]
        hi = [r[n]["p99"] - r[n]["median"] for n in ns]
        ax.errorbar(ns, med, yerr=[lo, hi], fmt="o-", capsize=3, color=color, label=mode)
    ax.set_xlabel("boards")
    ax.set_ylabel("event-building time (µs, median; bars min..p99)")
    ax.set_xticks(ns)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def duplex_plot(path: Path, tx_t: np.ndarray, rx_t: np.ndarray, bin_ms: float = 10.0) -> None:
    """Datagrams per time bin in both directions."""
    fig, ax = plt.subplots(figsize=(7, 4))
    t0 = min(float(tx_t.min()) if len(tx_t) else 0, float(rx_t.min()) if len(rx_t) else 0)
    for t, label in ((tx_t, "PC -> board"), (rx_t, "board -> PC")):
        if len(t):
            ms = (t - t0) / 1e6
            bins = np.arange(0, ms.max() + bin_ms, bin_ms)
            h, e = np.histogram(ms, bins=bins)
            ax.step(e[:-1], h / (bin_ms / 1e3), where="post", label=label)
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("datagrams/s")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
