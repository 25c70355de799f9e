"""Seasons in the record: a chat's standings read from its ``hand_players`` rows, and the
``seasons`` rows of the seasons closed, one per chat and period.

`close` reads a period's rows, ranks them (`bot.seasons.standings`) and writes the season
with its champion in one transaction, so a season is closed once, with the standings the
record held at that moment. A season whose champion is to be announced stays due
(``announce_due``) until `announced` says the chat got it, or refused it for good. Only
real play counts (`bot.store.history.real_play`): no practice hand, no computer player.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from bot.seasons import ClosedSeason, Period, Scored, SeasonLength, SeasonStanding, standings
from bot.store.db import Database
from bot.store.history import real_play
from bot.store.models import Chat
from bot.store.sql import Conn, execute, fetchall, fetchone


async def scores(conn: Conn, chat_id: int, period: Period) -> list[Scored]:
    """The chat's rows of real play within `period`, and the places of its tournaments
    played to their end (one closed early scores nothing), in hand order."""
    rows = await fetchall(
        conn, "SELECT hand_id, user_id, won, svara_won, at, 0 FROM hand_players"
              f" WHERE chat_id = ?1 AND at >= ?2 AND at < ?3 AND {real_play()}"
              " UNION ALL SELECT hand_id, user_id, 0, 0, at, place FROM tournament_places"
              " WHERE chat_id = ?1 AND at >= ?2 AND at < ?3 AND user_id > 0"
              " AND hand_id IS NOT NULL AND table_id IN (SELECT table_id FROM tournaments"
              " WHERE status = 'finished') ORDER BY 1, 2", (chat_id, period.start, period.end))
    return [Scored(int(r[0]), int(r[1]), bool(r[2]), bool(r[3]), int(r[4]), int(r[5]))
            for r in rows]


def _closed(row: sqlite3.Row) -> ClosedSeason:
    """A ``seasons`` row, with its champion's name joined in."""
    champion, name = row["champion"], row["name"]
    return ClosedSeason(int(row["chat_id"]), Period(int(row["starts"]), int(row["ends"])),
                        SeasonLength(row["length"]), None if champion is None else int(champion),
                        None if name is None else str(name), int(row["points"]),
                        int(row["won"]), int(row["closed_at"]), bool(row["announce_due"]))


_SELECT = "SELECT s.*, u.name FROM seasons s LEFT JOIN users u ON u.id = s.champion"


class Seasons:
    """The seasons repository."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def groups(self) -> list[Chat]:
        """Every group the bot knows (a group's chat id is negative)."""
        return [Chat.of(r) for r in await self._db.fetchall(
            "SELECT * FROM chats WHERE id < 0 ORDER BY id")]

    async def closed_until(self, chat_id: int) -> int:
        """Where the chat's last closed season ended (0: none closed yet); a season picks
        up there."""
        row = await self._db.fetchone("SELECT ifnull(max(ends), 0) FROM seasons"
                                      " WHERE chat_id = ?", (chat_id,))
        return int(row[0]) if row is not None else 0

    async def standings(self, chat_id: int, period: Period) -> list[SeasonStanding]:
        """The chat's standings within `period` as the record holds them now."""
        return standings(await self._db.read(lambda conn: scores(conn, chat_id, period)))

    async def first_hand(self, chat_id: int, period: Period) -> int | None:
        """When the chat's first hand of real play within `period` was settled."""
        row = await self._db.fetchone(
            f"SELECT min(at) FROM hand_players WHERE chat_id = ? AND at >= ? AND at < ?"
            f" AND {real_play()}", (chat_id, period.start, period.end))
        return None if row is None or row[0] is None else int(row[0])

    async def close(self, chat_id: int, period: Period, length: SeasonLength, *,
                    announce: bool) -> ClosedSeason | None:
        """Close the chat's season of `period` with its champion, due to be announced if
        `announce` and somebody scored; None if that season was closed already."""
        if length is SeasonLength.OFF:
            raise ValueError("a season that is off does not close")
        now = int(self._clock())

        async def work(conn: Conn) -> ClosedSeason | None:
            board = standings(await scores(conn, chat_id, period))
            first = board[0] if board else None
            cursor = await execute(
                conn, "INSERT OR IGNORE INTO seasons (chat_id, starts, ends, length, champion,"
                      " points, won, closed_at, announce_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, period.start, period.end, length.value,
                 None if first is None else first.user_id, 0 if first is None else first.points,
                 0 if first is None else first.won, now, int(announce and first is not None)))
            if not cursor.rowcount:
                return None
            row = await fetchone(conn, f"{_SELECT} WHERE s.chat_id = ? AND s.starts = ?",
                                 (chat_id, period.start))
            assert row is not None
            return _closed(row)

        return await self._db.write(work)

    async def due(self) -> list[ClosedSeason]:
        """The seasons whose champion has not been announced in his chat yet, oldest first."""
        rows = await self._db.fetchall(f"{_SELECT} WHERE s.announce_due = 1"
                                       " ORDER BY s.ends, s.chat_id")
        return [_closed(r) for r in rows]

    async def announced(self, chat_id: int, period: Period) -> None:
        """The chat got the champion's announcement (or refused it for good)."""
        await self._db.write(lambda conn: execute(
            conn, "UPDATE seasons SET announce_due = 0 WHERE chat_id = ? AND starts = ?",
            (chat_id, period.start)))

    async def champions(self, chat_id: int, limit: int) -> list[ClosedSeason]:
        """The chat's last `limit` seasons that ended with a champion, newest first."""
        rows = await self._db.fetchall(
            f"{_SELECT} WHERE s.chat_id = ? AND s.champion IS NOT NULL"
            " ORDER BY s.starts DESC LIMIT ?", (chat_id, limit))
        return [_closed(r) for r in rows]


__all__ = ["ClosedSeason", "Seasons", "scores"]
