"""Readiness means "a player's press can be saved now".

A tiny file system of its own (tmpfs, mounted here as root) holds the database, so the
disk can really be filled; a second connection really locks the database. Each time the
probe must say what a press would meet. (A file that cannot be written, as on a file
system remounted read-only, is tests/ops/test_running_bot.py's ``chattr +i`` case.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest

from bot.ops.health import DB_CHECK_TTL, Health
from bot.sandbox import SandboxServer, World
from bot.sandbox.harness import Sandbox
from bot.sandbox.models import MessageRecord
from bot.store import Store, StoreError
from tests.bot.proc import TOKEN, clean_env, closed_port, finish, start_bot

WAIT = 60.0


def mount(point: Path, *options: str) -> bool:
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(("size=2m", *options)),
                           "tmpfs", str(point)], capture_output=True, check=False)
    return done.returncode == 0


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB file system of its own (root only: mount)."""
    point = tmp_path / "disk"
    point.mkdir()
    if os.geteuid() != 0 or not mount(point):
        pytest.skip("a tiny file system needs root and mount -t tmpfs")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], check=False)


def fill(folder: Path) -> Path:
    """Write zeros into ``folder`` until its file system is full; the file written."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 512, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size) == size:
                    pass
    finally:
        os.close(fd)
    return filler


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextlib.asynccontextmanager
async def probed(db: Path, *, busy_timeout_ms: int = 5000
                 ) -> AsyncIterator[tuple[Store, Health, Clock]]:
    # As the bot opens it (bot.app.start_services): settled hands synced to disk.
    store = await Store.open(db, synchronous="FULL", step_synchronous="NORMAL",
                             busy_timeout_ms=busy_timeout_ms)
    await store.users.ensure(7001, "Ana", starting_chips=1000)
    clock = Clock()
    health = Health(db, store=lambda: store, open_tables=lambda: 0, clock=clock)
    try:
        yield store, health, clock
    finally:
        with contextlib.suppress(StoreError, sqlite3.Error):
            await store.close()


async def probe_again(health: Health, clock: Clock) -> bool:
    clock.now += DB_CHECK_TTL + 1
    return await health.database_ok()


async def test_a_full_disk_turns_readiness_red_and_freeing_it_green(disk: Path) -> None:
    async with probed(disk / "svara.sqlite3") as (store, health, clock):
        assert await health.database_ok()
        filler = fill(disk)
        # What a player meets now: his press cannot be saved.
        with pytest.raises(StoreError, match="full"):
            for n in range(200):
                await store.users.ensure(8000 + n, f"player {n}", starting_chips=1000)
        assert not await probe_again(health, clock)
        assert health.ready is False
        filler.unlink()
        assert await probe_again(health, clock)


async def test_a_database_locked_by_another_process_turns_readiness_red(
        tmp_path: Path) -> None:
    db = tmp_path / "svara.sqlite3"
    async with probed(db, busy_timeout_ms=200) as (_, health, clock):
        assert await health.database_ok()
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            assert not await probe_again(health, clock)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert await probe_again(health, clock)


async def test_the_probe_rolls_its_one_row_over(tmp_path: Path) -> None:
    db = tmp_path / "svara.sqlite3"
    async with probed(db) as (store, health, clock):
        for _ in range(3):
            assert await probe_again(health, clock)
        rows = await store.db.fetchall("SELECT id, length(bytes) FROM readiness")
        assert [tuple(r) for r in rows] == [(1, 2048)]


async def get(url: str) -> tuple[int, dict[str, object]]:
    async with aiohttp.ClientSession() as session, session.get(url) as reply:
        return reply.status, json.loads(await reply.text())


async def test_readyz_of_a_running_bot_turns_red_when_its_disk_fills(
        disk: Path, tmp_path: Path) -> None:
    port = closed_port()
    async with SandboxServer(World(token=TOKEN)) as server:
        env = clean_env(SVARA_BOT_TOKEN=TOKEN, SVARA_API_BASE_URL=server.base_url,
                        SVARA_DATABASE=str(disk / "svara.sqlite3"), SVARA_RATE_LIMIT="false",
                        SVARA_HEALTH_PORT=str(port), MPLCONFIGDIR=str(tmp_path / "mpl"))
        proc = await start_bot(tmp_path, env)
        base = f"http://127.0.0.1:{port}"
        try:
            async with asyncio.timeout(WAIT):
                while True:
                    assert proc.returncode is None, (await finish(proc)).err
                    with contextlib.suppress(aiohttp.ClientError):
                        if (await get(base + "/readyz"))[0] == 200:
                            break
                    await asyncio.sleep(0.1)
            fill(disk)
            # Red within the probe's period (the bound only keeps a failing test short).
            async with asyncio.timeout(DB_CHECK_TTL * 4):
                while True:
                    reply = await get(base + "/readyz")
                    if reply[0] != 200:
                        break
                    await asyncio.sleep(0.2)
            assert reply == (503, {"ready": False,
                                   "problem": "the database cannot be written"})
            status, health = await get(base + "/healthz")
            assert status == 503 and health["database_ok"] is False
            async with aiohttp.ClientSession() as session, \
                    session.get(base + "/metrics") as scrape:
                assert "\nsvara_ready 0.0\n" in await scrape.text()
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await finish(proc)


STORE_FAILED = "I could not save that, so nothing changed. Please try again later."


def labels(message: MessageRecord) -> list[str]:
    return [label for row in message.buttons for label in row]


async def test_a_press_on_a_full_disk_is_refused_counted_and_alerted(
        disk: Path, tmp_path: Path) -> None:
    port = closed_port()
    async with SandboxServer(World(token=TOKEN)) as server:
        env = clean_env(SVARA_BOT_TOKEN=TOKEN, SVARA_API_BASE_URL=server.base_url,
                        SVARA_DATABASE=str(disk / "svara.sqlite3"), SVARA_RATE_LIMIT="false",
                        SVARA_HEALTH_PORT=str(port), SVARA_LOG_FORMAT="json",
                        SVARA_GROUP_PER_MINUTE="6000", MPLCONFIGDIR=str(tmp_path / "mpl"))
        proc = await start_bot(tmp_path, env)
        base = f"http://127.0.0.1:{port}"
        try:
            tg = Sandbox(server)
            async with asyncio.timeout(WAIT):
                while not any(c.method == "getUpdates" for c in server.transcript.calls):
                    assert proc.returncode is None, (await finish(proc)).err
                    await asyncio.sleep(0.05)
            ana, boris = tg.world.user("Ana"), tg.world.user("Boris")
            group = tg.world.group("Full disk night", members=[ana, boris])
            await ana.send(group, "/newgame")
            await tg.world.wait_for(lambda: [m for m in group.bot_messages() if m.buttons],
                                    timeout=WAIT)

            def table() -> MessageRecord:
                return [m for m in group.bot_messages() if m.buttons][-1]

            for player in (ana, boris):
                await player.start_bot()
                await tg.world.wait_idle()
                await (await player.press(table(), "Join")).answer(timeout=10)
            await tg.world.wait_idle()
            await (await ana.press(table(), "Start")).answer(timeout=10)
            await tg.world.wait_for(lambda: "Fold" in labels(table()), timeout=WAIT)
            fill(disk)
            answers = [(await (await p.press(table(), "Fold")).answer(timeout=10)).text
                       for p in (ana, boris)]
            # The one whose turn it is is told nothing changed; the other that it is not
            # his turn.
            assert STORE_FAILED in answers, answers
            async with aiohttp.ClientSession() as session, \
                    session.get(base + "/metrics") as scrape:
                text = await scrape.text()
            assert "\nsvara_saves_refused_total 1.0\n" in text
            assert "\nsvara_ready 0.0\n" in text
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            done = await finish(proc)
    refused = [json.loads(line) for line in done.err.splitlines()
               if "could not save" in line]
    assert len(refused) == 1 and refused[0]["level"] == "WARNING", refused
    assert refused[0]["table"] == 1 and "full" in refused[0]["message"]
