"""The database, its WAL and SHM files, the lock and every backup are the bot's user's
alone (0600), and the backup folder too (0700), whatever the umask says."""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.ops.backups import Backups
from bot.ops.lock import DatabaseLock
from bot.ops.restore import restore
from bot.store import Store, cli


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def open_umask() -> Iterator[None]:
    """The usual umask, which by itself would make files 0644 and folders 0755."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


async def test_database_and_its_journal_files_are_created_0600(tmp_path: Path) -> None:
    db = tmp_path / "svara.sqlite3"
    async with await Store.open(db) as store:
        await store.users.ensure(7001, "Ana")
        wal, shm = (db.with_name(db.name + s) for s in ("-wal", "-shm"))
        assert wal.exists() and shm.exists()
        assert {p.name: mode(p) for p in (db, wal, shm)} == {
            db.name: 0o600, wal.name: 0o600, shm.name: 0o600}
    with DatabaseLock(db, role="bot", now=0.0) as lock:
        assert mode(lock.path) == 0o600


async def test_backups_are_0600_in_a_0700_folder(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite3"
    assert cli.backup(played, copy) == 0
    assert mode(copy) == 0o600

    folder = tmp_path / "backups" / "auto"
    made = await Backups(played, folder, every_hours=24, keep=2).tick()
    assert made is not None
    assert (mode(folder), mode(made)) == (0o700, 0o600)

    out = io.StringIO()
    assert restore(copy, played, out=out, err=io.StringIO()) == 0
    kept = next(played.parent.glob("svara.sqlite3.before-restore-*"))
    assert (mode(played), mode(kept)) == (0o600, 0o600)
