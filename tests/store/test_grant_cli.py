"""``python -m bot grant``: one operator_grant row that the audit counts; bad input, none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import Store
from bot.store.cli import run_sync


async def _prepare(db: Path) -> None:
    async with await Store.open(db) as store:
        await store.users.ensure(42, "Ana", starting_chips=100)


async def _rows(db: Path) -> list[tuple[str, int, str | None]]:
    async with await Store.open(db) as store:
        rows = await store.db.fetchall("SELECT kind, delta, memo FROM ledger"
                                       " WHERE account = 'balance' ORDER BY id")
        return [(r[0], int(r[1]), r[2]) for r in rows]


def test_grant_writes_one_row_and_the_audit_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "svara.sqlite3"
    run_sync(_prepare(db))
    for bad in (["grant", "42", "-5", "--reason", "x"], ["grant", "42", "abc", "--reason", "x"],
                ["grant", "42", "50"], ["grant", "7", "50", "--reason", "nobody"],
                ["grant", "42", "50", "--reason", "  "]):
        assert main([*bad, "--db", str(db)]) == 2, bad
    assert run_sync(_rows(db)) == [("grant", 100, "starting chips")]
    assert main(["grant", "42", "250", "--reason", "lost in a bug", "--db", str(db)]) == 0
    assert "balance 350" in capsys.readouterr().out
    assert run_sync(_rows(db)) == [("grant", 100, "starting chips"),
                                   ("operator_grant", 250, "lost in a bug")]
    assert main(["audit", "--db", str(db)]) == 0
    assert "audit ok" in capsys.readouterr().out
