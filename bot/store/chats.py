"""Chats: the per-chat table settings (JSON the bot validates) and the chat language."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

from bot.store.db import Database
from bot.store.errors import BadInput
from bot.store.models import Chat
from bot.store.sql import Conn, execute, fetchone

MAX_SETTINGS = 16_384


def settings_text(settings: str | Mapping[str, Any]) -> str:
    """Settings as compact JSON text; refuses anything but a JSON object of sane size."""
    if isinstance(settings, str):
        try:
            value = json.loads(settings)
        except ValueError as err:
            raise BadInput(f"chat settings are not JSON: {err}") from err
    else:
        value = dict(settings)
    if not isinstance(value, dict):
        raise BadInput("chat settings must be a JSON object")
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    if len(text) > MAX_SETTINGS:
        raise BadInput(f"chat settings are too large ({len(text)} characters)")
    return text


async def ensure_chat(conn: Conn, chat_id: int, now: int) -> None:
    """Insert the chat row if it is missing."""
    if type(chat_id) is not int:
        raise BadInput(f"a chat id is a whole number, not {chat_id!r}")
    await execute(
        conn,
        "INSERT INTO chats (id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (chat_id, now, now),
    )


async def _get(conn: Conn, chat_id: int) -> Chat:
    row = await fetchone(conn, "SELECT * FROM chats WHERE id = ?", (chat_id,))
    assert row is not None
    return Chat.of(row)


class Chats:
    """The chats repository. A chat row is created on first use."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def get(self, chat_id: int) -> Chat:
        """The chat, with default settings (``{}``) if the bot never stored any."""
        row = await self._db.fetchone("SELECT * FROM chats WHERE id = ?", (chat_id,))
        return Chat(chat_id, "{}", None) if row is None else Chat.of(row)

    async def set_settings(self, chat_id: int, settings: str | Mapping[str, Any]) -> Chat:
        """Replace the chat's settings (a JSON object, as text or a mapping)."""
        return await self._set(chat_id, "settings", settings_text(settings))

    async def set_language(self, chat_id: int, language: str | None) -> Chat:
        """Set (or clear) the chat's language."""
        if language is not None and not (isinstance(language, str) and 0 < len(language) <= 16):
            raise BadInput(f"not a language code: {language!r}")
        return await self._set(chat_id, "language", language)

    async def set_topics(self, chat_id: int, topics: tuple[int, ...] | None) -> Chat:
        """Keep the bot to these forum topics of the chat (None: every topic again)."""
        if topics is not None and not all(isinstance(t, int) and 0 <= t < 2**53
                                          for t in topics):
            raise BadInput(f"not topic ids: {topics!r}")
        return await self._set(chat_id, "topics",
                               None if topics is None else json.dumps(sorted(set(topics))))

    async def _set(self, chat_id: int, column: Literal["settings", "language", "topics"],
                   value: str | None) -> Chat:
        """Write one column of the chat's row (created if missing); the row as it is now."""
        now = int(self._clock())

        async def work(conn: Conn) -> Chat:
            await ensure_chat(conn, chat_id, now)
            await execute(conn, f"UPDATE chats SET {column} = ?, updated_at = ? WHERE id = ?",
                          (value, now, chat_id))
            return await _get(conn, chat_id)

        return await self._db.write(work)

    async def migrate(self, old: int, new: int) -> int:
        """Move the chat's settings, language, tables, history and statistics to its new
        id (one transaction); how many tables moved."""
        now = int(self._clock())
        return await self._db.write(lambda conn: move_chat(conn, old, new, now))


async def move_chat(conn: Conn, old: int, new: int, now: int) -> int:
    """Everything the bot keeps of chat `old` now belongs to `new` (a group that Telegram
    upgraded to a supergroup); the number of tables that moved."""
    if type(old) is not int or type(new) is not int or old == new:
        raise BadInput(f"a chat moves to another chat id, not {old!r} to {new!r}")
    if await fetchone(conn, "SELECT 1 FROM chats WHERE id = ?", (old,)) is None:
        return 0  # moved already (Telegram tells a migration more than once), or never seen
    await ensure_chat(conn, new, now)
    # The supergroup may have spoken first (a fresh row): the group's choices win.
    await execute(conn, """
        UPDATE chats SET
            settings = (SELECT settings FROM chats WHERE id = ?1),
            language = ifnull((SELECT language FROM chats WHERE id = ?1), language),
            title = ifnull(title, (SELECT title FROM chats WHERE id = ?1)),
            updated_at = ?3
        WHERE id = ?2""", (old, new, now))
    cursor = await execute(conn, "UPDATE tables SET chat_id = ? WHERE chat_id = ?", (new, old))
    moved = cursor.rowcount
    await execute(conn, "UPDATE hand_players SET chat_id = ? WHERE chat_id = ?", (new, old))
    await execute(conn, "UPDATE achievements SET chat_id = ? WHERE chat_id = ?", (new, old))
    await execute(conn, "UPDATE tournament_places SET chat_id = ? WHERE chat_id = ?",
                  (new, old))
    await execute(conn, "INSERT OR IGNORE INTO seasons (chat_id, starts, ends, length, champion,"
                        " points, won, closed_at, announce_due) SELECT ?, starts, ends, length,"
                        " champion, points, won, closed_at, announce_due FROM seasons"
                        " WHERE chat_id = ?",
                  (new, old))
    await execute(conn, "DELETE FROM seasons WHERE chat_id = ?", (old,))
    await execute(conn, "INSERT OR IGNORE INTO next_game (chat_id, user_id, at)"
                        " SELECT ?, user_id, at FROM next_game WHERE chat_id = ?", (new, old))
    await execute(conn, "DELETE FROM next_game WHERE chat_id = ?", (old,))
    await execute(conn, "DELETE FROM chats WHERE id = ?", (old,))
    return moved
