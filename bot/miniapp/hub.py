"""The state push: each table's revision and last snapshot, and the streams waiting for
the next one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.live import Live
from bot.miniapp.state import Snapshot, take
from bot.records import TableStatus

KEEP_CLOSED = 600.0
"""Seconds a closed table's last state stays available."""


@dataclass(slots=True)
class Hub:
    """Each table's revision and last snapshot; who waits for the next one."""

    clock: Callable[[], float]
    base: int = field(default_factory=lambda: int(time.time() * 1000))
    """Revisions start from the process's start time: a client never mistakes a revision
    of an earlier run for the current one."""
    revs: dict[int, int] = field(default_factory=dict)
    snaps: dict[int, Snapshot] = field(default_factory=dict)
    waiting: dict[int, set[asyncio.Event]] = field(default_factory=dict)

    def shown(self, live: Live) -> None:
        """The table was shown (called under its lock): a new revision, and the streams
        that follow it are woken with a snapshot taken now."""
        rev = self.revs.get(live.id, self.base) + 1
        self.revs[live.id] = rev
        waiters = self.waiting.get(live.id)
        if waiters or live.status is TableStatus.CLOSED:
            self.snaps[live.id] = take(live, rev, self.clock())
            for event in waiters or ():
                event.set()
        else:
            self.snaps.pop(live.id, None)
        if live.status is TableStatus.CLOSED:
            # A closed table is shown a while longer to pages that open late, then forgotten.
            asyncio.get_running_loop().call_later(KEEP_CLOSED, self._forget, live.id, rev)

    def _forget(self, table_id: int, rev: int) -> None:
        if self.revs.get(table_id) == rev and not self.waiting.get(table_id):
            self.revs.pop(table_id, None)
            self.snaps.pop(table_id, None)

    async def current(self, live: Live | None, table_id: int) -> Snapshot | None:
        """The table as it is now (None: no such table in this run)."""
        rev = self.revs.get(table_id, self.base)
        snap = self.snaps.get(table_id)
        if snap is not None and (snap.rev == rev or live is None):
            return snap
        if live is None:
            return None
        async with live.lock:
            rev = self.revs.setdefault(table_id, self.base)
            snap = self.snaps[table_id] = take(live, rev, self.clock())
        return snap
