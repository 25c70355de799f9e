"""The bot behind a webhook: it serves the webhook itself, always with a secret, refuses
what Telegram did not send before reading it, and answers ``GET /healthz``.

The whole process (`bot.app.serve`) runs in the test's event loop against the stand-in,
which POSTs updates to it the way Telegram does.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot.app import serve
from bot.ops.version import version
from bot.ops.web import MAX_BODY, SECRET_HEADER
from bot.sandbox import SandboxServer, World
from bot.sandbox.harness import Sandbox
from bot.settings import Settings, derive_webhook_secret
from tests.bot.proc import TOKEN, unwritable

WAIT = 20.0
"""Bound on waiting for the bot: a hang fails the test instead of blocking the run."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Hooked:
    tg: Sandbox
    url: str
    base: str
    db: Path
    settings: Settings


@pytest.fixture
async def hooked(tmp_path: Path) -> AsyncIterator[Hooked]:
    """`serve` running in webhook mode (no SVARA_WEBHOOK_SECRET) against the stand-in."""
    async with SandboxServer(World(token=TOKEN)) as server:
        tg = Sandbox(server)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        settings = Settings(
            bot_token=SecretStr(TOKEN), api_base_url=server.base_url,
            database=tmp_path / "w.sqlite3", rate_limit=False,
            webhook_url=f"{base}/hook/svara", webhook_listen="127.0.0.1", webhook_port=port,
            _env_file=None,  # type: ignore[call-arg]
        )
        stop = asyncio.Event()
        task = asyncio.create_task(serve(settings, stop, signals=False))
        try:
            async with asyncio.timeout(WAIT):
                while not server.webhook.url:
                    assert not task.done(), task
                    await asyncio.sleep(0.02)
            yield Hooked(tg, settings.webhook_url or "", base, settings.database, settings)
        finally:
            stop.set()
            await asyncio.wait_for(task, WAIT)
        tg.check()


async def post(url: str, update: dict[str, Any], headers: dict[str, str]) -> int:
    async with aiohttp.ClientSession() as session, session.post(
        url, json=update, headers=headers
    ) as reply:
        return reply.status


async def get_health(base: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"{base}/healthz") as reply:
        return reply.status, json.loads(await reply.text())


async def test_item9_a_webhook_without_a_configured_secret_gets_one_and_plays(
    hooked: Hooked,
) -> None:
    hook = hooked.tg.server.webhook
    assert hook.url == hooked.url
    assert hook.secret_token == derive_webhook_secret(TOKEN)
    assert hook.secret_token and TOKEN.split(":")[1] not in hook.secret_token
    ana = hooked.tg.world.user("Ana")
    group = hooked.tg.world.group("Hooked", members=[ana])
    await ana.send(group, "/newgame")
    await hooked.tg.world.wait_for(lambda: group.bot_messages(), timeout=WAIT)
    message = group.last_bot_message
    assert "Svara" in (message.text or "")
    assert [label for row in message.buttons for label in row] == ["Join", "Leave", "Start"]


def forged_endgame(tg: Sandbox, chat_id: int, user_id: int) -> dict[str, Any]:
    return {
        "update_id": 990001,
        "message": {
            "message_id": 9001, "date": 1_700_000_000, "text": "/endgame",
            "chat": {"id": chat_id, "type": "supergroup", "title": "Hooked"},
            "from": {"id": user_id, "is_bot": False, "first_name": "Mallory"},
            "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
        },
    }


async def test_item9_updates_without_the_right_secret_are_refused(hooked: Hooked) -> None:
    ana = hooked.tg.world.user("Ana")
    group = hooked.tg.world.group("Hooked", members=[ana], admins=[ana])
    await ana.send(group, "/newgame")
    await hooked.tg.world.wait_for(lambda: group.bot_messages(), timeout=WAIT)
    await hooked.tg.world.wait_idle()
    table_text = group.last_bot_message.text
    # The creator's own /endgame, forged by a stranger who knows the chat and the user.
    forged = forged_endgame(hooked.tg, group.id, ana.id)
    assert await post(hooked.url, forged, {}) == 403
    assert await post(hooked.url, forged, {SECRET_HEADER: "guess"}) == 403
    assert await post(hooked.url, forged, {SECRET_HEADER: derive_webhook_secret(TOKEN)[:-1]}) \
        == 403
    await hooked.tg.world.wait_idle()
    assert group.last_bot_message.text == table_text  # the table is still open
    calls = [c.method for c in hooked.tg.transcript.calls]
    assert "sendMessage" in calls
    status, health = await get_health(hooked.base)
    assert (status, health["open_tables"]) == (200, 1)


async def raw_exchange(base: str, head: str) -> bytes:
    """Send only a request's head (no body) and read what the server answers."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(head.encode())
        await writer.drain()
        async with asyncio.timeout(WAIT):
            return await reader.readline()
    finally:
        writer.close()


def head(path: str, length: int, secret: str | None) -> str:
    lines = [f"POST {path} HTTP/1.1", "Host: localhost", "Content-Type: application/json",
             f"Content-Length: {length}"]
    if secret is not None:
        lines.append(f"{SECRET_HEADER}: {secret}")
    return "\r\n".join(lines) + "\r\n\r\n"


async def test_item9_the_secret_is_checked_before_the_body_is_read(hooked: Hooked) -> None:
    # A 90 MB body announced and never sent: an answer can only come before reading it.
    status = await raw_exchange(hooked.base, head("/hook/svara", 90_000_000, None))
    assert status.startswith(b"HTTP/1.1 403")


async def test_item9_a_body_over_one_mebibyte_is_refused(hooked: Hooked) -> None:
    secret = derive_webhook_secret(TOKEN)
    status = await raw_exchange(hooked.base, head("/hook/svara", MAX_BODY + 1, secret))
    assert status.startswith(b"HTTP/1.1 413")
    # Without a length up front (chunked), reading stops at the limit.

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(3):
            yield b" " * (MAX_BODY // 2)

    async with aiohttp.ClientSession() as session, session.post(
        hooked.url, data=chunks(), headers={SECRET_HEADER: secret}
    ) as reply:
        assert reply.status == 413
    # An update of ordinary size with the secret still goes through.
    ana = hooked.tg.world.user("Ana")
    group = hooked.tg.world.group("Hooked", members=[ana])
    await ana.send(group, "/newgame")
    await hooked.tg.world.wait_for(lambda: group.bot_messages(), timeout=WAIT)


async def test_healthz_says_how_the_bot_is(hooked: Hooked) -> None:
    status, health = await get_health(hooked.base)
    assert status == 200
    assert health["status"] == "ok"
    assert health["version"] == version() != "unknown"
    assert health["database_ok"] is True
    assert health["open_tables"] == 0
    assert health["last_update_at"] is None
    assert isinstance(health["uptime_seconds"], int) and health["uptime_seconds"] >= 0
    ana = hooked.tg.world.user("Ana")
    group = hooked.tg.world.group("Hooked", members=[ana])
    await ana.send(group, "/newgame")
    await hooked.tg.world.wait_for(lambda: group.bot_messages(), timeout=WAIT)
    status, health = await get_health(hooked.base)
    assert status == 200
    assert health["open_tables"] == 1
    assert health["last_update_at"] is not None


async def test_healthz_is_503_while_the_database_is_not_writable(hooked: Hooked) -> None:
    with unwritable(hooked.db):
        status, health = await get_health(hooked.base)
    assert status == 503
    assert (health["status"], health["database_ok"]) == ("unavailable", False)
    status, health = await get_health(hooked.base)
    assert (status, health["database_ok"]) == (200, True)


async def test_inline_queries_are_among_the_updates_asked_for(hooked: Hooked) -> None:
    """Set up as in production (allowed_updates), typing "@bot 7c Kh Kd" gets its answer."""
    ana = hooked.tg.world.user("Ana")
    typed = await ana.inline("7c Kh Kd")
    (result,) = (await typed.answer(timeout=WAIT)).results
    assert result.title == "7♣ K♥ K♦: 31 points"
    assert hooked.tg.world.updates.dropped == []
