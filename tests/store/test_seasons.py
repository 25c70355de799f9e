"""Seasons in the store: standings summed from the chat's hands of real play within the
period, a season closed once with its champion in one transaction, its announcement due
until it is told delivered, and the champions listed newest first."""

from __future__ import annotations

import datetime as dt
import random
import sqlite3

import pytest

from bot.seasons import Period, SeasonLength
from bot.store import Store, StoreError
from bot.store.practice import computer_of
from bot.store.sql import Conn
from tests.store.conftest import RULES, Clock, can_deal, play_hand, seated_table
from tests.store.test_achievements import win

ANA, BO, CY = 1, 2, 3
CHAT = -1001


def utc(year: int, month: int, day: int, hour: int = 0) -> int:
    return int(dt.datetime(year, month, day, hour, tzinfo=dt.UTC).timestamp())


NOVEMBER = Period(utc(2026, 11, 1), utc(2026, 12, 1))
DECEMBER = Period(utc(2026, 12, 1), utc(2027, 1, 1))


async def test_the_standings_count_the_chats_hands_of_the_period_only(
        store: Store, clock: Clock) -> None:
    table = await seated_table(store, 3)
    clock.now = utc(2026, 11, 30, 23)
    await win(store, table, BO)  # November
    clock.now = utc(2026, 12, 3)
    for winner in (ANA, BO, ANA, CY, ANA):
        await win(store, table, winner)
    other = await seated_table(store, 2, chat_id=-2002, first_user=10)
    await win(store, other, 10)  # another chat
    board = await store.seasons.standings(CHAT, DECEMBER)
    assert [(s.rank, s.user_id, s.points, s.won) for s in board] == [
        (1, ANA, 3, 3), (2, BO, 1, 1), (3, CY, 1, 1)]
    assert [(s.user_id, s.points) for s in await store.seasons.standings(CHAT, NOVEMBER)] == [
        (BO, 1)]
    assert await store.seasons.first_hand(CHAT, DECEMBER) == utc(2026, 12, 3)
    assert await store.seasons.first_hand(CHAT, Period(utc(2027, 1, 1), utc(2027, 2, 1))) is None


async def test_a_svara_won_counts_one_point_more(store: Store, clock: Clock) -> None:
    table = await seated_table(store, 2)
    clock.now = utc(2026, 12, 3)
    hand_id, _, _ = await win(store, table, BO)
    await win(store, table, ANA)
    # The record says Bo's pot came from a svara (as a svara's PotWon writes it).
    await store.db.write(lambda conn: conn.execute(
        "UPDATE hand_players SET svara = 1, svara_won = 1 WHERE hand_id = ? AND user_id = ?",
        (hand_id, BO)))
    board = await store.seasons.standings(CHAT, DECEMBER)
    assert [(s.user_id, s.points, s.won, s.svaras_won) for s in board] == [
        (BO, 2, 1, 1), (ANA, 1, 1, 0)]


async def test_practice_and_computer_players_never_score(store: Store, clock: Clock) -> None:
    clock.now = utc(2026, 12, 3)
    await store.users.ensure(ANA, "Ana", starting_chips=1000)
    practice = await store.tables.open_practice(
        ANA, [(computer_of(ANA, 1), "Bot 1")], rules=RULES.to_json(), buy_in=500,
        wallet_name="Ana's practice chips")
    rng = random.Random(3)
    for n in range(4):
        if not can_deal([s.stack for s in await store.tables.seats(practice.id)]):
            break
        await play_hand(store, practice, rng, dealer=n % 2)
    # Rows a practice table wrote before practice wrote none count neither.
    settled = await store.db.fetchall("SELECT id FROM hands WHERE table_id = ?", (practice.id,))
    assert settled
    await store.db.write(lambda conn: conn.executemany(
        "INSERT INTO hand_players (hand_id, user_id, chat_id, net, won, svara, svara_won, pot,"
        " at) VALUES (?, ?, ?, 10, 1, 0, 0, 20, ?)",
        [(r[0], u, ANA, utc(2026, 12, 3)) for r in settled for u in (ANA, computer_of(ANA, 1))]))
    assert await store.seasons.standings(ANA, DECEMBER) == []
    assert await store.seasons.first_hand(ANA, DECEMBER) is None


async def test_a_season_closes_once_with_its_champion_due_to_be_announced(
        store: Store, clock: Clock) -> None:
    table = await seated_table(store, 2)
    clock.now = utc(2026, 12, 3)
    for winner in (BO, ANA, BO):
        await win(store, table, winner)
    clock.now = utc(2027, 1, 1, 0) + 60
    closed = await store.seasons.close(CHAT, DECEMBER, SeasonLength.MONTH, announce=True)
    assert closed is not None
    assert (closed.champion, closed.name, closed.points, closed.won, closed.announce_due,
            closed.closed_at, closed.length) == (BO, "player 2", 2, 2, True,
                                                 utc(2027, 1, 1) + 60, SeasonLength.MONTH)
    # Closed once: a second close (another run, a restart) writes nothing.
    assert await store.seasons.close(CHAT, DECEMBER, SeasonLength.MONTH, announce=True) is None
    assert await store.seasons.closed_until(CHAT) == DECEMBER.end
    assert [s.period for s in await store.seasons.due()] == [DECEMBER]
    await store.seasons.announced(CHAT, DECEMBER)
    assert await store.seasons.due() == []
    assert [(s.period, s.champion) for s in await store.seasons.champions(CHAT, 6)] == [
        (DECEMBER, BO)]


async def test_a_season_nobody_scored_in_closes_without_champion_or_announcement(
        store: Store) -> None:
    await seated_table(store, 2)
    closed = await store.seasons.close(CHAT, NOVEMBER, SeasonLength.MONTH, announce=True)
    assert closed is not None and (closed.champion, closed.points, closed.won,
                                   closed.announce_due) == (None, 0, 0, False)
    assert await store.seasons.due() == []
    assert await store.seasons.champions(CHAT, 6) == []
    assert await store.seasons.closed_until(CHAT) == NOVEMBER.end


async def test_seasons_that_are_off_are_never_closed(store: Store) -> None:
    await seated_table(store, 2)
    with pytest.raises(ValueError, match=r"^a season that is off does not close$"):
        await store.seasons.close(CHAT, NOVEMBER, SeasonLength.OFF, announce=True)
    assert await store.seasons.closed_until(CHAT) == 0


async def test_the_champions_are_listed_newest_first_as_many_as_asked(
        store: Store, clock: Clock) -> None:
    table = await seated_table(store, 2)
    for month in range(1, 9):
        clock.now = utc(2026, month, 10)
        await win(store, table, ANA if month % 2 else BO)
        period = Period(utc(2026, month, 1), utc(2026, month + 1, 1))
        await store.seasons.close(CHAT, period, SeasonLength.MONTH, announce=False)
    listed = await store.seasons.champions(CHAT, 6)
    assert [(dt.datetime.fromtimestamp(s.period.start, dt.UTC).month, s.champion)
            for s in listed] == [(8, BO), (7, ANA), (6, BO), (5, ANA), (4, BO), (3, ANA)]


async def test_a_season_is_closed_in_one_transaction_or_not_at_all(
        store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await seated_table(store, 2)
    clock.now = utc(2026, 12, 3)
    await win(store, table, ANA)

    def broken(row: sqlite3.Row) -> object:
        raise RuntimeError("the season could not be read back")

    monkeypatch.setattr("bot.store.seasons._closed", broken)
    with pytest.raises(RuntimeError):
        await store.seasons.close(CHAT, DECEMBER, SeasonLength.MONTH, announce=True)
    assert await store.db.fetchall("SELECT * FROM seasons") == []


async def test_the_record_refuses_a_champion_without_points_and_news_without_a_champion(
        store: Store) -> None:
    await seated_table(store, 2)
    for champion, points, due in ((ANA, 0, 0), (None, 3, 0), (None, 0, 1)):
        row = (CHAT, DECEMBER.start, DECEMBER.end, champion, points, due)

        async def insert(conn: Conn, row: tuple[int | None, ...] = row) -> None:
            await conn.execute(
                "INSERT INTO seasons (chat_id, starts, ends, length, champion, points,"
                " closed_at, announce_due) VALUES (?, ?, ?, 'month', ?, ?, 0, ?)", row)

        with pytest.raises(StoreError):
            await store.db.write(insert)


async def test_a_group_that_becomes_a_supergroup_keeps_its_seasons(
        store: Store, clock: Clock) -> None:
    table = await seated_table(store, 2)
    clock.now = utc(2026, 12, 3)
    await win(store, table, ANA)
    await store.seasons.close(CHAT, DECEMBER, SeasonLength.MONTH, announce=True)
    await store.chats.migrate(CHAT, -100999)
    assert await store.seasons.champions(CHAT, 6) == []
    assert [(s.chat_id, s.champion, s.announce_due)
            for s in await store.seasons.champions(-100999, 6)] == [(-100999, ANA, True)]
