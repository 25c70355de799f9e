"""``restore``: a round trip, and every refusal leaves the database as it was."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from bot.ops.lock import DatabaseLock
from bot.ops.restore import restore
from bot.store import Store, cli
from bot.store.audit import audit_file
from bot.store.cli import run_sync
from bot.store.migrations import LATEST
from tests.bot.proc import fingerprint
from tests.ops.conftest import make_database

NOW = 1_767_225_600.0  # 2026-01-01 00:00:00 UTC


def run(backup: Path, db: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = restore(backup, db, out=out, err=err, clock=lambda: NOW)
    return code, out.getvalue(), err.getvalue()


async def users(db: Path) -> list[str]:
    store = await Store.open(db)
    try:
        rows = await store.db.fetchall("SELECT name FROM users ORDER BY id")
    finally:
        await store.close()
    return [str(r[0]) for r in rows]


async def test_round_trip(played: Path, tmp_path: Path) -> None:
    backup = tmp_path / "copy.sqlite3"
    assert cli.backup(played, backup) == 0
    store = await Store.open(played)  # play goes on after the backup
    await store.users.ensure(7003, "Vera", starting_chips=1000)
    await store.close()
    assert await users(played) == ["Ana", "Boris", "Vera"]

    code, out, err = run(backup, played)
    assert (code, err) == (0, "")
    assert "audit ok" in out
    assert await users(played) == ["Ana", "Boris"]
    assert run_sync(audit_file(str(played))).ok
    kept = played.with_name("svara.sqlite3.before-restore-20260101T000000Z")
    assert f"kept at {kept}" in out
    assert await users(kept) == ["Ana", "Boris", "Vera"]  # nothing is lost by restoring
    assert not played.with_name("svara.sqlite3.restoring").exists()


async def test_restore_into_an_empty_place(played: Path, tmp_path: Path) -> None:
    target = tmp_path / "new" / "svara.sqlite3"
    target.parent.mkdir()
    code, out, _ = run(played, target)
    assert code == 0 and "kept at" not in out
    assert await users(target) == ["Ana", "Boris"]


async def test_refused_while_a_bot_runs_on_the_file(played: Path, tmp_path: Path) -> None:
    other = await make_database(tmp_path / "other.sqlite3", (9, "Zed"))
    before = fingerprint(played.parent)
    with DatabaseLock(played, role="bot", now=NOW):
        code, _, err = run(other, played)
    assert code == 1
    assert "a bot is running on" in err and "stop it first" in err
    assert fingerprint(played.parent) == before


async def test_a_file_that_is_not_a_backup_is_refused(played: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all " * 50)
    before = fingerprint(played.parent)
    code, _, err = run(junk, played)
    assert code == 1 and "not a usable backup" in err
    assert fingerprint(played.parent) == before


async def test_a_backup_that_fails_the_audit_is_refused(played: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite3"
    assert cli.backup(played, bad) == 0
    conn = sqlite3.connect(bad)
    conn.execute("DROP TRIGGER IF EXISTS users_balance_guard")
    conn.execute("UPDATE users SET balance = balance + 5 WHERE id = 7001")  # chips from nowhere
    conn.commit()
    conn.close()
    assert not run_sync(audit_file(str(bad))).ok
    before = fingerprint(played.parent)
    code, _, err = run(bad, played)
    assert code == 1 and "fails the audit" in err
    assert fingerprint(played.parent) == before


async def test_a_backup_from_a_newer_bot_is_refused(played: Path, tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    assert cli.backup(played, newer) == 0
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    before = fingerprint(played.parent)
    code, _, err = run(newer, played)
    assert code == 1 and "newer version" in err
    assert fingerprint(played.parent) == before


def tamper(backup: Path, *statements: str) -> None:
    conn = sqlite3.connect(backup)
    try:
        for sql in statements:
            conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


async def test_restore_refuses_tampered_schema(played: Path, tmp_path: Path) -> None:
    ledger_to_balance = sqlite3.connect(played).execute(
        "SELECT sql FROM sqlite_schema WHERE name = 'ledger_to_balance'").fetchone()[0]
    # The same trigger, rewritten to credit every balance row twice its delta.
    rewritten = ledger_to_balance.replace("balance + NEW.delta", "balance + 2 * NEW.delta")
    assert rewritten != ledger_to_balance
    cases = {
        "trigger ledger_no_delete is missing": (
            "DROP TRIGGER ledger_no_update", "DROP TRIGGER ledger_no_delete"),
        "trigger ledger_to_balance was changed": (
            "DROP TRIGGER ledger_to_balance", rewritten),
        "index hand_players_by_user is missing": ("DROP INDEX hand_players_by_user",),
        "trigger sneak is not the bot's": (
            "CREATE TRIGGER sneak AFTER INSERT ON users BEGIN "
            "UPDATE users SET balance = 10 WHERE id = NEW.id; END",),
    }
    before = fingerprint(played.parent)
    for n, (case, statements) in enumerate(cases.items()):
        backup = tmp_path / f"tampered-{n}.sqlite3"
        assert cli.backup(played, backup) == 0
        tamper(backup, *statements)
        assert run_sync(audit_file(str(backup))).ok, case  # the books still add up
        code, out, err = run(backup, played)
        assert (code, out) == (1, ""), case
        assert "schema that differs" in err and "nothing was changed" in err, case
        assert case in err, err
        assert fingerprint(played.parent) == before, case


async def test_two_restores_in_one_second_keep_both_replaced_databases(
    played: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "first.sqlite3", tmp_path / "second.sqlite3"
    assert cli.backup(played, first) == 0
    store = await Store.open(played)
    await store.users.ensure(7003, "Vera", starting_chips=1000)
    await store.close()
    assert cli.backup(played, second) == 0
    # The live database has Ana, Boris, Vera; restore "first" (no Vera), then "second".
    assert run(first, played)[0] == 0
    assert run(second, played)[0] == 0  # the same clock second
    kept = played.with_name("svara.sqlite3.before-restore-20260101T000000Z")
    kept_again = played.with_name("svara.sqlite3.before-restore-20260101T000000Z-2")
    assert await users(kept) == ["Ana", "Boris", "Vera"]  # the original, not overwritten
    assert await users(kept_again) == ["Ana", "Boris"]
    assert await users(played) == ["Ana", "Boris", "Vera"]
