"""Migrations: from an empty file, from every earlier version, and refusing newer files."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import Database, SchemaTooNew, Store
from bot.store.migrations import LATEST, MIGRATIONS, Migration, migrate, schema_version

NOW = 1_700_000_000


def _open(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


# Rows that are valid at a given version, to prove a migration keeps existing data.
_SEED: dict[int, list[str]] = {
    1: [
        f"INSERT INTO users (id, name, created_at, updated_at) VALUES (7, 'Ana', {NOW}, {NOW})",
        f"INSERT INTO chats (id, settings, created_at, updated_at)"
        f" VALUES (-5, '{{\"ante\":5}}', {NOW}, {NOW})",
    ],
    2: [
        f"INSERT INTO tables (chat_id, creator, rules, created_at) VALUES (-5, 7, '{{}}', {NOW})",
        f"INSERT INTO seats (table_id, user_id, join_order, joined_at) VALUES (1, 7, 1, {NOW})",
    ],
}


def test_migrations_are_numbered_in_order() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))


def test_empty_file_migrates_to_latest(db_path: Path) -> None:
    conn = _open(db_path)
    assert migrate(conn, path=str(db_path)) == 0
    assert schema_version(conn) == LATEST
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"users", "chats", "tables", "seats", "hands", "actions", "ledger"} <= names
    assert migrate(conn, path=str(db_path)) == LATEST  # a second run does nothing


@pytest.mark.parametrize("start", range(LATEST))
async def test_every_earlier_version_migrates_with_its_data(db_path: Path, start: int) -> None:
    conn = _open(db_path)
    migrate(conn, path=str(db_path), target=start)
    assert schema_version(conn) == start
    for version in range(1, start + 1):
        for sql in _SEED.get(version, []):
            conn.execute(sql)
    conn.close()

    store = await Store.open(db_path)
    try:
        assert store.db.version == LATEST
        if start >= 1:
            user = await store.users.get(7)
            assert user.name == "Ana" and user.balance == 0
            assert (await store.chats.get(-5)).settings_dict() == {"ante": 5}
        if start >= 2:
            seats = await store.tables.seats(1)
            assert [s.user_id for s in seats] == [7]
        assert (await store.audit()).ok
    finally:
        await store.close()


async def test_newer_database_is_refused_untouched(db_path: Path) -> None:
    conn = _open(db_path)
    migrate(conn, path=str(db_path))
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    before = await asyncio.to_thread(db_path.read_bytes)
    with pytest.raises(SchemaTooNew) as info:
        await Database.open(db_path)
    message = str(info.value)
    assert f"schema version {LATEST + 1}" in message and f"up to {LATEST}" in message
    assert "newer bot" in message
    assert await asyncio.to_thread(db_path.read_bytes) == before


def test_a_failing_migration_keeps_the_previous_version(db_path: Path) -> None:
    broken = (*MIGRATIONS, Migration(LATEST + 1, "broken", (
        "CREATE TABLE extra (x INTEGER)",
        "INSERT INTO nowhere VALUES (1)",
    )))
    conn = _open(db_path)
    migrate(conn, path=str(db_path))
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, path=str(db_path), migrations=broken)
    assert schema_version(conn) == LATEST
    extra = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'").fetchone()
    assert extra[0] == 0


def test_a_python_step_runs_in_the_migration_transaction(db_path: Path) -> None:
    def fill(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO extra VALUES (42)")

    more = (*MIGRATIONS, Migration(LATEST + 1, "extra", ("CREATE TABLE extra (x)", fill)))
    conn = _open(db_path)
    migrate(conn, path=str(db_path), migrations=more)
    assert schema_version(conn) == LATEST + 1
    assert conn.execute("SELECT x FROM extra").fetchall() == [(42,)]


def test_misnumbered_migrations_are_a_bug(db_path: Path) -> None:
    conn = _open(db_path)
    with pytest.raises(ValueError, match="version"):
        migrate(conn, path=str(db_path), migrations=(Migration(2, "skips one", ()),))
