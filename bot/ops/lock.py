"""One process per database: a lock file next to it, held while the bot (or a restore) runs.

``svara.sqlite3.lock`` is locked with ``flock``, which the kernel releases when the process
ends, however it ends: a crash never leaves a stale lock (only, after a crash, an unlocked
file, which the next start takes). A clean release removes the file. The file also says who holds it
(pid and start time) so ``status`` and a refused start can name the process.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType


class Busy(Exception):
    """Another process holds the lock; `holder` says which, when it wrote that down."""

    def __init__(self, path: Path, holder: Holder | None) -> None:
        super().__init__(f"{path} is locked")
        self.path = path
        self.holder = holder


@dataclass(frozen=True, slots=True)
class Holder:
    pid: int
    started_at: float
    role: str


def lock_path(database: Path) -> Path:
    """The lock file of ``database``."""
    return database.with_name(database.name + ".lock")


class DatabaseLock:
    """``with DatabaseLock(db, role="bot", now=...)``: raise `Busy` if someone has it.

    Creating the lock file is the first write next to the database; an ``OSError`` here
    (read-only file system, no permission) comes out as it is, for the caller to explain.
    """

    def __init__(self, database: Path, *, role: str, now: float) -> None:
        self.path = lock_path(database)
        self.role = role
        self.now = now
        self._fd: int | None = None

    def acquire(self) -> None:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise Busy(self.path, read_holder(self.path)) from None
            except BaseException:
                os.close(fd)
                raise
            # The holder before us removes the file before letting go: if the name now
            # names another file (or none), our lock is on a file nobody else will see.
            if _same_file(fd, self.path):
                break
            os.close(fd)
        note = json.dumps({"pid": os.getpid(), "started_at": self.now, "role": self.role})
        with contextlib.suppress(OSError):  # the note is a courtesy; the lock is what counts
            os.ftruncate(fd, 0)
            os.pwrite(fd, note.encode() + b"\n", 0)
        self._fd = fd

    def release(self) -> None:
        """Remove the lock file, then let go of it: nothing is left beside the database."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.unlink(self.path)
        os.close(fd)  # closing releases the flock

    def __enter__(self) -> DatabaseLock:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def _same_file(fd: int, path: Path) -> bool:
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (mine.st_dev, mine.st_ino)


def read_holder(path: Path) -> Holder | None:
    """What the lock file says about its holder (None if it says nothing readable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "null")
        return Holder(int(data["pid"]), float(data["started_at"]), str(data["role"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None


def holder_of(database: Path) -> Holder | bool:
    """Who holds the lock of ``database`` now: a `Holder`, True (held, unknown by whom) or
    False (free). Probes without taking it for longer than the probe."""
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return read_holder(path) or True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)
