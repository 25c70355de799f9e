"""A real ``python -m bot`` process against the stand-in: it runs, takes its first
automatic backup, ``status`` sees it, ``restore`` refuses to touch its file, and SIGTERM
stops it cleanly."""

from __future__ import annotations

import asyncio
import io
import signal
from pathlib import Path

from bot.ops.restore import restore
from bot.ops.status import status_report
from bot.sandbox import SandboxServer, World
from bot.store import cli
from tests.bot.proc import TOKEN, clean_env, fingerprint, finish, start_bot

WAIT = 60.0


async def test_status_restore_and_stop_around_a_running_bot(tmp_path: Path) -> None:
    db = tmp_path / "svara.sqlite3"
    async with SandboxServer(World(token=TOKEN)) as server:
        env = clean_env(SVARA_BOT_TOKEN=TOKEN, SVARA_API_BASE_URL=server.base_url,
                        SVARA_DATABASE=str(db), SVARA_RATE_LIMIT="false",
                        SVARA_BACKUP_DIR=str(tmp_path / "backups"))
        proc = await start_bot(tmp_path, env)
        try:
            async with asyncio.timeout(WAIT):
                while not any(c.method == "getUpdates" for c in server.transcript.calls):
                    assert proc.returncode is None
                    await asyncio.sleep(0.05)
            report = status_report(db)
            assert (report["running"], report["pid"]) == (True, proc.pid)
            async with asyncio.timeout(WAIT):  # the first automatic backup is due at once
                while not list((tmp_path / "backups").glob("svara-*.sqlite3")):
                    assert proc.returncode is None
                    await asyncio.sleep(0.05)
            assert report["database_ok"] is True

            backup = tmp_path / "copy.sqlite3"
            assert cli.backup(db, backup) == 0  # a backup works while it runs
            before = fingerprint(tmp_path)
            err = io.StringIO()
            assert restore(backup, db, out=io.StringIO(), err=err) == 1
            assert "a bot is running on" in err.getvalue()
            assert fingerprint(tmp_path) == before
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            done = await finish(proc)
    assert done.code == 0, done.err
    assert "Traceback" not in done.err
    assert TOKEN.split(":")[1] not in done.out + done.err
    assert status_report(db)["running"] is False
