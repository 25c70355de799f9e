"""The database owner: pragmas, transactions, savepoints, group commit, isolation."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable
from pathlib import Path

import pytest

from bot.store import Database, IntegrityViolation, StorageFailure, TransactionMisuse
from bot.store.migrations import LATEST


def _counter(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, n INTEGER)")
    conn.execute("INSERT OR IGNORE INTO counter VALUES (1, 0)")


async def test_pragmas_are_set(db_path: Path) -> None:
    db = await Database.open(db_path, synchronous="FULL", busy_timeout_ms=1234)
    try:
        def pragmas(conn: sqlite3.Connection) -> tuple[object, ...]:
            return tuple(conn.execute(f"PRAGMA {p}").fetchone()[0]
                         for p in ("foreign_keys", "journal_mode", "busy_timeout", "synchronous"))

        # Inspect the writer connection from inside a transaction.
        async with db.transaction():
            assert await db.read(pragmas) == (1, "wal", 1234, 2)
        assert db.version == LATEST
    finally:
        await db.close()


async def test_synchronous_defaults_to_normal(db_path: Path) -> None:
    async with await Database.open(db_path) as db, db.transaction():
        row = await db.read(lambda c: c.execute("PRAGMA synchronous").fetchone()[0])
        assert row == 1


async def test_bad_synchronous_is_refused(db_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        await Database.open(db_path, synchronous="SOMETIMES")  # type: ignore[arg-type]


async def test_write_commits_and_returns(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        n = await db.write(lambda c: c.execute("UPDATE counter SET n = 5").rowcount)
        assert n == 1
        assert (await db.fetchone("SELECT n FROM counter"))[0] == 5  # type: ignore[index]


async def test_failing_write_rolls_back_everything_it_did(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)

        def half(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE counter SET n = 99")
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            await db.write(half)
        assert (await db.fetchone("SELECT n FROM counter"))[0] == 0  # type: ignore[index]


async def test_sqlite_errors_become_store_errors(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        with pytest.raises(IntegrityViolation):
            await db.write(lambda c: c.execute("INSERT INTO counter VALUES (1, 1)"))
        with pytest.raises(StorageFailure):
            await db.write(lambda c: c.execute("SELECT * FROM nowhere"))


async def test_transaction_commits_or_rolls_back(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        async with db.transaction() as tx:
            await tx.execute("UPDATE counter SET n = n + 1")
            assert (await tx.fetchone("SELECT n FROM counter"))[0] == 1  # type: ignore[index]
            # Outside readers still see the committed state.
            outside = await asyncio.create_task(db.fetchone("SELECT n FROM counter"))
            assert outside is not None and outside[0] == 0
        with pytest.raises(KeyError):
            async with db.transaction() as tx:
                await tx.execute("UPDATE counter SET n = 100")
                raise KeyError("abort")
        assert (await db.fetchone("SELECT n FROM counter"))[0] == 1  # type: ignore[index]


async def test_nested_transaction_is_a_savepoint(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        async with db.transaction() as tx:
            await tx.execute("UPDATE counter SET n = 1")
            with pytest.raises(ValueError):
                async with db.transaction() as inner:
                    await inner.execute("UPDATE counter SET n = 2")
                    raise ValueError
            # A write made by the owner joins the transaction (under a savepoint).
            with pytest.raises(RuntimeError):
                await db.write(lambda c: (c.execute("UPDATE counter SET n = 3"),
                                          (_ for _ in ()).throw(RuntimeError())))
            await db.write(lambda c: c.execute("UPDATE counter SET n = n + 10"))
        assert (await db.fetchone("SELECT n FROM counter"))[0] == 11  # type: ignore[index]


async def test_tx_cannot_be_used_by_another_task(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        async with db.transaction() as tx:
            with pytest.raises(TransactionMisuse):
                await asyncio.create_task(tx.execute("UPDATE counter SET n = 1"))


async def test_concurrent_transactions_never_interleave(db_path: Path) -> None:
    """Read-modify-write with awaits in between: only correct if transactions serialise."""
    async with await Database.open(db_path) as db:
        await db.write(_counter)

        async def bump_tx() -> None:
            async with db.transaction() as tx:
                row = await tx.fetchone("SELECT n FROM counter")
                assert row is not None
                await asyncio.sleep(0)
                await tx.execute("UPDATE counter SET n = ?", (row[0] + 1,))

        def bump(conn: sqlite3.Connection) -> None:
            n = conn.execute("SELECT n FROM counter").fetchone()[0]
            conn.execute("UPDATE counter SET n = ?", (n + 1,))

        await asyncio.gather(*(bump_tx() for _ in range(50)),
                             *(db.write(bump) for _ in range(200)))
        assert (await db.fetchone("SELECT n FROM counter"))[0] == 250  # type: ignore[index]


async def test_group_commit_isolates_failures(db_path: Path) -> None:
    """Units queued together share a commit, but a failing unit rolls back alone."""
    async with await Database.open(db_path) as db:
        await db.write(lambda c: c.execute("CREATE TABLE t (v INTEGER PRIMARY KEY)"))
        commits = db.stats.commits

        def insert(v: int) -> Awaitable[int]:
            def work(conn: sqlite3.Connection) -> int:
                conn.execute("INSERT INTO t VALUES (?)", (v + 1000,))
                if v % 3 == 0:
                    raise ValueError(v)
                conn.execute("INSERT INTO t VALUES (?)", (v,))
                return v
            return db.write(work)

        results = await asyncio.gather(*(insert(v) for v in range(60)), return_exceptions=True)
        assert [r for r in results if isinstance(r, ValueError)] and len(results) == 60
        rows = {r[0] for r in await db.fetchall("SELECT v FROM t")}
        assert rows == {v for v in range(60) if v % 3} | {v + 1000 for v in range(60) if v % 3}
        assert db.stats.commits - commits < 60  # they were batched


async def test_cancelled_waiter_does_not_write_later(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(lambda c: c.execute("CREATE TABLE t (v INTEGER)"))
        async with db.transaction():
            # The lock is held: this write waits, then is cancelled before it runs.
            task = asyncio.create_task(db.write(lambda c: c.execute("INSERT INTO t VALUES (1)")))
            await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        await db.write(lambda c: None)
        assert await db.fetchall("SELECT * FROM t") == []


async def test_closed_database_refuses_work(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    await db.close()  # twice is fine
    with pytest.raises(StorageFailure, match="closed"):
        await db.write(lambda c: None)
    with pytest.raises(StorageFailure, match="closed"):
        await db.fetchall("SELECT 1")
