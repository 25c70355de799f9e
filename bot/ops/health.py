"""How the running bot is: version, uptime, open tables, database, last update received.

`Health.report()` is what ``GET /healthz`` answers in webhook mode; ``python -m bot
status`` prints the same keys from the database file (see `bot.ops.status`).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.ops.version import version
from bot.store import Store, StoreError

DB_CHECK_TTL = 5.0
"""Seconds a database check is reused: a flood of /healthz must not contend with play."""


def iso(wall: float | None) -> str | None:
    """A wall-clock time as ISO 8601 UTC, to the second."""
    if wall is None:
        return None
    return datetime.fromtimestamp(wall, UTC).replace(microsecond=0).isoformat()


def database_writable(path: Path) -> bool:
    """Whether the file (and its folder, where SQLite keeps its journal) can be written."""
    folder = path.parent if str(path.parent) else Path(".")
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)


class Health:
    """The running bot's vital signs; `mark_update()` on every update received."""

    def __init__(
        self,
        database: Path,
        *,
        store: Callable[[], Store | None],
        open_tables: Callable[[], int],
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.database = database
        self._store = store
        self._open_tables = open_tables
        self._clock = clock
        self._wall = wall
        self._started = clock()
        self.last_update: float | None = None
        self._checked: tuple[float, bool] | None = None
        self._checking: asyncio.Task[bool] | None = None

    def mark_update(self) -> None:
        self.last_update = self._wall()

    async def database_ok(self) -> bool:
        """The file is writable and the store takes (and commits) a write transaction.

        The file is looked at every time; the transaction is tried at most every
        `DB_CHECK_TTL` seconds.
        """
        if not database_writable(self.database):
            return False
        now = self._clock()
        if self._checked is not None and now - self._checked[0] < DB_CHECK_TTL:
            return self._checked[1]
        if self._checking is None or self._checking.done():
            self._checking = asyncio.ensure_future(self._check())
        ok = await asyncio.shield(self._checking)
        self._checked = (self._clock(), ok)
        return ok

    async def _check(self) -> bool:
        store = self._store()
        if store is None:
            return False
        try:
            # BEGIN IMMEDIATE takes the write lock; an empty COMMIT writes nothing.
            await store.db.write(_nothing)
        except (StoreError, OSError):
            return False
        return True

    async def report(self) -> dict[str, Any]:
        ok = await self.database_ok()
        return {
            "status": "ok" if ok else "unavailable",
            "version": version(),
            "uptime_seconds": int(self._clock() - self._started),
            "open_tables": self._open_tables(),
            "database_ok": ok,
            "last_update_at": iso(self.last_update),
        }


async def _nothing(conn: object) -> None:
    """A unit of work that writes nothing: only the transaction around it is tested."""
