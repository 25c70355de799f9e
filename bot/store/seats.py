"""Seats and their chips: who sits at a table, sitting down with a buy-in, cashing out.

A seat's chips are the ``stack`` account of (user, table). Joining moves a buy-in from
the balance to the stack, leaving or closing moves the stack back; while the player is
in an open hand his stack belongs to the hand and only `Hands` moves it. `Tables` runs
these in its transactions.
"""

from __future__ import annotations

import json

from bot.store import ledger, practice
from bot.store.errors import AlreadySeated, InsufficientChips, NotSeated, TableFull
from bot.store.ledger_table import MAX_CHIPS
from bot.store.models import Seat
from bot.store.sql import Conn, execute, fetchall, fetchone
from bot.store.tournament_pool import tournament_of, withdraw
from bot.store.users import get_user

MAX_SEATS = 10
"""At most ten players can be dealt from 32 cards (RULES.md §1)."""


async def get_seat(conn: Conn, table_id: int, user_id: int) -> Seat:
    """The seat, or `NotSeated`."""
    row = await fetchone(conn, "SELECT * FROM seats WHERE table_id = ? AND user_id = ?",
                         (table_id, user_id))
    if row is None:
        raise NotSeated(table_id, user_id)
    return Seat.of(row)


async def list_seats(conn: Conn, table_id: int) -> list[Seat]:
    """The table's seats in join order."""
    rows = await fetchall(conn, "SELECT * FROM seats WHERE table_id = ? ORDER BY join_order",
                          (table_id,))
    return [Seat.of(r) for r in rows]


async def open_hand_players(conn: Conn, table_id: int) -> tuple[int, set[int]] | None:
    """The open hand of a table and the players dealt into it, or None."""
    row = await fetchone(conn, "SELECT id, start FROM hands WHERE table_id = ? AND status = 'open'",
                         (table_id,))
    if row is None:
        return None
    try:
        players = {int(s["player"]) for s in json.loads(row["start"])["seats"]}
    except (KeyError, TypeError, ValueError):
        # A start we cannot read: treat every seat as in the hand until recovery decides.
        players = {s.user_id for s in await list_seats(conn, table_id)}
    return int(row["id"]), players


async def cash_out(conn: Conn, seat: Seat, *, at: int) -> int:
    """Move the whole stack back to the balance and free the seat; return the amount.

    A tournament's chips are not his: they are withdrawn, and before the start his
    buy-in goes back (`bot.store.tournament_pool.withdraw`); 0 chips come back then."""
    tournament = await tournament_of(conn, seat.table_id)
    if tournament is not None:
        await withdraw(conn, seat, tournament, at=at)
        await execute(conn, "DELETE FROM seats WHERE table_id = ? AND user_id = ?",
                      (seat.table_id, seat.user_id))
        return 0
    if seat.stack:
        owner = await practice.wallet(conn, seat.table_id, seat.user_id)
        await ledger.post(conn, [ledger.Transfer("cash_out", seat.stack,
                                                 ledger.stack(seat.user_id, seat.table_id),
                                                 ledger.balance(owner))], at=at)
    await execute(conn, "DELETE FROM seats WHERE table_id = ? AND user_id = ?",
                  (seat.table_id, seat.user_id))
    return seat.stack


def amounts(what: str, most: int, least: int | None) -> tuple[int, int]:
    """Check a range of chips to take from a balance: ``least`` (default: ``most``) to ``most``."""
    ledger.check_amount(f"a {what}", most)
    if least is None:
        return most, most
    ledger.check_amount(f"the smallest {what}", least, high=most)
    return most, least


async def move_to_stack(conn: Conn, kind: str, seat: Seat, most: int, least: int, *,
                        at: int) -> None:
    """Move the balance, up to ``most`` and at least ``least``, to the stack.

    The balance is read here, in the transaction that moves it, so two buy-ins racing
    from one wallet each see what the other left.
    """
    user = await get_user(conn, await practice.wallet(conn, seat.table_id, seat.user_id))
    amount = min(user.balance, most)
    if amount < least:
        raise InsufficientChips(f"the balance of user {user.id}", user.balance, least)
    ledger.check_amount("the stack after it", seat.stack + amount, high=MAX_CHIPS)
    await ledger.post(conn, [ledger.Transfer(kind, amount, ledger.balance(user.id),
                                             ledger.stack(seat.user_id, seat.table_id))],
                      at=at)


async def sit_empty(conn: Conn, table_id: int, user_id: int, *, at: int,
                    stakes: tuple[int, int] | None = None) -> Seat:
    """Seat the user at a live table with no chips yet; ``stakes``: the table's ante and
    largest buy-in as he sits (kept with the seat)."""
    await get_user(conn, user_id)
    seats = await list_seats(conn, table_id)
    if any(s.user_id == user_id for s in seats):
        raise AlreadySeated(table_id, user_id)
    if len(seats) >= MAX_SEATS:
        raise TableFull(table_id, MAX_SEATS)
    if stakes is not None:
        for amount in stakes:
            ledger.check_amount("a stake", amount)
    order = max((s.join_order for s in seats), default=0) + 1
    ante, most = (None, None) if stakes is None else stakes
    await execute(
        conn,
        "INSERT INTO seats (table_id, user_id, join_order, joined_at, sat_ante, sat_most)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, user_id, order, at, ante, most),
    )
    return await get_seat(conn, table_id, user_id)


async def sit(conn: Conn, table_id: int, user_id: int, most: int, least: int, *,
              at: int, stakes: tuple[int, int] | None = None) -> Seat:
    """Seat the user at a live table with a buy-in of ``least`` to ``most`` chips."""
    seat = await sit_empty(conn, table_id, user_id, at=at, stakes=stakes)
    await move_to_stack(conn, "buy_in", seat, most, least, at=at)
    return await get_seat(conn, table_id, user_id)
