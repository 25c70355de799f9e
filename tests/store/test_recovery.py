"""Restart recovery: open hands resume from the database, or are refunded with a reason."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.store import Store
from engine.simulate import random_action
from tests.store.conftest import Clock, play_hand, play_out, seated_table


async def _reopen(store: Store, db_path: Path, clock: Clock) -> Store:
    await store.close()
    return await Store.open(db_path, clock=clock)


def _tamper(db_path: Path, *sql: str) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    for s in sql:
        conn.execute(s)
    conn.close()


async def test_open_hand_resumes_and_plays_on(store: Store, db_path: Path, clock: Clock) -> None:
    table = await seated_table(store, 3)
    hand_id, live = await play_hand(store, table, random.Random(11), stop_after=3)
    assert not live.is_over
    store = await _reopen(store, db_path, clock)
    try:
        [report] = await store.recover()
        assert report.outcome == "resumed" and report.reason is None and not report.settled
        assert report.hand_id == hand_id and report.chat_id == table.chat_id
        assert report.hand is not None and report.hand.to_json() == live.to_json()
        # The bot carries on with the rebuilt hand.
        await play_out(store, hand_id, report.hand, random.Random(3))
        assert (await store.hands.get(hand_id)).status == "settled"
        assert (await store.audit()).ok
        assert "resumed" in report.describe()
    finally:
        await store.close()


async def test_finished_but_unsettled_hand_is_settled(store: Store, db_path: Path,
                                                      clock: Clock) -> None:
    table = await seated_table(store, 2)
    hand_id, hand = await play_hand(store, table, random.Random(12), stop_after=0)
    rng = random.Random(12)
    while not hand.is_over:  # record every action, but crash before settling
        action = random_action(hand, rng)
        await store.hands.record(hand_id, action, hand.apply(action))
    store = await _reopen(store, db_path, clock)
    try:
        [report] = await store.recover()
        assert report.outcome == "resumed" and report.settled
        assert (await store.hands.get(hand_id)).status == "settled"
        assert (await store.audit()).ok
    finally:
        await store.close()


async def _refunded(store: Store, db_path: Path, clock: Clock, *tamper: str,
                    before_tamper: Callable[[], None] = lambda: None) -> str:
    table = await seated_table(store, 3, buy_in=500)
    hand_id, hand = await play_hand(store, table, random.Random(13), stop_after=4)
    assert not hand.is_over and hand.pot > 0
    await store.close()
    before_tamper()
    _tamper(db_path, *(s.format(hand=hand_id) for s in tamper))
    store = await Store.open(db_path, clock=clock)
    try:
        [report] = await store.recover()
        assert report.outcome == "refunded" and report.hand is None
        assert report.refunds == {p: 500 - s for p, s in hand.stacks.items() if s != 500}
        row = await store.hands.get(hand_id)
        assert row.status == "aborted" and row.pot == 0 and row.abort_reason
        assert [s.stack for s in await store.tables.seats(table.id)] == [500, 500, 500]
        audit = await store.audit()
        assert audit.ok, audit.violations
        assert "refunded" in report.describe()
        return report.reason or ""
    finally:
        await store.close()


async def test_corrupt_action_is_refunded(store: Store, db_path: Path, clock: Clock) -> None:
    reason = await _refunded(
        store, db_path, clock,
        "DROP TRIGGER actions_no_update",
        "UPDATE actions SET action = '{{\"act\": \"moonwalk\", \"seat\": 0}}'"
        " WHERE hand_id = {hand} AND seq = 2")
    assert "could not be rebuilt" in reason


async def test_unreadable_start_is_refunded(store: Store, db_path: Path, clock: Clock) -> None:
    reason = await _refunded(store, db_path, clock,
                             "UPDATE hands SET start = '{{}}' WHERE id = {hand}")
    assert "could not be rebuilt" in reason


async def test_rules_change_is_refunded(store: Store, db_path: Path, clock: Clock) -> None:
    # A rule the start no longer passes (here: an ante the engine refuses).
    reason = await _refunded(
        store, db_path, clock,
        "UPDATE hands SET start = json_set(start, '$.rules.ante', 0) WHERE id = {hand}")
    assert "could not be rebuilt" in reason


async def test_other_deal_is_refunded(store: Store, db_path: Path, clock: Clock) -> None:
    reason = await _refunded(store, db_path, clock,
                             "UPDATE hands SET commitment = 'abc' WHERE id = {hand}")
    assert reason == "the deal does not match its commitment"


def _pot_before_last_move(db_path: Path) -> tuple[int, int]:
    """The only open hand's pot by the ledger, and what it held before its last chip move."""
    conn = sqlite3.connect(db_path)
    try:
        hand, last = conn.execute("SELECT hand_id, max(seq) FROM ledger WHERE hand_id ="
                                  " (SELECT id FROM hands WHERE status = 'open')").fetchone()
        pot, before = conn.execute(
            "SELECT sum(delta), sum(CASE WHEN seq < ? THEN delta ELSE 0 END) FROM ledger"
            " WHERE hand_id = ? AND account = 'pot'", (last, hand)).fetchone()
        return int(pot), int(before)
    finally:
        conn.close()


async def test_ledger_disagreement_is_refunded(store: Store, db_path: Path,
                                               clock: Clock) -> None:
    # The log says one thing, the ledger another: drop the last action that moved chips, so
    # the rebuilt hand's pot is what the ledger held before that move.
    seen: list[tuple[int, int]] = []
    last = "SELECT max(seq) FROM ledger WHERE hand_id = {hand}"
    reason = await _refunded(
        store, db_path, clock,
        "DROP TRIGGER actions_no_delete",
        f"DELETE FROM actions WHERE hand_id = {{hand}} AND seq >= ({last})",
        before_tamper=lambda: seen.append(_pot_before_last_move(db_path)))
    [(pot, rebuilt)] = seen
    assert 0 < rebuilt < pot
    assert reason == f"the rebuilt pot ({rebuilt}) differs from the ledger ({pot})"


async def test_nothing_to_recover(store: Store) -> None:
    assert await store.recover() == []


async def test_recovery_refunds_a_player_who_lost_his_seat(store: Store, db_path: Path,
                                                           clock: Clock) -> None:
    table = await seated_table(store, 3, buy_in=500)
    hand_id, _ = await play_hand(store, table, random.Random(14), stop_after=2)
    await store.close()
    # Simulate a seat lost by a bug: move its stack out by hand (keeping the ledger whole).
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    stack = conn.execute("SELECT stack FROM seats WHERE user_id = 3").fetchone()[0]
    conn.execute("INSERT INTO ledger (move, kind, account, user_id, table_id, delta, at)"
                 f" VALUES (9999, 'cash_out', 'stack', 3, {table.id}, {-stack}, 0),"
                 f" (9999, 'cash_out', 'balance', 3, {table.id}, {stack}, 0)")
    conn.execute("DELETE FROM seats WHERE user_id = 3")
    conn.close()
    store = await Store.open(db_path, clock=clock)
    try:
        [report] = await store.recover()
        assert report.outcome == "refunded"
        assert (await store.hands.get(hand_id)).status == "aborted"
        assert await store.users.balance(3) == 1000  # his refund went to his wallet
        assert (await store.audit()).ok
    finally:
        await store.close()
