"""The chip ledger: append-only, double entry.

Every movement of chips is a transfer of a positive amount from one account to another,
written as two rows (source ``-amount``, destination ``+amount``) that share a ``move``
id, so every movement, and the whole ledger, sums to zero. Accounts:

* ``bank``: the issuer; its sum is minus every chip ever granted.
* ``balance`` of a user: his wallet, shared by all chats.
* ``stack`` of a user at a table.
* ``pot`` of a hand.
* ``pool`` of a tournament (its table): the buy-ins, paid out as prizes.

Both rows of a movement carry the user, table, hand and action seq it belongs to. The
functions here are parts of units of work: they run inside the caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.store.errors import BadAmount
from bot.store.ledger_table import LEDGER_KINDS, MAX_CHIPS
from bot.store.models import Movement
from bot.store.sql import Conn, fetchall, fetchone

AccountKind = Literal["bank", "balance", "stack", "pot", "pool"]

@dataclass(frozen=True, slots=True)
class Account:
    kind: AccountKind
    user_id: int | None = None
    table_id: int | None = None
    hand_id: int | None = None


BANK = Account("bank")


def balance(user_id: int) -> Account:
    return Account("balance", user_id=user_id)


def stack(user_id: int, table_id: int) -> Account:
    return Account("stack", user_id=user_id, table_id=table_id)


def pot(hand_id: int, table_id: int) -> Account:
    return Account("pot", table_id=table_id, hand_id=hand_id)


def pool(table_id: int) -> Account:
    """The pool of the tournament played at a table."""
    return Account("pool", table_id=table_id)


def check_amount(what: str, amount: object, *, low: int = 1, high: int = MAX_CHIPS) -> int:
    """Return ``amount`` if it is a whole number in ``low..high``, else raise `BadAmount`."""
    # bool is an int subclass; True chips is a bug, not an amount.
    if type(amount) is not int or not low <= amount <= high:
        raise BadAmount(what, amount, low, high)
    return amount


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement to write: ``amount`` from ``source`` to ``dest``."""

    kind: str
    amount: int
    source: Account
    dest: Account
    user_id: int | None = None
    """Whose chips these are, when neither account says (a pot to pot move never is)."""


_INSERT = (
    "INSERT INTO ledger (move, kind, account, user_id, table_id, hand_id, seq, delta, memo, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


async def next_move(conn: Conn) -> int:
    """A move id larger than any written (ids only grow: the ledger is append-only)."""
    row = await fetchone(conn, "SELECT ifnull(max(id), 0) + 1 FROM ledger")
    assert row is not None
    return int(row[0])


def _first(*values: int | None) -> int | None:
    return next((v for v in values if v is not None), None)


async def post(
    conn: Conn,
    transfers: list[Transfer],
    *,
    at: int,
    seq: int | None = None,
    memo: str | None = None,
) -> None:
    """Append ``transfers`` to the ledger (one movement each) in the caller's transaction.

    The caller has checked that every source holds the amount; the schema's CHECKs on
    the cached sums refuse an overdraft anyway.
    """
    if not transfers:
        return
    rows: list[tuple[object, ...]] = []
    move = await next_move(conn)
    for t in transfers:
        if t.kind not in LEDGER_KINDS:
            raise ValueError(f"unknown ledger kind {t.kind!r}")
        amount = check_amount(f"a {t.kind} amount", t.amount)
        user = _first(t.user_id, t.source.user_id, t.dest.user_id)
        table = _first(t.source.table_id, t.dest.table_id)
        hand = _first(t.source.hand_id, t.dest.hand_id)
        for account, delta in ((t.source, -amount), (t.dest, amount)):
            rows.append((move, t.kind, account.kind,
                         account.user_id if account.user_id is not None else user,
                         account.table_id if account.table_id is not None else table,
                         account.hand_id if account.hand_id is not None else hand,
                         seq, delta, memo, at))
        move += 1
    await conn.executemany(_INSERT, rows)


# ---------------------------------------------------------------------- sums


async def _sum(conn: Conn, sql: str, params: tuple[int, ...]) -> int:
    row = await fetchone(conn, sql, params)
    return int(row[0]) if row is not None else 0


async def stack_sum(conn: Conn, user_id: int, table_id: int) -> int:
    """A user's stack at a table as the ledger says."""
    return await _sum(conn, "SELECT ifnull(sum(delta), 0) FROM ledger"
                            " WHERE user_id = ? AND account = 'stack' AND table_id = ?",
                      (user_id, table_id))


async def pot_sum(conn: Conn, hand_id: int) -> int:
    """The chips in a hand's pot as the ledger says."""
    return await _sum(conn, "SELECT ifnull(sum(delta), 0) FROM ledger"
                            " WHERE hand_id = ? AND account = 'pot'", (hand_id,))


async def put_in(conn: Conn, hand_id: int) -> dict[int, int]:
    """Per player, the chips his stack gave the hand's pot minus what it got back."""
    rows = await fetchall(
        conn,
        "SELECT user_id, sum(delta) FROM ledger"
        " WHERE hand_id = ? AND account = 'pot' GROUP BY user_id HAVING sum(delta) != 0"
        " ORDER BY min(id)",
        (hand_id,),
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def history(conn: Conn, user_id: int, limit: int) -> list[Movement]:
    """A user's latest ledger rows on his own accounts, newest first (practice tables'
    chips are not his)."""
    rows = await fetchall(
        conn,
        "SELECT * FROM ledger WHERE user_id = ? AND account IN ('balance', 'stack')"
        " AND ifnull(table_id NOT IN (SELECT id FROM tables WHERE practice = 1), 1)"
        " ORDER BY id DESC LIMIT ?",
        (user_id, limit),
    )
    return [Movement.of(r) for r in rows]


async def hand_rows(conn: Conn, hand_id: int) -> list[Movement]:
    """Every ledger row of a hand, in order."""
    rows = await fetchall(conn, "SELECT * FROM ledger WHERE hand_id = ? ORDER BY id", (hand_id,))
    return [Movement.of(r) for r in rows]
