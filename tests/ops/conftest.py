"""A database that has seen play, for the operator commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store


async def make_database(path: Path, *players: tuple[int, str], tables: int = 0) -> Path:
    """A database with ``players`` (1000 chips each) and ``tables`` open lobbies."""
    store = await Store.open(path, clock=lambda: 1_700_000_000.0)
    try:
        for user_id, name in players:
            await store.users.ensure(user_id, name, starting_chips=1000)
        for n in range(tables):
            await store.tables.open(-100 - n, creator=players[0][0], rules={})
    finally:
        await store.close()
    return path


@pytest.fixture
async def played(tmp_path: Path) -> Path:
    db = tmp_path / "live" / "svara.sqlite3"
    db.parent.mkdir()
    return await make_database(db, (7001, "Ana"), (7002, "Boris"), tables=1)
