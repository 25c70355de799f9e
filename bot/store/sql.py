"""What every unit of work is written with: the connection type and three statement helpers.

A unit of work is an ``async`` function of one `aiosqlite.Connection`; `Database.write`
runs it whole inside one transaction and `Database.read` on one snapshot. Each helper is
one statement and one hop to the connection's thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.store.errors import IntegrityViolation, StorageFailure, StoreError

T = TypeVar("T")
Conn = aiosqlite.Connection
Params = Sequence[object]
Unit = Callable[[Conn], Awaitable[T]]
"""A unit of work: it must not begin, commit or roll back itself."""


async def execute(conn: Conn, sql: str, params: Params = ()) -> aiosqlite.Cursor:
    """Run one statement; the cursor gives ``rowcount`` and ``lastrowid``."""
    return await conn.execute(sql, params)


async def fetchall(conn: Conn, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    """Every row of one query."""
    return list(await conn.execute_fetchall(sql, params))


async def fetchone(conn: Conn, sql: str, params: Params = ()) -> sqlite3.Row | None:
    """The first row of one query, or None."""
    rows = await fetchall(conn, sql, params)
    return rows[0] if rows else None


def read_only_uri(path: str | Path) -> str:
    """The URI that opens ``path`` read-only."""
    return Path(path).resolve().as_uri() + "?mode=ro"


def translate(err: BaseException) -> BaseException:
    """Map a raw sqlite3 error to the store's error classes; leave anything else alone."""
    if isinstance(err, sqlite3.IntegrityError):
        return IntegrityViolation(f"the database refused the write: {err}")
    if isinstance(err, sqlite3.Error) and not isinstance(err, StoreError):
        return StorageFailure(f"SQLite failed: {err}")
    return err
