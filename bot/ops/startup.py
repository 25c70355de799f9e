"""Start-up checks: every way the bot can fail to start becomes one line saying what is
wrong and what to do, and none of them changes the database.

The database is checked before anything is written: its folder, the lock (one bot per
file), write access, that it is a SQLite file at all, that this code knows its schema,
and that SQLite finds no damaged page in it.
Only then is Telegram asked who the bot is, and only after that is the store opened (and
migrated). A failed start therefore leaves the file as it was.
"""

from __future__ import annotations

import errno
import os
import socket
import sqlite3
import time
from pathlib import Path
from urllib.parse import urlsplit

from telegram.error import BadRequest, InvalidToken, NetworkError, TelegramError, TimedOut

from bot.ops.lock import Busy, DatabaseLock
from bot.store.migrations import LATEST

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
USER_VERSION_OFFSET = 60  # where SQLite keeps PRAGMA user_version in the file header


class StartupError(Exception):
    """The bot cannot start; ``str()`` is the one line to print."""


def _refuse(what: str, todo: str) -> StartupError:
    return StartupError(f"Cannot start: {what}; {todo}.")


def _write_problem(path: Path, err: OSError, subject: str) -> StartupError:
    if err.errno == errno.EROFS:
        return _refuse(f"{subject} {path} is on a read-only file system",
                       "put the database on a writable disk (SVARA_DATABASE)")
    if err.errno in (errno.EACCES, errno.EPERM):
        return _refuse(f"{subject} {path} cannot be written (permission denied)",
                       "give the user running the bot write access to it and its folder")
    if err.errno == errno.ENOSPC:
        return _refuse(f"the disk holding {path} is full", "free some space")
    return _refuse(f"{subject} {path} cannot be written ({err.strerror or err})",
                   "check the disk and SVARA_DATABASE")


def lock_database(database: Path, *, now: float | None = None) -> DatabaseLock:
    """Take the database's lock for the bot, or raise `StartupError` saying why not."""
    folder = database.parent
    if database.is_dir():
        raise _refuse(f"SVARA_DATABASE ({database}) is a folder",
                      "point it at a file, e.g. svara.sqlite3 in that folder")
    if not folder.is_dir():
        raise _refuse(f"the folder {folder} for the database does not exist",
                      "create it or point SVARA_DATABASE elsewhere")
    lock = DatabaseLock(database, role="bot", now=time.time() if now is None else now)
    try:
        lock.acquire()
    except Busy as busy:
        who = f"pid {busy.holder.pid}, a {busy.holder.role}" if busy.holder else "unknown"
        raise _refuse(f"another process ({who}) is using the database {database}",
                      "stop it first (a bot token runs in one process at a time, and only "
                      "that process uses the database)") from None
    except OSError as err:
        raise _write_problem(folder, err, "the database folder") from None
    return lock


def check_database(database: Path) -> int:
    """Refuse a database this bot could not write or does not understand; change nothing.

    Returns its schema version (0 for none yet)."""
    if not database.exists():
        return 0  # created at the first start; the lock proved the folder writable
    for path in (database, *_sidecars(database)):
        try:
            os.close(os.open(path, os.O_RDWR))  # opening for writing writes nothing
        except OSError as err:
            raise _write_problem(path, err, "the database") from None
    version = _schema_version(database)
    if version > LATEST:
        raise _refuse(
            f"the database {database} was written by a newer version of the bot "
            f"(schema {version}, this version knows up to {LATEST})",
            "run the newer version, or restore a backup made by this one "
            "(python -m bot restore BACKUP)")
    if version > 0:
        _check_integrity(database)
    return version


def backup_before_migrating(database: Path, version: int, folder: Path | None,
                            *, now: float | None = None) -> Path | None:
    """Before this version migrates a database that holds data, a checked copy of it as it
    was: in the backup folder when there is one, else beside the database. Never removed
    by the rotation of automatic backups. Returns the copy (None: nothing to migrate)."""
    if version == 0 or version >= LATEST:
        return None
    from bot.ops.backups import copy_with_backup_command, make_private_folder

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    where = folder if folder is not None else database.parent
    target = where / f"{database.name}.before-schema-{LATEST}-{stamp}"
    try:
        make_private_folder(where)
        code, said = copy_with_backup_command(database, target)
    except OSError as err:
        code, said = 1, str(err.strerror or err)
    if code != 0:
        raise _refuse(f"the copy of {database} to take before upgrading its schema from "
                      f"{version} to {LATEST} failed ({said[:200]})",
                      "free space or fix SVARA_BACKUP_DIR, then start again; nothing was "
                      "changed")
    return target


def _check_integrity(database: Path) -> None:
    """Refuse a file SQLite finds damaged: it would open, then fail every move that reads
    the damaged pages. Read-only; the quick check reads every page once."""
    # Without a write-ahead log beside it the file alone is the database: opened as
    # immutable, SQLite creates no -wal or -shm file for the check.
    wal = database.with_name(database.name + "-wal").exists()
    uri = database.resolve().as_uri() + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            rows = conn.execute("PRAGMA quick_check(5)").fetchall()
        finally:
            conn.close()
        found = "; ".join(str(row[0]) for row in rows)
    except sqlite3.DatabaseError as err:
        found = str(err)
    if found != "ok":
        raise _refuse(f"the database {database} is damaged (SQLite's check says: "
                      f"{found[:200]})",
                      "restore the newest backup (python -m bot restore BACKUP); keep the "
                      "damaged file for inspection")


def _sidecars(database: Path) -> list[Path]:
    found = []
    for suffix in ("-wal", "-shm"):
        path = database.with_name(database.name + suffix)
        if path.exists():
            found.append(path)
    return found


def _not_a_database(database: Path) -> StartupError:
    return _refuse(f"{database} is not a SQLite database",
                   "point SVARA_DATABASE at the bot's database, or restore a backup "
                   "(python -m bot restore BACKUP)")


def _schema_version(database: Path) -> int:
    """The schema version, read without creating or changing any file.

    With no write-ahead log beside it the file's header is the whole truth; with one, only
    SQLite can say, read-only.
    """
    try:
        with database.open("rb") as file:
            header = file.read(HEADER_SIZE)
    except OSError as err:
        raise _refuse(f"the database {database} cannot be read ({err.strerror or err})",
                      "check its permissions") from None
    if not header:
        return 0  # an empty file is an empty database
    if len(header) < HEADER_SIZE or not header.startswith(SQLITE_MAGIC):
        raise _not_a_database(database)
    if not database.with_name(database.name + "-wal").exists():
        return int.from_bytes(header[USER_VERSION_OFFSET:USER_VERSION_OFFSET + 4], "big")
    try:
        conn = sqlite3.connect(database.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        raise _not_a_database(database) from None


def check_port(listen: str, port: int, variable: str = "SVARA_WEBHOOK_PORT") -> None:
    """Refuse a webhook address nothing could listen on, before the database is touched.

    A probe: the port is bound (as aiohttp binds it) and let go at once; the server binds
    it for good once the store is open.
    """
    try:
        with socket.create_server((listen, port), reuse_port=False):
            pass
    except OSError as err:
        raise port_problem(listen, port, err, variable) from None


def port_problem(listen: str, port: int, err: OSError,
                 variable: str = "SVARA_WEBHOOK_PORT") -> StartupError:
    """The line for an address (the webhook's, or the health port's) nothing can listen on."""
    return StartupError(f"Cannot start: cannot listen on {listen}:{port} "
                        f"({err.strerror or err}); free the port or set {variable}.")


def explain_telegram_error(err: TelegramError, api_base_url: str) -> StartupError:
    """The line for a failure to reach Telegram at start-up (never shows the token)."""
    host = urlsplit(api_base_url).netloc or api_base_url
    if isinstance(err, InvalidToken):
        return _refuse("Telegram rejected the bot token (SVARA_BOT_TOKEN)",
                       "copy the bot's current token from @BotFather (/mybots, API Token) "
                       "into SVARA_BOT_TOKEN")
    if isinstance(err, TimedOut):
        return _refuse(f"the Telegram Bot API at {host} did not answer in time",
                       "check the network connection (and SVARA_API_BASE_URL), then start "
                       "again")
    if isinstance(err, NetworkError) and not isinstance(err, BadRequest):
        return _refuse(f"cannot reach the Telegram Bot API at {host}",
                       "check the network connection (and SVARA_API_BASE_URL), then start "
                       "again")
    return _refuse(f"the Telegram Bot API at {host} refused the start ({type(err).__name__})",
                   "check SVARA_BOT_TOKEN and SVARA_API_BASE_URL")
