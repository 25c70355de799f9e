"""One bot token, one process: a second poller, a webhook that is not ours at start-up,
and a webhook taken over while running each stop the bot with one line naming the cause,
exit code 1, and no traceback."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr

from bot.app import serve
from bot.ops import watch
from bot.ops.startup import StartupError
from bot.sandbox import SandboxServer, World
from bot.settings import Settings
from tests.bot.proc import TOKEN, clean_env, closed_port, finish, run_bot, start_bot

WAIT = 60.0


async def call(server: SandboxServer, method: str, **params: str) -> None:
    """A Bot API call on the bot's token, as another process of the operator's would."""
    async with aiohttp.ClientSession() as session, session.post(
        f"{server.base_url}{TOKEN}/{method}", json=params
    ) as reply:
        assert reply.status == 200, await reply.text()


def webhook_settings(server: SandboxServer, database: Path, port: int, *,
                     webhook: bool = True) -> Settings:
    """The bot's settings on the stand-in, in webhook mode on ``port`` or polling."""
    return Settings(bot_token=SecretStr(TOKEN), api_base_url=server.base_url,
                    database=database, rate_limit=False,
                    webhook_url=f"http://127.0.0.1:{port}/hook" if webhook else None,
                    webhook_listen="127.0.0.1", webhook_port=port,
                    _env_file=None)  # type: ignore[call-arg]


async def serving_on_its_webhook(server: SandboxServer, settings: Settings,
                                 stop: asyncio.Event | None = None) -> asyncio.Task[None]:
    """The bot started in webhook mode, once its webhook is set."""
    task = asyncio.create_task(serve(settings, stop or asyncio.Event(), signals=False))
    async with asyncio.timeout(WAIT):
        while not server.webhook.url:
            assert not task.done()
            await asyncio.sleep(0.02)
    return task


def one_line_no_traceback(err: str, *words: str) -> str:
    assert "Traceback" not in err, err
    assert TOKEN.split(":")[1] not in err
    lines = [line for line in err.splitlines() if line.strip()]
    for word in words:
        assert word in lines[-1], lines[-1]
    return lines[-1]


async def test_a_second_poller_on_the_same_token_stops_with_one_line(tmp_path: Path) -> None:
    async with SandboxServer(World(token=TOKEN)) as server:
        def env(name: str) -> dict[str, str]:
            (tmp_path / name).mkdir()
            return clean_env(SVARA_BOT_TOKEN=TOKEN, SVARA_API_BASE_URL=server.base_url,
                             SVARA_DATABASE=str(tmp_path / name / "svara.sqlite3"))

        first = await start_bot(tmp_path, env("first"))
        try:
            async with asyncio.timeout(WAIT):
                while not any(c.method == "getUpdates" for c in server.transcript.calls):
                    assert first.returncode is None
                    await asyncio.sleep(0.05)
            second = await asyncio.wait_for(run_bot(tmp_path, env("second")), WAIT)
        finally:
            if first.returncode is None:
                first.send_signal(signal.SIGTERM)
        done = await finish(first)
    assert second.code == 1, second.err
    line = one_line_no_traceback(second.err, "409 Conflict", "another process",
                                 "one process at a time")
    assert line.startswith("Stopped: ")
    # The first one sees the same conflict (Telegram ends one poller's request with the
    # other's): it stops as clearly, once, instead of a traceback every few seconds.
    assert done.code == 1, done.err
    assert one_line_no_traceback(done.err, "409 Conflict") == line
    assert done.err.count("409 Conflict") == 2  # the error line of the log, and the last


async def test_a_webhook_that_is_not_ours_refuses_the_start(tmp_path: Path) -> None:
    async with SandboxServer(World(token=TOKEN)) as server:
        await call(server, "setWebhook", url=f"http://127.0.0.1:{closed_port()}/other")
        for extra in ({}, {"SVARA_WEBHOOK_URL": f"http://127.0.0.1:{closed_port()}/ours",
                           "SVARA_WEBHOOK_LISTEN": "127.0.0.1",
                           "SVARA_WEBHOOK_PORT": str(closed_port())}):
            env = clean_env(SVARA_BOT_TOKEN=TOKEN, SVARA_API_BASE_URL=server.base_url,
                            SVARA_DATABASE=str(tmp_path / "svara.sqlite3"), **extra)
            done = await run_bot(tmp_path, env)
            assert done.code == 1, done.err
            one_line_no_traceback(done.err, "Cannot start: ", "/other",
                                  "another process seems to run on the same token")
            assert not (tmp_path / "svara.sqlite3").exists()  # refused before the store
        assert server.webhook.url.endswith("/other")  # never taken over


async def test_a_webhook_taken_over_while_running_stops_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch, "WEBHOOK_CHECK", 0.2)
    async with SandboxServer(World(token=TOKEN)) as server:
        port = closed_port()
        task = await serving_on_its_webhook(
            server, webhook_settings(server, tmp_path / "w.sqlite3", port))
        await asyncio.sleep(0.5)
        assert not task.done()  # our own webhook: it runs on
        await call(server, "setWebhook", url="https://elsewhere.example/hook")
        with pytest.raises(StartupError) as stopped:
            await asyncio.wait_for(task, WAIT)
    line = str(stopped.value)
    assert line.startswith("Stopped: Telegram now sends this bot's updates to "
                           "https://elsewhere.example/hook")
    assert "another process took over" in line


async def test_webhook_then_polling_after_a_clean_stop_starts_cleanly(tmp_path: Path) -> None:
    async with SandboxServer(World(token=TOKEN)) as server:
        port = closed_port()
        database = tmp_path / "svara.sqlite3"
        stop = asyncio.Event()
        hooked = await serving_on_its_webhook(
            server, webhook_settings(server, database, port), stop)
        stop.set()  # a clean stop (SIGTERM does the same)
        await asyncio.wait_for(hooked, WAIT)
        assert server.webhook.url == ""  # its own webhook went with it

        # The operator goes back to long polling: the start is not refused.
        stop = asyncio.Event()
        polling = asyncio.create_task(serve(webhook_settings(server, database, port,
                                                              webhook=False),
                                             stop, signals=False))
        async with asyncio.timeout(WAIT):
            while not any(c.method == "getUpdates" for c in server.transcript.calls):
                assert not polling.done(), polling.exception()
                await asyncio.sleep(0.02)
        stop.set()
        await asyncio.wait_for(polling, WAIT)


async def test_a_stop_never_removes_a_webhook_that_is_not_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch, "WEBHOOK_CHECK", 0.2)
    async with SandboxServer(World(token=TOKEN)) as server:
        port = closed_port()
        task = await serving_on_its_webhook(
            server, webhook_settings(server, tmp_path / "w.sqlite3", port))
        await call(server, "setWebhook", url="https://elsewhere.example/hook")
        with pytest.raises(StartupError):
            await asyncio.wait_for(task, WAIT)
        assert server.webhook.url == "https://elsewhere.example/hook"
