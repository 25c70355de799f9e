"""``python -m bot restore BACKUP [--db PATH]``: put a backup in place of the database.

The backup is copied next to the database with the ``backup`` command's function
(SQLite's backup API and an integrity check), audited, and its schema compared with the
one the bot's migrations make (every table, index and trigger, word for word); only a
copy that passes all three, and the check of the rows a player relies on besides the
chips (`bot.ops.contents`: table secrets, hands and their fairness proofs), replaces the
database. The database it replaces is kept beside it
(``svara.sqlite3.before-restore-<time>``, with its journal files). The whole restore holds
the database's lock: it refuses while a bot runs on that file, and a bot started
meanwhile refuses to start.

Litestream (continuous replication, see the README) adds two tables of its own to the
live database, ``_litestream_seq`` and ``_litestream_lock``; every backup of a replicated
database and every Litestream restore carries them. A restore recognises them (by name
and by their exact SQL) and leaves them out: they describe the replication of the file
that is being replaced, and Litestream writes them anew, with a new generation, when it
next replicates the restored database. A table of any other shape stays "not the bot's".
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import aiosqlite

from bot.ops.contents import content_problems
from bot.ops.lock import Busy, DatabaseLock
from bot.store import cli
from bot.store.audit import audit_file
from bot.store.cli import run_sync
from bot.store.migrations import LATEST, migrate
from bot.store.sql import fetchall, read_only_uri

SIDECARS = ("-wal", "-shm")

REPLICATION_TABLES = {
    "_litestream_seq": "CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER)",
    "_litestream_lock": "CREATE TABLE _litestream_lock (id INTEGER)",
}
"""Litestream's own tables, as it creates them (v0.3 and v0.5), by name."""


def restore(
    backup: Path,
    database: Path,
    *,
    out: TextIO,
    err: TextIO,
    clock: Callable[[], float] = time.time,
) -> int:
    """Restore ``backup`` into ``database``; the exit code (0 done, 1 refused, 2 usage)."""
    if not backup.is_file():
        print(f"restore: no backup at {backup}", file=err)
        return 2
    if database.exists() and backup.resolve() == database.resolve():
        print("restore: the backup is the database itself", file=err)
        return 2
    if not database.parent.is_dir():
        print(f"restore: the folder {database.parent} does not exist", file=err)
        return 2
    now = clock()
    try:
        with DatabaseLock(database, role="restore", now=now):
            return _restore_locked(backup, database, now, out, err)
    except Busy as busy:
        who = f" (pid {busy.holder.pid})" if busy.holder else ""
        print(f"restore: a bot is running on {database}{who}; stop it first, then restore",
              file=err)
        return 1
    except OSError as error:
        print(f"restore: cannot write next to {database}: {error.strerror or error}", file=err)
        return 1


def _restore_locked(backup: Path, database: Path, now: float, out: TextIO,
                    err: TextIO) -> int:
    partial = database.with_name(database.name + ".restoring")
    for leftover in (partial, *(partial.with_name(partial.name + s) for s in SIDECARS)):
        leftover.unlink(missing_ok=True)
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        code = cli.backup(backup, partial)
    if code != 0 or not partial.is_file():
        print(f"restore: {backup} is not a usable backup: {said.getvalue().strip()}", file=err)
        partial.unlink(missing_ok=True)
        return 1
    left_out = _leave_out_replication(partial)
    problem = _check_copy(partial)
    if problem is not None:
        print(f"restore: {backup} {problem}; nothing was changed", file=err)
        partial.unlink(missing_ok=True)
        return 1
    kept = None
    if database.exists():
        kept = _free_name(database, now)
        # The file with its journal files moves as one: together they are the old database.
        for suffix in SIDECARS:
            side = database.with_name(database.name + suffix)
            if side.exists():
                os.replace(side, kept.with_name(kept.name + suffix))
        os.replace(database, kept)
    os.replace(partial, database)
    _sync_folder(database.parent)
    report = run_sync(audit_file(str(database)))
    print(f"restored {backup} into {database}; {report.summary()}", file=out)
    if left_out:
        print(f"left out Litestream's own tables ({', '.join(left_out)}); it starts a new "
              "generation when it next replicates this database", file=out)
    if kept is not None:
        print(f"the database it replaced is kept at {kept}", file=out)
    return 0


def _leave_out_replication(copy: Path) -> list[str]:
    """Drop Litestream's own tables from ``copy`` (a fresh file of the restore's own);
    the names dropped. A table with such a name but other SQL is kept, to be refused."""
    conn = sqlite3.connect(copy, isolation_level=None)
    try:
        found = {str(r[0]): str(r[1]) for r in conn.execute(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'table'")}
        dropped = sorted(n for n, sql in found.items() if REPLICATION_TABLES.get(n) == sql)
        if dropped:
            conn.execute("BEGIN")
            for name in dropped:
                conn.execute(f'DROP TABLE "{name}"')
            conn.execute("COMMIT")
            conn.execute("VACUUM")
    finally:
        conn.close()
    return dropped


def _free_name(database: Path, now: float) -> Path:
    """A name for the replaced database that no file (nor journal file) has yet: a second
    restore within the same second never overwrites the copy the first one kept. The
    database's lock keeps other restores out while the name is chosen and used."""
    stamp = datetime.fromtimestamp(now, UTC).strftime("%Y%m%dT%H%M%SZ")
    base = f"{database.name}.before-restore-{stamp}"
    for n in range(1, 10_000):
        kept = database.with_name(base if n == 1 else f"{base}-{n}")
        if not any(kept.with_name(kept.name + s).exists() for s in ("", *SIDECARS)):
            return kept
    raise OSError(f"too many copies named {base}-N beside the database")


def _check_copy(path: Path) -> str | None:
    """Why the verified copy must not go in place, or None."""
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
        report = run_sync(audit_file(str(path)))
    except sqlite3.Error as error:
        return f"cannot be read ({error})"
    if version > LATEST:
        return f"was made by a newer version of the bot (schema {version}, this knows {LATEST})"
    if version == 0:
        return "holds no bot data (schema 0)"
    differences = run_sync(schema_differences(path, version))
    if differences:
        shown = ", ".join(differences[:5]) + (" ..." if len(differences) > 5 else "")
        return (f"has a schema that differs from the one the bot's migrations make "
                f"(schema {version}: {shown})")
    if not report.ok:
        return f"fails the audit ({report.summary()})"
    contents = content_problems(path)
    if contents:
        shown = "; ".join(contents[:3]) + (" ..." if len(contents) > 3 else "")
        return f"holds rows that do not say what was played ({shown})"
    return None


Entry = tuple[str, str, str, str | None]
"""A row of ``sqlite_schema``: type, name, table, SQL."""


def _entries(rows: list[tuple[object, ...]]) -> dict[tuple[str, str], Entry]:
    return {(str(r[0]), str(r[1])): (str(r[0]), str(r[1]), str(r[2]),
                                     None if r[3] is None else str(r[3]))
            for r in rows if not str(r[1]).startswith("sqlite_")}


_SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_schema"


async def schema_differences(path: Path, version: int) -> list[str]:
    """Each table, index, trigger or view of the file at ``path`` that differs from what
    migrations 1 to ``version`` make (missing, extra, or with other SQL); [] if none.

    The checks and the triggers that keep the money columns equal to the ledger live in
    the schema: a copy whose guards were dropped or rewritten must never go in place."""
    reference = await aiosqlite.connect(":memory:", isolation_level=None)
    try:
        await migrate(reference, path=":memory:", target=version)
        expected = _entries([tuple(r) for r in await fetchall(reference, _SCHEMA)])
    finally:
        await reference.close()
    conn = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        found = _entries([tuple(r) for r in conn.execute(_SCHEMA).fetchall()])
    finally:
        conn.close()
    differences = []
    for key in sorted(expected.keys() | found.keys()):
        kind, name = key
        if key not in found:
            differences.append(f"{kind} {name} is missing")
        elif key not in expected:
            differences.append(f"{kind} {name} is not the bot's")
        elif found[key] != expected[key]:
            differences.append(f"{kind} {name} was changed")
    return differences


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
