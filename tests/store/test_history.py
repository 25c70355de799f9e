"""History queries over the hands of the version-5 database of the migration test."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store
from tests.store.test_migrations import NOW, write_version_5


async def test_chat_nets_run_from_the_window_start_per_player(db_path: Path) -> None:
    await write_version_5(db_path)
    store = await Store.open(db_path)
    try:
        history = store.history
        # Chat -5: Ana wins hand 1 (+10) at NOW+60, Boris hand 2 (+10) at NOW+120.
        assert [(n.name, n.series) for n in await history.chat_nets(-5, NOW)] == [
            ("Ana", [(NOW + 60, 10), (NOW + 120, 0)]),
            ("Boris", [(NOW + 60, -10), (NOW + 120, 0)]),
        ]
        # A window opening after hand 1 counts from zero at hand 2.
        assert [(n.name, n.series) for n in await history.chat_nets(-5, NOW + 61)] == [
            ("Ana", [(NOW + 120, -10)]),
            ("Boris", [(NOW + 120, 10)]),
        ]
        assert [(n.user_id, n.series) for n in await history.chat_nets(-6, NOW)] == [
            (7, [(NOW + 200, 20)]), (8, [(NOW + 200, -10)]), (9, [(NOW + 200, -10)])]
        assert await history.chat_nets(-6, NOW + 201) == []
        assert await history.chat_nets(-7, NOW) == []
    finally:
        await store.close()
