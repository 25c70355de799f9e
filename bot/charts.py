"""Charts as PNG bytes. matplotlib is loaded on the first chart, not with the bot: it
takes seconds to import, and most starts never draw one (`bot.drawing` draws them)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import ModuleType


def _drawing() -> ModuleType:
    import bot.drawing  # here on purpose: the first chart pays for matplotlib

    return bot.drawing


def chips_chart(series: list[tuple[int, int]], name: str, place: str, label: str, *,
                language: str = "en", tz: dt.tzinfo | None = None) -> bytes:
    """One clear line of a player's running net per hand, times on the x axis."""
    png: bytes = _drawing().chips_chart(series, name, place, label, language=language, tz=tz)
    return png


def group_chart(lines: list[tuple[str, list[tuple[int, int]]]], place: str, label: str, *,
                language: str = "en", tz: dt.tzinfo | None = None) -> bytes:
    """One line per player of his running net over the window, names in the legend,
    times on the x axis and the chat's name on top."""
    png: bytes = _drawing().group_chart(lines, place, label, language=language, tz=tz)
    return png


def __getattr__(name: str) -> Any:
    """Anything else of `bot.drawing` (its fonts, sizes), loading it on first use."""
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_drawing(), name)
