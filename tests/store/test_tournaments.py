"""A tournament in the store: the buy-ins in its pool, its own chips at its table, levels
by minutes whose deadline outlives a restart, refunds when it closes early, and an audit
that tells real chips from tournament chips."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from bot.seasons import Period
from bot.store import Store
from bot.store.errors import InsufficientChips
from bot.store.tournament_pool import Tournament
from bot.store.tournaments import NotRegistering
from bot.tournament import LevelClock, Schedule
from engine import Rules
from tests.store.conftest import Clock, play_hand

SCHEDULE = Schedule(buy_in=100, stack=300, antes=(10, 20, 40), every=5,
                    clock=LevelClock.MINUTES)


async def tournament(store: Store, players: int = 3, schedule: Schedule = SCHEDULE) -> int:
    for u in range(1, players + 1):
        await store.users.ensure(u, f"player {u}", starting_chips=1000)
    table = await store.tables.open(-1001, creator=1, rules=Rules(ante=10).to_json(),
                                    tournament=schedule)
    for u in range(1, players + 1):
        await store.tournaments.enter(table.id, u)
    return table.id


async def balances(store: Store, players: int = 3) -> list[int]:
    return [(await store.users.get(u)).balance for u in range(1, players + 1)]


async def test_an_entry_pays_the_pool_and_sits_with_tournament_chips(store: Store) -> None:
    table_id = await tournament(store)
    assert await balances(store) == [900, 900, 900]
    assert [s.stack for s in await store.tables.seats(table_id)] == [300, 300, 300]
    t = await store.tournaments.get(table_id)
    assert t is not None and (t.pool, t.entrants, t.status) == (300, 3, "registering")
    report = await store.audit()
    assert report.ok, report
    # Real chips: 2700 in balances + 300 in the pool; tournament chips: 900 at the table.
    assert (report.balances, report.pools, report.tournament_issued) == (2700, 300, 900)
    assert report.summary().endswith(
        "; of these, tournament chips: issued 900 = stacks 900 + open pots 0")


async def test_a_buy_in_above_the_balance_is_refused(store: Store) -> None:
    await store.users.ensure(1, "poor", starting_chips=50)
    table = await store.tables.open(-1001, creator=1, rules=Rules(ante=10).to_json(),
                                    tournament=SCHEDULE)
    try:
        await store.tournaments.enter(table.id, 1)
    except InsufficientChips as err:
        assert (err.have, err.need) == (50, 100)
    else:
        raise AssertionError("entered without the buy-in")
    assert await store.tables.seats(table.id) == []


async def test_a_balance_of_exactly_the_buy_in_enters(store: Store) -> None:
    await store.users.ensure(1, "just enough", starting_chips=100)
    table = await store.tables.open(-1001, creator=1, rules=Rules(ante=10).to_json(),
                                    tournament=SCHEDULE)
    seat = await store.tournaments.enter(table.id, 1)
    assert seat.stack == 300 and (await store.users.get(1)).balance == 0


async def test_leaving_before_the_start_gives_the_buy_in_back(store: Store) -> None:
    table_id = await tournament(store)
    left = await store.tables.leave(table_id, 2)
    assert left.cashed_out == 0  # tournament chips are withdrawn, not paid out
    assert await balances(store) == [900, 1000, 900]
    t = await store.tournaments.get(table_id)
    assert t is not None and (t.pool, t.entrants) == (200, 2)
    assert (await store.audit()).ok


async def test_a_close_before_the_end_gives_every_buy_in_back(store: Store) -> None:
    table_id = await tournament(store)
    await store.tournaments.begin(table_id)
    await play_hand(store, await store.tables.get(table_id), random.Random(3),
                    rules=Rules(ante=10))
    await store.tables.close(table_id)
    assert await balances(store) == [1000, 1000, 1000]
    t = await store.tournaments.get(table_id)
    assert t is not None and (t.status, t.pool) == ("cancelled", 0)
    report = await store.audit()
    assert report.ok, report
    assert report.tournament_issued == 0 and report.pools == 0


async def test_a_level_by_minutes_rises_at_its_deadline_and_a_restart_keeps_it(
        db_path: Path, clock: Clock) -> None:
    store = await Store.open(db_path, clock=clock)
    table_id = await tournament(store)
    await store.tournaments.begin(table_id)
    started = int(clock.now)
    t = await store.tournaments.get(table_id)
    assert t is not None and (t.level, t.level_ends, t.ante) == (0, started + 300, 10)
    clock.now += 200  # a hand within the first level
    await play_hand(store, await store.tables.get(table_id), random.Random(5),
                    rules=Rules(ante=10))
    t = await store.tournaments.get(table_id)
    assert t is not None and (t.level, t.level_ends) == (0, started + 300)
    await store.close()

    store = await Store.open(db_path, clock=clock)  # the deadline is in the file
    clock.now += 150  # past it: the next hand's level is the second
    t = await store.tournaments.get(table_id)
    assert t is not None and t.level_ends == started + 300
    seats = await store.tables.seats(table_id)
    assert sum(1 for s in seats if s.stack >= 10) >= 2  # the first hand put nobody out
    await play_hand(store, await store.tables.get(table_id), random.Random(6),
                    rules=Rules(ante=10))
    t = await store.tournaments.get(table_id)
    assert t is not None and (t.level, t.level_ends, t.ante) == (1, started + 600, 20)
    assert (await store.audit()).ok
    await store.close()


async def test_the_audit_names_real_chips_brought_to_a_tournament_stack(
        store: Store, db_path: Path) -> None:
    table_id = await tournament(store)
    conn = sqlite3.connect(db_path, isolation_level=None)
    move = conn.execute("SELECT max(move) + 1 FROM ledger").fetchone()[0]
    for account, delta in (("balance", -50), ("stack", 50)):
        conn.execute("INSERT INTO ledger (move, kind, account, user_id, table_id, delta, at)"
                     " VALUES (?, 'top_up', ?, 1, ?, ?, 0)", (move, account, table_id, delta))
    conn.close()
    report = await store.audit()
    assert any("a top_up of real chips at the tournament of table" in v
               for v in report.violations), report.violations
    assert any("tournament chips do not add up" in v for v in report.violations)


async def test_late_registration_takes_entries_during_the_first_levels_only(
        store: Store) -> None:
    late = Schedule(buy_in=100, stack=300, antes=(10, 20, 40), every=1, late_levels=1)
    table_id = await tournament(store, 3, late)
    await store.tournaments.begin(table_id)
    for u in (4, 5):
        await store.users.ensure(u, f"player {u}", starting_chips=1000)
    await store.tournaments.enter(table_id, 4)  # the first level still takes entries
    await play_hand(store, await store.tables.get(table_id), random.Random(8),
                    rules=Rules(ante=10))
    t = await store.tournaments.get(table_id)
    assert t is not None and t.level == 1 and not t.registering
    try:
        await store.tournaments.enter(table_id, 5)
    except NotRegistering:
        pass
    else:
        raise AssertionError("entered after late registration closed")
    assert (await store.users.get(5)).balance == 1000
    assert t.pool == 400 and (await store.audit()).ok


async def test_a_tournament_played_to_its_end_pays_the_pool_and_its_places_move_with_the_chat(
        store: Store) -> None:
    fast = Schedule(buy_in=100, stack=100, antes=(10, 20, 40, 80), every=1)
    table_id = await tournament(store, 3, fast)
    await store.tournaments.begin(table_id)
    rng = random.Random(11)
    for n in range(100):
        t = await store.tournaments.get(table_id)
        assert t is not None
        if t.status == "finished":
            break
        await play_hand(store, await store.tables.get(table_id), rng, dealer=n,
                        rules=Rules(ante=t.ante, away_antes=True))
    t = await store.tournaments.get(table_id)
    assert t is not None and t.status == "finished"
    assert [p.place for p in t.places] == [1, 2, 3]
    assert [p.prize for p in t.places] == [195, 105, 0]  # 65/35 of 300
    assert sorted(await balances(store)) == [900, 1005, 1095]
    assert await store.tables.seats(table_id) == []
    report = await store.audit()
    assert report.ok, report
    assert report.pools == 0 and report.tournament_issued == 0
    # The season's tournament points read the places of the chat within its span.
    now = 1_700_000_000  # the fixture's clock, standing still
    assert sorted(await store.tournaments.places_in(-1001, now, now + 1)) == sorted(
        (p.user_id, p.place, now) for p in t.places)
    assert await store.tournaments.places_in(-1001, now - 10, now) == []
    assert await store.tournaments.places_in(-1002, now, now + 1) == []
    await store.chats.migrate(-1001, -1002)
    rows = await store.db.fetchall("SELECT DISTINCT chat_id FROM tournament_places")
    assert [r[0] for r in rows] == [-1002]


async def test_places_of_a_tournament_closed_before_its_end_score_no_season_points(
        store: Store) -> None:
    fast = Schedule(buy_in=100, stack=100, antes=(10, 20, 40, 80), every=1)
    table_id = await tournament(store, 3, fast)
    await store.tournaments.begin(table_id)
    rng = random.Random(11)
    for n in range(100):  # until somebody is out and two still play
        t = await store.tournaments.get(table_id)
        assert t is not None and t.status == "running"
        if t.places:
            break
        await play_hand(store, await store.tables.get(table_id), rng, dealer=n,
                        rules=Rules(ante=t.ante, away_antes=True))
    assert t is not None and len(t.places) == 1
    await store.tables.close(table_id)
    assert await balances(store) == [1000, 1000, 1000]  # every buy-in back
    assert await store.seasons.standings(-1001, Period(0, 2**40)) == []
    assert (await store.audit()).ok


def test_the_hands_to_the_next_level_count_down_until_the_last_level() -> None:
    schedule = Schedule(buy_in=100, stack=300, antes=(10, 20, 40), every=5)

    def at(level: int, hands: int) -> Tournament:
        return Tournament(1, schedule, "running", level, None, hands, 2, 200)

    # The second level (hands 5 to 9): after 7 hands, 3 more until the third.
    assert at(1, 7).hands_to_next() == 3
    assert at(0, 0).hands_to_next() == 5
    # The third level is the last: its ante holds, there is no next one to count to.
    assert at(2, 12).hands_to_next() is None
    by_minutes = Tournament(1, SCHEDULE, "running", 0, None, 0, 2, 200)
    assert by_minutes.hands_to_next() is None
