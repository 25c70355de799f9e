"""Played hands for people: a chat's hand history, one hand in full, and per-player figures.

Every settled hand leaves one ``hand_players`` row per player dealt in (written with the
settlement, in the same transaction), so leaderboards and stats are plain indexed sums and
never replay hands. The history and a single hand are replayed from the action log.

Practice is not play: a practice table writes no ``hand_players`` rows, and every figure
here leaves out the rows such tables wrote before (`real_play`), so neither practice
chips nor computer players reach a leaderboard, /stats or a chart.
"""

from __future__ import annotations

import json
from typing import Any

from bot.names import group_title
from bot.records import NetLine as NetLine
from bot.records import PlayedHand as PlayedHand
from bot.records import PlayerStats as PlayerStats
from bot.records import Standing as Standing
from bot.store.db import Database
from bot.store.fairness import read_proof
from bot.store.models import hand_row
from bot.store.sql import Conn, execute, fetchall, fetchone
from engine import Hand


async def _played(conn: Conn, row: Any) -> PlayedHand:
    acts = await fetchall(conn, "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq",
                          (row["id"],))
    hand = Hand.replay(json.loads(row["start"]), [json.loads(a[0]) for a in acts])
    return PlayedHand(hand_row(row), int(row["chat_id"]), hand,
                      await read_proof(conn, int(row["id"])))


def real_play(row: str = "") -> str:
    """The condition on ``hand_players`` rows (named ``row`` in the query, if at all) of
    real play: no computer player (a negative id), nothing from the chat of a practice
    table (a private chat, where no real table is ever played)."""
    at = f"{row}." if row else ""
    # The unary + keeps these terms off the indexes: the query's own user and chat
    # equalities choose the index, as they did before.
    return (f"+{at}user_id > 0 AND +{at}chat_id NOT IN"
            " (SELECT chat_id FROM tables WHERE practice = 1)")


_BOARD = (
    "SELECT user_id, sum(net) AS net, count(*) AS played, sum(won) AS won,"
    " max(CASE WHEN won THEN pot ELSE 0 END) AS biggest FROM hand_players {where}"
    " GROUP BY user_id"
)


def _where(user_id: int | None, chat_id: int | None) -> tuple[str, tuple[int, ...]]:
    """The WHERE clause of real play, of one user and one chat when given."""
    clauses, params = [real_play()], []
    for column, value in (("user_id", user_id), ("chat_id", chat_id)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    return "WHERE " + " AND ".join(clauses), tuple(params)


class History:
    """Read-only queries over played hands."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def chat_hands(self, chat_id: int, limit: int = 10) -> list[PlayedHand]:
        """The chat's last settled hands, newest first."""

        async def work(conn: Conn) -> list[PlayedHand]:
            rows = await fetchall(
                conn,
                "SELECT h.*, t.chat_id FROM hands h JOIN tables t ON t.id = h.table_id"
                " WHERE t.chat_id = ? AND h.status = 'settled' ORDER BY h.id DESC LIMIT ?",
                (chat_id, limit))
            return [await _played(conn, r) for r in rows]

        return await self._db.read(work)

    async def chat_hand(self, chat_id: int, number: int) -> PlayedHand | None:
        """The settled hand number ``number`` of ``chat_id`` (/hand N), else None."""

        async def work(conn: Conn) -> PlayedHand | None:
            row = await fetchone(
                conn,
                "SELECT h.*, t.chat_id FROM hands h JOIN tables t ON t.id = h.table_id"
                " WHERE h.number = ? AND t.chat_id = ? AND h.status = 'settled'",
                (number, chat_id))
            return None if row is None else await _played(conn, row)

        return await self._db.read(work)

    async def set_title(self, chat_id: int, title: str) -> bool:
        """Remember a group's name, cleaned as names are (only chats the bot already knows;
        no write if same). True if the chat is known and now has that name."""
        row = await self._db.fetchone("SELECT title FROM chats WHERE id = ?", (chat_id,))
        if row is None:
            return False
        title = group_title(title)
        if row[0] != title:
            await self._db.write(lambda conn: set_chat_title(conn, chat_id, title))
        return True

    async def names(self, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        rows = await self._db.fetchall(
            f"SELECT id, name FROM users WHERE id IN ({', '.join('?' * len(user_ids))})",
            tuple(user_ids))
        return {int(r[0]): str(r[1]) for r in rows}

    async def leaderboard(self, chat_id: int | None, user_id: int,
                          limit: int = 10) -> tuple[list[Standing], Standing | None]:
        """The top ``limit`` by net winnings (in one chat, or everywhere), and the caller's
        own line wherever he ranks (None if he never played there)."""
        where, params = _where(None, chat_id)
        sql = (f"SELECT b.*, u.name FROM ({_BOARD.format(where=where)}) b"
               " JOIN users u ON u.id = b.user_id ORDER BY b.net DESC, b.won DESC, b.user_id")
        rows = await self._db.fetchall(sql, params)
        board = [Standing(i, int(r["user_id"]), str(r["name"]), int(r["net"]),
                          int(r["played"]), int(r["won"]), int(r["biggest"]))
                 for i, r in enumerate(rows, start=1)]
        mine = next((s for s in board if s.user_id == user_id), None)
        return board[:limit], mine

    async def player(self, user_id: int, chat_id: int | None = None) -> PlayerStats:
        """A player's figures (everywhere, or in one chat)."""
        where, params = _where(user_id, chat_id)

        async def work(conn: Conn) -> PlayerStats:
            row = await fetchone(
                conn,
                "SELECT count(*), ifnull(sum(won), 0), ifnull(sum(net), 0),"
                " ifnull(max(CASE WHEN won THEN pot ELSE 0 END), 0), ifnull(sum(svara), 0),"
                f" ifnull(sum(svara_won), 0), max(points) FROM hand_players {where}", params)
            assert row is not None
            wins = await fetchall(conn, f"SELECT won FROM hand_players {where} ORDER BY hand_id",
                                  params)
            streak = run = 0
            for (w,) in wins:
                run = run + 1 if w else 0
                streak = max(streak, run)
            return PlayerStats(int(row[0]), int(row[1]), int(row[2]), int(row[3]),
                               int(row[4]), int(row[5]),
                               None if row[6] is None else int(row[6]), streak)

        return await self._db.read(work)

    async def chips_over_time(self, user_id: int,
                              chat_id: int | None = None) -> list[tuple[int, int]]:
        """(time, running net) after each hand the player played, oldest first."""
        where, params = _where(user_id, chat_id)
        rows = await self._db.fetchall(
            f"SELECT at, net FROM hand_players {where} ORDER BY hand_id", params)
        out: list[tuple[int, int]] = []
        total = 0
        for at, net in rows:
            total += int(net)
            out.append((int(at), total))
        return out

    async def chat_nets(self, chat_id: int, since: int) -> list[NetLine]:
        """Every player's running net in the chat over the hands settled since `since`,
        those with the most hands first."""
        rows = await self._db.fetchall(
            "SELECT p.user_id, u.name, p.at, p.net FROM hand_players p"
            " JOIN users u ON u.id = p.user_id WHERE p.chat_id = ? AND p.at >= ?"
            f" AND {real_play('p')}"
            " ORDER BY p.hand_id", (chat_id, since))
        names: dict[int, str] = {}
        series: dict[int, list[tuple[int, int]]] = {}
        for user_id, name, at, net in rows:
            line = series.setdefault(int(user_id), [])
            names[int(user_id)] = str(name)
            line.append((int(at), (line[-1][1] if line else 0) + int(net)))
        order = sorted(series, key=lambda u: (-len(series[u]), u))
        return [NetLine(u, names[u], series[u]) for u in order]


async def set_chat_title(conn: Conn, chat_id: int, title: str) -> None:
    title = group_title(title)
    await execute(conn, "UPDATE chats SET title = ? WHERE id = ? AND ifnull(title, '') != ?",
                  (title, chat_id, title))


__all__ = ["History", "NetLine", "PlayedHand", "PlayerStats", "Standing", "set_chat_title"]
