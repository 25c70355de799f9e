"""Every operator command acts on the bot's own database: the one ``SVARA_DATABASE`` names,
in the environment or only in ``.env``, as the bot reads it. Real processes, run from a
folder whose ``svara.sqlite3`` (the default name) is a decoy that must stay untouched."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.proc import clean_env, fingerprint
from tests.ops.conftest import make_database

Where = str  # "env" or "dotenv"


def balance(db: Path, user_id: int) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT balance FROM users WHERE id = ?", (user_id,))
                   .fetchone()[0])
    finally:
        conn.close()


@pytest.fixture
async def place(tmp_path: Path) -> tuple[Path, Path]:
    """(the folder commands run in, with its decoy; the bot's real database elsewhere)."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    await make_database(cwd / "svara.sqlite3", (9001, "Decoy"))
    real = tmp_path / "data" / "bot.sqlite3"
    real.parent.mkdir()
    await make_database(real, (7001, "Ana"), (7002, "Boris"), tables=1)
    return cwd, real


def run(cwd: Path, real: Path, where: Where, *args: str) -> subprocess.CompletedProcess[str]:
    if where == "env":
        env = clean_env(SVARA_DATABASE=str(real))
    else:
        (cwd / ".env").write_text(f"SVARA_DATABASE={real}\n")
        env = clean_env()
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def says_which(done: subprocess.CompletedProcess[str], real: Path, where: Where) -> None:
    assert f"database: {real} (SVARA_DATABASE in " in done.stderr, done.stderr
    assert ("the environment" if where == "env" else ".env") in done.stderr


WHERE = pytest.mark.parametrize("where", ["env", "dotenv"])


@WHERE
def test_audit_and_status_read_the_database_the_bot_uses(
    place: tuple[Path, Path], where: Where
) -> None:
    cwd, real = place
    decoy = fingerprint(cwd)
    audited = run(cwd, real, where, "audit")
    assert audited.returncode == 0, audited.stderr
    says_which(audited, real, where)
    assert "granted 2000 " in audited.stdout  # Ana and Boris; the decoy has 1000
    shown = run(cwd, real, where, "status")
    says_which(shown, real, where)
    report = json.loads(shown.stdout)
    assert report["database"] == str(real)
    assert report["open_tables"] == 1  # the decoy has none
    assert {k: v for k, v in fingerprint(cwd).items() if k != ".env"} == decoy


@WHERE
def test_grant_writes_into_the_database_the_bot_uses(
    place: tuple[Path, Path], where: Where
) -> None:
    cwd, real = place
    decoy = fingerprint(cwd)
    done = run(cwd, real, where, "grant", "7001", "50", "--reason", "lost in an outage")
    assert done.returncode == 0, done.stderr
    says_which(done, real, where)
    assert balance(real, 7001) == 1050
    assert {k: v for k, v in fingerprint(cwd).items() if k != ".env"} == decoy


@WHERE
def test_backup_and_restore_act_on_the_database_the_bot_uses(
    place: tuple[Path, Path], where: Where, tmp_path: Path
) -> None:
    cwd, real = place
    decoy = fingerprint(cwd)
    copy = tmp_path / "copy.sqlite3"
    done = run(cwd, real, where, "backup", str(copy))
    assert done.returncode == 0, done.stderr
    says_which(done, real, where)
    assert balance(copy, 7002) == 1000  # the real database's player, not the decoy's

    restored = run(cwd, real, where, "restore", str(copy))
    assert restored.returncode == 0, restored.stderr
    says_which(restored, real, where)
    assert list(real.parent.glob("bot.sqlite3.before-restore-*"))
    assert {k: v for k, v in fingerprint(cwd).items() if k != ".env"} == decoy


def test_db_option_wins_over_the_settings(place: tuple[Path, Path]) -> None:
    cwd, real = place
    done = run(cwd, real, "env", "users", "--db", str(cwd / "svara.sqlite3"))
    assert done.returncode == 0, done.stderr
    assert f"database: {cwd / 'svara.sqlite3'} (--db)" in done.stderr
    assert "Decoy" in done.stdout and "Ana" not in done.stdout
