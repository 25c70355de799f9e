"""The whole process (`bot.app.serve`) serves the Mini App with SVARA_PUBLIC_URL set: on
the webhook's own server, or with long polling on a server of its own; and without it,
nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot.app import serve
from bot.sandbox import SandboxServer, World
from bot.settings import Settings
from tests.bot.proc import TOKEN
from tests.e2e.test_webhook import WAIT, free_port

PUBLIC_URL = "https://svara.example"


async def _get(url: str) -> tuple[int, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.get(url) as reply:
        await reply.read()
        return reply.status, dict(reply.headers)


async def _serving(tmp_path: Path, port: int, **settings: Any) -> tuple[int, dict[str, str], int]:
    """Start the bot as `python -m bot` does, ask for /app/ and /healthz, stop it."""
    async with SandboxServer(World(token=TOKEN)) as server:
        values: dict[str, Any] = {
            "bot_token": SecretStr(TOKEN), "api_base_url": server.base_url,
            "database": tmp_path / "m.sqlite3", "rate_limit": False,
            "webhook_listen": "127.0.0.1", "webhook_port": port, **settings}
        stop = asyncio.Event()
        task = asyncio.create_task(serve(Settings(_env_file=None, **values),  # type: ignore[call-arg]
                                         stop, signals=False))
        try:
            base = f"http://127.0.0.1:{port}"
            async with asyncio.timeout(WAIT):
                while True:
                    assert not task.done(), task
                    try:
                        status, headers = await _get(base + "/app/")
                        break
                    except aiohttp.ClientConnectionError:
                        await asyncio.sleep(0.05)
            health, _ = await _get(base + "/healthz")
            return status, headers, health
        finally:
            stop.set()
            await asyncio.wait_for(task, WAIT)


async def test_with_long_polling_the_page_has_a_server_of_its_own(tmp_path: Path) -> None:
    status, headers, health = await _serving(tmp_path, free_port(), public_url=PUBLIC_URL)
    assert status == 200 and "telegram.org" in headers["Content-Security-Policy"]
    assert health == 200  # the health checks are there too, as on a webhook's server


async def test_with_a_webhook_the_page_shares_its_server(tmp_path: Path) -> None:
    port = free_port()
    status, headers, health = await _serving(
        tmp_path, port, public_url=PUBLIC_URL, webhook_url=f"http://127.0.0.1:{port}/hook/svara")
    assert status == 200 and "Content-Security-Policy" in headers
    assert health == 200


async def test_without_a_public_url_the_webhook_serves_no_page(tmp_path: Path) -> None:
    port = free_port()
    status, _, health = await _serving(tmp_path, port,
                                       webhook_url=f"http://127.0.0.1:{port}/hook/svara")
    assert (status, health) == (404, 200)


@pytest.mark.parametrize("value", ["http://svara.example", "svara.example"])
def test_a_public_url_without_https_does_not_start(value: str) -> None:
    with pytest.raises(ValueError, match="https"):
        Settings(bot_token=SecretStr(TOKEN), public_url=value,
                 _env_file=None)  # type: ignore[call-arg]
