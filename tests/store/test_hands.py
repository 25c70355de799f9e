"""Hands: start, actions and settlement, each one transaction, the pot always accounted."""

from __future__ import annotations

import json
import random

import pytest

from bot.store import (
    HandInProgress,
    HandMismatch,
    HandNotOpen,
    InsufficientChips,
    NotSeated,
    Store,
    UnknownHand,
)
from engine import Act, Action, ChipMove, Hand, SeatIn
from tests.store.conftest import RULES, play_hand, seated_table, start_hand


async def test_open_persists_start_commitment_and_antes(store: Store) -> None:
    table = await seated_table(store, 3, buy_in=500)
    hand_id, hand = await start_hand(store, table, random.Random(1))
    row = await store.hands.get(hand_id)
    assert row.status == "open" and row.number == 1 and row.pot == 30 == hand.pot
    assert row.start == json.loads(json.dumps(hand.start_json()))
    assert row.commitment == hand.commitment and len(row.commitment) == 64
    moves = await store.hands.movements(hand_id)
    assert sorted((m.kind, m.account, m.delta) for m in moves) == sorted(
        [("ante", "stack", -10)] * 3 + [("ante", "pot", 10)] * 3)
    assert {m.hand_id for m in moves} == {hand_id}
    assert [s.stack for s in await store.tables.seats(table.id)] == [490, 490, 490]
    assert (await store.tables.get(table.id)).status == "playing"
    assert (await store.hands.open_hand(table.id)) == row


async def test_open_comes_before_the_first_action(store: Store) -> None:
    table = await seated_table(store, 2, buy_in=500)
    hand = Hand.start(RULES, [SeatIn(1, 500), SeatIn(2, 500)], 0, b"y" * 16)
    legal = hand.legal()
    assert legal is not None
    hand.apply(Action(Act.NO_BLIND, legal.seat))
    with pytest.raises(HandMismatch, match="before applying"):
        await store.hands.open(table.id, hand)


async def test_one_open_hand_per_table(store: Store) -> None:
    table = await seated_table(store, 2)
    await start_hand(store, table, random.Random(1))
    with pytest.raises(HandInProgress):
        await start_hand(store, table, random.Random(2))


async def test_open_refuses_seats_the_table_does_not_have(store: Store) -> None:
    table = await seated_table(store, 2, buy_in=500)
    stale = Hand.start(RULES, [SeatIn(1, 400), SeatIn(2, 500)], 0, b"x" * 16)
    with pytest.raises(HandMismatch, match="has 500"):
        await store.hands.open(table.id, stale)
    stranger = Hand.start(RULES, [SeatIn(1, 500), SeatIn(3, 500)], 0, b"x" * 16)
    with pytest.raises(NotSeated):
        await store.hands.open(table.id, stranger)
    assert await store.hands.open_hand(table.id) is None


async def test_record_writes_the_action_and_its_chips_together(store: Store) -> None:
    table = await seated_table(store, 2, buy_in=500)
    hand_id, hand = await start_hand(store, table, random.Random(4))
    legal = hand.legal()
    assert legal is not None and legal.blind is not None
    action = Action(Act.BLIND, legal.seat, legal.blind[0])
    events = hand.apply(action)
    seq = await store.hands.record(hand_id, action, events)
    assert seq == 1
    assert await store.hands.actions(hand_id) == [action.to_json()]
    rows = [m for m in await store.hands.movements(hand_id) if m.kind == "blind"]
    assert sorted(m.delta for m in rows) == [-legal.blind[0], legal.blind[0]]
    assert (await store.hands.get(hand_id)).pot == hand.pot


async def test_record_refuses_a_stale_seq(store: Store) -> None:
    table = await seated_table(store, 2)
    hand_id, hand = await start_hand(store, table, random.Random(4))
    legal = hand.legal()
    assert legal is not None
    action = Action(Act.NO_BLIND, legal.seat)
    with pytest.raises(HandMismatch, match="stale"):
        await store.hands.record(hand_id, action, hand.apply(action), seq=2)
    assert await store.hands.record(hand_id, action, (), seq=1) == 1


async def test_settle_in_one_transaction_with_the_last_action(store: Store) -> None:
    table = await seated_table(store, 3, buy_in=500)
    rng = random.Random(5)
    hand_id, hand = await play_hand(store, table, rng)
    row = await store.hands.get(hand_id)
    assert row.status == "settled" and row.pot == 0 and row.ended_at is not None
    assert row.reveal == hand.reveal()
    assert (row.result or {})["net"] == {str(k): v for k, v in
                                                       hand.result()["net"].items()}
    assert sum(m.delta for m in await store.hands.movements(hand_id)
               if m.account == "pot") == 0
    assert len(await store.hands.actions(hand_id)) == len(hand.actions)
    stacks = {s.user_id: s.stack for s in await store.tables.seats(table.id)}
    assert stacks == {p: c for p, c in hand.stacks.items() if p in stacks}
    assert (await store.audit()).ok


async def test_settle_refuses_an_unfinished_or_unrecorded_hand(store: Store) -> None:
    table = await seated_table(store, 2)
    hand_id, hand = await start_hand(store, table, random.Random(6))
    with pytest.raises(HandMismatch, match="not over"):
        await store.hands.settle(hand_id, hand)
    # Play to the end without telling the store.
    from engine.simulate import random_action

    rng = random.Random(6)
    while not hand.is_over:
        hand.apply(random_action(hand, rng))
    with pytest.raises(HandMismatch):
        await store.hands.settle(hand_id, hand)
    assert (await store.hands.get(hand_id)).status == "open"


async def test_closed_hands_take_no_more_steps(store: Store) -> None:
    table = await seated_table(store, 2)
    hand_id, _ = await play_hand(store, table, random.Random(7))
    with pytest.raises(HandNotOpen, match="settled"):
        await store.hands.record(hand_id, Action(Act.FOLD, 0), ())
    with pytest.raises(HandNotOpen):
        await store.hands.abort(hand_id, "late")
    with pytest.raises(UnknownHand):
        await store.hands.get(999)


async def test_abort_refunds_what_each_player_put_in(store: Store) -> None:
    table = await seated_table(store, 3, buy_in=500)
    hand_id, hand = await play_hand(store, table, random.Random(8), stop_after=4)
    assert not hand.is_over
    put_in = {p: 500 - s for p, s in hand.stacks.items()}
    refunds = await store.hands.abort(hand_id, "the dealer spilled his coffee")
    assert refunds == {p: n for p, n in put_in.items() if n}
    row = await store.hands.get(hand_id)
    assert row.status == "aborted" and row.pot == 0
    assert row.abort_reason == "the dealer spilled his coffee"
    assert [s.stack for s in await store.tables.seats(table.id)] == [500, 500, 500]
    assert (await store.audit()).ok


async def test_many_hands_in_a_row_keep_every_chip(store: Store) -> None:
    table = await seated_table(store, 4, chips=1000, buy_in=300)
    rng = random.Random(9)
    for n in range(30):
        seats = await store.tables.seats(table.id)
        if sum(s.stack >= RULES.ante for s in seats) < 2:
            break
        await play_hand(store, table, rng, dealer=n)
    report = await store.audit()
    assert report.ok, report.violations
    assert report.granted == 4000 and report.open_pots == 0
    assert report.balances + report.stacks == 4000


async def test_chip_moves_are_checked_against_the_stacks(store: Store) -> None:
    table = await seated_table(store, 2, buy_in=100)
    hand_id, _ = await start_hand(store, table, random.Random(1))
    action = Action(Act.FOLD, 0)
    too_much = ChipMove(0, 1, -1000, "bet")
    with pytest.raises(InsufficientChips, match="not enough chips in the stack of user 1"):
        await store.hands.record(hand_id, action, [too_much])
    wrong_way = ChipMove(0, 1, 5, "bet")
    with pytest.raises(HandMismatch, match="wrong way"):
        await store.hands.record(hand_id, action, [wrong_way])
    from_empty_pot = ChipMove(0, 1, 500, "win")
    with pytest.raises(InsufficientChips, match="pot"):
        await store.hands.record(hand_id, action, [from_empty_pot])
    assert await store.hands.actions(hand_id) == []


async def test_last_is_the_newest_hand_of_the_table(store: Store) -> None:
    table = await seated_table(store, 3, buy_in=500)
    assert await store.hands.last(table.id) is None
    rng = random.Random(4)
    await play_hand(store, table, rng, dealer=0)
    hand_id, _ = await start_hand(store, table, rng)
    last = await store.hands.last(table.id)
    assert last is not None and last.id == hand_id and last.number == 2
    assert last.status == "open"
