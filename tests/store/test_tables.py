"""Tables and seats: one live table per chat and topic, buy-in, top-up, leave, close."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from bot.store import (
    AlreadySeated,
    BadAmount,
    BadInput,
    HandInProgress,
    InsufficientChips,
    NotSeated,
    Store,
    TableClosed,
    TableExists,
    TableFull,
    TableStatus,
    UnknownTable,
    UnknownUser,
)
from bot.store.fairness import TableSecret
from tests.store.conftest import RULES, dump, seated_table, start_hand


async def test_open_and_find_live_table(store: Store) -> None:
    await store.users.ensure(1, "A")
    table = await store.tables.open(-100, creator=1, rules=RULES.to_json(), message_id=77)
    assert table.status == "lobby" and table.rules == json.loads(json.dumps(RULES.to_json()))
    assert table.message_id == 77
    assert await store.tables.live(-100) == table
    assert await store.tables.live(-100, thread_id=5) is None
    assert [t.id for t in await store.tables.live_tables()] == [table.id]


async def test_one_live_table_per_chat_and_topic(store: Store) -> None:
    await store.users.ensure(1, "A")
    first = await store.tables.open(-100, creator=1, rules={})
    with pytest.raises(TableExists) as info:
        await store.tables.open(-100, creator=1, rules={})
    assert info.value.table_id == first.id
    # Another forum topic of the same chat may have its own table.
    topic = await store.tables.open(-100, creator=1, rules={}, thread_id=9)
    assert topic.thread_id == 9 and await store.tables.live(-100, 9) == topic
    await store.tables.close(first.id)
    again = await store.tables.open(-100, creator=1, rules={})
    assert again.id != first.id


async def test_open_needs_a_known_creator_and_json_rules(store: Store) -> None:
    with pytest.raises(UnknownUser):
        await store.tables.open(-100, creator=1, rules={})
    await store.users.ensure(1, "A")
    with pytest.raises(BadInput):
        await store.tables.open(-100, creator=1, rules="[]")


async def test_join_moves_the_buy_in(store: Store) -> None:
    table = await seated_table(store, 2, chips=1000, buy_in=400)
    seats = await store.tables.seats(table.id)
    assert [(s.user_id, s.join_order, s.stack) for s in seats] == [(1, 1, 400), (2, 2, 400)]
    assert await store.users.balance(1) == 600
    with pytest.raises(AlreadySeated):
        await store.tables.join(table.id, 1, 10)


async def test_join_refusals(store: Store) -> None:
    table = await seated_table(store, 2, chips=100, buy_in=100)
    await store.users.ensure(3, "C", starting_chips=50)
    with pytest.raises(InsufficientChips, match="50 there, 60 needed"):
        await store.tables.join(table.id, 3, 60)
    with pytest.raises(BadAmount):
        await store.tables.join(table.id, 3, 0)
    with pytest.raises(UnknownUser):
        await store.tables.join(table.id, 99, 10)
    with pytest.raises(UnknownTable):
        await store.tables.join(999, 3, 10)
    assert [s.user_id for s in await store.tables.seats(table.id)] == [1, 2]


async def test_join_takes_the_balance_up_to_the_maximum(store: Store) -> None:
    await store.users.ensure(1, "A", starting_chips=700)
    first = await store.tables.open(-100, creator=1, rules={})
    seat = await store.tables.join(first.id, 1, 1000, min_buy_in=10)
    assert seat.stack == 700 and await store.users.balance(1) == 0
    with pytest.raises(BadAmount):  # the least above the most
        await store.tables.join(first.id, 1, 10, min_buy_in=11)


async def test_races_between_buy_ins_the_second_takes_what_is_left(store: Store,
                                                                   db_path: Path) -> None:
    """Two tables at once, 1500 chips, 1000 at most each: 1000 and 500, never an overdraft."""
    await store.users.ensure(1, "A", starting_chips=1500)
    tables = [await store.tables.open(-100 - i, creator=1, rules={}) for i in range(3)]
    seats = await asyncio.gather(*(store.tables.join(t.id, 1, 1000, min_buy_in=10)
                                   for t in tables[:2]))
    assert sorted(s.stack for s in seats) == [500, 1000]
    assert await store.users.balance(1) == 0
    # A third table finds nothing left: a refusal that says so, and nothing written.
    before = dump(db_path)
    with pytest.raises(InsufficientChips) as info:
        await store.tables.join(tables[2].id, 1, 1000, min_buy_in=10)
    assert (info.value.have, info.value.need) == (0, 10)
    assert dump(db_path) == before


async def test_races_between_top_ups_the_second_takes_what_is_left(store: Store) -> None:
    await store.users.ensure(1, "A", starting_chips=1500)
    tables = [await store.tables.open(-100 - i, creator=1, rules={}) for i in range(2)]
    for t in tables:
        await store.tables.join(t.id, 1, 100)
    seats = await asyncio.gather(*(store.tables.top_up(t.id, 1, 900, min_amount=1)
                                   for t in tables))
    assert sorted(s.stack for s in seats) == [500, 1000]
    assert await store.users.balance(1) == 0
    with pytest.raises(InsufficientChips):
        await store.tables.top_up(tables[0].id, 1, 5)


async def test_at_most_ten_seats(store: Store) -> None:
    table = await seated_table(store, 10, chips=10, buy_in=10)
    await store.users.ensure(11, "K", starting_chips=10)
    with pytest.raises(TableFull):
        await store.tables.join(table.id, 11, 10)


async def test_top_up_between_hands_only(store: Store) -> None:
    table = await seated_table(store, 2, chips=1000, buy_in=100)
    seat = await store.tables.top_up(table.id, 1, 50)
    assert seat.stack == 150 and await store.users.balance(1) == 850
    with pytest.raises(InsufficientChips):
        await store.tables.top_up(table.id, 1, 851)
    await start_hand(store, table, random.Random(1))
    with pytest.raises(HandInProgress):
        await store.tables.top_up(table.id, 1, 10)


async def test_leave_cashes_out_or_defers_to_the_end_of_the_hand(store: Store) -> None:
    table = await seated_table(store, 3, chips=1000, buy_in=100)
    gone = await store.tables.leave(table.id, 3)
    assert (gone.cashed_out, gone.deferred) == (100, False)
    assert await store.users.balance(3) == 1000
    hand_id, _ = await start_hand(store, table, random.Random(1))
    later = await store.tables.leave(table.id, 1)
    assert later.deferred and later.cashed_out == 0
    assert [s.leaving for s in await store.tables.seats(table.id)] == [True, False]
    refunds = await store.hands.abort(hand_id, "test")
    assert refunds == {1: 10, 2: 10}
    # The leaver was paid out when the hand ended.
    assert [s.user_id for s in await store.tables.seats(table.id)] == [2]
    assert await store.users.balance(1) == 1000
    with pytest.raises(NotSeated):
        await store.tables.leave(table.id, 1)


async def test_update_seat(store: Store) -> None:
    table = await seated_table(store, 2)
    seat = await store.tables.update_seat(table.id, 2, sitting_out=True, timeouts=2)
    assert seat.sitting_out and seat.timeouts == 2
    seat = await store.tables.update_seat(table.id, 2, sitting_out=False)
    assert not seat.sitting_out and seat.timeouts == 2
    with pytest.raises(BadInput):
        await store.tables.update_seat(table.id, 2, timeouts=-1)
    with pytest.raises(NotSeated):
        await store.tables.update_seat(table.id, 9, timeouts=0)


async def test_close_returns_every_stack(store: Store) -> None:
    table = await seated_table(store, 3, chips=1000, buy_in=250)
    hand_id, _ = await start_hand(store, table, random.Random(2))
    with pytest.raises(HandInProgress):
        await store.tables.close(table.id)
    await store.hands.abort(hand_id, "closing")
    assert await store.tables.close(table.id) == {1: 250, 2: 250, 3: 250}
    assert (await store.tables.get(table.id)).status == "closed"
    assert await store.tables.live(table.id) is None
    assert [await store.users.balance(u) for u in (1, 2, 3)] == [1000, 1000, 1000]
    with pytest.raises(TableClosed):
        await store.tables.join(table.id, 1, 10)
    with pytest.raises(TableClosed):
        await store.tables.close(table.id)
    assert (await store.audit()).ok


async def test_status_message_and_rules(store: Store) -> None:
    table = await seated_table(store, 2)
    await store.tables.set_status(table.id, TableStatus.PLAYING)
    await store.tables.set_message(table.id, 1234)
    await store.tables.set_rules(table.id, {"ante": 20})
    got = await store.tables.get(table.id)
    assert (got.status, got.message_id, got.rules) == ("playing", 1234, {"ante": 20})
    with pytest.raises(BadInput):
        await store.tables.set_status(table.id, TableStatus.CLOSED)
    await start_hand(store, table, random.Random(3))
    with pytest.raises(HandInProgress):
        await store.tables.set_rules(table.id, {"ante": 30})


async def test_a_lobby_writes_its_wait_and_secret_with_the_table_and_each_seat(
        store: Store) -> None:
    for user in (1, 2):
        await store.users.ensure(user, f"P{user}", starting_chips=1000)
    commits = store.db.commits
    table = await store.tables.open(-100, creator=1, rules={}, wait='{"idle":0}',
                                    draw=store.fairness.draw)
    assert (await store.tables.get(table.id)).wait == '{"idle":0}'
    secret = await store.fairness.table(table.id)  # drawn with the table: only read now
    assert store.db.commits == commits + 1
    await store.tables.join(table.id, 1, 100, wait='{"idle":1}')
    assert (await store.tables.get(table.id)).wait == '{"idle":1}'
    await store.tables.join(table.id, 2, 100)  # no wait given: the stored one stays
    assert (await store.tables.get(table.id)).wait == '{"idle":1}'
    assert store.db.commits == commits + 3
    with pytest.raises(BadInput):
        await store.tables.join(table.id, 3, 100, wait="x" * 401)
    # Closed with its reveal in the same transaction.
    assert await store.tables.close(table.id, reveal=True) == {1: 100, 2: 100}
    assert store.db.commits == commits + 4
    assert await store.fairness.table(table.id) == TableSecret(secret.secret, secret.commitment,
                                                               True)


async def test_a_table_closed_without_its_reveal_keeps_its_secret(store: Store) -> None:
    table = await seated_table(store, 2)
    await store.fairness.table(table.id)
    await store.tables.close(table.id)
    assert not (await store.fairness.table(table.id)).revealed


async def test_a_closed_tables_results_are_due_until_sent(store: Store) -> None:
    played, quiet = await seated_table(store, 2), await seated_table(store, 2, chat_id=-9,
                                                                     first_user=9)
    await store.tables.close(played.id, results=True)
    await store.tables.close(quiet.id)
    assert [t.id for t in await store.tables.results_due()] == [played.id]
    await store.tables.results_sent(played.id)
    assert await store.tables.results_due() == []
