"""Automatic backups: with ``SVARA_BACKUP_DIR`` set, a consistent copy every
``SVARA_BACKUP_EVERY`` hours, the last ``SVARA_BACKUP_KEEP`` kept.

Each copy is made by ``python -m bot backup``'s own function (SQLite's online backup API,
an integrity check and the audit) while the bot plays on. Whether one is due is read from
the newest copy in the folder, so restarts neither skip nor repeat one. A failed backup is
logged and tried again after `RETRY_SECONDS`; it never stops play.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from telegram.ext import JobQueue

from bot.store import cli

log = logging.getLogger(__name__)

PREFIX = "svara-"
SUFFIX = ".sqlite3"
STAMP = "%Y%m%dT%H%M%SZ"
NAME = re.compile(r"svara-(\d{8}T\d{6}Z)\.sqlite3")
RETRY_SECONDS = 300.0
CHECK_SECONDS = 60.0
"""How often the job looks whether a backup is due."""

Copier = Callable[[Path, Path], tuple[int, str]]


def copy_with_backup_command(database: Path, target: Path) -> tuple[int, str]:
    """Run the ``backup`` command's function; its exit code and what it printed."""
    out = io.StringIO()
    # Only this job prints while it runs (the bot logs to its own stream handler).
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.backup(database, target)
    return code, out.getvalue().strip()


FOLDER_MODE = 0o700


def make_private_folder(folder: Path) -> None:
    """Create the backup folder for the bot's user alone (an existing one is left as set)."""
    if folder.is_dir():
        return
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    folder.chmod(FOLDER_MODE)  # mkdir's mode is cut by the umask


def stamp_of(path: Path) -> float | None:
    """The time in the name of one of our backup files (None for any other file)."""
    match = NAME.fullmatch(path.name)
    if match is None:
        return None
    return datetime.strptime(match.group(1), STAMP).replace(tzinfo=UTC).timestamp()


def newest_backup_in(folder: Path | None) -> Callable[[], float | None]:
    """The time of the newest automatic backup in ``folder`` (None: none, or no folder)."""
    def newest() -> float | None:
        if folder is None:
            return None
        try:
            stamps = [s for p in folder.iterdir() if (s := stamp_of(p)) is not None]
        except OSError:
            return None
        return max(stamps, default=None)

    return newest


class Backups:
    """The backup folder and its schedule; `tick()` takes a copy when one is due."""

    def __init__(
        self,
        database: Path,
        folder: Path,
        *,
        every_hours: float,
        keep: int,
        clock: Callable[[], float] = time.time,
        copier: Copier = copy_with_backup_command,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        if every_hours <= 0 or keep < 1:
            raise ValueError("every_hours must be > 0 and keep >= 1")
        self.database = database
        self.folder = folder
        self.every = every_hours * 3600.0
        self.keep = keep
        self.clock = clock
        self.copier = copier
        self.retry_seconds = retry_seconds
        self.retry_at: float | None = None
        self._lock = asyncio.Lock()

    def copies(self) -> list[Path]:
        """Our backup files in the folder, oldest first."""
        try:
            found = [p for p in self.folder.iterdir() if stamp_of(p) is not None]
        except OSError:
            return []
        return sorted(found, key=lambda p: p.name)

    def due(self, now: float) -> bool:
        if self.retry_at is not None:
            return now >= self.retry_at
        copies = self.copies()
        if not copies:
            return True
        newest = stamp_of(copies[-1])
        assert newest is not None
        # A copy from the future means the clock went back: do not wait for it.
        return now - newest >= self.every or newest > now + self.every

    async def tick(self) -> Path | None:
        """Take a backup if one is due; the new file, or None (not due, or failed)."""
        async with self._lock:
            now = self.clock()
            if not self.due(now):
                return None
            target = self.folder / f"{PREFIX}{datetime.fromtimestamp(now, UTC):{STAMP}}{SUFFIX}"
            try:
                make_private_folder(self.folder)
                code, said = await asyncio.to_thread(self.copier, self.database, target)
            except Exception as err:  # never let a backup stop play
                code, said = -1, f"{type(err).__name__}: {err}"
            if code != 0 or not target.is_file():
                self.retry_at = now + self.retry_seconds
                log.warning("automatic backup to %s failed, trying again in %d s: %s",
                            self.folder, int(self.retry_seconds), said)
                return None
            self.retry_at = None
            log.info("automatic backup: %s", said)
            self.rotate()
            return target

    def rotate(self) -> None:
        """Delete all but the newest `keep` copies."""
        for old in self.copies()[: -self.keep]:
            try:
                old.unlink()
            except OSError as err:
                log.warning("could not delete the old backup %s: %s", old, err)

    def schedule(self, queue: JobQueue[Any]) -> None:
        """Look every `CHECK_SECONDS` (or sooner, for short periods) whether one is due."""
        interval = min(CHECK_SECONDS, self.every, self.retry_seconds)

        async def job(_: Any) -> None:
            await self.tick()

        # first=0 would be read as "not given" and wait a whole interval.
        queue.run_repeating(job, interval=interval, first=0.1, name="backup")
