"""The one owner of the SQLite connection, and so of every transaction.

aiosqlite-style wrappers serialise statements but not transactions: two coroutines that
each run ``BEGIN ... COMMIT`` through one connection interleave their statements. Here
all writing goes through a single `Database`, which runs each unit of work inside its own
transaction on one writer thread, behind one `asyncio.Lock`:

* `Database.write` takes a plain function of a `sqlite3.Connection` and runs it, whole,
  in one hop to the writer thread. Units queued by other coroutines while a commit is in
  flight are committed together (group commit), each inside its own SAVEPOINT, so one
  failing unit rolls back alone and none ever sees another half-done. The caller gets
  its result only after the COMMIT that holds its writes.
* `Database.transaction` is the general form for a caller who needs to ``await`` between
  statements: ``async with db.transaction() as tx:`` (BEGIN IMMEDIATE ... COMMIT, or
  ROLLBACK on an exception). Writes made by the same task inside it join it.

Reads outside a transaction use a second, read-only connection: in WAL mode it sees the
last committed state and never waits for the writer.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from bot.store.errors import SchemaTooNew, StorageFailure
from bot.store.migrations import MIGRATIONS, Migration, migrate, schema_version
from bot.store.tx import Tx
from bot.store.units import DbStats, Job, Owner, Work, translate

T = TypeVar("T")
Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]
Params = Sequence[object] | dict[str, object]

_LEVELS: tuple[Synchronous, ...] = ("OFF", "NORMAL", "FULL", "EXTRA")


class Database:
    """A SQLite file opened for the bot: pragmas set, schema migrated, one writer."""

    def __init__(
        self,
        path: Path,
        *,
        synchronous: Synchronous,
        step_synchronous: Synchronous | None,
        busy_timeout_ms: int,
        max_batch: int,
    ) -> None:
        for level in (synchronous, step_synchronous):
            if level is not None and level not in _LEVELS:
                raise ValueError(f"synchronous must be one of {_LEVELS}, not {level!r}")
        if busy_timeout_ms < 0 or max_batch < 1:
            raise ValueError("busy_timeout_ms must be >= 0 and max_batch >= 1")
        self.path = path
        self.synchronous: Synchronous = synchronous
        self.step_synchronous: Synchronous = step_synchronous or synchronous
        self.busy_timeout_ms = busy_timeout_ms
        self.max_batch = max_batch
        self.stats = DbStats()
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="store-writer")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="store-reader")
        self._wconn: sqlite3.Connection | None = None
        self._rconn: sqlite3.Connection | None = None
        self._level: str | None = None
        self._lock = asyncio.Lock()
        self._queue: list[Job[Any]] = []
        self._owner = Owner()
        self._closed = False
        self.version = 0
        """The schema version of the file once open (for logs)."""

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "NORMAL",
        step_synchronous: Synchronous | None = None,
        busy_timeout_ms: int = 5000,
        max_batch: int = 256,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> Database:
        """Open (creating if needed) and migrate the database at ``path``.

        ``synchronous`` is SQLite's durability level for commits (NORMAL: a commit
        survives a crash of the process, FULL: also a power cut). ``step_synchronous``,
        when given, is used instead for commits holding only in-hand steps (hand start
        and actions): with ``synchronous="FULL", step_synchronous="NORMAL"`` a hand is
        fsynced once, when it settles, and every wallet movement is fsynced; a power cut
        can at worst rewind an open hand to an earlier step, which recovery resumes.
        Raises `SchemaTooNew` if the file was written by a newer bot.
        """
        db = cls(
            Path(path),
            synchronous=synchronous,
            step_synchronous=step_synchronous,
            busy_timeout_ms=busy_timeout_ms,
            max_batch=max_batch,
        )
        try:
            await db._on(db._writer, db._connect_writer, tuple(migrations))
            await db._on(db._reader, db._connect_reader)
        except BaseException:
            await db.close()
            raise
        return db

    def _connect_writer(self, migrations: tuple[Migration, ...]) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            # Refuse a newer file before touching it (even switching it to WAL).
            found = schema_version(conn)
            if found > len(migrations):
                raise SchemaTooNew(str(self.path), found, len(migrations))
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StorageFailure(f"{self.path}: cannot switch to WAL mode (got {mode})")
            conn.execute("PRAGMA foreign_keys = ON")
            self._set_level(conn, self.synchronous)
            migrate(conn, path=str(self.path), migrations=migrations)
            self.version = schema_version(conn)
        except BaseException:
            conn.close()
            raise
        self._wconn = conn

    def _connect_reader(self) -> None:
        uri = self.path.resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        conn.execute("PRAGMA query_only = ON")
        self._rconn = conn

    async def close(self) -> None:
        """Finish pending work, checkpoint the WAL and close both connections."""
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            await self._on(self._reader, self._close_reader)
            await self._on(self._writer, self._close_writer)
        self._reader.shutdown(wait=True)
        self._writer.shutdown(wait=True)

    def _close_reader(self) -> None:
        if self._rconn is not None:
            self._rconn.close()
            self._rconn = None

    def _close_writer(self) -> None:
        if self._wconn is not None:
            # Fold the WAL back into the main file so a copied file is complete.
            with suppress(sqlite3.Error):
                self._wconn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._wconn.close()
            self._wconn = None

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ plumbing

    async def _on(self, pool: ThreadPoolExecutor, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, functools.partial(fn, *args))

    def _conn(self) -> sqlite3.Connection:
        if self._wconn is None:
            raise StorageFailure(f"the database {self.path} is closed")
        return self._wconn

    def _set_level(self, conn: sqlite3.Connection, level: str) -> None:
        # SQLite refuses to change this inside a transaction, so it is set per commit.
        if level != self._level:
            conn.execute(f"PRAGMA synchronous = {level}")
            self._level = level

    def _owned(self) -> bool:
        task = asyncio.current_task()
        return task is not None and self._owner.task is task

    # ------------------------------------------------------------------ writing

    async def write(self, work: Work[T], *, step: bool = False) -> T:
        """Run ``work(conn)`` as one transaction; return its result once committed.

        ``work`` runs on the writer thread and must not manage transactions itself. If it
        raises, everything it wrote is rolled back and the error is raised here (raw
        sqlite3 errors become `StorageFailure`). ``step`` marks an in-hand step, which
        commits at ``step_synchronous``. Inside `transaction` (same task) the work joins
        the open transaction, under a savepoint.
        """
        if self._owned():
            return await self._on(self._writer, self._nested, work)
        job: Job[T] = Job(work, step)
        self._queue.append(job)
        try:
            while not job.done:
                async with self._lock:
                    if job.done:
                        break
                    if self._closed:
                        raise StorageFailure(f"the database {self.path} is closed")
                    batch = self._queue[: self.max_batch]
                    del self._queue[: self.max_batch]
                    await self._on(self._writer, self._run_batch, batch)
        except BaseException:
            # A job nobody ran yet must not run later for a caller who is gone.
            if job in self._queue:
                self._queue.remove(job)
            raise
        if job.error is not None:
            raise job.error
        return cast(T, job.value)

    def _run_batch(self, batch: list[Job[Any]]) -> None:
        conn = self._conn()
        self.stats.batches += 1
        try:
            self._set_level(
                conn, self.step_synchronous if all(j.step for j in batch) else self.synchronous
            )
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            self._fail_all(batch, translate(err))
            return
        kept = 0
        try:
            if len(batch) == 1:
                # A lone unit needs no savepoint: its failure rolls the transaction back.
                job = batch[0]
                try:
                    job.value = job.work(conn)
                    kept = 1
                except Exception as err:
                    job.error = translate(err)
            else:
                for job in batch:
                    conn.execute("SAVEPOINT unit")
                    try:
                        job.value = job.work(conn)
                    except Exception as err:
                        job.error = translate(err)
                        conn.execute("ROLLBACK TO unit")
                        conn.execute("RELEASE unit")
                    else:
                        conn.execute("RELEASE unit")
                        kept += 1
            if kept:
                conn.execute("COMMIT")
                self.stats.commits += 1
            else:
                conn.execute("ROLLBACK")
        except sqlite3.Error as err:
            # The transaction itself failed (disk full, I/O error): nothing is kept.
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self._fail_all(batch, translate(err))
            return
        self.stats.units += len(batch)
        for job in batch:
            job.done = True

    @staticmethod
    def _fail_all(batch: list[Job[Any]], error: BaseException) -> None:
        for job in batch:
            job.value = None
            job.error = error
            job.done = True

    def _nested(self, work: Work[T]) -> T:
        conn = self._conn()
        conn.execute("SAVEPOINT nested")
        try:
            value = work(conn)
        except Exception as err:
            conn.execute("ROLLBACK TO nested")
            conn.execute("RELEASE nested")
            raise translate(err) from err
        conn.execute("RELEASE nested")
        return value

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``async with db.transaction() as tx:`` -- one transaction across awaits.

        Commits when the block ends, rolls back if it raises. Nested use by the same task
        makes a savepoint. Other tasks' writes wait until the block ends; a task started
        inside the block must not write (it would wait for the block forever).
        """
        if self._owned():
            self._owner.depth += 1
            name = f"tx{self._owner.depth}"
            await self._on(self._writer, self._exec, f"SAVEPOINT {name}")
            try:
                yield Tx(self)
            except BaseException:
                await self._on(self._writer, self._exec, f"ROLLBACK TO {name}")
                await self._on(self._writer, self._exec, f"RELEASE {name}")
                raise
            else:
                await self._on(self._writer, self._exec, f"RELEASE {name}")
            finally:
                self._owner.depth -= 1
            return
        async with self._lock:
            if self._closed:
                raise StorageFailure(f"the database {self.path} is closed")
            await self._on(self._writer, self._begin)
            self._owner.task = asyncio.current_task()
            try:
                yield Tx(self)
            except BaseException:
                self._owner.task = None
                await self._on(self._writer, self._end, False)
                raise
            self._owner.task = None
            await self._on(self._writer, self._end, True)

    def _begin(self) -> None:
        conn = self._conn()
        try:
            self._set_level(conn, self.synchronous)
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise translate(err) from err

    def _end(self, commit: bool) -> None:
        conn = self._conn()
        try:
            if commit:
                conn.execute("COMMIT")
                self.stats.commits += 1
            else:
                conn.execute("ROLLBACK")
        except sqlite3.Error as err:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise translate(err) from err
        finally:
            self.stats.units += 1

    def _exec(self, sql: str, params: Params = ()) -> sqlite3.Cursor:
        try:
            return self._conn().execute(sql, params)
        except sqlite3.Error as err:
            raise translate(err) from err

    def _fetch(self, sql: str, params: Params) -> list[sqlite3.Row]:
        try:
            return list(self._conn().execute(sql, params).fetchall())
        except sqlite3.Error as err:
            raise translate(err) from err

    # ------------------------------------------------------------------ reading

    async def read(self, work: Work[T]) -> T:
        """Run ``work(conn)`` on a consistent snapshot of the last committed state.

        Inside `transaction` (same task) it runs on the writer and sees the open
        transaction's own writes.
        """
        if self._owned():
            return await self._on(self._writer, work, self._conn())
        if self._closed or self._rconn is None:
            raise StorageFailure(f"the database {self.path} is closed")
        return await self._on(self._reader, self._snapshot, work)

    def _snapshot(self, work: Work[T]) -> T:
        conn = self._rconn
        if conn is None:
            raise StorageFailure(f"the database {self.path} is closed")
        # One read transaction, so several SELECTs see the same commit.
        conn.execute("BEGIN")
        try:
            return work(conn)
        except sqlite3.Error as err:
            raise translate(err) from err
        finally:
            conn.execute("ROLLBACK")

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """All rows of one query (see `read` for which state it sees)."""
        return await self.read(lambda conn: list(conn.execute(sql, params).fetchall()))

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row of one query, or None."""
        rows = await self.read(lambda conn: conn.execute(sql, params).fetchmany(1))
        return rows[0] if rows else None
