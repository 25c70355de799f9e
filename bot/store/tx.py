"""`Tx`: the handle of an open `Database.transaction`."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, TypeVar

from bot.store.errors import TransactionMisuse
from bot.store.units import Work

if TYPE_CHECKING:
    from bot.store.db import Database, Params

T = TypeVar("T")


class Tx:
    """The handle of an open `Database.transaction`; valid only in its own task."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def _check(self) -> None:
        if not self._db._owned():
            raise TransactionMisuse("this transaction belongs to another task or has ended")

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        self._check()
        cursor = await self._db._on(self._db._writer, self._db._exec, sql, params)
        return cursor.rowcount

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Rows of one query, seeing this transaction's writes."""
        self._check()
        return await self._db._on(self._db._writer, self._db._fetch, sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def run(self, work: Work[T]) -> T:
        """Run ``work(conn)`` inside this transaction, under a savepoint."""
        self._check()
        return await self._db.write(work)
