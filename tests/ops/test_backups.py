"""Automatic backups on an injected clock: they appear when due, rotate, and each passes the
audit; a failed one is logged and tried again without raising."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.ops.backups import Backups, stamp_of
from bot.store import Store
from bot.store.audit import audit_file
from bot.store.cli import run_sync

HOUR = 3600.0
T0 = 1_767_225_600.0  # 2026-01-01 00:00:00 UTC


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_backups_appear_when_due_and_the_newest_are_kept(
    played: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    clock = Clock()
    backups = Backups(played, folder, every_hours=6, keep=3, clock=clock)
    first = await backups.tick()
    assert first is not None and first.name == "svara-20260101T000000Z.sqlite3"
    clock.now += 5 * HOUR + 3599
    assert await backups.tick() is None  # not due yet
    taken = [first]
    for _ in range(4):
        clock.now = stamp_of(taken[-1]) + 6 * HOUR  # type: ignore[operator]
        made = await backups.tick()
        assert made is not None
        taken.append(made)
    names = [p.name for p in backups.copies()]
    assert names == [p.name for p in taken[-3:]]
    assert names == ["svara-20260101T120000Z.sqlite3", "svara-20260101T180000Z.sqlite3",
                     "svara-20260102T000000Z.sqlite3"]
    for path in backups.copies():
        report = run_sync(audit_file(str(path)))
        assert report.ok and report.users == 2, report


async def test_a_restart_neither_skips_nor_repeats_a_backup(
    played: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    clock = Clock()
    assert await Backups(played, folder, every_hours=6, keep=3, clock=clock).tick()
    clock.now += 2 * HOUR
    again = Backups(played, folder, every_hours=6, keep=3, clock=clock)  # a restart
    assert await again.tick() is None
    clock.now += 4 * HOUR
    assert await again.tick() is not None
    assert len(again.copies()) == 2


async def test_other_files_in_the_folder_are_left_alone(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    mine = folder / "svara-19990101T000000Z.sqlite3.keep"
    mine.write_text("the operator's own file")
    clock = Clock()
    backups = Backups(played, folder, every_hours=1, keep=1, clock=clock)
    for _ in range(3):
        assert await backups.tick() is not None
        clock.now += HOUR
    assert sorted(p.name for p in folder.iterdir()) == [
        "svara-19990101T000000Z.sqlite3.keep", "svara-20260101T020000Z.sqlite3"]


async def test_a_failed_backup_is_logged_and_tried_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "svara.sqlite3"  # not there yet: the copy fails
    folder = tmp_path / "backups"
    clock = Clock()
    backups = Backups(db, folder, every_hours=6, keep=3, clock=clock, retry_seconds=300)
    with caplog.at_level(logging.WARNING, logger="bot.ops.backups"):
        assert await backups.tick() is None
    assert "automatic backup to" in caplog.text and "failed" in caplog.text
    assert backups.copies() == []
    store = await Store.open(db)
    await store.users.ensure(7001, "Ana", starting_chips=1000)
    await store.close()
    clock.now += 299
    assert await backups.tick() is None  # waits for the retry
    clock.now += 1
    made = await backups.tick()
    assert made is not None and run_sync(audit_file(str(made))).ok


async def test_a_copier_that_raises_does_not_escape(played: Path, tmp_path: Path) -> None:
    def broken(database: Path, target: Path) -> tuple[int, str]:
        raise OSError(28, "No space left on device")

    backups = Backups(played, tmp_path / "b", every_hours=1, keep=2, clock=Clock(),
                      copier=broken)
    assert await backups.tick() is None
    assert backups.retry_at == T0 + backups.retry_seconds
