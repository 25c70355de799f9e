"""/nextgame: who is told privately when the next table opens in a chat, once."""

from __future__ import annotations

from bot.store.db import Database
from bot.store.sql import Conn, execute, fetchall


class NextGame:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, chat_id: int, user_id: int, *, at: int) -> bool:
        """Wait for the next table of the chat; False if he already waits."""

        async def work(conn: Conn) -> bool:
            cursor = await conn.execute(
                "INSERT INTO next_game (chat_id, user_id, at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING", (chat_id, user_id, at))
            return cursor.rowcount == 1

        return await self._db.write(work)

    async def remove(self, chat_id: int, user_id: int) -> bool:
        """Stop waiting; False if he did not wait."""

        async def work(conn: Conn) -> bool:
            cursor = await conn.execute(
                "DELETE FROM next_game WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
            return cursor.rowcount == 1

        return await self._db.write(work)

    async def take(self, chat_id: int) -> list[int]:
        """Everyone waiting for this chat, in the order they asked; they wait no more
        (nothing is written when nobody waits)."""
        if not await self._db.fetchall("SELECT 1 FROM next_game WHERE chat_id = ? LIMIT 1",
                                       (chat_id,)):
            return []

        async def work(conn: Conn) -> list[int]:
            rows = await fetchall(conn, "SELECT user_id FROM next_game WHERE chat_id = ?"
                                        " ORDER BY at, user_id", (chat_id,))
            await execute(conn, "DELETE FROM next_game WHERE chat_id = ?", (chat_id,))
            return [int(r[0]) for r in rows]

        return await self._db.write(work)
