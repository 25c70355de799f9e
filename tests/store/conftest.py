"""Fixtures and helpers for the store tests: real SQLite files under tmp_path, no mocks."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store, Table
from engine import Hand, Rules, SeatIn
from engine.simulate import random_action

RULES = Rules(ante=10)
TABLES = ("users", "chats", "tables", "seats", "hands", "actions", "ledger")


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_700_000_000) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "svara.sqlite3"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(db_path: Path, clock: Clock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    try:
        yield s
    finally:
        await s.close()


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every store table, in storage order (to compare before and after)."""
    conn = sqlite3.connect(path)
    try:
        out = {t: list(conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")) for t in TABLES}
        out["version"] = list(conn.execute("PRAGMA user_version"))
        return out
    finally:
        conn.close()


async def seated_table(
    store: Store,
    players: int = 3,
    *,
    chips: int = 1000,
    buy_in: int = 500,
    chat_id: int = -1001,
    first_user: int = 1,
    rules: Rules = RULES,
) -> Table:
    """A lobby table with ``players`` new users seated, each with ``buy_in`` chips."""
    users = range(first_user, first_user + players)
    for u in users:
        await store.users.ensure(u, f"player {u}", starting_chips=chips)
    table = await store.tables.open(chat_id, creator=first_user, rules=rules.to_json())
    for u in users:
        await store.tables.join(table.id, u, buy_in)
    return table


async def start_hand(
    store: Store, table: Table, rng: random.Random, *, dealer: int = 0, rules: Rules = RULES
) -> tuple[int, Hand]:
    """Deal a hand to the table's seats as the bot would, and persist its start."""
    seats = await store.tables.seats(table.id)
    hand = Hand.start(rules, [SeatIn(s.user_id, s.stack, s.sitting_out, s.timeouts)
                              for s in seats], dealer % len(seats), rng.randbytes(16))
    return await store.hands.open(table.id, hand), hand


async def play_hand(
    store: Store,
    table: Table,
    rng: random.Random,
    *,
    dealer: int = 0,
    stop_after: int | None = None,
    rules: Rules = RULES,
) -> tuple[int, Hand]:
    """Play random legal actions, persisting each; settle at the end.

    With ``stop_after`` the hand is left open after that many actions (if still live).
    """
    hand_id, hand = await start_hand(store, table, rng, dealer=dealer, rules=rules)
    await play_out(store, hand_id, hand, rng, stop_after=stop_after)
    return hand_id, hand


async def play_out(store: Store, hand_id: int, hand: Hand, rng: random.Random, *,
                   stop_after: int | None = None) -> None:
    """Random legal actions on an open hand, each persisted, until it is settled (or
    ``stop_after`` actions were played while it is still live)."""
    played = 0
    while not hand.is_over:
        if stop_after is not None and played >= stop_after:
            return
        action = random_action(hand, rng)
        events = hand.apply(action)
        played += 1
        if hand.is_over:
            await store.hands.settle(hand_id, hand, action=action, events=events)
        else:
            await store.hands.record(hand_id, action, events)


def can_deal(stacks: list[int], ante: int = RULES.ante) -> bool:
    return sum(1 for s in stacks if s >= ante) >= 2
