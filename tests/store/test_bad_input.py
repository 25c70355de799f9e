"""Bad input raises a specific StoreError and leaves the database byte-for-byte unchanged."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.store import (
    BadAmount,
    BadInput,
    HandMismatch,
    InsufficientChips,
    NotSeated,
    Store,
    StoreError,
    UnknownHand,
    UnknownTable,
    UnknownUser,
)
from engine import Act, Action, ChipMove
from tests.store.conftest import dump, play_hand, seated_table

Case = Callable[[Store, int, int], Awaitable[object]]
# (store, table id, open hand id) -> the call that must fail
CASES: dict[str, tuple[Case, type[StoreError]]] = {
    "negative grant": (lambda s, t, h: s.users.grant(1, -5), BadAmount),
    "zero grant": (lambda s, t, h: s.users.grant(1, 0), BadAmount),
    "absurd grant": (lambda s, t, h: s.users.grant(1, 10**15 + 1), BadAmount),
    "grant to unknown user": (lambda s, t, h: s.users.grant(404, 5), UnknownUser),
    "bonus to unknown user": (lambda s, t, h: s.users.daily_bonus(404, 5), UnknownUser),
    "zero buy-in": (lambda s, t, h: s.tables.join(t, 4, 0), BadAmount),
    "absurd buy-in": (lambda s, t, h: s.tables.join(t, 4, 10**16), BadAmount),
    "buy-in beyond balance": (lambda s, t, h: s.tables.join(t, 4, 1001), InsufficientChips),
    "join unknown table": (lambda s, t, h: s.tables.join(999, 4, 10), UnknownTable),
    "unknown user joins": (lambda s, t, h: s.tables.join(t, 404, 10), UnknownUser),
    "negative top-up": (lambda s, t, h: s.tables.top_up(t, 4, -1), BadAmount),
    "top-up not seated": (lambda s, t, h: s.tables.top_up(t, 4, 10), NotSeated),
    "leave not seated": (lambda s, t, h: s.tables.leave(t, 4), NotSeated),
    "bad rules": (lambda s, t, h: s.tables.open(-7, creator=1, rules="[1]"), BadInput),
    "bad settings": (lambda s, t, h: s.chats.set_settings(-7, "nope"), BadInput),
    "record unknown hand": (lambda s, t, h: s.hands.record(999, Action(Act.FOLD, 0), ()),
                            UnknownHand),
    "overdraw a stack": (lambda s, t, h: s.hands.record(h, Action(Act.FOLD, 0),
                                                        [ChipMove(0, 1, -10**6, "bet")]),
                         InsufficientChips),
    "overdraw the pot": (lambda s, t, h: s.hands.record(h, Action(Act.FOLD, 0),
                                                        [ChipMove(0, 1, 10**6, "win")]),
                         InsufficientChips),
    "absurd move": (lambda s, t, h: s.hands.record(h, Action(Act.FOLD, 0),
                                                   [ChipMove(0, 1, -(10**15 + 1), "bet")]),
                    BadAmount),
    "zero move": (lambda s, t, h: s.hands.record(h, Action(Act.FOLD, 0),
                                                 [ChipMove(0, 1, 0, "bet")]), BadAmount),
    "stranger's move": (lambda s, t, h: s.hands.record(h, Action(Act.FOLD, 0),
                                                       [ChipMove(0, 404, -1, "bet")]), NotSeated),
    "unknown reason": (lambda s, t, h: s.hands.record(h, Action(Act.FOLD, 0),
                                                      [ChipMove(0, 1, -1, "tip")]), HandMismatch),
    "abort unknown hand": (lambda s, t, h: s.hands.abort(999, "x"), UnknownHand),
}


@pytest.mark.parametrize("name", sorted(CASES))
async def test_bad_input_changes_nothing(store: Store, db_path: Path, name: str) -> None:
    table = await seated_table(store, 3, buy_in=500)
    hand_id, _ = await play_hand(store, table, random.Random(31), stop_after=2)
    await store.users.ensure(4, "outsider", starting_chips=1000)
    before = dump(db_path)
    call, error = CASES[name]
    with pytest.raises(error) as info:
        await call(store, table.id, hand_id)
    assert str(info.value)  # a readable message
    assert dump(db_path) == before
