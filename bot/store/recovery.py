"""Start-up recovery: every unfinished hand is rebuilt from the database, or refunded.

A hand is rebuilt by replaying its start JSON and action log through the engine. It
resumes only if the rebuilt hand deals what its commitment promised and agrees with the
ledger to the chip: the pot and every player's stack. A rebuilt hand that is already
over is settled on the spot. Anything else -- unreadable rows, a rules change
the start no longer passes, a disagreement -- refunds every chip still in the pot to
whoever put it in and marks the hand aborted. Each hand is decided in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.store import ledger
from bot.store.db import Database
from bot.store.errors import HandMismatch, StoreError
from bot.store.hands import abort_hand, open_row, settle_hand
from bot.store.seats import get_seat
from bot.store.sql import Conn, fetchall
from bot.store.tables import get_table
from engine import Hand

Replay = Callable[[dict[str, Any], Sequence[dict[str, Any]]], Hand]


@dataclass(frozen=True, slots=True)
class Recovery:
    """What happened to one unfinished hand at start-up."""

    hand_id: int
    table_id: int
    chat_id: int
    thread_id: int | None
    outcome: Literal["resumed", "refunded"]
    reason: str | None = None
    """Why the hand could not resume (None when it did)."""
    hand: Hand | None = field(default=None, compare=False)
    """The rebuilt hand, to carry on with (None when refunded)."""
    settled: bool = False
    """The rebuilt hand was already over and has now been settled."""
    refunds: dict[int, int] = field(default_factory=dict)
    """User id -> chips given back from the pot."""

    def describe(self) -> str:
        """One line for the log (the chat gets its own, translated, message)."""
        if self.outcome == "resumed":
            what = "settled after restart" if self.settled else "resumed"
            return f"hand {self.hand_id} at table {self.table_id}: {what}"
        paid = ", ".join(f"{u}: {n}" for u, n in self.refunds.items()) or "nothing in the pot"
        return (f"hand {self.hand_id} at table {self.table_id}: refunded ({paid}) "
                f"because {self.reason}")


async def _rebuild(conn: Conn, hand_id: int, replay: Replay) -> Hand:
    """Replay a hand and check it against the ledger; raise `HandMismatch` if it differs."""
    row = await open_row(conn, hand_id)
    logged = await fetchall(conn, "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq",
                            (hand_id,))
    try:
        hand = replay(row.start, [json.loads(r[0]) for r in logged])
    except Exception as err:  # the engine's GameError, or anything a bad row provokes
        raise HandMismatch(f"it could not be rebuilt ({type(err).__name__}: {err})") from err
    if hand.commitments[0] != row.commitment:
        raise HandMismatch("the deal does not match its commitment")
    pot = await ledger.pot_sum(conn, hand_id)
    if hand.pot != pot:
        raise HandMismatch(f"the rebuilt pot ({hand.pot}) differs from the ledger ({pot})")
    if row.pot != pot:
        raise HandMismatch(f"the hand's pot ({row.pot}) differs from the ledger ({pot})")
    for player, chips in hand.stacks.items():
        seat = await get_seat(conn, row.table_id, player)
        booked = await ledger.stack_sum(conn, player, row.table_id)
        if not chips == seat.stack == booked:
            raise HandMismatch(f"user {player} has {booked} at the table, "
                               f"the rebuilt hand says {chips}")
    return hand


async def recover_hand(conn: Conn, hand_id: int, replay: Replay, at: int) -> Recovery:
    """Resume, settle or refund one open hand, in the caller's transaction."""
    row = await open_row(conn, hand_id)
    table = await get_table(conn, row.table_id)
    try:
        hand = await _rebuild(conn, hand_id, replay)
        if hand.is_over:
            await settle_hand(conn, hand_id, hand, at=at)
        return Recovery(hand_id, table.id, table.chat_id, table.thread_id, "resumed",
                        hand=hand, settled=hand.is_over)
    except StoreError as err:
        reason = err.message
    refunds = await abort_hand(conn, hand_id, f"restart: {reason}", at=at)
    return Recovery(hand_id, table.id, table.chat_id, table.thread_id, "refunded",
                    reason=reason, refunds=refunds)


async def recover(
    db: Database, *, replay: Replay = Hand.replay, clock: Callable[[], float]
) -> list[Recovery]:
    """Decide every open hand, each in its own transaction; one report per hand, oldest first."""
    rows = await db.fetchall("SELECT id FROM hands WHERE status = 'open' ORDER BY id")
    reports = []
    for (hand_id,) in rows:
        at = int(clock())

        async def work(conn: Conn, hand: int = int(hand_id), at: int = at) -> Recovery:
            return await recover_hand(conn, hand, replay, at)

        reports.append(await db.write(work))
    return reports
