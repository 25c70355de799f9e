"""How the running bot is: version, uptime, open tables, database, last update received.

`Health.report()` is what ``GET /healthz`` answers in webhook mode; ``python -m bot
status`` prints the same keys from the database file (see `bot.ops.status`).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.ops.version import version
from bot.store import Store, StoreError
from bot.store.sql import Conn, execute

DB_CHECK_TTL = 5.0
"""Seconds a database check is reused: a flood of /healthz must not contend with play."""

PROBE_BYTES = 2048
"""Fresh bytes the readiness probe writes: half a page, never stored twice the same."""


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
    """The running bot's vital signs; `mark_update()` on every update received.

    *Ready* (``GET /readyz``): a player's press can be saved now. The probe rewrites its
    own row (``readiness``) with `PROBE_BYTES` fresh random bytes and commits, the way a
    press commits: a full disk, a read-only file system or a database locked by another
    process refuse it as they would refuse the press. *Live*
    (``GET /livez``): the event loop answers (or nothing would), and updates come in:
    with long polling, getUpdates answered (`mark_fetch`) within ``stale_after`` seconds;
    with a webhook, an update arrived within that bound, or Telegram says none is waiting
    (`mark_webhook_info`). ``stale_after`` 0 checks the loop alone.
    """

    def __init__(
        self,
        database: Path,
        *,
        store: Callable[[], Store | None],
        open_tables: Callable[[], int],
        webhook: bool = False,
        stale_after: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.database = database
        self._store = store
        self._open_tables = open_tables
        self.webhook = webhook
        self.stale_after = stale_after
        self._clock = clock
        self._wall = wall
        self._started = clock()
        self._started_wall = wall()
        self.last_update: float | None = None
        self.last_fetch: float | None = None
        self.pending: tuple[float, int] | None = None
        """When Telegram last said how many updates wait for the webhook, and how many."""
        self._checked: tuple[float, bool] | None = None
        self.ready: bool | None = None
        """The outcome of the last readiness probe (None before the first)."""
        self._checking: asyncio.Task[bool] | None = None

    def mark_update(self) -> None:
        self.last_update = self._wall()

    def mark_fetch(self) -> None:
        self.last_fetch = self._wall()

    def mark_webhook_info(self, pending: int) -> None:
        self.pending = (self._wall(), pending)

    def live(self) -> tuple[bool, str]:
        """Whether updates come in as they should, and why not."""
        bound = self.stale_after
        if bound <= 0:
            return True, "ok"
        now = self._wall()
        if not self.webhook:
            last = self.last_fetch if self.last_fetch is not None else self._started_wall
            if now - last > bound:
                return False, f"getUpdates has not answered for {int(now - last)} s"
            return True, "ok"
        last = self.last_update if self.last_update is not None else self._started_wall
        if now - last <= bound:
            return True, "ok"
        if self.pending is not None and now - self.pending[0] <= bound and self.pending[1] == 0:
            return True, "ok"  # quiet: Telegram has nothing waiting for us
        waiting = "" if self.pending is None else f"; {self.pending[1]} wait at Telegram"
        return False, f"no update has arrived for {int(now - last)} s{waiting}"

    async def database_ok(self) -> bool:
        """The file is writable and the store commits the probe's fresh bytes.

        The file is looked at every time; the probe is written at most every
        `DB_CHECK_TTL` seconds.
        """
        if not database_writable(self.database):
            self.ready = False
            return False
        now = self._clock()
        if self._checked is not None and now - self._checked[0] < DB_CHECK_TTL:
            return self._checked[1]
        if self._checking is None or self._checking.done():
            self._checking = asyncio.ensure_future(self._check())
        ok = await asyncio.shield(self._checking)
        self._checked = (self._clock(), ok)
        self.ready = ok
        return ok

    async def _check(self) -> bool:
        store = self._store()
        if store is None:
            return False
        stamp = int(self._wall())
        try:
            await store.db.write(lambda conn: _probe(conn, stamp))
        except (StoreError, OSError):
            return False
        return True

    async def report(self) -> dict[str, Any]:
        ok = await self.database_ok()
        live, why = self.live()
        return {
            "status": "ok" if ok and live else "unavailable",
            "version": version(),
            "uptime_seconds": int(self._clock() - self._started),
            "open_tables": self._open_tables(),
            "database_ok": ok,
            "live": live,
            "live_problem": None if live else why,
            "last_update_at": iso(self.last_update),
            "last_fetch_at": iso(self.last_fetch),
        }


async def _probe(conn: Conn, at: int) -> None:
    """Rewrite the probe's one row with fresh bytes (the row is replaced, never added)."""
    await execute(conn, "INSERT INTO readiness (id, at, bytes) VALUES (1, ?, ?)"
                        " ON CONFLICT (id) DO UPDATE SET at = excluded.at, bytes = excluded.bytes",
                  (at, secrets.token_bytes(PROBE_BYTES)))
