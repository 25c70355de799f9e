"""The one owner of every transaction, over aiosqlite.

aiosqlite runs the statements of a connection one at a time on the connection's own
thread, but it does not keep two coroutines' transactions apart: their statements would
interleave inside one ``BEGIN ... COMMIT``. So every unit of work goes through `Database`:

* `Database.write` queues a unit for the one writer. The writer takes every unit queued
  by the time it is free (those that came in the same turn of the event loop, and those
  that came while the last commit ran) and runs them one after another inside one
  ``BEGIN IMMEDIATE ... COMMIT``, each in a savepoint of its own: a unit that fails is
  rolled back alone and its caller gets the error; the others commit together (a group
  commit). A caller gets its result only after the COMMIT that holds its writes, so what
  it was told is on disk at the durability it asked for (the batch commits at the
  strongest level any of its units asked for).
* `Database.read` runs a unit on a second, read-only connection inside one read
  transaction, so several SELECTs see one committed state. In WAL mode it never waits
  for the writer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections import Counter
from collections.abc import Awaitable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NoReturn, TypedDict, TypeVar

import aiosqlite

from bot.store.errors import SchemaTooNew, StorageFailure
from bot.store.migrations import migrate, schema_version
from bot.store.schema import MIGRATIONS, Migration
from bot.store.sql import Conn, Params, Unit, fetchall, read_only_uri, translate

log = logging.getLogger(__name__)

T = TypeVar("T")
Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]

_LEVELS: tuple[Synchronous, ...] = ("OFF", "NORMAL", "FULL", "EXTRA")


class OpenOptions(TypedDict, total=False):
    """How `Database.open` opens the file, for callers that pass them on (`Store.open`)."""

    synchronous: Synchronous
    step_synchronous: Synchronous | None
    busy_timeout_ms: int


class StatementFilter(logging.Filter):
    """Keep statements and their values out of aiosqlite's log (it logs, at DEBUG, every
    call with its arguments: a hand's seed, a table's secret). Only the call's name stays."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(_call_name(a) for a in record.args)
        elif record.args:
            record.args = None  # the message is then read as it is, never formatted
        return True


def _call_name(value: object) -> object:
    if isinstance(value, BaseException):
        return type(value).__name__
    function = getattr(value, "func", value)
    return getattr(function, "__qualname__", None) or type(value).__name__


_STATEMENTS = StatementFilter()


def hide_statements() -> None:
    """Put the `StatementFilter` on aiosqlite's logger (once; calling again is harmless)."""
    logger = logging.getLogger("aiosqlite")
    if _STATEMENTS not in logger.filters:
        logger.addFilter(_STATEMENTS)


def show_statements() -> None:
    """Take the filter off again (tests prove with it that the filter is what hides)."""
    logging.getLogger("aiosqlite").removeFilter(_STATEMENTS)


async def _to_the_end(step: Awaitable[T]) -> T:
    """Await ``step`` to its end even if the caller is cancelled meanwhile, then re-raise.

    A statement already handed to the connection's thread runs whatever the caller does;
    waiting for it keeps the lock until the connection is in a known state.
    """
    task = asyncio.ensure_future(step)
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return task.result()


FILE_MODE = 0o600
"""The database, its journal files and every backup: readable by the bot's user alone."""


def create_private(path: Path) -> None:
    """Create ``path`` empty with `FILE_MODE` unless it exists (whatever the umask).

    SQLite gives the ``-wal``, ``-shm`` and ``-journal`` files it creates beside a database
    the database file's own mode, so they are private too.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    try:
        os.fchmod(fd, FILE_MODE)  # O_CREAT's mode is cut by the umask, never widened
    finally:
        os.close(fd)
def unit_name(work: object) -> str:
    """Who wrote a unit: ``Tables.set_shown`` for a closure or lambda made in that method."""
    name = str(getattr(work, "__qualname__", type(work).__qualname__))
    return name.split(".<locals>", 1)[0]


def describe_writes(writes: Counter[str], commits: int | None = None) -> str:
    """The shutdown line: the transactions committed, and the units they held by writer,
    the busiest first."""
    top = ", ".join(f"{name} {n}" for name, n in writes.most_common())
    units = sum(writes.values())
    return (f"transactions committed: {units if commits is None else commits} "
            f"for {units} units ({top or 'none'})")


MOST_IN_ONE_COMMIT = 64
"""Units one transaction takes at most (the rest wait for the next)."""


@dataclass(eq=False)
class _Queued:
    """A unit of work waiting for the writer, and how its caller learns how it ended."""

    work: Unit[Any]
    step: bool
    done: asyncio.Future[Any]
    task: asyncio.Task[Any] | None = None
    """The unit running (its caller, cancelled, cancels it: it is rolled back alone)."""
    name: str = field(default="")


def _raise(err: BaseException) -> NoReturn:
    mapped = translate(err)
    if mapped is err:
        raise err
    raise mapped from err


def _fail(queued: _Queued, err: BaseException) -> None:
    """Tell the caller of `queued` its unit failed (raw sqlite3 errors translated)."""
    if queued.done.done():
        return
    if isinstance(err, asyncio.CancelledError):
        queued.done.cancel()
        return
    mapped = translate(err)
    if mapped is not err:
        mapped.__cause__ = err
    queued.done.set_exception(mapped)


class Database:
    """A SQLite file opened for the bot: pragmas set, schema migrated, one writer."""

    def __init__(
        self,
        path: Path,
        writer: Conn,
        reader: Conn,
        *,
        synchronous: Synchronous,
        step_synchronous: Synchronous,
        version: int,
    ) -> None:
        self.path = path
        self.synchronous: Synchronous = synchronous
        self.step_synchronous: Synchronous = step_synchronous
        self.version = version
        """The schema version of the file once open (for logs)."""
        self._writer: Conn | None = writer
        self._reader: Conn | None = reader
        self._level: str = synchronous
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._queue: list[_Queued] = []
        self._writing: asyncio.Task[None] | None = None
        self.writes: Counter[str] = Counter()
        """Committed units of work by the method that wrote them; logged at close."""
        self.commits = 0
        """Transactions committed (a group commit holds several units)."""

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "NORMAL",
        step_synchronous: Synchronous | None = None,
        busy_timeout_ms: int = 5000,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> Database:
        """Open (creating if needed) and migrate the database at ``path``.

        ``synchronous`` is SQLite's durability level for commits (NORMAL: a commit
        survives a crash of the process, FULL: also a power cut). ``step_synchronous``,
        when given, is used instead for the commits of in-hand steps (hand start and
        actions): with ``synchronous="FULL", step_synchronous="NORMAL"`` every settle and
        every wallet movement is fsynced; a power cut can at worst rewind an open hand to
        an earlier step, which recovery resumes. Raises `SchemaTooNew` if the file was
        written by a newer bot.
        """
        for level in (synchronous, step_synchronous):
            if level is not None and level not in _LEVELS:
                raise ValueError(f"synchronous must be one of {_LEVELS}, not {level!r}")
        if type(busy_timeout_ms) is not int or busy_timeout_ms < 0:
            raise ValueError("busy_timeout_ms must be a whole number >= 0")
        where = Path(path)
        create_private(where)
        writer = await aiosqlite.connect(where, isolation_level=None)
        reader: Conn | None = None
        try:
            writer.row_factory = sqlite3.Row
            await writer.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
            # Refuse a newer file before touching it (even switching it to WAL).
            found = await schema_version(writer)
            if found > len(migrations):
                raise SchemaTooNew(str(where), found, len(migrations))
            mode = (await fetchall(writer, "PRAGMA journal_mode = WAL"))[0][0]
            if str(mode).lower() != "wal":
                raise StorageFailure(f"{where}: cannot switch to WAL mode (got {mode})")
            await writer.execute("PRAGMA foreign_keys = ON")
            await writer.execute(f"PRAGMA synchronous = {synchronous}")
            await migrate(writer, path=str(where), migrations=migrations)
            version = await schema_version(writer)
            reader = await aiosqlite.connect(read_only_uri(where), uri=True, isolation_level=None)
            reader.row_factory = sqlite3.Row
            await reader.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            if reader is not None:
                await reader.close()
            await writer.close()
            raise
        return cls(where, writer, reader, synchronous=synchronous,
                   step_synchronous=step_synchronous or synchronous, version=version)

    async def close(self) -> None:
        """Let the unit in flight finish, checkpoint the WAL and close both connections."""
        while self._writing is not None and not self._writing.done():
            await asyncio.wait({self._writing})
        async with self._lock, self._read_lock:
            reader, self._reader = self._reader, None
            writer, self._writer = self._writer, None
            if writer is not None:
                log.info("%s", describe_writes(self.writes, self.commits))
            if reader is not None:
                await reader.close()
            if writer is not None:
                # Fold the WAL back into the main file so a copied file is complete.
                with suppress(sqlite3.Error):
                    await writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                await writer.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _closed(self) -> StorageFailure:
        return StorageFailure(f"the database {self.path} is closed")

    # ------------------------------------------------------------------ writing

    async def write(self, work: Unit[T], *, step: bool = False) -> T:
        """Run ``work(conn)`` in a transaction; return its result once committed.

        ``work`` must not manage transactions itself. If it raises, everything it wrote is
        rolled back and the error is raised here (raw sqlite3 errors become
        `StorageFailure`); units committed with it are not touched. A caller cancelled
        before its unit ends has it rolled back (or never run); once it has ended, the
        caller waits for the commit and is then cancelled. ``step`` marks an in-hand step,
        which commits at ``step_synchronous``.
        """
        if self._writer is None:
            raise self._closed()
        loop = asyncio.get_running_loop()
        queued = _Queued(work, step, loop.create_future(), name=unit_name(work))
        self._queue.append(queued)
        if self._writing is None or self._writing.done():
            self._writing = loop.create_task(self._write_all(), name="sqlite-writer")
        try:
            return await asyncio.shield(queued.done)
        except asyncio.CancelledError:
            if queued.done.cancelled() or not self._abandon(queued):
                raise
            while not queued.done.done():
                with suppress(asyncio.CancelledError):
                    await asyncio.wait({queued.done})
            if not queued.done.cancelled():
                queued.done.exception()  # seen: how it ended no longer reaches anyone
            raise

    def _abandon(self, queued: _Queued) -> bool:
        """The caller of `queued` is cancelled: drop it if it has not begun, stop it if it
        runs; True if the caller must wait to learn how it ended."""
        if queued in self._queue or queued.task is None:
            # Still queued, or taken into a batch but not begun: it never runs.
            if queued in self._queue:
                self._queue.remove(queued)
            queued.done.cancel()
            return False
        if not queued.task.done():
            queued.task.cancel()
        return not queued.done.done()

    async def _write_all(self) -> None:
        """The writer: one transaction for whatever is queued, until nothing is.

        Cancelling the writer cuts no batch short: every unit queued is still written (its
        caller hears how it ended, as if nothing happened), and then the writer ends
        cancelled. Only a caller's own cancellation drops his unit."""
        cancelled = False
        try:
            await asyncio.sleep(0)  # the units of this turn of the loop go together
        except asyncio.CancelledError:
            cancelled = True
        while True:
            try:
                await self._lock.acquire()
                break
            except asyncio.CancelledError:
                cancelled = True
        try:
            while self._queue:
                batch = self._queue[:MOST_IN_ONE_COMMIT]
                del self._queue[:MOST_IN_ONE_COMMIT]
                try:
                    await _to_the_end(self._commit(batch))
                except asyncio.CancelledError:
                    cancelled = True
        finally:
            self._lock.release()
        if cancelled:
            raise asyncio.CancelledError

    async def _commit(self, batch: list[_Queued]) -> None:
        conn = self._writer
        if conn is None:
            for queued in batch:
                _fail(queued, self._closed())
            return
        ran: list[tuple[_Queued, Any]] = []
        try:
            strongest = max(_LEVELS.index(self.step_synchronous if q.step
                                          else self.synchronous) for q in batch)
            level = _LEVELS[strongest]
            if level != self._level:
                # SQLite refuses to change this inside a transaction.
                self._level = ""
                await conn.execute(f"PRAGMA synchronous = {level}")
                self._level = level
            await conn.execute("BEGIN IMMEDIATE")
            for number, queued in enumerate(batch):
                ok, value = await self._run(conn, queued, f"unit{number}")
                if ok:
                    ran.append((queued, value))
            if not ran:
                await _to_the_end(conn.rollback())  # every unit failed: nothing to keep
                return
            await _to_the_end(conn.execute("COMMIT"))
        except BaseException as err:
            # If even the rollback fails the connection is gone; the error says why.
            with suppress(sqlite3.Error):
                await _to_the_end(conn.rollback())
            for queued in batch:
                _fail(queued, err)
            if not isinstance(err, Exception):
                raise
            return
        self.commits += 1
        for queued, value in ran:
            self.writes[queued.name] += 1
            if not queued.done.done():
                queued.done.set_result(value)

    async def _run(self, conn: Conn, queued: _Queued, savepoint: str) -> tuple[bool, Any]:
        """Run one unit in a savepoint of its own; (False, None) if it failed (its caller
        is told, its writes are rolled back)."""
        if queued.done.done():
            return False, None  # its caller is gone
        await conn.execute(f"SAVEPOINT {savepoint}")
        queued.task = asyncio.ensure_future(queued.work(conn))
        try:
            value = await _to_the_end(queued.task)
        except BaseException as err:
            await _to_the_end(conn.execute(f"ROLLBACK TO {savepoint}"))
            await conn.execute(f"RELEASE {savepoint}")
            if isinstance(err, asyncio.CancelledError) and queued.task.cancelled():
                queued.done.cancel()
            else:
                _fail(queued, err)
            return False, None
        await conn.execute(f"RELEASE {savepoint}")
        return True, value

    # ------------------------------------------------------------------ reading

    async def read(self, work: Unit[T]) -> T:
        """Run ``work(conn)`` on one consistent snapshot of the last committed state."""
        async with self._read_lock:
            conn = self._reader
            if conn is None:
                raise self._closed()
            try:
                await conn.execute("BEGIN")
                return await work(conn)
            except BaseException as err:
                _raise(err)
            finally:
                await _to_the_end(conn.rollback())

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """All rows of one query on the last committed state."""
        async with self._read_lock:
            conn = self._reader
            if conn is None:
                raise self._closed()
            try:
                return await fetchall(conn, sql, params)
            except sqlite3.Error as err:
                raise translate(err) from err

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row of one query, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
