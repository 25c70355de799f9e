"""Tournaments in the record: a tournament's row, its pool, its chips and its places.

Real chips and tournament chips never mix. An entry moves the buy-in from the player's
balance to the tournament's ``pool`` (an account of its table) and issues him the
starting stack in tournament chips (``tournament_chips``: bank -> his stack at the
table). While it runs, only hands move those chips. A player who is out has what is left
of his stack withdrawn (``tournament_out``: stack -> bank) and his place written, in the
transaction that settles the hand that put him out; the last hand also withdraws the
winner's stack and pays the pool out by place (``prize``: pool -> balance). A tournament
that closes before its end gives every entrant his buy-in back (``entry_refund``).
The audit proves both: real chips = balances + stacks of real tables + open real pots +
pools; issued tournament chips = stacks + open pots at tournament tables.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.achievements import Award
from bot.store import ledger
from bot.store.db import Database
from bot.store.errors import BadInput, InsufficientChips, StoreError
from bot.store.models import Seat
from bot.store.seats import get_seat, list_seats, sit_empty
from bot.store.sql import Conn, execute, fetchone
from bot.store.tournament_pool import Tournament, refund_entries, tournament_of
from bot.store.users import get_user
from bot.tournament import LevelClock, Schedule, out_order, prizes
from engine import Hand


class NotRegistering(StoreError):
    """The tournament takes no more entries."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"the tournament of table {table_id} takes no more entries")


async def create(conn: Conn, table_id: int, schedule: Schedule) -> None:
    """Make the table a tournament's (in the transaction that opens it)."""
    await execute(conn, "INSERT INTO tournaments (table_id, schedule) VALUES (?, ?)",
                  (table_id, json.dumps(schedule.to_json(), sort_keys=True)))


async def enter(conn: Conn, table_id: int, user_id: int, *, at: int) -> Seat:
    """Seat the user with the starting stack for his buy-in (balance -> pool)."""
    t = await tournament_of(conn, table_id)
    if t is None:
        raise BadInput(f"table {table_id} plays no tournament")
    if not t.registering:
        raise NotRegistering(table_id)
    user = await get_user(conn, user_id)
    if user.balance < t.schedule.buy_in:
        raise InsufficientChips(f"the balance of user {user_id}", user.balance,
                                t.schedule.buy_in)
    await sit_empty(conn, table_id, user_id, at=at)
    await ledger.post(conn, [
        ledger.Transfer("entry", t.schedule.buy_in, ledger.balance(user_id),
                        ledger.pool(table_id)),
        ledger.Transfer("tournament_chips", t.schedule.stack, ledger.BANK,
                        ledger.stack(user_id, table_id)),
    ], at=at)
    return await get_seat(conn, table_id, user_id)


async def cancel(conn: Conn, table_id: int, *, at: int) -> None:
    """A tournament closed before its end: every entrant's buy-in goes back (the table's
    close withdraws the stacks)."""
    t = await tournament_of(conn, table_id)
    if t is None or t.status in ("finished", "cancelled"):
        return
    await refund_entries(conn, table_id, None, at=at)
    await execute(conn, "UPDATE tournaments SET status = 'cancelled', finished_at = ?"
                        " WHERE table_id = ?", (at, table_id))


async def begin(conn: Conn, table_id: int, *, at: int) -> None:
    """The first deal: registration closes (or goes late), the first level's clock runs."""
    t = await tournament_of(conn, table_id)
    if t is None or t.status != "registering":
        return
    ends = at + t.schedule.every * 60 if t.schedule.clock is LevelClock.MINUTES else None
    await execute(conn, "UPDATE tournaments SET status = 'running', started_at = ?,"
                        " level_ends = ? WHERE table_id = ?", (at, ends, table_id))


def _level(t: Tournament, hands: int, at: int) -> tuple[int, int | None]:
    """The level (and its deadline) of the next hand, after `hands` hands settled at `at`."""
    s = t.schedule
    if s.clock is LevelClock.HANDS:
        return s.level_after(hands), None
    level, ends = t.level, t.level_ends
    while ends is not None and at >= ends:
        level, ends = level + 1, ends + s.every * 60
    return level, ends


async def after_hand(conn: Conn, table_id: int, hand_id: int, hand: Hand, *,
                     at: int) -> Tournament | None:
    """In the transaction that settles a tournament's hand: the level of the next hand,
    who is out (his place), and at the end the winner's place and the prizes."""
    t = await tournament_of(conn, table_id)
    if t is None or t.status != "running":
        return t
    hands = t.hands + 1
    level, ends = _level(t, hands, at)
    ante = t.schedule.ante(level)
    seats = await list_seats(conn, table_id)
    started = {int(s["player"]): int(s["stack"]) for s in hand.start_json()["seats"]}
    # A player who left with the hand is out with it too (the seat's flag, or the hand's).
    leaving = {int(p) for p in hand.result().get("leaving", ())}
    out = [s for s in seats if s.stack < ante or s.leaving or s.user_id in leaving]
    staying = [s for s in seats if s not in out]
    order = out_order([(s.user_id, started.get(s.user_id, s.stack), s.join_order)
                       for s in out])
    if len(staying) <= 1:
        # The last one standing wins; if nobody can pay the ante, the best of those out.
        order = [s.user_id for s in staying] + order
    chat = await fetchone(conn, "SELECT chat_id FROM tables WHERE id = ?", (table_id,))
    assert chat is not None
    by_user = {s.user_id: s for s in seats}
    first = len(staying) + 1 if len(staying) > 1 else 1
    for place, user_id in enumerate(order, start=first):
        seat = by_user[user_id]
        if seat.stack:
            await ledger.post(conn, [ledger.Transfer("tournament_out", seat.stack,
                                                     ledger.stack(user_id, table_id),
                                                     ledger.BANK)], at=at)
        await execute(conn, "DELETE FROM seats WHERE table_id = ? AND user_id = ?",
                      (table_id, user_id))
        await execute(conn, "INSERT INTO tournament_places (table_id, user_id, place,"
                            " hand_id, chat_id, at) VALUES (?, ?, ?, ?, ?, ?)",
                      (table_id, user_id, place, hand_id, int(chat[0]), at))
    finished = len(staying) <= 1
    await execute(conn, "UPDATE tournaments SET hands = ?, level = ?, level_ends = ?,"
                        " status = ?, finished_at = ? WHERE table_id = ?",
                  (hands, level, ends, "finished" if finished else "running",
                   at if finished else None, table_id))
    if finished:
        await _pay(conn, table_id, at=at)
    return await tournament_of(conn, table_id)


async def winner_badge(conn: Conn, t: Tournament | None, hand_id: int, *,
                       at: int) -> tuple[Award, ...]:
    """The "tournament won" badge of the winner of a tournament that has just finished
    (none if he holds it already), written with its last hand."""
    if t is None or t.status != "finished" or not t.places or t.places[0].user_id < 1:
        return ()
    winner = t.places[0].user_id
    chat = await fetchone(conn, "SELECT chat_id FROM tables WHERE id = ?", (t.table_id,))
    assert chat is not None
    cursor = await execute(
        conn, "INSERT OR IGNORE INTO achievements (user_id, badge, chat_id, hand_id, at)"
              " SELECT ?, 'tournament_won', ?, ?, ? FROM tournament_places"
              " WHERE table_id = ? AND user_id = ? AND hand_id = ?",
        (winner, int(chat[0]), hand_id, at, t.table_id, winner, hand_id))
    return (Award(winner, "tournament_won"),) if cursor.rowcount else ()


async def _pay(conn: Conn, table_id: int, *, at: int) -> None:
    """The pool pays each paid place its prize (pool -> balance)."""
    t = await tournament_of(conn, table_id)
    assert t is not None
    paid = prizes(t.pool, t.schedule.payout, len(t.places))
    transfers = []
    for place, prize in zip(t.places, paid, strict=False):
        if prize:
            transfers.append(ledger.Transfer("prize", prize, ledger.pool(table_id),
                                             ledger.balance(place.user_id)))
            await execute(conn, "UPDATE tournament_places SET prize = ? WHERE table_id = ?"
                                " AND user_id = ?", (prize, table_id, place.user_id))
    await ledger.post(conn, transfers, at=at)


class Tournaments:
    """The tournaments repository. Each method is one transaction."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def get(self, table_id: int) -> Tournament | None:
        return await self._db.read(lambda conn: tournament_of(conn, table_id))

    async def enter(self, table_id: int, user_id: int) -> Seat:
        """A player registers: his buy-in into the pool, the starting stack at the table."""
        now = int(self._clock())
        return await self._db.write(lambda conn: enter(conn, table_id, user_id, at=now))

    async def begin(self, table_id: int) -> Tournament | None:
        """The first deal is coming: the tournament runs from now (see `begin`)."""
        now = int(self._clock())

        async def work(conn: Conn) -> Tournament | None:
            await begin(conn, table_id, at=now)
            return await tournament_of(conn, table_id)

        return await self._db.write(work)

    async def places_in(self, chat_id: int, start: int, end: int) -> list[tuple[int, int, int]]:
        """(user, place, at) of the tournament places of a chat within [start, end)."""
        rows = await self._db.fetchall(
            "SELECT user_id, place, at FROM tournament_places WHERE chat_id = ?"
            " AND at >= ? AND at < ? ORDER BY at", (chat_id, start, end))
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]
