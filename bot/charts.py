"""Charts as PNG bytes, drawn with matplotlib's Agg backend (no display needed)."""

from __future__ import annotations

import datetime as dt
import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates
import matplotlib.pyplot as plt

WIDTH_IN, HEIGHT_IN, DPI = 8.0, 5.0, 120
"""960 x 600 pixels: sharp on a phone, a few dozen kilobytes."""


def chips_chart(series: list[tuple[int, int]], name: str, place: str, label: str) -> bytes:
    """One clear line of a player's running net per hand, dates on the x axis."""
    times = [mdates.date2num(dt.datetime.fromtimestamp(at, dt.UTC))  # type: ignore[no-untyped-call]
             for at, _ in series]
    values = [v for _, v in series]
    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    try:
        ax.plot(times, values, color="#1f77b4", linewidth=3, marker="o" if len(values) < 30
                else None, markersize=6)
        ax.axhline(0, color="#888888", linewidth=1)
        ax.set_title(f"{name} · {place}", fontsize=20, pad=12)
        ax.set_ylabel(label, fontsize=16)
        ax.tick_params(labelsize=13)
        ax.grid(True, alpha=0.3)
        ax.xaxis.set_major_formatter(mdates.DateFormatter("%d %b"))  # type: ignore[no-untyped-call]
        ax.xaxis.set_major_locator(mdates.AutoDateLocator(maxticks=6))  # type: ignore[no-untyped-call]
        fig.tight_layout()
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=DPI)
        return out.getvalue()
    finally:
        plt.close(fig)
