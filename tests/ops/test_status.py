"""``status``: what a database file says about the bot on it."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from bot.ops.lock import DatabaseLock
from bot.ops.status import status, status_report
from bot.ops.version import version


def test_a_stopped_bot_is_not_running(played: Path) -> None:
    out = io.StringIO()
    assert status(played, out=out) == 1  # nothing serves the players: not healthy
    report = json.loads(out.getvalue())
    assert report["status"] == "not running"
    assert report["problem"] == "no bot process holds this database"
    assert report["version"] == version() != "unknown"
    assert (report["running"], report["pid"], report["uptime_seconds"]) == (False, None, None)
    assert report["open_tables"] == 1
    assert report["database_ok"] is True
    assert report["last_activity_at"] == "2023-11-14T22:13:20+00:00"


def test_a_running_bot(played: Path) -> None:
    with DatabaseLock(played, role="bot", now=1000.0):
        report = status_report(played, wall=lambda: 1250.0)
    assert (report["running"], report["pid"]) == (True, os.getpid())
    assert report["uptime_seconds"] == 250
    assert not status_report(played)["running"]  # released


def test_no_database(tmp_path: Path) -> None:
    out = io.StringIO()
    assert status(tmp_path / "absent.sqlite3", out=out) == 1
    report = json.loads(out.getvalue())
    assert (report["status"], report["database_ok"]) == ("not running", False)
    assert report["problem"] == "no database at this path"


def test_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "svara.sqlite3"
    junk.write_bytes(b"x" * 4096)
    report = status_report(junk)
    assert report["database_ok"] is False
    assert "cannot read it" in report["problem"]
