"""A player's chips as a bank statement: where they are, and what moved his balance.

A stay at a table is one entry: what he bought in with, his top-ups, his rebuys from
the house and what he cashed out, with the net the table's results message gives him
(cash-outs minus buy-ins, top-ups and rebuys), and "still playing" only while he holds a
seat there. Every other movement of the balance (starting chips, bonuses, gifts, grants,
refunds) is an entry of its own. Tables are named by their group's title
(``chats.title``).
"""

from __future__ import annotations

from bot.records import AtTable as AtTable
from bot.records import Entry as Entry
from bot.records import Statement as Statement
from bot.store.db import Database
from bot.store.sql import Conn, fetchall

_STAY = frozenset({"buy_in", "top_up", "cash_out", "rebuy"})


_ROWS = (
    "SELECT l.id, l.kind, l.delta, l.table_id, l.at, c.title FROM ledger l"
    " LEFT JOIN tables t ON t.id = l.table_id LEFT JOIN chats c ON c.id = t.chat_id"
    " WHERE l.user_id = ? AND (l.account = 'balance'"
    " OR (l.account = 'stack' AND l.kind = 'rebuy')) {extra} ORDER BY l.id"
)


def entries_of(rows: list[tuple[str, int, int | None, int, str | None]],
               seated: frozenset[int] = frozenset()) -> list[Entry]:
    """A user's rows (kind, delta, table, at, title), oldest first: every balance row and
    the rebuys to his stacks, as entries, oldest first. ``seated``: the tables where he
    holds a seat now."""
    out: list[Entry] = []
    stays: dict[int, Entry] = {}
    for kind, delta, table_id, at, title in rows:
        if kind not in _STAY or table_id is None:
            out.append(Entry(kind, at, title, table_id, delta))
            continue
        stay = stays.get(table_id)
        if stay is None:
            stay = Entry("stay", at, title, table_id, playing=table_id in seated)
            stays[table_id] = stay
            out.append(stay)
        if kind == "cash_out":
            stay.back += delta
            stay.delta += delta
        elif kind == "rebuy":
            stay.rebuys += 1
            stay.rebought += delta
            stay.delta -= delta
        else:
            if kind == "buy_in":
                stay.brought -= delta
            else:
                stay.topped -= delta
            stay.delta += delta
    return out


async def statement(db: Database, user_id: int, entries: int = 10) -> Statement:
    """The user's balance, his chips at tables and his latest ``entries`` entries."""

    async def work(conn: Conn) -> Statement:
        user = await fetchall(conn, "SELECT balance FROM users WHERE id = ?", (user_id,))
        balance = int(user[0][0]) if user else 0
        seats = await fetchall(
            conn,
            "SELECT s.table_id, c.title, s.stack FROM seats s JOIN tables t ON t.id = s.table_id"
            " LEFT JOIN chats c ON c.id = t.chat_id WHERE s.user_id = ? ORDER BY s.table_id",
            (user_id,))
        # The latest rows, and every earlier row of the tables they touch, so a stay that
        # began before the window is told whole.
        window = await fetchall(
            conn,
            "SELECT min(id) FROM (SELECT id FROM ledger WHERE user_id = ?"
            " AND (account = 'balance' OR (account = 'stack' AND kind = 'rebuy'))"
            " ORDER BY id DESC LIMIT ?)", (user_id, entries * 4))
        first = window[0][0] if window and window[0][0] is not None else 0
        rows = await fetchall(
            conn, _ROWS.format(extra="AND (l.id >= ? OR l.table_id IN (SELECT DISTINCT"
                                     " table_id FROM ledger WHERE user_id = ? AND"
                                     " id >= ? AND table_id IS NOT NULL))"),
            (user_id, first, user_id, first))
        found = entries_of([(str(r[1]), int(r[2]), None if r[3] is None else int(r[3]),
                             int(r[4]), r[5]) for r in rows],
                           frozenset(int(r[0]) for r in seats))
        return Statement(balance,
                         tuple(AtTable(int(r[0]), r[1], int(r[2])) for r in seats),
                         tuple(reversed(found[-entries:])))

    return await db.read(work)


__all__ = ["AtTable", "Entry", "Statement", "entries_of", "statement"]
