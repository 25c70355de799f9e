"""The deal journal: the highest deal number each table secret has dealt, kept outside
the database so that no restore of it can rewind it.

A hand's key follows from its table's secret, its deal number and the seats' seeds
(`engine.hand_key`). A backup restored into the database brings back a table with its
secret and an older deal count: dealing on from there would repeat keys, and so decks,
that players have already seen. The journal remembers, per table commitment, the highest
deal number ever handed out, and `DealJournal.take` never hands out a number at or below
it: after a restore the next deal skips the numbers already used, and the verifier sees
the gap in the table's deal numbers.

The journal is a small SQLite file beside the database (``svara.sqlite3.deals``), written
and synced before the deal it numbers is shown. It is never part of a backup, and the
restore leaves it alone; a database opened without a file (tests) keeps it in memory.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from bot.store.errors import StorageFailure

SUFFIX = ".deals"


def journal_path(database: Path) -> Path:
    """Where the journal of ``database`` lives."""
    return database.with_name(database.name + SUFFIX)


class DealJournal:
    """Deal numbers per table commitment that only ever go up."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._memory: dict[str, int] = {}
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._conn is None:
            assert self.path is not None
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("CREATE TABLE IF NOT EXISTS dealt (commitment TEXT PRIMARY KEY,"
                         " number INTEGER NOT NULL) WITHOUT ROWID")
            self._conn = conn
        return self._conn

    def _take(self, commitment: str, at_least: int) -> int:
        with self._lock:
            if self.path is None:
                number = max(at_least, self._memory.get(commitment, 0) + 1)
                self._memory[commitment] = number
                return number
            conn = self._open()
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT number FROM dealt WHERE commitment = ?",
                                   (commitment,)).fetchone()
                number = max(at_least, (int(row[0]) if row else 0) + 1)
                conn.execute("INSERT INTO dealt (commitment, number) VALUES (?, ?)"
                             " ON CONFLICT (commitment) DO UPDATE SET number = excluded.number",
                             (commitment, number))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return number

    async def take(self, commitment: str, at_least: int) -> int:
        """The number of the table's next deal: ``at_least`` (what the database counts), or
        more if the journal has handed out that many already; recorded before it returns.
        `StorageFailure` if the journal cannot be written: then nothing is dealt."""
        try:
            return await asyncio.to_thread(self._take, commitment, at_least)
        except sqlite3.Error as err:
            raise StorageFailure(f"the deal journal {self.path}: {err}") from err

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
