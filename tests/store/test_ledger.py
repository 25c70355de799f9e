"""The ledger as a player and an operator read it: his history, a hand's movements."""

from __future__ import annotations

import random

import pytest

from bot.store import Store, ledger
from bot.store.errors import BadAmount
from bot.store.migrations import MAX_CHIPS
from tests.store.conftest import play_hand, seated_table


async def test_a_players_history_is_his_own_chips_newest_first(store: Store) -> None:
    """Every row of his history is his wallet or his stack: all of it sums to what he
    holds, newest first, as many as he asks for; a pot and another player never show."""
    table = await seated_table(store, 3, chips=1000, buy_in=300)
    rng = random.Random(11)
    for dealer in range(3):
        await play_hand(store, await store.tables.get(table.id), rng, dealer=dealer)
    await store.users.grant(1, 25, memo="a gift from the operator")
    for user in (1, 2, 3):
        moves = await store.users.history(user, limit=1000)
        assert moves and all(m.account in ("balance", "stack") for m in moves)
        assert [m.id for m in moves] == sorted((m.id for m in moves), reverse=True)
        seat = next(s for s in await store.tables.seats(table.id) if s.user_id == user)
        assert sum(m.delta for m in moves if m.account == "stack") == seat.stack
        assert sum(m.delta for m in moves if m.account == "balance") \
            == await store.users.balance(user)
    latest = await store.users.history(1, limit=2)
    newest = latest[0]
    assert (newest.kind, newest.account, newest.delta, newest.memo) \
        == ("grant", "balance", 25, "a gift from the operator")
    assert len(latest) == 2 and latest == (await store.users.history(1, limit=5))[:2]
    report = await store.audit()
    assert report.ok, report.violations


async def test_a_hands_movements_are_its_own_in_order_and_balance(store: Store) -> None:
    table = await seated_table(store, 3, chips=1000, buy_in=300)
    rng = random.Random(4)
    first, _ = await play_hand(store, table, rng)
    second, _ = await play_hand(store, await store.tables.get(table.id), rng, dealer=1)
    for hand_id in (first, second):
        rows = await store.hands.movements(hand_id)
        assert rows and all(r.hand_id == hand_id and r.table_id == table.id for r in rows)
        assert [r.id for r in rows] == sorted(r.id for r in rows)
        assert sum(r.delta for r in rows) == 0
        assert sum(r.delta for r in rows if r.account == "pot") == 0  # the pot paid out
        by_move: dict[int, list[int]] = {}
        for r in rows:
            by_move.setdefault(r.move, []).append(r.delta)
        assert all(len(d) == 2 and sum(d) == 0 for d in by_move.values())
    assert {r.move for r in await store.hands.movements(first)}.isdisjoint(
        r.move for r in await store.hands.movements(second))
    # Every movement in the whole ledger, buy-ins and antes alike, is one pair of rows.
    pairs = await store.db.fetchall("SELECT move, count(*), sum(delta) FROM ledger"
                                    " GROUP BY move")
    assert pairs and all((r[1], r[2]) == (2, 0) for r in pairs)
    report = await store.audit()
    assert report.ok, report.violations


async def test_a_buy_in_and_a_rebuy_name_their_table_on_both_sides(store: Store) -> None:
    """The wallet's row of a buy-in and the bank's row of a rebuy carry the table the
    chips went to, as the stack's row does."""
    table = await seated_table(store, 2, chips=1000, buy_in=300)
    (newest_stack, newest_wallet) = (await store.users.history(1, limit=2))
    assert (newest_stack.kind, newest_stack.account, newest_wallet.account) \
        == ("buy_in", "stack", "balance")
    assert newest_stack.table_id == newest_wallet.table_id == table.id
    assert newest_stack.move == newest_wallet.move
    await store.tables.leave(table.id, 2)
    await store.gifts.give(2, 1, 1000)
    seat = await store.gifts.sit_with_rebuy(table.id, 2, 100, most=1, ante=10, high=1000)
    assert seat.stack == 100
    rows = await store.db.fetchall("SELECT account, table_id, user_id, delta FROM ledger"
                                   " WHERE kind = 'rebuy' ORDER BY id")
    assert [tuple(r) for r in rows] == [("bank", table.id, 2, -100),
                                        ("stack", table.id, 2, 100)]
    report = await store.audit()
    assert report.ok, report.violations


async def test_the_ledger_refuses_an_unknown_movement_and_says_which(store: Store) -> None:
    await store.users.ensure(1, "Ana", starting_chips=100)
    rows = await store.db.fetchall("SELECT count(*) FROM ledger")
    with pytest.raises(ValueError, match="unknown ledger kind 'mint'"):
        await store.db.write(lambda c: ledger.post(
            c, [ledger.Transfer("mint", 5, ledger.BANK, ledger.balance(1))], at=0))
    with pytest.raises(BadAmount, match="a grant amount"):
        await store.db.write(lambda c: ledger.post(
            c, [ledger.Transfer("grant", 0, ledger.BANK, ledger.balance(1))], at=0))
    assert await store.db.fetchall("SELECT count(*) FROM ledger") == rows
    assert await store.users.balance(1) == 100
    assert (await store.audit()).ok


async def test_a_refused_amount_says_the_range_and_what_was_asked(store: Store) -> None:
    await store.users.ensure(1, "Ana")
    with pytest.raises(BadAmount, match=f"a grant amount must be a whole number from 1 to"
                                        f" {MAX_CHIPS}, not 0") as refused:
        await store.users.grant(1, 0)
    assert refused.value.amount == 0 and not refused.value.over
    with pytest.raises(BadAmount, match=f"from 1 to {MAX_CHIPS}, not {MAX_CHIPS + 1}") \
            as refused:
        await store.users.grant(1, MAX_CHIPS + 1)
    assert refused.value.over
    assert await store.users.balance(1) == 0
    assert (await store.audit()).ok
