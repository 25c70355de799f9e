"""Charts drawn with matplotlib's Agg backend (no display needed); `bot.charts` loads this
module on the first chart."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure

BASE_FAMILY = "DejaVu Sans"
FALLBACK_FAMILIES = ("Lohit Devanagari", "Noto Sans Devanagari")
"""Fonts for what DejaVu Sans cannot write (Hindi's Devanagari, in labels and names),
used when installed (the container installs Debian's ``fonts-lohit-deva``)."""


def _families() -> list[str]:
    """DejaVu Sans, then each installed fallback; fonts installed after matplotlib cached
    its list are found on the disk."""
    known = {f.name for f in font_manager.fontManager.ttflist}
    if not known.intersection(FALLBACK_FAMILIES):
        for path in font_manager.findSystemFonts():
            name = Path(path).name.lower()
            if "devanagari" in name:
                font_manager.fontManager.addfont(path)
        known = {f.name for f in font_manager.fontManager.ttflist}
    return [BASE_FAMILY, *(f for f in FALLBACK_FAMILIES if f in known)]


matplotlib.rcParams["font.family"] = _families()

WIDTH_IN, HEIGHT_IN, DPI = 8.0, 5.0, 120
"""960 x 600 pixels: sharp on a phone, a few dozen kilobytes."""


COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf")
"""One clearly different colour per line (at most eight lines are drawn)."""
GROUP_HEIGHT_IN = 6.5
"""960 x 780 pixels: room for the legend under the lines."""


def _literal(text: str) -> str:
    """Text shown as typed: matplotlib reads a pair of ``$`` as a formula."""
    return text.replace("$", r"\$")


def _line(ax: Axes, series: list[tuple[int, int]], colour: str, name: str | None = None) -> None:
    """A running net over time: one thick line, dots while there are few points."""
    times = [mdates.date2num(dt.datetime.fromtimestamp(at, dt.UTC))  # type: ignore[no-untyped-call]
             for at, _ in series]
    ax.plot(times, [v for _, v in series], color=colour, linewidth=3,
            marker="o" if len(series) < 30 else None, markersize=6,
            label=None if name is None else _literal(name))


def _png(fig: Figure, ax: Axes, title: str, label: str) -> bytes:
    """The zero line, large type, dates below; the figure as PNG bytes."""
    ax.axhline(0, color="#888888", linewidth=1)
    ax.set_title(_literal(title), fontsize=20, pad=12)
    ax.set_ylabel(label, fontsize=16)
    ax.tick_params(labelsize=13)
    ax.grid(True, alpha=0.3)
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%d %b"))  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(mdates.AutoDateLocator(maxticks=6))  # type: ignore[no-untyped-call]
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI)
    return out.getvalue()


def chips_chart(series: list[tuple[int, int]], name: str, place: str, label: str) -> bytes:
    """One clear line of a player's running net per hand, dates on the x axis."""
    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    try:
        _line(ax, series, COLOURS[0])
        return _png(fig, ax, f"{name} · {place}", label)
    finally:
        plt.close(fig)


def group_chart(lines: list[tuple[str, list[tuple[int, int]]]], place: str,
                label: str) -> bytes:
    """One line per player of his running net over the window, names in the legend,
    dates on the x axis and the chat's name on top."""
    fig, ax = plt.subplots(figsize=(WIDTH_IN, GROUP_HEIGHT_IN), dpi=DPI)
    try:
        for (name, series), colour in zip(lines, COLOURS, strict=False):
            _line(ax, series, colour, name)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=min(4, len(lines)),
                  fontsize=14, frameon=False)
        return _png(fig, ax, place, label)
    finally:
        plt.close(fig)
