"""Webhook delivery: POSTs in order, with the secret token header, retried on failure."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import CommandHandler, ContextTypes

from bot.sandbox.harness import Sandbox
from bot.sandbox.webhook import SECRET_HEADER
from tests.sandbox.helpers import free_port


async def test_updates_reach_a_ptb_webhook_with_the_secret(tg: Sandbox) -> None:
    started: list[str] = []

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_user is not None
        started.append(update.effective_user.first_name)
        await context.bot.send_message(update.effective_user.id, "hello")

    alice = tg.world.user("Alice")
    port = free_port()
    app = tg.app_builder().build()
    app.add_handler(CommandHandler("start", start))
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_webhook(
        listen="127.0.0.1",
        port=port,
        url_path="hook",
        webhook_url=f"http://127.0.0.1:{port}/hook",
        secret_token="s3cret_token",
    )
    try:
        await alice.start_bot()
        await tg.world.wait_for(lambda: alice.inbox, timeout=3)
        await tg.world.wait_idle()
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
    assert started == ["Alice"]
    assert alice.last_dm.text == "hello"
    assert tg.server.webhook.delivered[0]["message"]["text"] == "/start"


async def test_failed_posts_are_retried_and_reported(tg: Sandbox) -> None:
    seen: list[dict[str, Any]] = []
    headers: list[str | None] = []
    answers = [500, 200]

    async def hook(request: web.Request) -> web.Response:
        headers.append(request.headers.get(SECRET_HEADER))
        seen.append(await request.json())
        return web.Response(status=answers.pop(0) if answers else 200)

    receiver = web.Application()
    receiver.router.add_post("/hook", hook)
    runner = web.AppRunner(receiver)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    tg.server.webhook.retry_delay = 0.05
    alice = tg.world.user("Alice")
    try:
        async with tg.bot() as bot:
            await bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="abc")
            await alice.start_bot()
            await tg.world.wait_for(lambda: len(seen) >= 2, timeout=3)
            info = await bot.get_webhook_info()
            await bot.delete_webhook()
    finally:
        await runner.cleanup()
    assert seen[0] == seen[1]  # the same update again after the 500
    assert headers == ["abc", "abc"]
    assert info.url.endswith("/hook")
    assert info.pending_update_count == 0
    assert info.last_error_message is not None and "500" in info.last_error_message
