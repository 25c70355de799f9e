"""Badges in the record: the ``achievements`` rows, one per player and badge.

`award` runs inside the transaction that settles a hand (`bot.store.hands.settle_hand`,
which restart recovery uses too): it reads what the record knows of each player before
the hand, asks the rules (`bot.achievements.earned`) and writes the new rows, so a badge
is never earned without its hand, nor a hand settled without its badges. A practice
table earns nothing, and computer players never do. The primary key (user, badge) keeps
each badge once per player, wherever he plays; the row remembers the chat and the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.achievements import STREAK, Award, HandFacts, Past, TablePast, earned, facts_of
from bot.store.db import Database
from bot.store.history import real_play
from bot.store.sql import Conn, execute, fetchall, fetchone
from engine import Hand


@dataclass(frozen=True, slots=True)
class Held:
    """A badge a player holds: where and when he earned it."""

    badge: str
    chat_id: int
    hand_number: int
    at: int


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" * len(values))


async def _pasts(conn: Conn, table_id: int, hand_id: int,
                 players: Sequence[int]) -> dict[int, Past]:
    """What the record knows of each player before hand `hand_id` (real play only)."""
    if not players:
        return {}
    held: dict[int, set[str]] = {p: set() for p in players}
    for user_id, badge in await fetchall(
            conn, f"SELECT user_id, badge FROM achievements WHERE user_id IN ({_marks(players)})",
            tuple(players)):
        held[int(user_id)].add(str(badge))
    wins = {int(r[0]): int(r[1]) for r in await fetchall(
        conn, "SELECT user_id, count(*) FROM hand_players WHERE won = 1 AND hand_id != ?"
              f" AND user_id IN ({_marks(players)}) AND {real_play()} GROUP BY user_id",
        (hand_id, *players))}
    chips = {int(r[0]): (int(r[1]), int(r[2])) for r in await fetchall(
        conn, "SELECT user_id, sum(kind = 'rebuy'), sum(delta) FROM ledger"
              " WHERE account = 'stack' AND table_id = ?"
              " AND kind IN ('buy_in', 'top_up', 'rebuy', 'cash_out')"
              f" AND user_id IN ({_marks(players)}) GROUP BY user_id",
        (table_id, *players))}
    out: dict[int, Past] = {}
    for p in players:
        recent = await fetchall(
            conn, "SELECT p.won FROM hand_players p JOIN hands h ON h.id = p.hand_id"
                  " WHERE p.user_id = ? AND h.table_id = ? AND p.hand_id != ?"
                  " ORDER BY p.hand_id DESC LIMIT ?", (p, table_id, hand_id, STREAK - 1))
        streak = 0
        for (won,) in recent:
            if not won:
                break
            streak += 1
        rebuys, brought = chips.get(p, (0, 0))
        out[p] = Past(frozenset(held[p]), wins.get(p, 0), streak, rebuys, brought)
    return out


async def _table_past(conn: Conn, table_id: int, hand_id: int) -> TablePast:
    row = await fetchone(
        conn, "SELECT count(*), ifnull((SELECT max(p.pot) FROM hand_players p"
              " JOIN hands o ON o.id = p.hand_id WHERE o.table_id = ?1 AND o.id != ?2), 0)"
              " FROM hands h WHERE h.table_id = ?1 AND h.status = 'settled' AND h.id != ?2",
        (table_id, hand_id))
    assert row is not None
    return TablePast(int(row[0]), int(row[1]))


async def award_facts(conn: Conn, hand_id: int, facts: HandFacts, *,
                      at: int) -> tuple[Award, ...]:
    """Write the badges a settled hand earns (see `award`); the awards written."""
    table = await fetchone(conn, "SELECT h.table_id, t.chat_id, t.practice FROM hands h"
                                 " JOIN tables t ON t.id = h.table_id WHERE h.id = ?",
                           (hand_id,))
    if table is None or table[2]:
        return ()  # practice is not play
    table_id, chat_id = int(table[0]), int(table[1])
    players = [p for p in facts.players if p > 0]
    pasts = await _pasts(conn, table_id, hand_id, players)
    written: list[Award] = []
    for a in earned(facts, pasts, await _table_past(conn, table_id, hand_id)):
        cursor = await execute(
            conn, "INSERT OR IGNORE INTO achievements (user_id, badge, chat_id, hand_id, at)"
                  " VALUES (?, ?, ?, ?, ?)", (a.player, a.badge, chat_id, hand_id, at))
        if cursor.rowcount:
            written.append(a)
    return tuple(written)


async def award(conn: Conn, hand_id: int, hand: Hand, *, at: int) -> tuple[Award, ...]:
    """The badges hand `hand_id` earns, written in the caller's transaction (the one that
    settles it, after its ``hand_players`` rows); none at a practice table."""
    return await award_facts(conn, hand_id, facts_of(hand), at=at)


class Achievements:
    """Read-only queries over the badges players hold."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def held(self, user_id: int) -> list[Held]:
        """The badges a player holds, in the order he earned them."""
        rows = await self._db.fetchall(
            "SELECT a.badge, a.chat_id, h.number, a.at FROM achievements a"
            " JOIN hands h ON h.id = a.hand_id WHERE a.user_id = ? ORDER BY a.at, a.hand_id",
            (user_id,))
        return [Held(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def of_players(self, user_ids: Sequence[int]) -> dict[int, list[str]]:
        """The badges each of these players holds (players without any left out)."""
        if not user_ids:
            return {}
        rows = await self._db.fetchall(
            f"SELECT user_id, badge FROM achievements WHERE user_id IN ({_marks(user_ids)})"
            " ORDER BY at, hand_id", tuple(user_ids))
        out: dict[int, list[str]] = {}
        for user_id, badge in rows:
            out.setdefault(int(user_id), []).append(str(badge))
        return out

    async def of_hand(self, hand_id: int) -> list[Award]:
        """The badges a hand earned, in the order they were written."""
        rows = await self._db.fetchall(
            "SELECT user_id, badge FROM achievements WHERE hand_id = ? ORDER BY rowid",
            (hand_id,))
        return [Award(int(r[0]), str(r[1])) for r in rows]


__all__ = ["Achievements", "Held", "award", "award_facts"]
