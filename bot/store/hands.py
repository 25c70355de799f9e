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
Each method is one unit of work, run whole by `Database.write`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.store import ledger, practice
from bot.store.achievements import award
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
from bot.store.fairness import SeatSeed, record_proof
from bot.store.hand_players import record_players
from bot.store.models import HandRow, Movement, Settled, hand_row
from bot.store.seats import cash_out, list_seats
from bot.store.sql import Conn, execute, fetchall, fetchone
from bot.store.tables import live_table
from bot.store.tournaments import after_hand, winner_badge
from engine import Action, ChipMove, Event, Hand

INTO_POT = frozenset({"ante", "blind", "bet", "svara_join"})
OUT_OF_POT = frozenset({"win", "return", "refund"})


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


async def get_hand(conn: Conn, hand_id: int) -> HandRow:
    """The hand row, or `UnknownHand`."""
    if type(hand_id) is not int:
        raise BadInput(f"a hand id is a whole number, not {hand_id!r}")
    row = await fetchone(conn, "SELECT * FROM hands WHERE id = ?", (hand_id,))
    if row is None:
        raise UnknownHand(hand_id)
    return hand_row(row)


async def open_row(conn: Conn, hand_id: int) -> HandRow:
    """The hand row if the hand is open, else `HandNotOpen`."""
    row = await get_hand(conn, hand_id)
    if row.status != "open":
        raise HandNotOpen(hand_id, row.status)
    return row


def chip_moves(events: Iterable[Event]) -> list[ChipMove]:
    """The events that move chips."""
    return [e for e in events if isinstance(e, ChipMove)]


async def post_moves(
    conn: Conn,
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
    # Only the players who move chips; a step touches one or two seats.
    players = sorted({m.player for m in moves if type(m.player) is int})
    rows = await fetchall(
        conn,
        f"SELECT user_id, stack FROM seats WHERE table_id = ?"
        f" AND user_id IN ({', '.join('?' * len(players))})",
        (hand.table_id, *players),
    )
    stacks = {int(r[0]): int(r[1]) for r in rows}
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
    await ledger.post(conn, transfers, seq=seq, at=at)


async def recorded_actions(conn: Conn, hand_id: int) -> int:
    row = await fetchone(conn, "SELECT ifnull(max(seq), 0) FROM actions WHERE hand_id = ?",
                         (hand_id,))
    return int(row[0]) if row is not None else 0


async def append_action(
    conn: Conn,
    hand_id: int,
    action: Mapping[str, Any],
    moves: Sequence[ChipMove],
    *,
    seq: int | None,
    at: int,
) -> int:
    """One step: the action row and its chip moves. Returns the action's seq."""
    found = await fetchone(
        conn,
        "SELECT h.*, (SELECT ifnull(max(seq), 0) + 1 FROM actions WHERE hand_id = h.id) AS next"
        " FROM hands h WHERE h.id = ?", (hand_id,))
    if found is None:
        raise UnknownHand(hand_id)
    row, expected = hand_row(found), int(found["next"])
    if row.status != "open":
        raise HandNotOpen(hand_id, row.status)
    if seq is not None and seq != expected:
        raise HandMismatch(f"hand {hand_id}: action {seq} is stale, the next is {expected}")
    await execute(conn, "INSERT INTO actions (hand_id, seq, action, at) VALUES (?, ?, ?, ?)",
                  (hand_id, expected, _json(dict(action)), at))
    await post_moves(conn, row, moves, seq=expected, at=at)
    return expected


async def refund(conn: Conn, hand: HandRow, *, at: int) -> dict[int, int]:
    """Give every player back what he put in the pot and not yet got back (pot -> stack).

    A player no longer seated gets his refund in his balance. Returns user id -> refund.
    """
    pot = await ledger.pot_sum(conn, hand.id)
    seated = {s.user_id for s in await list_seats(conn, hand.table_id)}
    transfers: list[ledger.Transfer] = []
    paid: dict[int, int] = {}
    # put_in sums to the pot; if the log were odd enough that someone got out more than
    # he put in, the others are paid in order of their first chip until the pot is empty.
    for user_id, net in (await ledger.put_in(conn, hand.id)).items():
        amount = min(net, pot)
        if amount <= 0:
            continue
        dest = (ledger.stack(user_id, hand.table_id) if user_id in seated
                else ledger.balance(await practice.wallet(conn, hand.table_id, user_id)))
        transfers.append(ledger.Transfer("refund", amount, ledger.pot(hand.id, hand.table_id),
                                         dest, user_id=user_id))
        paid[user_id] = amount
        pot -= amount
    await ledger.post(conn, transfers, at=at, memo="hand aborted")
    return paid


async def release_leavers(
    conn: Conn, table_id: int, also: Iterable[int], *, at: int
) -> dict[int, int]:
    """Pay out and unseat players flagged as leaving (or named in ``also``)."""
    extra = set(also)
    left: dict[int, int] = {}
    for seat in await list_seats(conn, table_id):
        if seat.leaving or seat.user_id in extra:
            left[seat.user_id] = await cash_out(conn, seat, at=at)
    return left


async def abort_hand(conn: Conn, hand_id: int, reason: str, *, at: int) -> dict[int, int]:
    """Refund an open hand and mark it aborted; return user id -> refund."""
    row = await open_row(conn, hand_id)
    paid = await refund(conn, row, at=at)
    await execute(
        conn,
        "UPDATE hands SET status = 'aborted', abort_reason = ?, ended_at = ? WHERE id = ?",
        (reason[:500], at, hand_id),
    )
    await release_leavers(conn, row.table_id, (), at=at)
    return paid


async def settle_hand(conn: Conn, hand_id: int, hand: Hand, *, at: int) -> Settled:
    """Close a finished hand whose every action is recorded; see `Hands.settle`."""
    row = await open_row(conn, hand_id)
    if not hand.is_over:
        raise HandMismatch(f"hand {hand_id} is not over yet")
    recorded = await recorded_actions(conn, hand_id)
    if recorded != len(hand.actions):
        raise HandMismatch(
            f"hand {hand_id}: {len(hand.actions)} actions played, {recorded} recorded"
        )
    pot = await ledger.pot_sum(conn, hand_id)
    if pot != 0 or hand.pot != 0:
        raise HandMismatch(f"hand {hand_id}: the pot still holds {pot} chips")
    stacks = {s.user_id: s.stack for s in await list_seats(conn, row.table_id)}
    for player, chips in hand.stacks.items():
        if player not in stacks:
            raise NotSeated(row.table_id, player)
        if stacks[player] != chips:
            raise HandMismatch(
                f"hand {hand_id}: user {player} has {stacks[player]} at the table, "
                f"the engine says {chips}"
            )
    result = hand.result()
    await execute(
        conn,
        "UPDATE hands SET status = 'settled', ended_at = ?, result = ?, reveal = ?"
        " WHERE id = ?",
        (at, _json(result), _json(hand.reveal()), hand_id),
    )
    await record_players(conn, hand_id, hand, at=at)
    # After its hand_players rows, before leavers cash out: the badges read the record as
    # it stands at the hand's end.
    awards = await award(conn, hand_id, hand, at=at)
    # Before leavers cash out: at a tournament, who is out is placed and leaves with the
    # hand (and its last hand pays the prizes), in this transaction.
    tournament = await after_hand(conn, row.table_id, hand_id, hand, at=at)
    awards += await winner_badge(conn, tournament, hand_id, at=at)
    timeouts = [(int(count), row.table_id, int(player))
                for player, count in result.get("timeouts", {}).items()]
    if timeouts:
        await conn.executemany("UPDATE seats SET timeouts = ? WHERE table_id = ? AND user_id = ?",
                               timeouts)
    left = await release_leavers(conn, row.table_id, result.get("leaving", ()), at=at)
    return Settled(hand_id, left, awards, tournament)


class Hands:
    """The hands repository. Each method is one transaction."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    def _now(self) -> int:
        return int(self._clock())

    async def open(self, table_id: int, hand: Hand,
                   proof: tuple[int, Sequence[str]] | None = None) -> int:
        """Persist a started hand (see `open_numbered`); return its id."""
        hand_id, _ = await self.open_numbered(table_id, hand, proof)
        return hand_id

    async def open_numbered(self, table_id: int, hand: Hand,
                            proof: tuple[int, Sequence[str]] | None = None, *,
                            seats: Sequence[SeatSeed] | None = None,
                            wait: Callable[[int], str | None] | None = None
                            ) -> tuple[int, int]:
        """Persist a started hand (start JSON, commitment, antes); return its id and number.

        The hand's seats must be the table's seated players with their stacks as the
        database has them (`HandMismatch` otherwise); one open hand per table
        (`HandInProgress`). Its number is the next of its chat (/hand N). ``proof`` is
        the (nonce, seed hashes) its key was derived from, kept with it (`bot.store.fairness`).
        ``wait`` gives, from the new hand's id, what the table waits for now (written in the
        same transaction).
        """
        if hand.actions:
            # Its events would mix the antes with later steps: open right after start.
            raise HandMismatch("persist a hand with open() before applying any action")
        start = hand.start_json()
        moves = chip_moves(hand.events)
        commitment = hand.commitment
        now = self._now()

        async def work(conn: Conn) -> tuple[int, int]:
            await live_table(conn, table_id)
            busy = await fetchone(conn, "SELECT id FROM hands WHERE table_id = ?"
                                        " AND status = 'open'", (table_id,))
            if busy is not None:
                raise HandInProgress(table_id, int(busy[0]))
            stacks = {s.user_id: s.stack for s in await list_seats(conn, table_id)}
            for seat in start["seats"]:
                player, chips = seat["player"], seat["stack"]
                if player not in stacks:
                    raise NotSeated(table_id, player)
                if stacks[player] != chips:
                    raise HandMismatch(f"user {player} has {stacks[player]} at table "
                                       f"{table_id}, the hand starts him with {chips}")
            cursor = await execute(
                conn,
                "INSERT INTO hands (table_id, number, start, commitment, started_at)"
                " SELECT ?, ifnull(max(h.number), 0) + 1, ?, ?, ? FROM hands h"
                " JOIN tables t ON t.id = h.table_id"
                " WHERE t.chat_id = (SELECT chat_id FROM tables WHERE id = ?)",
                (table_id, _json(start), commitment, now, table_id),
            )
            hand_id = int(cursor.lastrowid or 0)
            if proof is not None:
                await record_proof(conn, hand_id, proof[0], proof[1], seats)
            row = await get_hand(conn, hand_id)
            await post_moves(conn, row, moves, seq=0, at=now)
            await execute(conn, "UPDATE tables SET status = 'playing' WHERE id = ?", (table_id,))
            if wait is not None:
                await _set_wait(conn, hand_id, wait(hand_id))
            return hand_id, row.number

        return await self._db.write(work, step=True)

    async def record(
        self,
        hand_id: int,
        action: Action,
        events: Iterable[Event],
        *,
        seq: int | None = None,
        leaving: int | None = None,
        wait: str | None = None,
        cards_sent: int = 0,
    ) -> int:
        """Persist one applied action with the chips it moved; return its seq (1, 2 ...).

        ``events`` are what ``hand.apply(action)`` returned. With ``seq`` given, a stale
        step (not the next one) is refused with `HandMismatch`. ``leaving``: the player
        whose leave this action is; his seat is marked to go at the hand's end in the same
        transaction. ``wait``: what the table waits for next (`Tables.set_wait`), written
        in the same transaction too, and ``cards_sent`` the rounds whose cards went out
        since (`set_cards_sent`; 0: nothing new).
        """
        data = action.to_json()
        moves = chip_moves(events)
        now = self._now()
        _check_rounds(cards_sent)

        async def work(conn: Conn) -> int:
            done = await append_action(conn, hand_id, data, moves, seq=seq, at=now)
            await _mark_leaving(conn, hand_id, leaving)
            await _set_wait(conn, hand_id, wait)
            if cards_sent:
                await _note_cards_sent(conn, hand_id, cards_sent)
            return done

        return await self._db.write(work, step=True)

    async def settle(
        self,
        hand_id: int,
        hand: Hand,
        *,
        action: Action | None = None,
        events: Iterable[Event] = (),
        leaving: int | None = None,
        wait: str | None = None,
    ) -> Settled:
        """Close a finished hand in one transaction; players leaving are paid out.

        Give the last action and its events to record them in the same transaction.
        Refused (`HandMismatch`) unless the hand is over, every action is recorded, the
        pot is empty and every stack agrees with the engine.
        """
        data = None if action is None else action.to_json()
        moves = chip_moves(events)
        now = self._now()

        async def work(conn: Conn) -> Settled:
            if data is not None:
                await append_action(conn, hand_id, data, moves, seq=None, at=now)
            await _mark_leaving(conn, hand_id, leaving)
            await _set_wait(conn, hand_id, wait)
            return await settle_hand(conn, hand_id, hand, at=now)

        return await self._db.write(work)

    async def abort(self, hand_id: int, reason: str) -> dict[int, int]:
        """Refund every chip in the pot to whoever put it in, and mark the hand aborted."""
        if not isinstance(reason, str) or not reason:
            raise BadInput("an abort needs a reason")
        now = self._now()
        return await self._db.write(lambda conn: abort_hand(conn, hand_id, reason, at=now))

    async def set_cards_sent(self, hand_id: int, rounds: int) -> None:
        """Record that the cards of the hand's first `rounds` rounds went out privately
        (the bot writes it with the hand's next step, `record`, and this at a clean stop)."""
        _check_rounds(rounds)

        async def work(conn: Conn) -> None:
            await get_hand(conn, hand_id)
            await _note_cards_sent(conn, hand_id, rounds)

        await self._db.write(work, step=True)

    async def get(self, hand_id: int) -> HandRow:
        """The hand, or `UnknownHand`."""
        if type(hand_id) is not int:
            raise BadInput(f"a hand id is a whole number, not {hand_id!r}")
        row = await self._db.fetchone("SELECT * FROM hands WHERE id = ?", (hand_id,))
        if row is None:
            raise UnknownHand(hand_id)
        return hand_row(row)

    async def open_hand(self, table_id: int) -> HandRow | None:
        """The table's open hand, if any."""
        row = await self._db.fetchone(
            "SELECT * FROM hands WHERE table_id = ? AND status = 'open'", (table_id,))
        return None if row is None else hand_row(row)

    async def last(self, table_id: int) -> HandRow | None:
        """The table's most recent hand, whatever its status (None before the first)."""
        row = await self._db.fetchone(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY number DESC LIMIT 1", (table_id,))
        return None if row is None else hand_row(row)

    async def count(self, table_id: int) -> int:
        """How many hands the table has dealt, whatever became of them."""
        row = await self._db.fetchone("SELECT count(*) FROM hands WHERE table_id = ?",
                                      (table_id,))
        return 0 if row is None else int(row[0])

    async def actions(self, hand_id: int) -> list[dict[str, Any]]:
        """The hand's action log, in order, as JSON."""

        async def work(conn: Conn) -> list[dict[str, Any]]:
            await get_hand(conn, hand_id)
            rows = await fetchall(conn, "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq",
                                  (hand_id,))
            return [json.loads(r[0]) for r in rows]

        return await self._db.read(work)

    async def movements(self, hand_id: int) -> list[Movement]:
        """Every ledger row of the hand, in order."""

        async def work(conn: Conn) -> list[Movement]:
            await get_hand(conn, hand_id)
            return await ledger.hand_rows(conn, hand_id)

        return await self._db.read(work)


async def _mark_leaving(conn: Conn, hand_id: int, player: int | None) -> None:
    """Mark `player`'s seat at the hand's table to stand up when the hand ends."""
    if player is None:
        return
    hand = await get_hand(conn, hand_id)
    await execute(conn, "UPDATE seats SET leaving = 1 WHERE table_id = ? AND user_id = ?",
                  (hand.table_id, player))


def _check_rounds(rounds: int) -> None:
    if type(rounds) is not int or rounds < 0:
        raise BadInput(f"rounds is a whole number >= 0, not {rounds!r}")


async def _note_cards_sent(conn: Conn, hand_id: int, rounds: int) -> None:
    await execute(conn, "UPDATE hands SET cards_sent = max(cards_sent, ?) WHERE id = ?",
                  (rounds, hand_id))


async def _set_wait(conn: Conn, hand_id: int, wait: str | None) -> None:
    """What the hand's table waits for next, with the step that made it wait for that."""
    if wait is None:
        return
    if type(wait) is not str or len(wait) > 400:
        raise BadInput(f"a wait is a short text, not {wait!r}")
    hand = await get_hand(conn, hand_id)
    await execute(conn, "UPDATE tables SET wait = ? WHERE id = ?", (wait, hand.table_id))
