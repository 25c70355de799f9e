"""Charts drawn with matplotlib's Agg backend (no display needed); `bot.charts` loads this
module on the first chart.

The time axis speaks the reader's language: month names come from CLDR through Babel, and
an axis whose ticks fall within one day shows clock times in the server's time zone (as the
table's deadlines do) instead of the same date again and again.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
from babel.dates import format_datetime
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter

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


DAY = 1.0
"""One day in matplotlib's date numbers."""
MINUTE = DAY / 24 / 60


class TimeAxis(Formatter):
    """Tick labels of a time axis in `language` and the time zone `tz`: "1 Dec" when the
    ticks are days apart ("Dec 2026" when months apart); "21:45" when they fall within one
    day ("21:45:30" when less than a minute apart); "1 Dec 21:45" when hours apart over
    several days."""

    def __init__(self, language: str, tz: dt.tzinfo) -> None:
        super().__init__()
        self.language = language
        self.tz = tz

    def format_ticks(self, values: Sequence[float]) -> list[str]:
        pattern = self.pattern(values)
        return [self._text(v, pattern) for v in values]

    def __call__(self, x: float, pos: Any = None) -> str:
        return self._text(x, "d MMM HH:mm")

    def pattern(self, values: Sequence[float]) -> str:
        """The CLDR pattern that tells these ticks apart and says no more."""
        if len(values) < 2:
            return "d MMM HH:mm"
        step = min(b - a for a, b in itertools.pairwise(values))
        if step >= DAY * 28:
            return "MMM y"
        if step >= DAY * 0.99:
            return "d MMM"
        days = {self._when(v).date() for v in values}
        clock = "HH:mm:ss" if step < MINUTE * 0.99 else "HH:mm"
        return clock if len(days) == 1 else f"d MMM {clock}"

    def _when(self, value: float) -> dt.datetime:
        return mdates.num2date(value, tz=self.tz)  # type: ignore[no-untyped-call,no-any-return]

    def _text(self, value: float, pattern: str) -> str:
        return str(format_datetime(self._when(value), pattern, tzinfo=self.tz,
                                   locale=self.language))


def server_zone() -> dt.tzinfo:
    """The server's time zone (``TZ``), as the table message's deadlines use it."""
    zone = dt.datetime.now().astimezone().tzinfo
    assert zone is not None
    return zone


def _png(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI)
    return out.getvalue()


def _axes(fig: Figure, ax: Axes, title: str, label: str, language: str,
          tz: dt.tzinfo | None) -> None:
    """The zero line, large type, times below in the reader's language."""
    low, high = ax.dataLim.intervalx
    if high - low < MINUTE / 60:  # one moment only: an hour around it, not years
        ax.set_xlim(low - 30 * MINUTE, high + 30 * MINUTE)
    ax.axhline(0, color="#888888", linewidth=1)
    ax.set_title(_literal(title), fontsize=20, pad=12)
    ax.set_ylabel(label, fontsize=16)
    ax.tick_params(labelsize=13)
    ax.grid(True, alpha=0.3)
    zone = tz or server_zone()
    locator = mdates.AutoDateLocator(tz=zone, maxticks=6)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(TimeAxis(language, zone))


def chips_figure(series: list[tuple[int, int]], name: str, place: str, label: str, *,
                 language: str = "en", tz: dt.tzinfo | None = None) -> Figure:
    """The figure of `chips_chart` (the caller closes it)."""
    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    _line(ax, series, COLOURS[0])
    _axes(fig, ax, f"{name} · {place}", label, language, tz)
    return fig


def chips_chart(series: list[tuple[int, int]], name: str, place: str, label: str, *,
                language: str = "en", tz: dt.tzinfo | None = None) -> bytes:
    """One clear line of a player's running net per hand, times on the x axis."""
    fig = chips_figure(series, name, place, label, language=language, tz=tz)
    try:
        return _png(fig)
    finally:
        plt.close(fig)


def group_figure(lines: list[tuple[str, list[tuple[int, int]]]], place: str, label: str, *,
                 language: str = "en", tz: dt.tzinfo | None = None) -> Figure:
    """The figure of `group_chart` (the caller closes it)."""
    fig, ax = plt.subplots(figsize=(WIDTH_IN, GROUP_HEIGHT_IN), dpi=DPI)
    for (name, series), colour in zip(lines, COLOURS, strict=False):
        _line(ax, series, colour, name)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=min(4, len(lines)),
              fontsize=14, frameon=False)
    _axes(fig, ax, place, label, language, tz)
    return fig


def group_chart(lines: list[tuple[str, list[tuple[int, int]]]], place: str, label: str, *,
                language: str = "en", tz: dt.tzinfo | None = None) -> bytes:
    """One line per player of his running net over the window, names in the legend,
    times on the x axis and the chat's name on top."""
    fig = group_figure(lines, place, label, language=language, tz=tz)
    try:
        return _png(fig)
    finally:
        plt.close(fig)
