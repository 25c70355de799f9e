"""Hands: the start, the action log and every chip a hand moves, one transaction per step.

The write path of a hand, as the bot drives it:

* `Hands.open` -- the start JSON (rules, seats, dealer, seed), the deal commitment and the
  antes, in one transaction;
* `Hands.record` -- each action with the chips it moved (stack <-> pot), in one
  transaction, so the database alone can rebuild any open hand;
* `Hands.settle` -- the end: checks the pot is empty and the stacks agree with the
  engine, stores result and reveal, pays out players who leave. It can take the last
  action too, so a hand costs one commit per action plus one for the start.

Start and action commits are *steps* (see ``step_synchronous`` of `Database.open`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.store import ledger
from bot.store.db import Database
from bot.store.errors import (
    BadInput,
    HandInProgress,
    HandMismatch,
    HandNotOpen,
    InsufficientChips,
    NotSeated,
    UnknownHand,
)
from bot.store.models import HandRow, Movement, Settled
from bot.store.tables import cash_out, get_seat, list_seats, live_table
from engine import Action, ChipMove, Event, Hand

INTO_POT = frozenset({"ante", "blind", "bet", "svara_join"})
OUT_OF_POT = frozenset({"win", "return", "refund"})


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def get_hand(conn: sqlite3.Connection, hand_id: int) -> HandRow:
    """The hand row, or `UnknownHand`."""
    if type(hand_id) is not int:
        raise BadInput(f"a hand id is a whole number, not {hand_id!r}")
    row = conn.execute("SELECT * FROM hands WHERE id = ?", (hand_id,)).fetchone()
    if row is None:
        raise UnknownHand(hand_id)
    return HandRow.of(row)


def open_row(conn: sqlite3.Connection, hand_id: int) -> HandRow:
    """The hand row if the hand is open, else `HandNotOpen`."""
    row = get_hand(conn, hand_id)
    if row.status != "open":
        raise HandNotOpen(hand_id, row.status)
    return row


def chip_moves(events: Iterable[Event]) -> list[ChipMove]:
    """The events that move chips."""
    return [e for e in events if isinstance(e, ChipMove)]


def post_moves(
    conn: sqlite3.Connection,
    hand: HandRow,
    moves: Sequence[ChipMove],
    *,
    seq: int,
    at: int,
) -> None:
    """Write the engine's chip moves as stack <-> pot transfers, checking each first.

    Raises before writing anything if a move is malformed, names a player who is not
    seated, or takes more than a stack or the pot holds.
    """
    if not moves:
        return
    stacks: dict[int, int] = {}
    for player in {m.player for m in moves}:
        # Only the players who move chips; a step touches one or two seats.
        row = conn.execute("SELECT stack FROM seats WHERE table_id = ? AND user_id = ?",
                           (hand.table_id, player)).fetchone()
        if row is not None:
            stacks[player] = int(row[0])
    pot = hand.pot
    transfers: list[ledger.Transfer] = []
    for m in moves:
        delta, player = m.delta, m.player
        ledger.check_amount(f"a {m.reason} move", abs(delta) if type(delta) is int else delta)
        if (m.reason in INTO_POT and delta > 0) or (m.reason in OUT_OF_POT and delta < 0):
            raise HandMismatch(f"hand {hand.id}: a {m.reason} of {delta} goes the wrong way")
        if m.reason not in INTO_POT | OUT_OF_POT:
            raise HandMismatch(f"hand {hand.id}: unknown chip move reason {m.reason!r}")
        if player not in stacks:
            raise NotSeated(hand.table_id, player)
        where_stack = ledger.stack(player, hand.table_id)
        where_pot = ledger.pot(hand.id, hand.table_id)
        if delta < 0:
            if stacks[player] < -delta:
                raise InsufficientChips(f"the stack of user {player}", stacks[player], -delta)
            transfers.append(ledger.Transfer(m.reason, -delta, where_stack, where_pot))
        else:
            if pot < delta:
                raise InsufficientChips(f"the pot of hand {hand.id}", pot, delta)
            transfers.append(ledger.Transfer(m.reason, delta, where_pot, where_stack))
        stacks[player] += delta
        pot -= delta
    ledger.post(conn, transfers, seq=seq, at=at)


def next_seq(conn: sqlite3.Connection, hand_id: int) -> int:
    row = conn.execute("SELECT ifnull(max(seq), 0) + 1 FROM actions WHERE hand_id = ?",
                       (hand_id,)).fetchone()
    return int(row[0])


def append_action(
    conn: sqlite3.Connection,
    hand_id: int,
    action: Mapping[str, Any],
    moves: Sequence[ChipMove],
    *,
    seq: int | None,
    at: int,
) -> int:
    """One step: the action row and its chip moves. Returns the action's seq."""
    found = conn.execute(
        "SELECT h.*, (SELECT ifnull(max(seq), 0) + 1 FROM actions WHERE hand_id = h.id) AS next"
        " FROM hands h WHERE h.id = ?", (hand_id,)).fetchone()
    if found is None:
        raise UnknownHand(hand_id)
    row, expected = HandRow.of(found), int(found["next"])
    if row.status != "open":
        raise HandNotOpen(hand_id, row.status)
    if seq is not None and seq != expected:
        raise HandMismatch(f"hand {hand_id}: action {seq} is stale, the next is {expected}")
    conn.execute("INSERT INTO actions (hand_id, seq, action, at) VALUES (?, ?, ?, ?)",
                 (hand_id, expected, _json(dict(action)), at))
    post_moves(conn, row, moves, seq=expected, at=at)
    return expected


def refund(conn: sqlite3.Connection, hand: HandRow, *, at: int) -> dict[int, int]:
    """Give every player back what he put in the pot and not yet got back (pot -> stack).

    A player no longer seated gets his refund in his balance. Returns user id -> refund.
    """
    pot = ledger.pot_sum(conn, hand.id)
    seated = {s.user_id for s in list_seats(conn, hand.table_id)}
    transfers: list[ledger.Transfer] = []
    paid: dict[int, int] = {}
    # put_in sums to the pot; if the log were odd enough that someone got out more than
    # he put in, the others are paid in order of their first chip until the pot is empty.
    for user_id, net in ledger.put_in(conn, hand.id).items():
        amount = min(net, pot)
        if amount <= 0:
            continue
        dest = (ledger.stack(user_id, hand.table_id) if user_id in seated
                else ledger.balance(user_id))
        transfers.append(ledger.Transfer("refund", amount, ledger.pot(hand.id, hand.table_id),
                                         dest, user_id=user_id))
        paid[user_id] = amount
        pot -= amount
    ledger.post(conn, transfers, at=at, memo="hand aborted")
    return paid


def release_leavers(
    conn: sqlite3.Connection, table_id: int, also: Iterable[int], *, at: int
) -> dict[int, int]:
    """Pay out and unseat players flagged as leaving (or named in ``also``)."""
    extra = set(also)
    left: dict[int, int] = {}
    for seat in list_seats(conn, table_id):
        if seat.leaving or seat.user_id in extra:
            left[seat.user_id] = cash_out(conn, seat, at=at)
    return left


def abort_hand(conn: sqlite3.Connection, hand_id: int, reason: str, *, at: int) -> dict[int, int]:
    """Refund an open hand and mark it aborted; return user id -> refund."""
    row = open_row(conn, hand_id)
    paid = refund(conn, row, at=at)
    conn.execute(
        "UPDATE hands SET status = 'aborted', abort_reason = ?, ended_at = ? WHERE id = ?",
        (reason[:500], at, hand_id),
    )
    release_leavers(conn, row.table_id, (), at=at)
    return paid


def settle_hand(conn: sqlite3.Connection, hand_id: int, hand: Hand, *, at: int) -> Settled:
    """Close a finished hand whose every action is recorded; see `Hands.settle`."""
    row = open_row(conn, hand_id)
    if not hand.is_over:
        raise HandMismatch(f"hand {hand_id} is not over yet")
    recorded = next_seq(conn, hand_id) - 1
    if recorded != len(hand.actions):
        raise HandMismatch(
            f"hand {hand_id}: {len(hand.actions)} actions played, {recorded} recorded"
        )
    pot = ledger.pot_sum(conn, hand_id)
    if pot != 0 or hand.pot != 0:
        raise HandMismatch(f"hand {hand_id}: the pot still holds {pot} chips")
    for player, chips in hand.stacks.items():
        seat = get_seat(conn, row.table_id, player)
        if seat.stack != chips:
            raise HandMismatch(
                f"hand {hand_id}: user {player} has {seat.stack} at the table, "
                f"the engine says {chips}"
            )
    result = hand.result()
    conn.execute(
        "UPDATE hands SET status = 'settled', ended_at = ?, result = ?, reveal = ?"
        " WHERE id = ?",
        (at, _json(result), _json(hand.reveal()), hand_id),
    )
    for player, count in result.get("timeouts", {}).items():
        conn.execute("UPDATE seats SET timeouts = ? WHERE table_id = ? AND user_id = ?",
                     (int(count), row.table_id, int(player)))
    left = release_leavers(conn, row.table_id, result.get("leaving", ()), at=at)
    return Settled(hand_id, left)


class Hands:
    """The hands repository. Each method is one transaction."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    def _now(self) -> int:
        return int(self._clock())

    async def open(self, table_id: int, hand: Hand) -> int:
        """Persist a started hand (start JSON, commitment, antes); return its id.

        The hand's seats must be the table's seated players with their stacks as the
        database has them (`HandMismatch` otherwise); one open hand per table
        (`HandInProgress`).
        """
        if hand.actions:
            # Its events would mix the antes with later steps: open right after start.
            raise HandMismatch("persist a hand with open() before applying any action")
        start = hand.start_json()
        moves = chip_moves(hand.events)
        commitment = hand.commitment
        now = self._now()

        def work(conn: sqlite3.Connection) -> int:
            live_table(conn, table_id)
            busy = conn.execute("SELECT id FROM hands WHERE table_id = ? AND status = 'open'",
                                (table_id,)).fetchone()
            if busy is not None:
                raise HandInProgress(table_id, int(busy[0]))
            stacks = {s.user_id: s.stack for s in list_seats(conn, table_id)}
            for seat in start["seats"]:
                player, chips = seat["player"], seat["stack"]
                if player not in stacks:
                    raise NotSeated(table_id, player)
                if stacks[player] != chips:
                    raise HandMismatch(f"user {player} has {stacks[player]} at table "
                                       f"{table_id}, the hand starts him with {chips}")
            number = conn.execute("SELECT ifnull(max(number), 0) + 1 FROM hands"
                                  " WHERE table_id = ?", (table_id,)).fetchone()[0]
            cursor = conn.execute(
                "INSERT INTO hands (table_id, number, start, commitment, started_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, number, _json(start), commitment, now),
            )
            hand_id = int(cursor.lastrowid or 0)
            post_moves(conn, get_hand(conn, hand_id), moves, seq=0, at=now)
            conn.execute("UPDATE tables SET status = 'playing' WHERE id = ?", (table_id,))
            return hand_id

        return await self._db.write(work, step=True)

    async def record(
        self,
        hand_id: int,
        action: Action,
        events: Iterable[Event],
        *,
        seq: int | None = None,
    ) -> int:
        """Persist one applied action with the chips it moved; return its seq (1, 2 ...).

        ``events`` are what ``hand.apply(action)`` returned. With ``seq`` given, a stale
        step (not the next one) is refused with `HandMismatch`.
        """
        data = action.to_json()
        moves = chip_moves(events)
        now = self._now()
        return await self._db.write(
            lambda conn: append_action(conn, hand_id, data, moves, seq=seq, at=now), step=True
        )

    async def settle(
        self,
        hand_id: int,
        hand: Hand,
        *,
        action: Action | None = None,
        events: Iterable[Event] = (),
    ) -> Settled:
        """Close a finished hand in one transaction; players leaving are paid out.

        Give the last action and its events to record them in the same transaction.
        Refused (`HandMismatch`) unless the hand is over, every action is recorded, the
        pot is empty and every stack agrees with the engine.
        """
        data = None if action is None else action.to_json()
        moves = chip_moves(events)
        now = self._now()

        def work(conn: sqlite3.Connection) -> Settled:
            if data is not None:
                append_action(conn, hand_id, data, moves, seq=None, at=now)
            return settle_hand(conn, hand_id, hand, at=now)

        return await self._db.write(work)

    async def abort(self, hand_id: int, reason: str) -> dict[int, int]:
        """Refund every chip in the pot to whoever put it in, and mark the hand aborted."""
        if not isinstance(reason, str) or not reason:
            raise BadInput("an abort needs a reason")
        now = self._now()
        return await self._db.write(lambda conn: abort_hand(conn, hand_id, reason, at=now))

    async def get(self, hand_id: int) -> HandRow:
        """The hand, or `UnknownHand`."""
        return await self._db.read(lambda conn: get_hand(conn, hand_id))

    async def open_hand(self, table_id: int) -> HandRow | None:
        """The table's open hand, if any."""
        row = await self._db.fetchone(
            "SELECT * FROM hands WHERE table_id = ? AND status = 'open'", (table_id,))
        return None if row is None else HandRow.of(row)

    async def last(self, table_id: int) -> HandRow | None:
        """The table's most recent hand, whatever its status (None before the first)."""
        row = await self._db.fetchone(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT 1", (table_id,))
        return None if row is None else HandRow.of(row)

    async def unfinished(self) -> list[HandRow]:
        """Every open hand, oldest first (for start-up recovery)."""
        rows = await self._db.fetchall("SELECT * FROM hands WHERE status = 'open' ORDER BY id")
        return [HandRow.of(r) for r in rows]

    async def actions(self, hand_id: int) -> list[dict[str, Any]]:
        """The hand's action log, in order, as JSON."""

        def work(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            get_hand(conn, hand_id)
            rows = conn.execute("SELECT action FROM actions WHERE hand_id = ? ORDER BY seq",
                                (hand_id,)).fetchall()
            return [json.loads(r[0]) for r in rows]

        return await self._db.read(work)

    async def movements(self, hand_id: int) -> list[Movement]:
        """Every ledger row of the hand, in order."""

        def work(conn: sqlite3.Connection) -> list[Movement]:
            get_hand(conn, hand_id)
            return ledger.hand_rows(conn, hand_id)

        return await self._db.read(work)
