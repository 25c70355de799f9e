"""Migrations: from an empty file, from every earlier version, and refusing newer files."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
import pytest

from bot.store import Database, SchemaTooNew, Store
from bot.store.migrations import LATEST, MIGRATIONS, Migration, migrate, schema_version
from bot.store.sql import Conn, execute, fetchall

NOW = 1_700_000_000


@asynccontextmanager
async def _open(path: Path) -> AsyncIterator[Conn]:
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA foreign_keys = ON")
        yield conn


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


async def test_empty_file_migrates_to_latest(db_path: Path) -> None:
    async with _open(db_path) as conn:
        assert await migrate(conn, path=str(db_path)) == 0
        assert await schema_version(conn) == LATEST
        names = {r[0] for r in await fetchall(conn, "SELECT name FROM sqlite_master"
                                                    " WHERE type='table'")}
        assert {"users", "chats", "tables", "seats", "hands", "actions", "ledger"} <= names
        assert await migrate(conn, path=str(db_path)) == LATEST  # a second run does nothing


@pytest.mark.parametrize("start", range(LATEST))
async def test_every_earlier_version_migrates_with_its_data(db_path: Path, start: int) -> None:
    async with _open(db_path) as conn:
        await migrate(conn, path=str(db_path), target=start)
        assert await schema_version(conn) == start
        for version in range(1, start + 1):
            for sql in _SEED.get(version, []):
                await conn.execute(sql)

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
    async with _open(db_path) as conn:
        await migrate(conn, path=str(db_path))
        await conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    before = await asyncio.to_thread(db_path.read_bytes)
    with pytest.raises(SchemaTooNew) as info:
        await Database.open(db_path)
    message = str(info.value)
    assert f"schema version {LATEST + 1}" in message and f"up to {LATEST}" in message
    assert "newer bot" in message
    assert await asyncio.to_thread(db_path.read_bytes) == before


async def test_a_failing_migration_keeps_the_previous_version(db_path: Path) -> None:
    broken = (*MIGRATIONS, Migration(LATEST + 1, "broken", (
        "CREATE TABLE extra (x INTEGER)",
        "INSERT INTO nowhere VALUES (1)",
    )))
    async with _open(db_path) as conn:
        await migrate(conn, path=str(db_path))
        with pytest.raises(sqlite3.OperationalError):
            await migrate(conn, path=str(db_path), migrations=broken)
        assert await schema_version(conn) == LATEST
        extra = await fetchall(conn, "SELECT count(*) FROM sqlite_master WHERE name = 'extra'")
        assert extra[0][0] == 0


async def test_a_python_step_runs_in_the_migration_transaction(db_path: Path) -> None:
    async def fill(conn: Conn) -> None:
        await execute(conn, "INSERT INTO extra VALUES (42)")

    more = (*MIGRATIONS, Migration(LATEST + 1, "extra", ("CREATE TABLE extra (x)", fill)))
    async with _open(db_path) as conn:
        await migrate(conn, path=str(db_path), migrations=more)
        assert await schema_version(conn) == LATEST + 1
        assert [tuple(r) for r in await fetchall(conn, "SELECT x FROM extra")] == [(42,)]


async def test_misnumbered_migrations_are_a_bug(db_path: Path) -> None:
    async with _open(db_path) as conn:
        with pytest.raises(ValueError, match="version"):
            await migrate(conn, path=str(db_path), migrations=(Migration(2, "skips one", ()),))
