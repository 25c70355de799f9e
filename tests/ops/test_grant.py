"""``grant`` fills only real players' balances, and ``users`` tells an operator their ids."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.store import Store
from bot.store.cli import run_sync


async def _prepare(db: Path) -> None:
    async with await Store.open(db, clock=lambda: 1_700_000_000.0) as store:
        await store.users.ensure(42, "Ana Petrova", starting_chips=100)
        await store.users.ensure(43, "Boris", starting_chips=100)
        # Rows under negative ids exist (practice wallets, computer players).
        await store.users.ensure(-42, "practice wallet", starting_chips=100)


def _ledger(db: Path) -> list[tuple[int, str, int]]:
    conn = sqlite3.connect(db)
    try:
        return [(int(r[0]), str(r[1]), int(r[2])) for r in conn.execute(
            "SELECT id, kind, delta FROM ledger ORDER BY id")]
    finally:
        conn.close()


def test_grant_refuses_ids_no_telegram_user_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "svara.sqlite3"
    run_sync(_prepare(db))
    before = _ledger(db)
    for user in ("-42", "0", "-4200001"):
        assert main(["grant", user, "50", "--reason", "x", "--db", str(db)]) == 2, user
        err = capsys.readouterr().err
        assert f"grant: {user} is not a Telegram user id" in err
    assert main(["grant", "@ana", "50", "--reason", "x", "--db", str(db)]) == 2
    assert "python -m bot users NAME" in capsys.readouterr().err
    assert _ledger(db) == before


def test_users_lists_players_by_name_with_their_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "svara.sqlite3"
    run_sync(_prepare(db))
    assert main(["users", "pETRov", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["42", "100", "2023-11-14", "22:13", "Ana", "Petrova"]
    assert len(lines) == 2
    assert main(["users", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    assert "Boris" in listed and "practice wallet" not in listed
    assert main(["users", "nobody", "--db", str(db)]) == 1
    assert "no player's name contains 'nobody'" in capsys.readouterr().out
