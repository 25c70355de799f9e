"""What every bench script shares: the settings' fake token, percentiles, peak memory, a
counter of logged warnings and errors, and a table's group of people in the stand-in."""

from __future__ import annotations

import logging
import math
import resource
from collections import Counter
from collections.abc import Sequence

from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from bot.sandbox.world import World

FAKE_TOKEN = "12345:" + "b" * 35
"""Only for the settings check: the application is given the stand-in's own token."""


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest rank: the smallest value with at least `share` of all at or below it (0 for
    no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered) - 1e-9))
    return ordered[rank - 1]


def peak_rss_mb() -> float:
    """The process's peak resident set so far (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class LogCounter(logging.Handler):
    """Counts the bot's (and PTB's) warnings and errors, keeping a few for the report."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()
        self.samples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[record.levelname] += 1
        if record.levelno >= logging.ERROR and len(self.samples) < 3:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({record.exc_info[1]!r})"
            self.samples.append(f"{record.name}: {text}"[:300])


def buttons_of(message: MessageRecord) -> list[tuple[str, str]]:
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    return [(str(b.get("text", "")), str(b.get("callback_data", "")))
            for row in rows for b in row if b.get("callback_data")]


def table_group(world: World, number: int, seats: int,
                bot_admin: bool = False) -> tuple[list[Player], ChatRecord]:
    """The people of table `number` and their group (the first of them is its admin; with
    `bot_admin` the bot is one too, so it pins the table message)."""
    players = [world.user(f"T{number}P{i}") for i in range(1, seats + 1)]
    return players, world.group(f"Table {number}", members=players, admins=players[:1],
                                bot_admin=bot_admin)
