"""Game events for the log and the metrics, read from what the store committed.

Every chip movement is a ledger row and every table a row of ``tables``; a ledger row's id
grows with each commit (one writer). So once a second `Events.look` reads, on the store's
read-only connection, the rows committed since the last look, and logs one INFO line per
event that matters to an operator:

* a table opened or closed (with its chat),
* a player joined (buy-in) or left (cash-out) a table,
* a hand settled, with its pot and how long it took,
* a refund.

Each line carries ``chat``, ``table`` and ``hand`` as record fields (``SVARA_LOG_FORMAT=json``
shows them as JSON fields). Nothing here writes, and a failed look only waits for the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.metrics import Metrics
from bot.store import Store, StoreError
from bot.store.sql import Conn, fetchall, fetchone

log = logging.getLogger("bot.events")

EVERY = 1.0
"""Seconds between two looks."""

# Two parts, so that each reads an index (the live tables' partial index, the rowid) and
# not every table ever played, once a second.
_LIVE_TABLES = """
SELECT id, chat_id, practice, status FROM tables
WHERE status != 'closed'
UNION
SELECT id, chat_id, practice, status FROM tables WHERE id > ?
"""
_NEW_LEDGER = """
SELECT l.id, l.kind, l.account, l.user_id, l.table_id, l.hand_id, l.delta, t.chat_id
FROM ledger l LEFT JOIN tables t ON t.id = l.table_id
WHERE l.id > ? ORDER BY l.id
"""
_HAND = """
SELECT h.number, h.started_at, h.ended_at, h.status, t.chat_id, h.table_id FROM hands h
JOIN tables t ON t.id = h.table_id WHERE h.id = ?
"""


@dataclass
class _Seen:
    ledger: int
    table: int
    live: dict[int, int]
    """Open tables seen last time: id -> chat."""


def _fields(chat: object = None, table: object = None, hand: object = None) -> dict[str, Any]:
    return {"extra": {"chat": chat, "table": table, "hand": hand}}


class Events:
    """Looks at the store now and then; `run()` until cancelled."""

    def __init__(self, store: Callable[[], Store | None], metrics: Metrics | None = None,
                 *, every: float = EVERY) -> None:
        self._store = store
        self.metrics = metrics
        self.every = every
        self._seen: _Seen | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="events")

    async def close(self) -> None:
        """Stop looking, after one last look (what the last moves committed is logged)."""
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await self.look()

    async def _run(self) -> None:
        """A supervised loop: `close` cancels and awaits it; a failing look is logged and
        the next one comes as usual, so the log of game events never stops for good."""
        while True:
            try:
                await self.look()
            except Exception:
                log.exception("could not read the game events")
            await asyncio.sleep(self.every)

    async def look(self) -> None:
        """Log (and count) what was committed since the last look."""
        store = self._store()
        if store is None:
            return
        try:
            await store.db.read(self._look)
        except (StoreError, sqlite3.Error) as err:
            log.debug("could not look at the store: %s", err)

    async def _look(self, conn: Conn) -> None:
        if self._seen is None:  # the first look: where the books stand at start
            top = await fetchone(conn, "SELECT coalesce(max(id), 0) FROM ledger")
            tables = await fetchone(conn, "SELECT coalesce(max(id), 0) FROM tables")
            last_table = int(tables[0]) if tables else 0
            now_open = await fetchall(conn, _LIVE_TABLES, (last_table,))
            self._seen = _Seen(int(top[0]) if top else 0, last_table,
                               {int(r[0]): int(r[1]) for r in now_open})
            return
        seen = self._seen
        rows = await fetchall(conn, _LIVE_TABLES, (seen.table,))
        live: dict[int, int] = {}
        for table_id, chat, practice, status in ((int(r[0]), int(r[1]), int(r[2]), str(r[3]))
                                                  for r in rows):
            if table_id > seen.table:
                kind = "practice table" if practice else "table"
                log.info("%s %d opened in chat %d", kind, table_id, chat,
                         **_fields(chat, table_id))
                if self.metrics is not None:
                    self.metrics.tables_opened.inc()
                seen.table = table_id
            if status != "closed":
                live[table_id] = chat
            else:
                seen.live[table_id] = chat  # opened and closed between two looks
        for table_id, chat in seen.live.items():
            if table_id not in live:
                log.info("table %d closed in chat %d", table_id, chat, **_fields(chat, table_id))
                if self.metrics is not None:
                    self.metrics.tables_closed.inc()
        seen.live = live
        await self._ledger(conn, seen)

    async def _ledger(self, conn: Conn, seen: _Seen) -> None:
        settled: dict[int, int] = {}
        for r in await fetchall(conn, _NEW_LEDGER, (seen.ledger,)):
            row_id, kind, account, user, table, hand, delta = (
                int(r[0]), str(r[1]), str(r[2]), r[3], r[4], r[5], int(r[6]))
            chat = r[7]
            seen.ledger = row_id
            if kind == "buy_in" and account == "stack":
                log.info("player %s joined table %s in chat %s with %d chips", user, table,
                         chat, delta, **_fields(chat, table))
            elif kind == "cash_out" and account == "stack":
                log.info("player %s left table %s in chat %s with %d chips", user, table,
                         chat, -delta, **_fields(chat, table))
            elif kind == "refund" and account in ("stack", "balance"):
                log.info("refund of %d chips to player %s (table %s, hand %s)", delta, user,
                         table, hand, **_fields(chat, table, hand))
            elif kind in ("win", "return") and account == "stack" and hand is not None:
                settled[int(hand)] = settled.get(int(hand), 0) + delta
        for hand_id, pot in settled.items():
            row = await fetchone(conn, _HAND, (hand_id,))
            if row is None or str(row[3]) != "settled":
                continue
            took = None if row[2] is None else int(row[2]) - int(row[1])
            log.info("hand %d (number %d) settled in chat %d: pot %d, %s s", hand_id,
                     int(row[0]), int(row[4]), pot, "?" if took is None else took,
                     **_fields(int(row[4]), int(row[5]), hand_id))
            if self.metrics is not None:
                self.metrics.hands.inc()
