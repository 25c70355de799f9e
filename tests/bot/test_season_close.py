"""Closing seasons over a real store: every ended season from where the last closed one
ended, only the one that just ended announced, a lost announcement kept for the next run,
a change of length picking up without counting a hand twice, and nothing while off."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import Translations
from bot.outbox import Delivery
from bot.season_close import SeasonCloser, thread_for
from bot.seasons import ClosedSeason, Period, SeasonLength
from bot.store import Store, Table
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
    # The week of 30 November is the current season, from where November's ended.
    assert await seasons.current(await store.chats.get(CHAT)) == Period(
        utc(2026, 12, 1), utc(2026, 12, 7))
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


OTHER = -1002
"""A second group, listed before CHAT (groups come in the order of their ids)."""


async def two_groups(store: Store) -> dict[int, Table]:
    """CHAT (Ana and Bo) and OTHER (players 3 and 4), where Ana and player 3 won a hand on
    10 November."""
    tables = {CHAT: await seated_table(store, 2), OTHER: await seated_table(
        store, 2, chat_id=OTHER, first_user=3)}
    assert isinstance(store.clock, Clock)
    store.clock.now = utc(2026, 11, 10)
    await win(store, tables[CHAT], ANA)
    await win(store, tables[OTHER], 3)
    return tables


def champions(closed: list[ClosedSeason]) -> list[tuple[int, int, int, int | None]]:
    return [(s.chat_id, s.period.start, s.period.end, s.champion) for s in closed]


NOVEMBER = (utc(2026, 11, 1), utc(2026, 12, 1))


async def test_every_group_closes_its_season_in_one_run_and_the_next_run_leaves_them(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    await two_groups(store)
    seasons = closer(store, Group(), {})
    seasons.clock = lambda: float(utc(2026, 12, 3))
    assert champions(await seasons.close_ended()) == [
        (OTHER, *NOVEMBER, 3), (CHAT, *NOVEMBER, ANA)]

    async def read(chat_id: int) -> int:
        raise AssertionError(f"chat {chat_id} looked at again within its season")

    monkeypatch.setattr(store.seasons, "closed_until", read)
    assert await seasons.close_ended() == []
    monkeypatch.undo()
    # A month on, December held no hand: nothing to close, in either group.
    seasons.clock = lambda: float(utc(2027, 1, 3))
    assert await seasons.close_ended() == []


async def test_a_group_with_seasons_off_or_looked_at_leaves_the_next_group_its_close(
        store: Store) -> None:
    tables = await two_groups(store)
    lengths = {OTHER: SeasonLength.OFF}
    seasons = closer(store, Group(), lengths)
    seasons.clock = lambda: float(utc(2026, 12, 3))
    assert champions(await seasons.close_ended()) == [(CHAT, *NOVEMBER, ANA)]
    lengths[OTHER] = SeasonLength.MONTH
    assert champions(await seasons.close_ended()) == [(OTHER, *NOVEMBER, 3)]
    # OTHER was looked at in this month; CHAT now plays weeks, and its first one has ended.
    assert isinstance(store.clock, Clock)
    store.clock.now = utc(2026, 12, 2)
    await win(store, tables[CHAT], BO)
    lengths[CHAT] = SeasonLength.WEEK
    seasons.clock = lambda: float(utc(2026, 12, 10))
    assert champions(await seasons.close_ended()) == [
        (CHAT, utc(2026, 12, 1), utc(2026, 12, 7), BO)]


async def test_the_close_a_lost_announcement_and_a_failed_run_are_logged(
        store: Store, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await play_at(store, utc(2026, 11, 10), ANA)
    group = Group()
    group.lose = 1
    seasons = closer(store, group, {})
    seasons.clock = lambda: float(utc(2026, 12, 1, 1))
    with caplog.at_level(logging.INFO, logger="bot.season_close"):
        await seasons.tick()
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("INFO", f"seasons: chat {CHAT} closed {utc(2026, 11, 1)} to {utc(2026, 12, 1)},"
                 f" champion {ANA} with 1 points"),
        ("WARNING", f"seasons: the champion of chat {CHAT} is announced again at the next"
                    " run")]
    caplog.clear()

    async def broken() -> list[ClosedSeason]:
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(store.seasons, "due", broken)
    with caplog.at_level(logging.INFO, logger="bot.season_close"):
        await seasons.tick()
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("ERROR", "seasons: the run failed; the next one tries again")]
    assert group.sent == []
    monkeypatch.undo()
    await seasons.tick()
    assert len(group.sent) == 1


async def test_the_champion_is_announced_in_the_groups_language_and_chosen_topic(
        store: Store) -> None:
    await play_at(store, utc(2026, 11, 10), ANA)
    await store.chats.set_language(CHAT, "ru")
    await store.chats.set_topics(CHAT, (30, 12))
    group = Group()
    seasons = closer(store, group, {})
    seasons.clock = lambda: float(utc(2026, 12, 3))
    await seasons.tick()
    assert [(c, t) for c, t, _ in group.sent] == [(CHAT, 12)]
    assert "закончен. Чемпион: <b>player 1</b>" in group.sent[0][2]


class Queue:
    """The job queue's repeating jobs, as they were asked for."""

    def __init__(self) -> None:
        self.jobs: list[dict[str, object]] = []

    def run_repeating(self, callback: object, **kwargs: object) -> None:
        self.jobs.append(kwargs)


def test_the_job_runs_at_start_then_every_minute_under_its_name(store: Store) -> None:
    queue = Queue()
    closer(store, Group(), {}).schedule(queue)  # type: ignore[arg-type]
    [job] = queue.jobs
    assert (job["interval"], job["name"]) == (60.0, "seasons")
    first = job["first"]
    assert isinstance(first, float) and 0 < first < 1  # at start: not a minute later
