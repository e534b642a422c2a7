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
    wire_spacing: dict[int, int] | None = None,
) -> None:
    """The PC's inter-arrival histogram, the distribution of sequence gaps, given the
    one-way delay variation its course over the run, and given the spacing of the
    generator's frames on the board's wire (exact, simulated time) its histogram."""
    kinds = ["ia", "gaps"]
    if delays is not None and len(delays):
        kinds.append("delay")
    if wire_spacing:
        kinds.insert(0, "wire")
    fig, axes = plt.subplots(1, len(kinds), figsize=(5.5 * len(kinds), 4))
    ax = dict(zip(kinds, axes, strict=True))
    a, b = ax["ia"], ax["gaps"]
    if len(ia_us):
        hi = float(np.percentile(ia_us, 99.9)) * 1.2 or 1.0
        a.hist(np.clip(ia_us, 0, hi), bins=200, log=True, color="tab:blue")
    a.set_xlabel("PC: inter-arrival time (µs, kernel timestamps)")
    a.set_ylabel("datagrams")
    a.set_title(
        f"PC: {st.mbytes_per_s:.1f} MB/s, {st.packets_per_s:.0f} pkt/s, "
        f"success {100 * st.success:.3f} %"
    )
    if st.gap_hist:
        sizes = sorted(st.gap_hist)
        b.bar([str(s) for s in sizes], [st.gap_hist[s] for s in sizes], color="tab:red")
    else:
        b.text(0.5, 0.5, "no gaps", ha="center", va="center", transform=b.transAxes)
    b.set_xlabel("PC: gap size (datagrams missing in a row)")
    b.set_ylabel("occurrences")
    b.set_title(f"PC: lost {st.lost} of {st.expected}")
    if "delay" in ax and delays is not None:
        c = ax["delay"]
        c.plot(np.arange(len(delays)), delays, ",", color="tab:green")
        c.set_xlabel("PC: datagram (arrival order)")
        c.set_ylabel("PC: one-way delay variation (µs)")
        c.set_title(f"p99 {np.percentile(delays, 99):.1f} µs, max {delays.max():.1f} µs")
    if wire_spacing:
        w = ax["wire"]
        w.bar(list(wire_spacing), list(wire_spacing.values()), width=1.0, color="tab:purple")
        w.set_yscale("log")
        lo, hi = min(wire_spacing), max(wire_spacing)
        pad = max(3.0, (hi - lo) * 0.1)
        w.set_xlim(lo - pad, hi + pad)
        w.set_xlabel("board's wire: spacing, start to start (cycles of 8 ns)")
        w.set_ylabel("frames")
        mode = max(wire_spacing, key=lambda k: wire_spacing[k])
        w.set_title(f"wire (simulated time): mode {mode} cycles = {mode * 8} ns")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def latency_plot(
    path: Path,
    sizes: np.ndarray,
    rtt_us: np.ndarray,
    medians: dict[int, float],
    fit: LinFit,
    wire: dict | None = None,
) -> None:
    """Round-trip time against payload size at the PC, every sample, the medians and the
    fit; given the board's turnaround on its wire (``{"medians_ns": {measure: {size: ns}},
    "fits": {measure: LinFit}}``), those medians and fits beside it."""
    fig, axes = plt.subplots(1, 2 if wire else 1, figsize=(7 * (2 if wire else 1), 4.5))
    ax = axes[0] if wire else axes
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
    ax.set_ylabel("PC: round trip (µs, wall clock)")
    ax.set_title("at the PC")
    # outliers (scheduling hiccups) would flatten the plot: show up to 3x the medians
    top = min(float(np.percentile(rtt_us, 99)) * 1.2, max(medians.values()) * 3)
    ax.set_ylim(0, max(top, max(medians.values()) * 1.2))
    ax.legend()
    if wire:
        w = axes[1]
        for (m, pts), color in zip(
            wire["medians_ns"].items(), ("tab:blue", "tab:green"), strict=False
        ):
            x = np.array(sorted(pts))
            f = wire["fits"][m]
            name = m.replace("_", " ").replace(" in ", " in -> ", 1)
            w.plot(x, [pts[k] for k in x], "o", color=color, label=name)
            w.plot(
                x,
                f.slope * x + f.intercept,
                "-",
                color=color,
                label=f"fit: {f.slope:.3f} ns/byte, {f.intercept:,.0f} ns",
            )
        w.set_xlabel("payload (bytes)")
        w.set_ylabel("board's turnaround (ns, simulated time)")
        w.set_title("on the board's wire")
        w.set_ylim(bottom=0)
        w.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def daq_plot(
    path: Path,
    ns: list[int],
    results: dict[str, dict[int, dict[str, float]]],
    wire: dict[str, dict[str, float]] | None = None,
) -> None:
    """Event-building time against the number of boards at the PC: median, bars from min to
    p99; given each board's service time on its wire (``{ip: summary in cycles}``), those
    beside it."""
    fig, axes = plt.subplots(1, 2 if wire else 1, figsize=(7 * (2 if wire else 1), 4.5))
    ax = axes[0] if wire else axes
    for mode, color in (("sequential", "tab:red"), ("grouped", "tab:blue")):
        r = results.get(mode)
        if not r:
            continue
        med = [r[n]["median"] for n in ns]
        lo = [r[n]["median"] - r[n]["min"] for n in ns]
        hi = [r[n]["p99"] - r[n]["median"] for n in ns]
        ax.errorbar(ns, med, yerr=[lo, hi], fmt="o-", capsize=3, color=color, label=mode)
    ax.set_xlabel("boards")
    ax.set_ylabel("PC: event-building time (µs, median; bars min..p99)")
    ax.set_title("at the PC (wall clock)")
    ax.set_xticks(ns)
    ax.legend()
    if wire:
        w = axes[1]
        ips = list(wire)
        med = [wire[ip]["median"] * 8 for ip in ips]
        lo = [(wire[ip]["median"] - wire[ip]["min"]) * 8 for ip in ips]
        hi = [(wire[ip]["max"] - wire[ip]["median"]) * 8 for ip in ips]
        w.errorbar(range(len(ips)), med, yerr=[lo, hi], fmt="o", capsize=3, color="tab:green")
        w.set_xticks(range(len(ips)), ips)
        w.set_ylabel("service time, last in -> first out (ns; bars min..max)")
        w.set_title("on each board's wire (simulated time)")
        w.set_ylim(0, max(m + h for m, h in zip(med, hi, strict=True)) * 1.2)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def duplex_plot(
    path: Path,
    tx_t: np.ndarray,
    rx_t: np.ndarray,
    bin_ms: float = 10.0,
    wire_t: tuple[list[int], list[int]] | None = None,
) -> None:
    """Datagrams per time bin in both directions at the PC (wall clock) and, given the
    stamps of the requests and echoes on the board's wire, frames per bin of simulated
    time there."""
    panels = 2 if wire_t is not None else 1
    fig, axes = plt.subplots(1, panels, figsize=(7 * panels, 4), squeeze=False)
    ax = axes[0][0]
    t0 = min(float(tx_t.min()) if len(tx_t) else 0, float(rx_t.min()) if len(rx_t) else 0)
    for t, label in ((tx_t, "PC -> board"), (rx_t, "board -> PC")):
        if len(t):
            ms = (t - t0) / 1e6
            bins = np.arange(0, ms.max() + bin_ms, bin_ms)
            h, e = np.histogram(ms, bins=bins)
            ax.step(e[:-1], h / (bin_ms / 1e3), where="post", label=label)
    ax.set_xlabel("PC: time (ms, wall clock)")
    ax.set_ylabel("PC: datagrams/s")
    ax.set_title("at the PC")
    ax.legend()
    if wire_t is not None:
        w = axes[0][1]
        stamps = [np.asarray(x, dtype=np.int64) for x in wire_t]
        t0 = min((int(x.min()) for x in stamps if len(x)), default=0)
        t1 = max((int(x.max()) for x in stamps if len(x)), default=0)
        bin_us = max((t1 - t0) / 1e3 / 50, 1.0)
        for t, label in zip(stamps, ("into the board", "out of the board"), strict=True):
            if len(t):
                us = (t - t0) / 1e3
                h, e = np.histogram(us, bins=np.arange(0, us.max() + bin_us, bin_us))
                w.step(e[:-1], h / (bin_us / 1e6), where="post", label=label)
        w.set_xlabel("board's wire: simulated time (µs)")
        w.set_ylabel("frames/s (simulated time)")
        w.set_ylim(bottom=0)
        w.set_title("on the board's wire")
        w.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
