"""Rebuys from the house, gifts from the house within a chat's allowance, and gifts
between players: each a movement of its own, conserving chips and passing the audit."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.store import BadInput, HandInProgress, InsufficientChips, Store
from bot.store.errors import AllowanceSpent, BadAmount, HouseDayLimit, MenuUsed, NoRebuyLeft
from bot.store.gifts import GiveMenu, Rebuys
from bot.store.migrations import _STAKES_AS_SEATED, MAX_CHIPS, MIGRATIONS, migrate
from tests.store.conftest import RULES, Clock, play_hand, play_out, seated_table, start_hand

CHAT = -1001


async def broke_table(store: Store) -> tuple[int, int, int]:
    """Two players of 10 chips at an ante of 10: the ante puts both all in, the hand is
    over at the deal, and one of them is left with nothing at all. (table, winner, loser)"""
    table = await seated_table(store, 2, chips=10, buy_in=10, chat_id=CHAT)
    hand_id, hand = await start_hand(store, table, random.Random(3))
    assert hand.is_over
    await store.hands.settle(hand_id, hand)
    seats = {s.user_id: s.stack for s in await store.tables.seats(table.id)}
    assert sorted(seats.values()) == [0, 20]
    winner = max(seats, key=lambda u: seats[u])
    return table.id, winner, min(seats, key=lambda u: seats[u])


async def kinds(store: Store) -> list[tuple[str, str, int]]:
    rows = await store.db.fetchall("SELECT kind, account, delta FROM ledger"
                                   " WHERE kind IN ('rebuy', 'gift', 'house_gift') ORDER BY id")
    return [(r[0], r[1], r[2]) for r in rows]


async def test_a_broke_player_rebuys_from_the_house_as_often_as_the_table_allows(
        store: Store) -> None:
    table, winner, loser = await broke_table(store)
    assert await store.gifts.rebuy(table, loser, 300, most=2, below=10) == 300
    # With 300 chips he is no longer broke: a second rebuy now is refused.
    with pytest.raises(NoRebuyLeft):
        await store.gifts.rebuy(table, loser, 300, most=2, below=10)
    with pytest.raises(NoRebuyLeft):  # the winner was never broke
        await store.gifts.rebuy(table, winner, 300, most=2, below=10)
    assert await kinds(store) == [("rebuy", "bank", -300), ("rebuy", "stack", 300)]
    report = await store.audit()
    assert report.ok, report.violations
    assert report.granted == 20 + 300
    # His results: 10 brought, 300 from the house, 300 taken home: he lost his 10.
    await store.tables.close(table)
    nets = {r.user_id: (r.net, r.rebuys) for r in await store.users.session(table)}
    assert nets == {winner: (10, 0), loser: (-10, 1)}


async def test_rebuys_stop_at_the_tables_limit(store: Store) -> None:
    table, winner, loser = await broke_table(store)
    await store.gifts.rebuy(table, loser, 10, most=1, below=10)
    rng = random.Random(5)
    for dealer in range(40):  # play on until he is broke again
        stacks = {s.user_id: s.stack for s in await store.tables.seats(table)}
        if stacks[loser] == 0 or stacks[winner] == 0:
            break
        hand_id, hand = await start_hand(store, await store.tables.get(table), rng,
                                         dealer=dealer)
        if hand.is_over:
            await store.hands.settle(hand_id, hand)
        await play_out(store, hand_id, hand, rng)
    stacks = {s.user_id: s.stack for s in await store.tables.seats(table)}
    broke = loser if stacks[loser] == 0 else winner
    if broke == loser:
        with pytest.raises(NoRebuyLeft):  # one rebuy at this table, taken
            await store.gifts.rebuy(table, loser, 10, most=1, below=10)
        assert await store.gifts.rebuy(table, loser, 10, most=2, below=10) == 10
    else:  # the first winner lost it all: his first rebuy
        assert await store.gifts.rebuy(table, winner, 10, most=1, below=10) == 10
    assert await store.gifts.rebuys_of(table, broke) == (2 if broke == loser else 1)
    assert (await store.audit()).ok


async def test_no_rebuy_while_dealt_into_the_open_hand(store: Store) -> None:
    table, _, loser = await broke_table(store)
    await store.gifts.rebuy(table, loser, 100, most=3, below=10)
    _, hand = await start_hand(store, await store.tables.get(table), random.Random(1))
    assert not hand.is_over
    with pytest.raises(HandInProgress):
        await store.gifts.rebuy(table, loser, 10, most=3, below=10)


async def test_a_player_gives_his_own_chips_and_never_more(store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=1000)
    assert await store.gifts.give(1, 2, 400) == 600
    with pytest.raises(InsufficientChips):
        await store.gifts.give(1, 2, 601)
    assert (await store.users.balance(1), await store.users.balance(2)) == (600, 1400)
    assert await kinds(store) == [("gift", "balance", -400), ("gift", "balance", 400)]
    report = await store.audit()
    assert report.ok and report.granted == 2000


async def test_the_house_gives_within_the_chats_daily_allowance(store: Store,
                                                              clock: Clock) -> None:
    await store.users.ensure(1, "Admin", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    assert await store.gifts.give_from_house(CHAT, 1, 2, 300, allowance=500) == 200
    with pytest.raises(AllowanceSpent) as refused:
        await store.gifts.give_from_house(CHAT, 1, 2, 201, allowance=500)
    assert refused.value.left == 200
    # Another chat has its own allowance.
    assert await store.gifts.give_from_house(-2002, 1, 2, 500, allowance=500) == 0
    clock.now += 24 * 60 * 60 + 1  # a day later the first chat may give again
    assert await store.gifts.left_today(CHAT, 500) == 500
    assert await store.users.balance(2) == 800
    assert await store.users.balance(1) == 1000  # the admin's own chips never moved
    report = await store.audit()
    assert report.ok and report.granted == 1800


async def test_the_audit_catches_a_gift_that_touches_the_bank(store: Store,
                                                              db_path: Path) -> None:
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.close()
    conn = sqlite3.connect(db_path)
    conn.executescript(
        "INSERT INTO ledger (move, kind, account, user_id, delta, at) VALUES"
        " (99, 'gift', 'bank', NULL, -5, 0), (99, 'gift', 'balance', 1, 5, 0);")
    conn.close()
    reopened = await Store.open(db_path)
    try:
        report = await reopened.audit()
        assert not report.ok
        assert any("may not touch the bank" in v for v in report.violations)
    finally:
        await reopened.close()


async def test_an_old_ledger_learns_the_new_kinds_and_stays_append_only(
        db_path: Path) -> None:
    async with aiosqlite.connect(db_path, isolation_level=None) as old:
        await migrate(old, path=str(db_path), target=11)
        await old.execute("INSERT INTO users (id, name, created_at, updated_at)"
                          " VALUES (1, 'Ana', 0, 0), (2, 'Boris', 0, 0)")
        await old.execute("INSERT INTO ledger (move, kind, account, user_id, delta, at)"
                          " VALUES (1, 'grant', 'bank', 1, -100, 0),"
                          " (1, 'grant', 'balance', 1, 100, 0)")
        with pytest.raises(sqlite3.IntegrityError):  # version 11 knows no gift
            await old.execute("INSERT INTO ledger (move, kind, account, user_id, delta, at)"
                              " VALUES (2, 'gift', 'balance', 1, -1, 0)")
    store = await Store.open(db_path)
    try:
        assert await store.gifts.give(1, 2, 40) == 60
        assert await store.users.balance(2) == 40  # the cached sums still follow the ledger
        with pytest.raises(Exception, match="append-only"):
            await store.db.write(lambda c: c.execute("DELETE FROM ledger"))
        assert (await store.audit()).ok
    finally:
        await store.close()


async def test_chips_queued_for_the_next_hand_are_handed_out_once(store: Store) -> None:
    table = await seated_table(store, 2, chat_id=CHAT)
    await store.gifts.queue(table.id, 1, "top_up", 200)
    await store.gifts.queue(table.id, 1, "top_up", None)  # asked again: up to the most
    await store.gifts.queue(table.id, 2, "rebuy", None)
    assert await store.gifts.cancel(table.id, 2)
    assert not await store.gifts.cancel(table.id, 2)
    queued = await store.gifts.take_queued(table.id)
    assert [(q.user_id, q.kind, q.amount) for q in queued] == [(1, "top_up", None)]
    commits = store.db.commits
    assert await store.gifts.take_queued(table.id) == []
    assert store.db.commits == commits  # none waited: nothing written
    with pytest.raises(BadInput):
        await store.gifts.queue(table.id, 1, "gift", 5)


async def test_practice_chips_are_never_given(store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.db.write(lambda c: c.execute(
        "INSERT INTO users (id, name, created_at, updated_at) VALUES (-1000001, 'w', 0, 0)"))
    with pytest.raises(BadInput):
        await store.gifts.give(1, -1000001, 5)
    with pytest.raises(BadInput):
        await store.gifts.give_from_house(CHAT, 1, -1000001, 5, allowance=100)
    assert await store.users.balance(1) == 1000


async def test_one_rebuy_more_than_the_table_allows_is_refused(store: Store) -> None:
    """A broke player sits down with the table's one rebuy, leaves, is broke again and
    comes back: the second rebuy at the same table is refused, and nothing moves."""
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    seat = await store.gifts.sit_with_rebuy(table.id, 2, 100, most=1, ante=10, high=1000)
    assert seat.stack == 100
    await store.tables.leave(table.id, 2)
    await store.gifts.give(2, 1, 100)  # his chips gone again: broke
    with pytest.raises(NoRebuyLeft):
        await store.gifts.sit_with_rebuy(table.id, 2, 100, most=1, ante=10, high=1000)
    assert [s.user_id for s in await store.tables.seats(table.id)] == []
    assert await store.gifts.rebuys_of(table.id, 2) == 1
    # A table that allows two takes him back once more.
    seat = await store.gifts.sit_with_rebuy(table.id, 2, 100, most=2, ante=10, high=1000)
    assert seat.stack == 100
    report = await store.audit()
    assert report.ok, report.violations
    assert report.granted == 1000 + 2 * 100


async def test_a_rebuy_is_never_more_than_the_tables_buy_in(store: Store) -> None:
    table, _, loser = await broke_table(store)
    assert await store.gifts.rebuy(table, loser, 10**9, most=3, below=10, high=500) == 500
    report = await store.audit()
    assert report.ok, report.violations
    assert report.granted == 20 + 500


async def test_stakes_raised_after_he_sat_never_make_a_player_broke(store: Store) -> None:
    """Seated with 1000 at an ante of 10 (largest buy-in 1000): an ante of 5000 set later
    does not make him broke, and a rebuy is never more than the buy-in he sat down at."""
    await store.users.ensure(1, "Mira", starting_chips=1000)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    await store.tables.join(table.id, 1, 1000, min_buy_in=10, stakes=(10, 1000))
    with pytest.raises(NoRebuyLeft):
        await store.gifts.rebuy(table.id, 1, 10**9, most=100, below=5000, high=5 * 10**8)
    await store.tables.leave(table.id, 1)
    assert await store.users.balance(1) == 1000
    report = await store.audit()
    assert report.ok and report.granted == 1000


async def test_the_house_gives_one_player_a_bounded_amount_a_day_in_all_chats(
        store: Store, clock: Clock) -> None:
    """Rebuys and an admin's gifts in three chats: one player receives at most the day's
    bound from the house, and one admin gives at most as much."""
    await store.users.ensure(1, "Admin", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    await store.users.ensure(3, "Vera", starting_chips=0)
    daily = 1000
    assert await store.gifts.give_from_house(-1, 1, 2, 600, allowance=10**9, daily=daily) \
        == 10**9 - 600
    with pytest.raises(HouseDayLimit) as refused:  # another chat, the same player
        await store.gifts.give_from_house(-2, 1, 2, 401, allowance=10**9, daily=daily)
    assert refused.value.left == 400 and not refused.value.giver
    await store.gifts.give_from_house(-2, 1, 2, 400, allowance=10**9, daily=daily)
    # His rebuy at a third chat's table counts too: nothing is left for today.
    table = await store.tables.open(-3, creator=1, rules=RULES.to_json())
    await store.gifts.give(2, 3, 1000)
    with pytest.raises(HouseDayLimit):
        await store.gifts.sit_with_rebuy(table.id, 2, 100, most=3, ante=10, high=1000,
                                         daily=daily)
    assert await store.gifts.house_left(2, daily) == 0
    # The admin gave his 1000 of the day: not even to another player.
    with pytest.raises(HouseDayLimit) as refused:
        await store.gifts.give_from_house(-3, 1, 3, 1, allowance=10**9, daily=daily)
    assert refused.value.giver and refused.value.left == 0
    clock.now += 24 * 60 * 60 + 1  # a day later
    seat = await store.gifts.sit_with_rebuy(table.id, 2, 100, most=3, ante=10, high=1000,
                                            daily=daily)
    assert seat.stack == 100
    assert await store.users.balance(3) == 1000
    report = await store.audit()
    assert report.ok, report.violations
    assert report.granted == 1000 + 1000 + 100


async def test_a_seat_taken_before_the_upgrade_keeps_the_stakes_of_its_table(
        db_path: Path) -> None:
    """A database from before the stakes were kept with a seat: the migration gives each
    seat its table's ante and largest buy-in, so a raise after it makes nobody broke."""
    version = next(m.version for m in MIGRATIONS if m.steps is _STAKES_AS_SEATED)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        await migrate(conn, path=str(db_path), target=version - 1)
    old = sqlite3.connect(db_path, isolation_level=None)
    try:
        old.execute("INSERT INTO users (id, name, balance, created_at, updated_at)"
                      " VALUES (1, 'Mira', 0, 0, 0)")
        old.execute("INSERT INTO chats (id, created_at, updated_at) VALUES (-1, 0, 0)")
        old.execute("INSERT INTO tables (chat_id, creator, rules, created_at) VALUES"
                      " (-1, 1, '{\"ante\": 10, \"max_buy_in_antes\": 50}', 0)")
        old.execute("INSERT INTO seats (table_id, user_id, join_order, joined_at)"
                      " VALUES (1, 1, 1, 0)")
    finally:
        old.close()
    store = await Store.open(db_path)
    try:
        (seat,) = await store.tables.seats(1)
        assert (seat.sat_ante, seat.sat_most) == (10, 500)
        # Broke by the ante of 10 he sat at, with the rebuy capped at its buy-in of 500.
        assert await store.gifts.rebuy(1, 1, 10**9, most=3, below=5000, high=10**8) == 500
    finally:
        await store.close()


async def test_a_give_menu_gives_once_whichever_button_is_pressed(store: Store) -> None:
    """One /give menu: its first press gives, a second (own chips or the house's) is
    refused with nothing moved; another menu, or another giver's, still gives."""
    await store.users.ensure(1, "Admin", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=1000)
    await store.users.ensure(3, "Vera", starting_chips=0)
    menu = GiveMenu(CHAT, 77)
    assert not await store.gifts.menu_used(1, menu)
    assert await store.gifts.give(1, 3, 100, menu=menu) == 900
    assert await store.gifts.menu_used(1, menu)
    assert not await store.gifts.menu_used(2, menu)
    with pytest.raises(MenuUsed) as refused:
        await store.gifts.give(1, 3, 100, menu=menu)
    assert (refused.value.chat_id, refused.value.message_id) == (CHAT, 77)
    with pytest.raises(MenuUsed):
        await store.gifts.give_from_house(CHAT, 1, 3, 100, allowance=500, menu=menu)
    # The house's chips from a menu of their own use that menu up too.
    house_menu = GiveMenu(CHAT, 78)
    assert await store.gifts.give_from_house(CHAT, 1, 3, 50, allowance=500,
                                             menu=house_menu) == 450
    assert await store.gifts.menu_used(1, house_menu)
    assert not await store.gifts.menu_used(1, GiveMenu(-2002, 78))
    with pytest.raises(MenuUsed):
        await store.gifts.give(1, 3, 5, menu=house_menu)
    with pytest.raises(MenuUsed):
        await store.gifts.give_from_house(CHAT, 1, 3, 5, allowance=500, menu=house_menu)
    assert await store.gifts.give(1, 3, 5, menu=GiveMenu(CHAT, 79)) == 895
    assert await store.users.balance(3) == 155
    memos = [r[0] for r in await store.db.fetchall(
        "SELECT memo FROM ledger WHERE kind = 'house_gift' AND account = 'balance'")]
    assert len(memos) == 1 and str(CHAT) in memos[0] and "78" in memos[0]
    report = await store.audit()
    assert report.ok and report.granted == 2050


async def test_the_rebuys_of_a_table_are_told_per_player_in_the_order_taken(
        store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    await store.users.ensure(3, "Vera", starting_chips=0)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    other = await store.tables.open(-2002, creator=1, rules=RULES.to_json())
    await store.gifts.sit_with_rebuy(table.id, 3, 70, most=3, ante=10, high=1000)
    await store.gifts.sit_with_rebuy(table.id, 2, 100, most=3, ante=10, high=1000)
    await store.gifts.sit_with_rebuy(other.id, 2, 40, most=3, ante=10, high=1000)
    await store.tables.leave(table.id, 3)
    await store.gifts.give(3, 1, 70)
    await store.gifts.sit_with_rebuy(table.id, 3, 30, most=3, ante=10, high=1000)
    assert await store.gifts.rebuys(table.id) == [Rebuys(3, 2, 100), Rebuys(2, 1, 100)]
    assert await store.gifts.rebuys(other.id) == [Rebuys(2, 1, 40)]
    assert (await store.gifts.rebuys_of(table.id, 3), await store.gifts.rebuys_of(other.id, 3)) \
        == (2, 0)
    assert (await store.audit()).ok


async def test_a_rebuy_needs_both_stack_and_balance_below_the_ante(store: Store) -> None:
    """A seat with nothing left but a balance of the ante is not broke; one below it is."""
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=10)
    await store.users.ensure(3, "Vera", starting_chips=0)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    with pytest.raises(NoRebuyLeft) as refused:
        await store.gifts.sit_with_rebuy(table.id, 2, 100, most=3, ante=10, high=1000)
    assert refused.value.why == "not broke"
    assert await store.tables.seats(table.id) == []
    seat = await store.gifts.sit_with_rebuy(table.id, 2, 100, most=3, ante=11, high=1000)
    assert seat.stack == 100 and await store.users.balance(2) == 10
    await store.db.write(lambda c: c.execute(
        "UPDATE tables SET practice = 1 WHERE id = ?", (table.id,)))
    with pytest.raises(NoRebuyLeft) as refused:
        await store.gifts.rebuy(table.id, 2, 5, most=9, below=1000)
    assert refused.value.why == "a practice table"
    with pytest.raises(NoRebuyLeft) as refused:
        await store.gifts.sit_with_rebuy(table.id, 3, 5, most=9, ante=1000, high=1000)
    assert refused.value.why == "a practice table"
    await store.db.write(lambda c: c.execute(
        "UPDATE tables SET practice = 0 WHERE id = ?", (table.id,)))
    report = await store.audit()
    assert report.ok and report.granted == 1010 + 100


async def test_a_stack_below_the_ante_is_broke_and_a_stack_of_it_is_not(
        store: Store) -> None:
    played, _, loser = await broke_table(store)
    assert await store.gifts.rebuy(played, loser, 9, most=3, below=10) == 9
    assert await store.gifts.rebuy(played, loser, 1, most=3, below=10) == 10
    with pytest.raises(NoRebuyLeft) as refused:
        await store.gifts.rebuy(played, loser, 1, most=3, below=10)
    assert refused.value.why == "not broke"
    with pytest.raises(NoRebuyLeft) as refused:
        await store.gifts.rebuy(played, loser, 1, most=2, below=11)
    assert refused.value.why == "all 2 taken"
    report = await store.audit()
    assert report.ok and report.granted == 20 + 10


async def test_bad_asks_for_chips_are_refused_before_anything_moves(store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    for most in (-1, 1.0, True, None):
        with pytest.raises(BadInput):
            await store.gifts.rebuy(table.id, 2, 10, most=most, below=10)  # type: ignore[arg-type]
        with pytest.raises(BadInput):
            await store.gifts.sit_with_rebuy(table.id, 2, 10, most=most,  # type: ignore[arg-type]
                                             ante=10, high=100)
    for amount in (0, -5, MAX_CHIPS + 1, 2.5, True):
        with pytest.raises(BadAmount):
            await store.gifts.rebuy(table.id, 2, amount, most=1, below=10)  # type: ignore[arg-type]
        with pytest.raises(BadAmount):
            await store.gifts.sit_with_rebuy(table.id, 2, amount,  # type: ignore[arg-type]
                                             most=1, ante=10, high=100)
        with pytest.raises(BadAmount):
            await store.gifts.give(1, 2, amount)  # type: ignore[arg-type]
        with pytest.raises(BadAmount):
            await store.gifts.give_from_house(CHAT, 1, 2, amount,  # type: ignore[arg-type]
                                              allowance=10**9)
        with pytest.raises(BadAmount):
            await store.gifts.queue(table.id, 1, "top_up", amount)  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        await store.gifts.give(1, 1, 10)
    for allowance in (-1, 1.5, None):
        with pytest.raises(BadInput):
            await store.gifts.give_from_house(CHAT, 1, 2, 10,
                                              allowance=allowance)  # type: ignore[arg-type]
    for daily in (-1, 1.5, "5"):
        with pytest.raises(BadInput):
            await store.gifts.give_from_house(CHAT, 1, 2, 10, allowance=100,
                                              daily=daily)  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        await store.gifts.cancel(table.id, 1, "gift")
    # A daily bound of nothing left refuses even one chip; an allowance of 0 too.
    with pytest.raises(HouseDayLimit):
        await store.gifts.give_from_house(CHAT, 1, 2, 1, allowance=100, daily=0)
    with pytest.raises(AllowanceSpent) as spent:
        await store.gifts.give_from_house(CHAT, 1, 2, 1, allowance=0)
    assert spent.value.left == 0
    assert await store.users.balance(2) == 0 and await store.tables.seats(table.id) == []
    report = await store.audit()
    assert report.ok and report.granted == 1000


async def test_the_house_counts_a_day_as_the_24_hours_before_now(store: Store,
                                                                clock: Clock) -> None:
    """What was given a second less than 24 hours ago still counts; 24 hours on it does
    not."""
    await store.users.ensure(1, "Admin", starting_chips=0)
    await store.users.ensure(2, "Boris", starting_chips=0)
    await store.users.ensure(3, "Vera", starting_chips=0)
    await store.gifts.give_from_house(CHAT, 1, 2, 300, allowance=300, daily=500)
    clock.now += 24 * 60 * 60 - 1
    assert await store.gifts.left_today(CHAT, 300) == 0
    assert await store.gifts.house_left(2, 500) == 200
    with pytest.raises(AllowanceSpent):
        await store.gifts.give_from_house(CHAT, 1, 3, 1, allowance=300)
    with pytest.raises(HouseDayLimit) as refused:  # the admin gave 300 of his 500
        await store.gifts.give_from_house(-2002, 1, 3, 201, allowance=10**9, daily=500)
    assert refused.value.giver and refused.value.left == 200
    with pytest.raises(HouseDayLimit) as refused:  # Boris received 300 of his 500
        await store.gifts.give_from_house(-2002, 3, 2, 201, allowance=10**9, daily=500)
    assert not refused.value.giver and refused.value.left == 200
    clock.now += 1
    assert await store.gifts.left_today(CHAT, 300) == 300
    assert await store.gifts.house_left(2, 500) == 500
    assert await store.gifts.give_from_house(-2002, 1, 2, 500, allowance=10**9,
                                             daily=500) == 10**9 - 500
    assert await store.gifts.house_left(2, 400) == 0
    assert await store.gifts.left_today(-2002, 400) == 0
    report = await store.audit()
    assert report.ok and report.granted == 800


async def test_no_gift_or_rebuy_lifts_chips_past_the_most_a_purse_holds(store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    await store.db.write(lambda c: c.executemany(
        "INSERT INTO ledger (move, kind, account, user_id, delta, at) VALUES (?, ?, ?, ?, ?, 0)",
        [(90, "grant", "bank", 2, -(MAX_CHIPS - 10)), (90, "grant", "balance", 2,
                                                        MAX_CHIPS - 10)]))
    with pytest.raises(BadAmount):
        await store.gifts.give(1, 2, 11)
    with pytest.raises(BadAmount):
        await store.gifts.give_from_house(CHAT, 1, 2, 11, allowance=10**9)
    assert await store.gifts.give(1, 2, 10) == 990
    assert await store.users.balance(2) == MAX_CHIPS
    report = await store.audit()
    assert report.ok and report.granted == 1000 + MAX_CHIPS - 10


async def test_queued_chips_are_handed_out_oldest_first_and_cancelled_by_kind(
        store: Store, clock: Clock) -> None:
    table = await seated_table(store, 3, chat_id=CHAT)
    await store.gifts.queue(table.id, 3, "top_up", 50)
    clock.now += 1
    await store.gifts.queue(table.id, 2, "rebuy", None)
    await store.gifts.queue(table.id, 1, "top_up", 30)
    await store.gifts.queue(table.id, 1, "rebuy", 20)
    assert not await store.gifts.cancel(table.id, 3, "rebuy")
    assert await store.gifts.cancel(table.id, 1, "rebuy")
    queued = await store.gifts.take_queued(table.id)
    assert [(q.user_id, q.kind, q.amount) for q in queued] == [
        (3, "top_up", 50), (1, "top_up", 30), (2, "rebuy", None)]
    assert await store.gifts.take_queued(table.id) == []
    await store.gifts.queue(table.id, 1, "rebuy", 20)
    await store.gifts.queue(table.id, 2, "top_up", 20)
    assert await store.gifts.cancel(table.id, 1)
    assert [q.user_id for q in await store.gifts.take_queued(table.id)] == [2]


async def test_a_username_finds_one_real_player_in_any_case(store: Store) -> None:
    await store.users.ensure(1, "Ana", username="AnaK")
    await store.users.ensure(2, "Boris", username="boris")
    await store.users.ensure(3, "Boris too", username="BORIS")
    await store.db.write(lambda c: c.execute(
        "INSERT INTO users (id, name, username, created_at, updated_at)"
        " VALUES (-1000001, 'w', 'ghost', 0, 0)"))
    assert await store.gifts.find_username("anak") == 1
    assert await store.gifts.find_username("ANAK") == 1
    assert await store.gifts.find_username("boris") is None  # two of them: nobody sure
    assert await store.gifts.find_username("ghost") is None
    assert await store.gifts.find_username("nobody") is None


async def test_the_recent_players_of_a_chat_are_the_latest_first(store: Store,
                                                                 clock: Clock) -> None:
    table = await seated_table(store, 2, chat_id=CHAT)
    rng = random.Random(7)
    await play_hand(store, table, rng)
    other = await seated_table(store, 2, chat_id=-2002, first_user=3)
    await play_hand(store, other, rng)
    clock.now += 60
    await store.tables.join(table.id, 3, 500)
    table3 = await store.tables.get(table.id)
    await store.tables.leave(table.id, 1)
    await play_hand(store, table3, rng)
    players = await store.gifts.recent_players(CHAT, 10)
    assert [p[0] for p in players] == [2, 3, 1]
    assert dict(players) == {1: "player 1", 2: "player 2", 3: "player 3"}
    assert [p[0] for p in await store.gifts.recent_players(CHAT, 2)] == [2, 3]
    assert [p[0] for p in await store.gifts.recent_players(-2002, 10)] == [3, 4]


async def test_a_seat_taken_with_a_rebuy_keeps_its_stakes_and_the_tables_wait(
        store: Store) -> None:
    """Sat down broke at an ante of 10 with a rebuy: stakes raised later do not make him
    broke again, and what the table waits for is written with his seat."""
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    seat = await store.gifts.sit_with_rebuy(table.id, 2, 10**9, most=3, ante=10, high=1000,
                                            wait='{"for": "start"}')
    assert (seat.stack, seat.sat_ante, seat.sat_most) == (1000, 10, 1000)
    assert (await store.tables.get(table.id)).wait == '{"for": "start"}'
    with pytest.raises(NoRebuyLeft) as refused:
        await store.gifts.rebuy(table.id, 2, 100, most=3, below=5000, high=10**8)
    assert refused.value.why == "not broke"
    await store.users.ensure(3, "Vera", starting_chips=0)
    await store.gifts.sit_with_rebuy(table.id, 3, 50, most=3, ante=10, high=1000)
    assert (await store.tables.get(table.id)).wait == '{"for": "start"}'  # none given: kept
    report = await store.audit()
    assert report.ok and report.granted == 1000 + 1000 + 50


async def test_a_table_allowing_no_rebuy_refuses_one_and_says_whose(store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    with pytest.raises(NoRebuyLeft) as refused:
        await store.gifts.sit_with_rebuy(table.id, 2, 100, most=0, ante=10, high=1000)
    assert refused.value.why == "all 0 taken"
    await store.db.write(lambda c: c.execute(
        "UPDATE tables SET practice = 1 WHERE id = ?", (table.id,)))
    with pytest.raises(NoRebuyLeft, match=f"user 2 may not rebuy at table {table.id}"):
        await store.gifts.sit_with_rebuy(table.id, 2, 100, most=1, ante=10, high=1000)
    with pytest.raises(NoRebuyLeft, match=f"user 2 may not rebuy at table {table.id}"):
        await store.gifts.rebuy(table.id, 2, 100, most=1, below=10)
    await store.db.write(lambda c: c.execute(
        "UPDATE tables SET practice = 0 WHERE id = ?", (table.id,)))
    assert await store.tables.seats(table.id) == []
    report = await store.audit()
    assert report.ok and report.granted == 1000


async def test_a_refused_ask_says_what_was_wrong(store: Store) -> None:
    """The operator's log names what was refused: the kind of chips and the amount."""
    await store.users.ensure(1, "Ana", starting_chips=1000)
    await store.users.ensure(2, "Boris", starting_chips=0)
    table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    with pytest.raises(BadInput, match="not a kind of queued chips: 'gift'"):
        await store.gifts.queue(table.id, 1, "gift", 5)
    with pytest.raises(BadInput, match="not a kind of queued chips: 'gift'"):
        await store.gifts.cancel(table.id, 1, "gift")
    with pytest.raises(BadAmount, match=r"^queued chips must"):
        await store.gifts.queue(table.id, 1, "top_up", 0)
    with pytest.raises(BadAmount, match=r"^a rebuy must"):
        await store.gifts.sit_with_rebuy(table.id, 2, 0, most=1, ante=10, high=100)
    with pytest.raises(BadAmount, match=r"^a rebuy must"):
        await store.gifts.rebuy(table.id, 2, 0, most=1, below=10)
    with pytest.raises(BadAmount, match=r"^a gift must"):
        await store.gifts.give_from_house(CHAT, 1, 2, 0, allowance=10)
    with pytest.raises(BadAmount, match=r"^a gift must"):
        await store.gifts.give(1, 2, 0)
    with pytest.raises(BadInput, match="the most rebuys is a whole number, not -1"):
        await store.gifts.sit_with_rebuy(table.id, 2, 10, most=-1, ante=10, high=100)
    with pytest.raises(BadInput, match="the most rebuys is a whole number, not -1"):
        await store.gifts.rebuy(table.id, 2, 10, most=-1, below=10)
    with pytest.raises(BadInput, match="an allowance is a whole number, not -1"):
        await store.gifts.give_from_house(CHAT, 1, 2, 10, allowance=-1)
    with pytest.raises(BadInput, match="the house's chips a day are a whole number, not -1"):
        await store.gifts.give_from_house(CHAT, 1, 2, 10, allowance=10, daily=-1)


async def test_a_refused_gift_from_the_house_says_which_chat_menu_and_player(
        store: Store) -> None:
    await store.users.ensure(1, "Admin", starting_chips=0)
    await store.users.ensure(2, "Boris", starting_chips=0)
    await store.db.write(lambda c: c.execute(
        "INSERT INTO users (id, name, created_at, updated_at) VALUES (-1000001, 'w', 0, 0)"))
    with pytest.raises(BadInput, match=r"^practice chips and real chips never mix$"):
        await store.gifts.give_from_house(CHAT, 1, -1000001, 5, allowance=100)
    with pytest.raises(BadInput, match=r"^practice chips are never given$"):
        await store.gifts.give(2, -1000001, 5)
    assert await store.gifts.give_from_house(CHAT, 1, 2, 60, allowance=100,
                                             menu=GiveMenu(CHAT, 5), daily=80) == 40
    with pytest.raises(MenuUsed) as used:
        await store.gifts.give_from_house(CHAT, 1, 2, 5, allowance=100, menu=GiveMenu(CHAT, 5))
    assert (used.value.chat_id, used.value.message_id) == (CHAT, 5)
    with pytest.raises(AllowanceSpent, match=f"chat {CHAT} may give 40 more chips from the"
                                             " house today, not 41"):
        await store.gifts.give_from_house(CHAT, 1, 2, 41, allowance=100)
    with pytest.raises(HouseDayLimit, match="user 2 may receive 20 more chips of the house"
                                            " today, not 21"):
        await store.gifts.give_from_house(-2002, 1, 2, 21, allowance=100, daily=80)
    await store.gifts.give_from_house(CHAT, 1, 2, 10, allowance=100)
    memos = [r[0] for r in await store.db.fetchall(
        "SELECT memo FROM ledger WHERE kind = 'house_gift' AND account = 'balance'"
        " ORDER BY id")]
    assert memos == [f"from an admin of chat {CHAT}, give menu {CHAT}/5",
                     f"from an admin of chat {CHAT}"]
    report = await store.audit()
    assert report.ok and report.granted == 70


async def test_a_refused_gift_or_rebuy_names_the_player_and_the_chips(store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=100)
    await store.users.ensure(2, "Boris", starting_chips=0)
    with pytest.raises(BadInput, match=r"^a gift goes to someone else$"):
        await store.gifts.give(1, 1, 10)
    with pytest.raises(InsufficientChips, match="the balance of user 1") as short:
        await store.gifts.give(1, 2, 101)
    assert (short.value.have, short.value.need) == (100, 101)
    await store.db.write(lambda c: c.executemany(
        "INSERT INTO ledger (move, kind, account, user_id, delta, at) VALUES (?, ?, ?, ?, ?, 0)",
        [(90, "grant", "bank", 2, -(MAX_CHIPS - 10)), (90, "grant", "balance", 2,
                                                        MAX_CHIPS - 10)]))
    with pytest.raises(BadAmount, match=r"^the balance after it must"):
        await store.gifts.give(1, 2, 11)
    with pytest.raises(BadAmount, match=r"^the balance after it must"):
        await store.gifts.give_from_house(CHAT, 1, 2, 11, allowance=100)
    await store.gifts.give_from_house(CHAT, 2, 1, 50, allowance=100, daily=50)
    await store.users.ensure(3, "Vera", starting_chips=0)
    with pytest.raises(HouseDayLimit, match="user 2 may give 0 more chips of the house"
                                            " today, not 1"):
        await store.gifts.give_from_house(-2002, 2, 3, 1, allowance=100, daily=50)


async def test_a_rebuy_counts_against_the_days_bound_and_waits_for_his_hand(
        store: Store) -> None:
    table, winner, loser = await broke_table(store)
    await store.gifts.give_from_house(-2002, winner, loser, 50, allowance=100, daily=100)
    await store.gifts.give(loser, winner, 50)
    with pytest.raises(HouseDayLimit, match=f"user {loser} may receive 50 more"):
        await store.gifts.rebuy(table, loser, 60, most=3, below=10, daily=100)
    with pytest.raises(NoRebuyLeft, match="all 0 taken"):
        await store.gifts.rebuy(table, loser, 10, most=0, below=10)
    assert await store.gifts.rebuy(table, loser, 50, most=3, below=10, daily=100) == 50
    hand_id, hand = await start_hand(store, await store.tables.get(table), random.Random(2))
    assert not hand.is_over
    with pytest.raises(HandInProgress) as busy:
        await store.gifts.rebuy(table, loser, 10, most=3, below=10**6)
    assert (busy.value.table_id, busy.value.hand_id) == (table, hand_id)
