"""Dates and durations in words, as the bot writes them in every language."""

from __future__ import annotations

import time

from bot.i18n import Html, Translator


def date_text(at: int | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at or 0))


def day_text(at: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def wait_text(tr: Translator, seconds: int) -> Html:
    hours, minutes = divmod(max(60, seconds) // 60, 60)
    if hours:
        return tr.format("{h} h {m} min", h=hours, m=minutes)
    return tr.format("{m} min", m=minutes)
