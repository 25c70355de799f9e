"""Closing seasons: a job that, at start and every minute, closes each group's seasons
that have ended and announces their champions there.

The record is the truth: a chat's seasons are closed from where its last closed season
ended (`bot.store.seasons.Seasons.closed_until`), each period that holds a hand of real
play getting its row, and a champion still to be announced is read back from the store
at every run, so one whose announcement was lost (or the process stopped before it went
out) is sent again while the bot runs and after a restart. Only the season that ended at
the start of the current one is announced: a season closed late (the bot was down for
longer than a season) is kept, and listed by /season last, without news the group would
read as stale. What stays in memory is only which chats were looked at in the current
period, so the minute's run leaves them alone until it ends or their length changes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from telegram.ext import JobQueue

from bot.i18n import Translations
from bot.outbox import Delivery
from bot.render.seasons import champion_text
from bot.seasons import ClosedSeason, Period, SeasonLength, period_of
from bot.store import Store
from bot.store.models import Chat

log = logging.getLogger(__name__)

CHECK_SECONDS = 60.0
"""How often the job looks for seasons that have ended."""


class Announcer(Protocol):
    async def announce(self, chat_id: int, thread_id: int | None, text: str) -> Delivery:
        """Send `text` into the group; how it ended."""


def thread_for(chat: Chat) -> int | None:
    """Where an announcement goes in a forum: the General topic, unless the chat's admins
    keep the bot to chosen topics without it (then the first of them)."""
    if not chat.topics or 0 in chat.topics:
        return None
    return min(chat.topics)


class SeasonCloser:
    """Closes the seasons that have ended and announces their champions."""

    def __init__(self, store: Store, outbox: Announcer, translations: Translations,
                 length_of: Callable[[Chat], SeasonLength],
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.outbox = outbox
        self.translations = translations
        self.length_of = length_of
        """A chat's season length, from its settings."""
        self.clock = clock
        """The wall clock seasons are read by (UTC calendar periods)."""
        self._looked: dict[int, tuple[SeasonLength, int]] = {}
        self._lock = asyncio.Lock()

    def schedule(self, queue: JobQueue[Any]) -> None:
        """Run at start, then every `CHECK_SECONDS`."""

        async def job(_: Any) -> None:
            await self.tick()

        # first=0 would be read as "not given" and wait a whole interval.
        queue.run_repeating(job, interval=CHECK_SECONDS, first=0.1, name="seasons")

    async def tick(self) -> None:
        """Close what has ended, then send the announcements still due. A run still busy
        (an announcement waiting out a flood) is not joined by the next one."""
        if self._lock.locked():
            return
        async with self._lock:
            try:
                await self.close_ended()
                await self.announce_due()
            except Exception:
                log.exception("seasons: the run failed; the next one tries again")

    async def current(self, chat: Chat) -> Period | None:
        """The chat's season now (from where its last closed one ended), None if it has
        none (off, or the clock stands before the last closed season's end)."""
        length = self.length_of(chat)
        if length is SeasonLength.OFF:
            return None
        since = await self.store.seasons.closed_until(chat.id)
        return period_of(self.clock(), length).since(since)

    async def close_ended(self) -> list[ClosedSeason]:
        """Close every group's seasons that ended before the current one; the ones closed."""
        closed: list[ClosedSeason] = []
        now = self.clock()
        for chat in await self.store.seasons.groups():
            length = self.length_of(chat)
            if length is SeasonLength.OFF:
                continue
            current = period_of(now, length)
            if self._looked.get(chat.id) == (length, current.start):
                continue
            closed += await self._close_chat(chat.id, length, current)
            self._looked[chat.id] = (length, current.start)
        return closed

    async def _close_chat(self, chat_id: int, length: SeasonLength,
                          current: Period) -> list[ClosedSeason]:
        closed: list[ClosedSeason] = []
        since = await self.store.seasons.closed_until(chat_id)
        while since < current.start:
            first = await self.store.seasons.first_hand(chat_id, Period(since, current.start))
            if first is None:
                break
            period = period_of(first, length).since(since)
            assert period is not None  # `first` is at or after `since`
            season = await self.store.seasons.close(chat_id, period, length,
                                                    announce=period.end >= current.start)
            if season is not None:
                log.info("seasons: chat %s closed %s to %s, champion %s with %s points",
                         chat_id, period.start, period.end, season.champion, season.points)
                closed.append(season)
            since = period.end
        return closed

    async def announce_due(self) -> None:
        """Send each champion's announcement still due; one that could not go out stays due
        for the next run (and the next start)."""
        for season in await self.store.seasons.due():
            chat = await self.store.chats.get(season.chat_id)
            tr = self.translations.get(chat.language)
            how = await self.outbox.announce(chat.id, thread_for(chat), champion_text(tr, season))
            if how.settled:
                await self.store.seasons.announced(season.chat_id, season.period)
            else:
                log.warning("seasons: the champion of chat %s is announced again at the next"
                            " run", season.chat_id)


__all__ = ["CHECK_SECONDS", "Announcer", "SeasonCloser", "thread_for"]
