"""``python -m bot status [--db PATH]``: how the bot on a database file is, read-only.

It exits 0 only when a bot process holds the database, the file is usable and, when the
settings name a health port, that bot's ``GET /livez`` answers 200; "not running" (a
process that crashed or was killed holds nothing: the kernel let go of its lock) and
every other answer exit 1. The container's health check is this command.

It prints the keys of ``GET /healthz`` that a file can answer (a bot polling has no web
server to ask): the version of this code, whether a bot runs on the file (and since when),
the open tables, whether the database is usable, and the time of the last recorded
activity (the bot writes on every move, so that is its last update that did anything).
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from bot.ops.health import database_writable, iso
from bot.ops.lock import Holder, holder_of
from bot.ops.version import version
from bot.store.migrations import LATEST

_LAST_ACTIVITY = """
SELECT max(
    coalesce((SELECT max(at) FROM ledger), 0),
    coalesce((SELECT max(at) FROM actions), 0),
    coalesce((SELECT max(updated_at) FROM users), 0),
    coalesce((SELECT max(created_at) FROM tables), 0)
)
"""


def status_report(database: Path, *, wall: Callable[[], float] = time.time) -> dict[str, Any]:
    """The status of ``database`` as a dict (raises nothing for a missing or bad file)."""
    holder = holder_of(database) if database.exists() else False
    report: dict[str, Any] = {
        "status": "unavailable",
        "version": version(),
        "database": str(database),
        "running": holder is not False,
        "pid": holder.pid if isinstance(holder, Holder) else None,
        "uptime_seconds": (int(wall() - holder.started_at)
                           if isinstance(holder, Holder) and holder.role == "bot" else None),
        "open_tables": None,
        "database_ok": False,
        "schema": None,
        "last_activity_at": None,
    }
    if not database.is_file():
        report["problem"] = "no database at this path"
        return report
    try:
        conn = sqlite3.connect(database.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute("BEGIN")
            schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
            report["schema"] = schema
            if schema == 0 or schema > LATEST:
                report["problem"] = f"schema {schema}, this version knows 1 to {LATEST}"
                return report
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            report["open_tables"] = int(conn.execute(
                "SELECT count(*) FROM tables WHERE status != 'closed'").fetchone()[0])
            last = int(conn.execute(_LAST_ACTIVITY).fetchone()[0])
            report["last_activity_at"] = iso(last) if last else None
            conn.execute("ROLLBACK")
        finally:
            conn.close()
    except sqlite3.Error as err:
        report["problem"] = f"cannot read it: {err}"
        return report
    if check != "ok":
        report["problem"] = f"integrity check: {check}"
    elif not database_writable(database):
        report["problem"] = "the file or its folder is not writable"
    else:
        report["database_ok"] = True
        report["status"] = "ok"
    return report


def probe(url: str, timeout: float = 5.0) -> tuple[bool, str]:
    """GET ``url`` of the running bot's health port: (answered 200, what it said)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.status == 200, reply.read(2000).decode("utf-8", "replace")
    except urllib.error.HTTPError as err:
        return False, err.read(2000).decode("utf-8", "replace")
    except (OSError, ValueError) as err:
        return False, f"no answer from {url}: {err}"


def status(database: Path, *, out: TextIO, live_url: str | None = None) -> int:
    """Print the status as JSON; 0 when a bot runs on a usable database (and, with
    ``live_url``, its ``/livez`` answers 200), 1 when not."""
    report = status_report(database)
    if not report["running"]:
        report["status"] = "not running"
        report.setdefault("problem", "no bot process holds this database")
    elif live_url is not None:
        live, said = probe(live_url)
        report["live"] = live
        if not live:
            report["status"] = "not live"
            report["problem"] = said.strip()[:500]
    print(json.dumps(report, indent=2), file=out)
    return 0 if report["status"] == "ok" else 1
