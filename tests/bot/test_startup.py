"""Every failed start ends with one line saying what is wrong and what to do: exit code 1,
no traceback, never the token, and the database exactly as it was.

Each case runs ``python -m bot`` as a real process, against the local stand-in or a port
nothing listens on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.ops.lock import DatabaseLock
from bot.sandbox import SandboxServer, World
from bot.store import Store
from bot.store.db import Database
from bot.store.migrations import LATEST, MIGRATIONS
from tests.bot.proc import (
    OTHER_TOKEN,
    TOKEN,
    Done,
    can_run,
    clean_env,
    closed_port,
    fingerprint,
    finish,
    run_bot,
    start_bot,
    unwritable,
)


@pytest.fixture
async def standin() -> AsyncIterator[SandboxServer]:
    async with SandboxServer(World(token=TOKEN)) as server:
        yield server


@pytest.fixture
async def folder(tmp_path: Path) -> Path:
    """A folder with a database that has seen play (a user and his chips)."""
    db = tmp_path / "svara.sqlite3"
    store = await Store.open(db)
    try:
        await store.users.ensure(7001, "Ana")
    finally:
        await store.close()
    return tmp_path


def listing(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def env_for(folder: Path, *, token: str = TOKEN, api: str) -> dict[str, str]:
    return clean_env(SVARA_BOT_TOKEN=token, SVARA_API_BASE_URL=api,
                     SVARA_DATABASE=str(folder / "svara.sqlite3"))


def assert_refused(done: Done, *words: str) -> None:
    """Exit code 1, no traceback, no token anywhere, and the last line says it all."""
    assert done.code == 1, (done.code, done.err)
    everything = done.out + done.err
    assert "Traceback" not in everything
    for secret in (TOKEN, OTHER_TOKEN, TOKEN.split(":")[1], OTHER_TOKEN.split(":")[1]):
        assert secret not in everything
    assert done.last_line.startswith("Cannot start: "), done.err
    for word in words:
        assert word in done.last_line, done.last_line


@contextlib.contextmanager
def busy_port() -> Iterator[int]:
    """A port on 127.0.0.1 that something else listens on."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield int(taken.getsockname()[1])


async def test_item8_a_rejected_token_is_named_but_never_shown(
    standin: SandboxServer, folder: Path
) -> None:
    before = fingerprint(folder)
    done = await run_bot(folder, env_for(folder, token=OTHER_TOKEN, api=standin.base_url))
    assert_refused(done, "rejected the bot token", "SVARA_BOT_TOKEN", "@BotFather")
    assert fingerprint(folder) == before


async def test_item8_a_fresh_install_with_a_rejected_token_creates_no_database(
    standin: SandboxServer, tmp_path: Path
) -> None:
    done = await run_bot(tmp_path, env_for(tmp_path, token=OTHER_TOKEN, api=standin.base_url))
    assert_refused(done, "rejected the bot token")
    assert fingerprint(tmp_path) == {}


async def test_item8_no_network(folder: Path) -> None:
    before = fingerprint(folder)
    api = f"http://127.0.0.1:{closed_port()}/bot"
    done = await run_bot(folder, env_for(folder, api=api))
    assert_refused(done, "cannot reach the Telegram Bot API", "check the network")
    assert fingerprint(folder) == before


async def test_item8_a_database_newer_than_the_code(standin: SandboxServer, folder: Path) -> None:
    db = folder / "svara.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {LATEST + 3}")
    conn.close()
    before = fingerprint(folder)
    done = await run_bot(folder, env_for(folder, api=standin.base_url))
    assert_refused(done, "newer version of the bot", f"schema {LATEST + 3}", "restore")
    assert fingerprint(folder) == before
    assert standin.transcript.calls == []  # refused before asking Telegram anything


async def test_item8_a_file_that_is_not_a_database(standin: SandboxServer, tmp_path: Path) -> None:
    (tmp_path / "svara.sqlite3").write_bytes(b"name,chips\nAna,1000\n" * 20)
    before = fingerprint(tmp_path)
    done = await run_bot(tmp_path, env_for(tmp_path, api=standin.base_url))
    assert_refused(done, "is not a SQLite database", "SVARA_DATABASE")
    assert fingerprint(tmp_path) == before


async def test_item8_a_database_another_bot_runs_on(standin: SandboxServer, folder: Path) -> None:
    before = fingerprint(folder)
    with DatabaseLock(folder / "svara.sqlite3", role="bot", now=0.0):
        done = await run_bot(folder, env_for(folder, api=standin.base_url))
    assert_refused(done, "another process", f"pid {os.getpid()}", "stop it first",
                   "one process at a time")
    assert "its own SVARA_DATABASE" not in done.err
    assert fingerprint(folder) == before


RO_MOUNT = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"'


async def test_item8_a_read_only_file_system(standin: SandboxServer, folder: Path) -> None:
    if shutil.which("unshare") is None or not can_run(["unshare", "-rm", "true"]):
        pytest.skip("cannot mount a read-only file system here (unshare -rm is not allowed)")
    before = fingerprint(folder)
    # The folder is mounted read-only in a private mount namespace of the bot's process.
    prefix = ["unshare", "-rm", "sh", "-c", RO_MOUNT, "sh", str(folder)]
    done = await run_bot(folder, env_for(folder, api=standin.base_url), prefix=prefix)
    assert_refused(done, "read-only file system", "writable disk")
    assert fingerprint(folder) == before


async def test_item8_an_unwritable_database(standin: SandboxServer, folder: Path) -> None:
    db = folder / "svara.sqlite3"
    before = fingerprint(folder)
    with unwritable(db):
        done = await run_bot(folder, env_for(folder, api=standin.base_url))
    assert_refused(done, f"the database {db} cannot be written", "write access")
    assert fingerprint(folder) == before


def damage_ledger_page(db: Path) -> None:
    """Overwrite the header of the ledger's first page, as a failing disk would."""
    conn = sqlite3.connect(db)
    try:
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        root = int(conn.execute(
            "SELECT rootpage FROM sqlite_schema WHERE name = 'ledger'").fetchone()[0])
        assert conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
    finally:
        conn.close()
    with db.open("r+b") as file:
        file.seek(page_size * (root - 1))
        file.write(b"\xee" * 12)


async def test_a_database_with_a_damaged_ledger_page_refuses_to_start(
    standin: SandboxServer, folder: Path
) -> None:
    damage_ledger_page(folder / "svara.sqlite3")
    before = fingerprint(folder)
    proc = await start_bot(folder, env_for(folder, api=standin.base_url))
    try:
        async with asyncio.timeout(60):
            while proc.returncode is None:
                # Before the check it started and polled, "ready" on a damaged ledger.
                assert not any(c.method == "getUpdates" for c in standin.transcript.calls)
                await asyncio.sleep(0.05)
    finally:
        if proc.returncode is None:
            proc.kill()
    done = await finish(proc)
    assert_refused(done, "is damaged", "restore the newest backup")
    assert fingerprint(folder) == before


async def test_a_failed_start_leaves_no_lock_file(standin: SandboxServer, tmp_path: Path) -> None:
    done = await run_bot(tmp_path, env_for(tmp_path, token=OTHER_TOKEN, api=standin.base_url))
    assert_refused(done, "rejected the bot token")
    assert listing(tmp_path) == []


async def test_a_busy_webhook_port_is_refused_before_the_database_is_touched(
    standin: SandboxServer, tmp_path: Path
) -> None:
    with busy_port() as port:
        env = env_for(tmp_path, api=standin.base_url)
        env.update(SVARA_WEBHOOK_URL=f"http://127.0.0.1:{port}/hook",
                   SVARA_WEBHOOK_LISTEN="127.0.0.1", SVARA_WEBHOOK_PORT=str(port))
        done = await run_bot(tmp_path, env)
    assert_refused(done, f"cannot listen on 127.0.0.1:{port}", "SVARA_WEBHOOK_PORT")
    assert listing(tmp_path) == []  # no database, no lock
    assert standin.transcript.calls == []  # and Telegram was not asked anything


async def test_an_older_schema_is_copied_before_it_is_migrated(
    standin: SandboxServer, tmp_path: Path
) -> None:
    db = tmp_path / "svara.sqlite3"
    database = await Database.open(db, migrations=MIGRATIONS[:LATEST - 1])
    await database.close()
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO users (id, name, created_at, updated_at) VALUES (7001, 'Ana', 1, 1)")
    conn.commit()
    conn.close()
    env = env_for(tmp_path, api=standin.base_url)
    env["SVARA_BACKUP_DIR"] = str(tmp_path / "backups")
    proc = await start_bot(tmp_path, env)
    try:
        async with asyncio.timeout(60):
            while not any(c.method == "getUpdates" for c in standin.transcript.calls):
                assert proc.returncode is None
                await asyncio.sleep(0.05)
    finally:
        if proc.returncode is None:
            proc.terminate()
    done = await finish(proc)
    assert done.code == 0, done.err
    (kept,) = (tmp_path / "backups").glob(f"svara.sqlite3.before-schema-{LATEST}-*")
    conn = sqlite3.connect(kept)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST - 1
        assert conn.execute("SELECT name FROM users").fetchall() == [("Ana",)]
    finally:
        conn.close()
    assert f"the database as it was is kept at {kept}" in done.err


async def test_a_busy_health_port_is_refused_naming_its_setting(
    standin: SandboxServer, tmp_path: Path
) -> None:
    with busy_port() as port:
        env = env_for(tmp_path, api=standin.base_url)
        env.update(SVARA_HEALTH_PORT=str(port))
        done = await run_bot(tmp_path, env)
    assert_refused(done, f"cannot listen on 127.0.0.1:{port}", "SVARA_HEALTH_PORT")
    assert listing(tmp_path) == []
