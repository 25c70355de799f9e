"""The database owner: pragmas, units of work in transactions (together when they come
together), isolation, cancellation."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.store import Database, IntegrityViolation, StorageFailure
from bot.store.migrations import LATEST
from bot.store.sql import Conn, Unit, execute, fetchone


async def _counter(conn: Conn) -> None:
    await execute(conn, "CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, n INTEGER)")
    await execute(conn, "INSERT OR IGNORE INTO counter VALUES (1, 0)")


async def _n(db: Database) -> int:
    row = await db.fetchone("SELECT n FROM counter")
    assert row is not None
    return int(row[0])


async def _pragma(conn: Conn, name: str) -> object:
    row = await fetchone(conn, f"PRAGMA {name}")
    assert row is not None
    return row[0]


async def test_pragmas_are_set(db_path: Path) -> None:
    db = await Database.open(db_path, synchronous="FULL", busy_timeout_ms=1234)
    try:
        async def pragmas(conn: Conn) -> tuple[object, ...]:
            return tuple([await _pragma(conn, p) for p in
                          ("foreign_keys", "journal_mode", "busy_timeout", "synchronous")])

        assert await db.write(pragmas) == (1, "wal", 1234, 2)
        assert db.version == LATEST
    finally:
        await db.close()


async def test_steps_commit_at_their_own_level(db_path: Path) -> None:
    async with await Database.open(db_path, synchronous="FULL", step_synchronous="NORMAL") as db:
        async def level(conn: Conn) -> object:
            return await _pragma(conn, "synchronous")

        # FULL = 2, NORMAL = 1; the level follows each unit, in any order.
        assert [await db.write(level, step=s) for s in (True, False, False, True)] == [1, 2, 2, 1]


async def test_a_step_that_shares_a_commit_gets_the_stronger_level(db_path: Path) -> None:
    async with await Database.open(db_path, synchronous="FULL", step_synchronous="NORMAL") as db:
        async def level(conn: Conn) -> object:
            return await _pragma(conn, "synchronous")

        step, other = await asyncio.gather(db.write(level, step=True), db.write(level))
        assert (step, other) == (2, 2)
        assert db.commits == 1


async def test_units_of_one_loop_turn_commit_together(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
        before = db.commits

        def insert(v: int) -> Unit[int]:
            async def work(conn: Conn) -> int:
                await execute(conn, "INSERT INTO t VALUES (?)", (v,))
                return v * 10
            return work

        assert await asyncio.gather(*(db.write(insert(v)) for v in range(5))) == [
            0, 10, 20, 30, 40]
        assert db.commits - before == 1
        assert [r[0] for r in await db.fetchall("SELECT v FROM t ORDER BY v")] == [0, 1, 2, 3, 4]


async def test_a_failing_unit_is_rolled_back_alone(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER UNIQUE)"))

        async def bad(conn: Conn) -> None:
            await execute(conn, "INSERT INTO t VALUES (99)")
            raise RuntimeError("no")

        results = await asyncio.gather(
            db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")),
            db.write(bad),
            db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")),  # breaks UNIQUE
            db.write(lambda c: execute(c, "INSERT INTO t VALUES (2)")),
            return_exceptions=True)
        assert isinstance(results[1], RuntimeError)
        assert isinstance(results[2], IntegrityViolation)
        assert not isinstance(results[0], BaseException)
        assert not isinstance(results[3], BaseException)
        assert [r[0] for r in await db.fetchall("SELECT v FROM t ORDER BY v")] == [1, 2]


def holding(insert: int | None = None) -> tuple[Unit[str], asyncio.Event, asyncio.Event]:
    """A unit that stays in its batch (holding the writer) until released: the unit, the
    event it sets once inside, and the event that releases it. With ``insert``, it first
    writes that value into table ``t``."""
    inside, release = asyncio.Event(), asyncio.Event()

    async def hold(conn: Conn) -> str:
        if insert is not None:
            await execute(conn, f"INSERT INTO t VALUES ({insert})")
        inside.set()
        await release.wait()
        return "held"

    return hold, inside, release


async def _held(db: Database) -> tuple[asyncio.Task[str], asyncio.Event]:
    """A table ``t``, and a unit that runs (holding the writer) until the event is set."""
    await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
    hold, inside, release = holding()
    holder = asyncio.create_task(db.write(hold))
    await inside.wait()
    return holder, release


async def test_units_that_come_while_a_commit_runs_share_the_next(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        before = db.commits + 1  # the table's
        first, release = await _held(db)
        def insert(v: int) -> Unit[object]:
            return lambda c: execute(c, "INSERT INTO t VALUES (?)", (v,))

        later = [asyncio.create_task(db.write(insert(v))) for v in range(3)]
        await asyncio.sleep(0.01)
        assert db.commits == before  # nothing commits while the first unit runs
        release.set()
        await asyncio.gather(first, *later)
        assert db.commits - before == 2
        assert len(await db.fetchall("SELECT v FROM t")) == 3


async def test_synchronous_defaults_to_normal(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        assert await db.write(lambda c: _pragma(c, "synchronous")) == 1


async def test_bad_synchronous_is_refused(db_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        await Database.open(db_path, synchronous="SOMETIMES")  # type: ignore[arg-type]


async def test_write_commits_and_returns(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)

        async def five(conn: Conn) -> int:
            return (await execute(conn, "UPDATE counter SET n = 5")).rowcount

        assert await db.write(five) == 1
        assert await _n(db) == 5


async def test_failing_write_rolls_back_everything_it_did(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)

        async def half(conn: Conn) -> None:
            await execute(conn, "UPDATE counter SET n = 99")
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            await db.write(half)
        assert await _n(db) == 0
        await db.write(lambda c: execute(c, "UPDATE counter SET n = n + 1"))
        assert await _n(db) == 1


async def test_sqlite_errors_become_store_errors(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        with pytest.raises(IntegrityViolation):
            await db.write(lambda c: execute(c, "INSERT INTO counter VALUES (1, 1)"))
        with pytest.raises(StorageFailure):
            await db.write(lambda c: execute(c, "SELECT * FROM nowhere"))
        with pytest.raises(StorageFailure):
            await db.fetchall("SELECT * FROM nowhere")


async def test_readers_see_only_committed_state(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        inside, seen = asyncio.Event(), asyncio.Event()

        async def slow(conn: Conn) -> None:
            await execute(conn, "UPDATE counter SET n = 7")
            inside.set()
            await seen.wait()

        writer = asyncio.create_task(db.write(slow))
        await inside.wait()
        assert await _n(db) == 0  # the unit is open, not committed
        seen.set()
        await writer
        assert await _n(db) == 7


async def test_concurrent_units_never_interleave(db_path: Path) -> None:
    """Read-modify-write with awaits in between: only correct if units serialise."""
    async with await Database.open(db_path) as db:
        await db.write(_counter)

        async def bump(conn: Conn) -> None:
            row = await fetchone(conn, "SELECT n FROM counter")
            assert row is not None
            await asyncio.sleep(0)
            await execute(conn, "UPDATE counter SET n = ?", (row[0] + 1,))

        await asyncio.gather(*(db.write(bump) for _ in range(100)))
        assert await _n(db) == 100


async def test_cancelled_unit_is_rolled_back(db_path: Path) -> None:
    """Cancelled while it holds the lock, a unit leaves nothing behind."""
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        inside = asyncio.Event()

        async def stuck(conn: Conn) -> None:
            await execute(conn, "UPDATE counter SET n = 50")
            inside.set()
            await asyncio.Event().wait()  # never set

        task = asyncio.create_task(db.write(stuck))
        await inside.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The next unit starts a fresh transaction and sees none of it.
        await db.write(lambda c: execute(c, "UPDATE counter SET n = n + 1"))
        assert await _n(db) == 1


async def test_cancelled_waiter_does_not_write_later(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        holder, release = await _held(db)
        # The lock is held: this write waits, then is cancelled before it runs.
        waiter = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")))
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        release.set()
        await holder
        assert await db.fetchall("SELECT * FROM t") == []


async def test_closed_database_refuses_work(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    await db.close()  # twice is fine
    with pytest.raises(StorageFailure, match="closed"):
        await db.write(_counter)
    with pytest.raises(StorageFailure, match="closed"):
        await db.fetchall("SELECT 1")
    with pytest.raises(StorageFailure, match="closed"):
        await db.read(lambda c: fetchone(c, "SELECT 1"))


async def test_committed_transactions_are_counted_by_writer_and_logged_at_close(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.store.store import Store

    store = await Store.open(db_path)
    await store.users.ensure(1, "Ann", starting_chips=100)
    table = await store.tables.open(-5, creator=1, rules="{}")
    for shown in ("a", "b", "c"):
        await store.tables.set_shown(table.id, shown)

    async def boom(conn: Conn) -> None:
        await _counter(conn)
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        await store.db.write(boom)
    assert store.db.writes == {"Users.ensure": 1, "Tables.open": 1, "Tables.set_shown": 3}
    with caplog.at_level("INFO", logger="bot.store.db"):
        await store.close()
    assert ("transactions committed: 5 for 5 units"
            " (Tables.set_shown 3, Users.ensure 1, Tables.open 1)" in caplog.messages)


async def test_a_unit_queued_later_in_the_same_loop_turn_shares_the_commit(
        db_path: Path) -> None:
    # The first caller's task starts the writer; a second caller scheduled after it in the
    # same turn of the loop still rides in the same transaction.
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
        before = db.commits
        first = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")))
        await asyncio.sleep(0)  # the first caller runs: the writer is scheduled
        second = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (2)")))
        await asyncio.gather(first, second)
        assert db.commits - before == 1
        assert len(await db.fetchall("SELECT v FROM t")) == 2


async def test_a_caller_cancelled_after_the_writer_took_his_unit_does_not_commit(
        db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
        hold, inside, release = holding()
        # Both go into one batch; the second waits in it while the first runs.
        holder = asyncio.create_task(db.write(hold))
        waiter = asyncio.create_task(db.write(
            lambda c: execute(c, "INSERT INTO t VALUES (1)")))
        await inside.wait()
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        units = sum(db.writes.values())
        release.set()
        await holder
        # Told it was cancelled before it ran, the caller may do it again: it must not
        # be there twice, nor counted in the shutdown line.
        assert await db.fetchall("SELECT v FROM t") == []
        assert sum(db.writes.values()) == units + 1  # the holder's alone
        await db.write(lambda c: execute(c, "INSERT INTO t VALUES (2)"))
        assert [r[0] for r in await db.fetchall("SELECT v FROM t")] == [2]


async def test_cancelling_the_writer_keeps_finished_units_and_cancels_no_caller(
        db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
        hold, inside, release = holding(insert=0)
        holder = asyncio.create_task(db.write(hold))
        beside = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")))
        await inside.wait()
        later = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (2)")))
        await asyncio.sleep(0)
        writer = next(t for t in asyncio.all_tasks() if t.get_name() == "sqlite-writer")
        writer.cancel()  # as a shutdown cancels every task but its callers'
        await asyncio.sleep(0.01)
        release.set()
        # Nobody cancelled the callers: each hears his own unit's end, all committed.
        assert await asyncio.wait_for(holder, 5) == "held"
        await asyncio.wait_for(asyncio.gather(beside, later), 5)
        assert sorted(r[0] for r in await db.fetchall("SELECT v FROM t")) == [0, 1, 2]
        with pytest.raises(asyncio.CancelledError):
            await writer
        # And the database goes on writing.
        await db.write(lambda c: execute(c, "INSERT INTO t VALUES (3)"))
        assert len(await db.fetchall("SELECT v FROM t")) == 4


async def test_a_caller_cancelled_after_his_unit_ran_hears_of_it_only_once_committed(
        db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
        hold, inside, release = holding()
        done = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")))
        holder = asyncio.create_task(db.write(hold))
        await inside.wait()  # the insert ran; the batch waits for the holder
        done.cancel()
        await asyncio.sleep(0.01)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await done
        # Its unit had ended: when he hears of his cancellation it is on disk.
        assert [r[0] for r in await db.fetchall("SELECT v FROM t")] == [1]
        await holder


async def test_a_read_sees_one_committed_state_and_a_failing_read_leaves_none_open(
        db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.write(_counter)
        between = asyncio.Event()

        async def twice(conn: Conn) -> tuple[object, object]:
            first = await fetchone(conn, "SELECT n FROM counter")
            between.set()
            await asyncio.sleep(0.05)
            second = await fetchone(conn, "SELECT n FROM counter")
            assert first is not None and second is not None
            return first[0], second[0]

        reading = asyncio.create_task(db.read(twice))
        await between.wait()
        await db.write(lambda c: execute(c, "UPDATE counter SET n = 7"))
        assert await reading == (0, 0)  # one snapshot, though a commit came between

        async def bad(conn: Conn) -> None:
            await fetchone(conn, "SELECT nothing FROM nowhere")

        with pytest.raises(StorageFailure):
            await db.read(bad)
        assert await db.read(lambda c: fetchone(c, "SELECT n FROM counter")) is not None
        assert await _n(db) == 7


async def test_a_file_locked_by_another_process_fails_the_batch_and_the_next_one_writes(
        db_path: Path) -> None:
    import sqlite3

    async with await Database.open(db_path, busy_timeout_ms=0) as db:
        await db.write(_counter)
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            results = await asyncio.gather(
                db.write(lambda c: execute(c, "UPDATE counter SET n = 1")),
                db.write(lambda c: execute(c, "UPDATE counter SET n = 2")),
                return_exceptions=True)
            assert all(isinstance(r, StorageFailure) for r in results), results
        finally:
            other.execute("ROLLBACK")
            other.close()
        await db.write(lambda c: execute(c, "UPDATE counter SET n = 3"))
        assert await _n(db) == 3


async def test_a_refused_write_keeps_sqlites_own_error_as_its_cause(db_path: Path) -> None:
    import sqlite3

    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER UNIQUE)"))
        await db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)"))
        with pytest.raises(IntegrityViolation) as refusal:
            await db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)"))
        assert isinstance(refusal.value.__cause__, sqlite3.IntegrityError)
    with pytest.raises(StorageFailure, match=str(db_path)):
        await db.write(_counter)  # closed: the message names the file


class Grant:
    """A unit of work that is an object, not a function."""

    async def __call__(self, conn: Conn) -> None:
        await _counter(conn)


async def test_units_are_counted_by_who_wrote_them_for_the_shutdown_line(
        db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = await Database.open(db_path)

    class Books:
        async def settle(self) -> None:
            def outer() -> Unit[None]:
                async def inner(conn: Conn) -> None:
                    await _counter(conn)
                return inner
            await db.write(outer())

    await Books().settle()
    await asyncio.gather(db.write(Grant()), db.write(_counter))  # one transaction
    assert dict(db.writes) == {
        "test_units_are_counted_by_who_wrote_them_for_the_shutdown_line": 1,
        "Grant": 1, "_counter": 1}
    with caplog.at_level("INFO", logger="bot.store.db"):
        await db.close()
    assert ("transactions committed: 2 for 3 units ("
            "test_units_are_counted_by_who_wrote_them_for_the_shutdown_line 1, "
            "Grant 1, _counter 1)") in caplog.messages
    # Closed, the file is whole: its write-ahead log folded back in (a copy is complete).
    wal = db_path.with_name(db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_the_shutdown_line_of_a_bot_that_wrote_nothing() -> None:
    from collections import Counter

    from bot.store.db import describe_writes

    assert describe_writes(Counter()) == "transactions committed: 0 for 0 units (none)"
    assert describe_writes(Counter(a=3, b=1), 2) == (
        "transactions committed: 2 for 4 units (a 3, b 1)")
    assert describe_writes(Counter(a=3, b=1)) == (
        "transactions committed: 4 for 4 units (a 3, b 1)")


async def test_statements_values_stay_out_of_the_debug_log_but_the_calls_are_named(
        db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from bot.store.db import hide_statements, show_statements

    secret = "seed-4f1c9a"

    async def secret_write(db: Database) -> list[str]:
        caplog.clear()
        with caplog.at_level("DEBUG", logger="aiosqlite"):
            await db.write(lambda c: execute(c, "INSERT INTO t VALUES (?)", (secret,)))
        return [r.getMessage() for r in caplog.records if r.name == "aiosqlite"]

    logger = logging.getLogger("aiosqlite")
    before = list(logger.filters)
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v TEXT)"))
        try:
            hide_statements()
            hide_statements()  # once is enough; twice is harmless
            logged = await secret_write(db)
            assert logged and not any(secret in m for m in logged)
            assert any("Connection.execute" in m for m in logged)
            show_statements()
            # The filter is what hides them: without it the value is in the log.
            assert any(secret in m for m in await secret_write(db))
        finally:
            logger.filters[:] = before


async def test_a_bad_busy_timeout_is_refused(db_path: Path) -> None:
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match=r"^busy_timeout_ms must be a whole number >= 0$"):
            await Database.open(db_path, busy_timeout_ms=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="synchronous"):
        await Database.open(db_path, step_synchronous="SOMETIMES")  # type: ignore[arg-type]


async def test_the_default_busy_timeout_is_five_seconds_and_rows_read_by_column_name(
        db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        assert await db.write(lambda c: _pragma(c, "busy_timeout")) == 5000
        await db.write(_counter)
        row = await db.fetchone("SELECT id, n FROM counter")
        assert row is not None and (row["id"], row["n"]) == (1, 0)
        in_read = await db.read(lambda c: fetchone(c, "SELECT n FROM counter"))
        assert in_read is not None and in_read["n"] == 0


def test_the_statement_filter_leaves_only_the_names_of_calls_in_a_log_line() -> None:
    from functools import partial

    from bot.store.db import StatementFilter

    def line(msg: str, args: object) -> str:
        record = logging.LogRecord("aiosqlite", logging.DEBUG, __file__, 1, msg, None, None)
        record.args = args  # type: ignore[assignment]
        assert StatementFilter().filter(record)
        return record.getMessage()

    secret = "seed-4f1c9a"

    async def run_query(sql: str) -> None:
        return None

    assert line("executing %s", (partial(run_query, secret),)) == (
        "executing test_the_statement_filter_leaves_only_the_names_of_calls_in_a_log_line"
        ".<locals>.run_query")
    assert line("returning exception %s", (ValueError(secret),)) == (
        "returning exception ValueError")
    assert line("operation %s completed", (secret,)) == "operation str completed"
    assert line("no arguments at all", ()) == "no arguments at all"
    # Arguments by name are dropped and the text kept as it is, a "%" and all.
    assert line("100%% of %(what)s", {"what": secret}) == "100%% of %(what)s"


async def test_a_caller_cancelled_after_his_unit_ran_is_not_told_before_the_commit(
        db_path: Path) -> None:
    """While his finished unit waits for the rest of its batch, a cancelled caller keeps
    waiting; he hears of his cancellation only when his row is on disk."""
    async with await Database.open(db_path) as db:
        await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
        hold, inside, release = holding()
        done = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")))
        holder = asyncio.create_task(db.write(hold))
        await inside.wait()
        done.cancel()
        for _ in range(20):
            await asyncio.sleep(0)
        assert not done.done()  # the batch is not committed yet: he still waits
        release.set()
        try:
            await done
        except asyncio.CancelledError:
            on_disk = [r[0] for r in sqlite3.connect(db_path).execute("SELECT v FROM t")]
        else:
            raise AssertionError("the cancelled caller was not told he was cancelled")
        assert on_disk == [1]
        await holder


async def test_a_write_asked_for_while_the_database_closes_is_refused_as_closed(
        db_path: Path) -> None:
    """Closing waits for a read in flight; a write asked for meanwhile is not run on a
    closed connection: its caller hears the database is closed, and nothing is written."""
    db = await Database.open(db_path)
    await db.write(lambda c: execute(c, "CREATE TABLE t (v INTEGER)"))
    inside, release = asyncio.Event(), asyncio.Event()

    async def slow(conn: Conn) -> None:
        inside.set()
        await release.wait()

    reading = asyncio.create_task(db.read(slow))
    await inside.wait()
    closing = asyncio.create_task(db.close())
    for _ in range(5):
        await asyncio.sleep(0)
    writing = asyncio.create_task(db.write(lambda c: execute(c, "INSERT INTO t VALUES (1)")))
    for _ in range(5):
        await asyncio.sleep(0)
    release.set()
    await reading
    await closing
    with pytest.raises(StorageFailure, match="is closed"):
        await writing
    assert list(sqlite3.connect(db_path).execute("SELECT v FROM t")) == []
