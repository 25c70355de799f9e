"""Closing seasons over a real store: every ended season from where the last closed one
ended, only the one that just ended announced, a lost announcement kept for the next run,
a change of length picking up without counting a hand twice, and nothing while off."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import Translations
from bot.outbox import Delivery
from bot.season_close import SeasonCloser, thread_for
from bot.seasons import Period, SeasonLength
from bot.store import Store
from bot.store.models import Chat
from tests.store.conftest import Clock, seated_table
from tests.store.test_achievements import win

ANA, BO = 1, 2
CHAT = -1001


def utc(year: int, month: int, day: int, hour: int = 0) -> int:
    return int(dt.datetime(year, month, day, hour, tzinfo=dt.UTC).timestamp())


class Group:
    """The announcements as the group would get them; `lose` of them are lost first."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int | None, str]] = []
        self.lose = 0

    async def announce(self, chat_id: int, thread_id: int | None, text: str) -> Delivery:
        if self.lose:
            self.lose -= 1
            return Delivery.LOST
        self.sent.append((chat_id, thread_id, text))
        return Delivery.SENT


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "svara.sqlite3", clock=Clock())
    try:
        yield s
    finally:
        await s.close()


def closer(store: Store, group: Group, lengths: dict[int, SeasonLength]) -> SeasonCloser:
    return SeasonCloser(store, group, Translations.load(),
                        lambda chat: lengths.get(chat.id, SeasonLength.MONTH))


async def play_at(store: Store, when: int, *winners: int) -> None:
    assert isinstance(store.clock, Clock)
    store.clock.now = when
    table = (await store.tables.live_tables() or [await seated_table(store, 2)])[0]
    for winner in winners:
        await win(store, table, winner)


async def test_each_ended_month_closes_and_only_the_last_is_announced(store: Store) -> None:
    await play_at(store, utc(2026, 9, 10), ANA)
    await play_at(store, utc(2026, 11, 10), BO, BO)
    await play_at(store, utc(2026, 12, 2), ANA)  # the current month: not closed
    group = Group()
    seasons = closer(store, group, {})
    seasons.clock = lambda: float(utc(2026, 12, 3))
    await seasons.tick()
    rows = await store.db.fetchall("SELECT starts, champion, points, announce_due FROM seasons"
                                   " ORDER BY starts")
    # September and November held hands; October, with none, leaves no row.
    assert [tuple(r) for r in rows] == [(utc(2026, 9, 1), ANA, 1, 0), (utc(2026, 11, 1), BO, 2, 0)]
    assert [(c, t, text.splitlines()[0]) for c, t, text in group.sent] == [
        (CHAT, None, "🏆 The season 2026-11-01 – 2026-11-30 is over. Its champion: <b>player 2</b>,"
                     " 2 points, hands won: 2.")]
    await seasons.tick()
    assert len(group.sent) == 1


async def test_a_lost_announcement_waits_for_the_next_run(store: Store) -> None:
    await play_at(store, utc(2026, 11, 10), ANA)
    group = Group()
    group.lose = 1
    seasons = closer(store, group, {})
    seasons.clock = lambda: float(utc(2026, 12, 1, 1))
    await seasons.tick()
    assert group.sent == [] and len(await store.seasons.due()) == 1
    await seasons.tick()
    assert len(group.sent) == 1 and await store.seasons.due() == []


async def test_a_new_length_starts_where_the_last_season_ended(store: Store) -> None:
    await play_at(store, utc(2026, 11, 30, 12), ANA)  # Monday 30 November
    await play_at(store, utc(2026, 12, 1, 12), BO)
    group = Group()
    lengths = {CHAT: SeasonLength.MONTH}
    seasons = closer(store, group, lengths)
    seasons.clock = lambda: float(utc(2026, 12, 2))
    await seasons.tick()  # November closes with Ana
    lengths[CHAT] = SeasonLength.WEEK
    seasons.clock = lambda: float(utc(2026, 12, 8))
    await seasons.tick()
    rows = await store.db.fetchall("SELECT starts, ends, length, champion FROM seasons"
                                   " ORDER BY starts")
    # The week of 30 November counts from 1 December: Ana's Monday hand was November's.
    assert [tuple(r) for r in rows] == [
        (utc(2026, 11, 1), utc(2026, 12, 1), "month", ANA),
        (utc(2026, 12, 1), utc(2026, 12, 7), "week", BO)]
    chat = await store.chats.get(CHAT)
    assert await seasons.current(chat) == Period(utc(2026, 12, 7), utc(2026, 12, 14))


async def test_a_chat_whose_seasons_are_off_closes_none(store: Store) -> None:
    await play_at(store, utc(2026, 11, 10), ANA)
    group = Group()
    seasons = closer(store, group, {CHAT: SeasonLength.OFF})
    seasons.clock = lambda: float(utc(2026, 12, 3))
    await seasons.tick()
    assert await store.db.fetchall("SELECT * FROM seasons") == [] and group.sent == []
    assert await seasons.current(await store.chats.get(CHAT)) is None


def test_a_forum_kept_to_chosen_topics_hears_the_champion_in_the_first_of_them() -> None:
    assert thread_for(Chat(CHAT, "{}", None)) is None
    assert thread_for(Chat(CHAT, "{}", None, (0, 12))) is None
    assert thread_for(Chat(CHAT, "{}", None, (30, 12))) == 12
