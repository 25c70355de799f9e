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


_RULES_V5 = ('{"ante": 10, "blind": true, "blind_cap": null, "limit": "no_limit",'
             ' "bet_cap": null, "tie": "svara", "scoring": {"two_sevens": true,'
             ' "three_sevens_top": true, "chechak": true}, "max_seats": 10}')


def _start(dealer: int, *players: int) -> str:
    seats = ", ".join(f'{{"player": {p}, "stack": 1000, "sitting_out": false, "timeouts": 0}}'
                      for p in players)
    return f'{{"rules": {_RULES_V5}, "seats": [{seats}], "dealer": {dealer}, "seed": "0a0b0c"}}'


# A version-5 database with hands in it, written as that schema had them. Every hand is
# decided by folds, so its result follows from the rules alone, whatever the cards:
#   hand 1: Ana deals; Boris declines the blind and folds: Ana takes the antes, 20 (+10).
#   hand 2: Boris deals; Ana declines the blind and folds: Boris takes 20 (+10).
#   hand 3: Ana deals to three; Boris and Vera fold without a bet: the dealer takes the
#           three antes, 30 (+20, the others -10 each).
#   hand 4 is still being played and hand 5 was aborted: neither has results to fill in.
V5_ROWS = [
    *(f"INSERT INTO users (id, name, created_at, updated_at) VALUES ({i}, '{n}', {NOW}, {NOW})"
      for i, n in ((7, "Ana"), (8, "Boris"), (9, "Vera"))),
    *(f"INSERT INTO chats (id, created_at, updated_at) VALUES ({c}, {NOW}, {NOW})"
      for c in (-5, -6)),
    "INSERT INTO tables (id, chat_id, status, creator, rules, created_at)"
    f" VALUES (1, -5, 'closed', 7, '{_RULES_V5}', {NOW})",
    "INSERT INTO tables (id, chat_id, status, creator, rules, created_at)"
    f" VALUES (2, -6, 'playing', 9, '{_RULES_V5}', {NOW})",
    "INSERT INTO hands (id, table_id, number, start, commitment, started_at, ended_at, status,"
    f" cards_sent) VALUES (1, 1, 1, '{_start(0, 7, 8)}', 'c1', {NOW}, {NOW + 60}, 'settled', 1)",
    "INSERT INTO hands (id, table_id, number, start, commitment, started_at, ended_at, status,"
    f" cards_sent) VALUES (2, 1, 2, '{_start(1, 7, 8)}', 'c2', {NOW + 70}, {NOW + 120},"
    " 'settled', 1)",
    "INSERT INTO hands (id, table_id, number, start, commitment, started_at, ended_at, status,"
    f" cards_sent) VALUES (3, 2, 1, '{_start(0, 7, 8, 9)}', 'c3', {NOW + 130}, {NOW + 200},"
    " 'settled', 1)",
    "INSERT INTO hands (id, table_id, number, start, commitment, started_at, status)"
    f" VALUES (4, 2, 2, '{_start(1, 7, 8, 9)}', 'c4', {NOW + 210}, 'open')",
    "INSERT INTO hands (id, table_id, number, start, commitment, started_at, ended_at, status,"
    f" abort_reason) VALUES (5, 1, 3, '{_start(0, 7, 8)}', 'c5', {NOW + 130}, {NOW + 140},"
    " 'aborted', 'restart')",
    *(f"INSERT INTO actions (hand_id, seq, action, at) VALUES ({h}, {s}, '{a}', {NOW})"
      for h, s, a in (
          (1, 1, '{"act": "no_blind", "seat": 1}'), (1, 2, '{"act": "fold", "seat": 1}'),
          (2, 1, '{"act": "no_blind", "seat": 0}'), (2, 2, '{"act": "fold", "seat": 0}'),
          (3, 1, '{"act": "no_blind", "seat": 1}'), (3, 2, '{"act": "fold", "seat": 1}'),
          (3, 3, '{"act": "fold", "seat": 2}'),
          (4, 1, '{"act": "no_blind", "seat": 2}'),
          (5, 1, '{"act": "no_blind", "seat": 1}'),
      )),
]


async def write_version_5(db_path: Path) -> None:
    """A database at schema version 5 holding the hands of `V5_ROWS`."""
    async with _open(db_path) as conn:
        await migrate(conn, path=str(db_path), target=5)
        for sql in V5_ROWS:
            await conn.execute(sql)


async def test_migration_6_fills_in_the_results_of_hands_settled_before_it(
        db_path: Path) -> None:
    await write_version_5(db_path)

    store = await Store.open(db_path)
    try:
        assert store.db.version == LATEST
        rows = await store.db.fetchall(
            "SELECT hand_id, user_id, chat_id, net, won, svara, svara_won, points, pot, at"
            " FROM hand_players ORDER BY hand_id, user_id")
        assert [tuple(r) for r in rows] == [
            (1, 7, -5, 10, 1, 0, 0, None, 20, NOW + 60),
            (1, 8, -5, -10, 0, 0, 0, None, 20, NOW + 60),
            (2, 7, -5, -10, 0, 0, 0, None, 20, NOW + 120),
            (2, 8, -5, 10, 1, 0, 0, None, 20, NOW + 120),
            (3, 7, -6, 20, 1, 0, 0, None, 30, NOW + 200),
            (3, 8, -6, -10, 0, 0, 0, None, 30, NOW + 200),
            (3, 9, -6, -10, 0, 0, 0, None, 30, NOW + 200),
        ]
        titles = await store.db.fetchall("SELECT id, title FROM chats ORDER BY id")
        assert [tuple(r) for r in titles] == [(-6, None), (-5, None)]
        board, mine = await store.history.leaderboard(-6, 7)
        assert [(s.name, s.net, s.played, s.won) for s in board] == [
            ("Ana", 20, 1, 1), ("Boris", -10, 1, 0), ("Vera", -10, 1, 0)]
        assert mine is not None and mine.rank == 1
    finally:
        await store.close()
