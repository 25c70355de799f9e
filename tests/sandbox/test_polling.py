"""getUpdates: real long polling, offsets, allowed_updates and conflicts."""

from __future__ import annotations

import asyncio

import pytest
from telegram import Update
from telegram.error import Conflict
from telegram.ext import ContextTypes, MessageHandler, filters

from bot.sandbox.harness import Sandbox
from bot.sandbox.server import SandboxServer
from bot.sandbox.world import World
from tests.sandbox.helpers import exactly


async def held(tg: Sandbox | World) -> None:
    """Wait until the stand-in holds a long poll open (no update to answer it with)."""
    world = tg if isinstance(tg, World) else tg.world
    await world.wait_for(lambda: world.updates.polling, what="a long poll held open")


async def test_long_poll_waits_for_an_update(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    async with tg.bot() as bot:
        waiting = asyncio.create_task(bot.get_updates(timeout=5))
        await held(tg)
        assert not waiting.done()  # nothing to send: the request is held open
        await alice.start_bot("welcome")
        updates = await asyncio.wait_for(waiting, 2)
    assert [u.message.text for u in updates if u.message] == ["/start welcome"]


async def test_offset_confirms_and_limit_caps(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    await alice.start_bot()
    for n in range(4):
        await alice.send(alice.dm, f"message {n}")
    async with tg.bot() as bot:
        first = await bot.get_updates(limit=2)
        assert len(first) == 2
        again = await bot.get_updates(limit=2)
        assert [u.update_id for u in again] == [u.update_id for u in first]  # not confirmed
        rest = await bot.get_updates(offset=first[-1].update_id + 1)
        assert [u.message.text for u in rest if u.message] == [
            "message 1", "message 2", "message 3"
        ]
        last = await bot.get_updates(offset=-1)
        assert [u.update_id for u in last] == [rest[-1].update_id]
        await bot.get_updates(offset=rest[-1].update_id + 1)
    assert tg.world.updates.pending == 0


async def test_allowed_updates_filters_new_updates(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    async with tg.bot() as bot:
        await bot.get_updates(allowed_updates=["callback_query"])
        await alice.start_bot()
        assert await bot.get_updates() == ()
        await bot.get_updates(allowed_updates=[])  # back to the default set
        await alice.send(alice.dm, "hello")
        updates = await bot.get_updates()
    assert [u.message.text for u in updates if u.message] == ["hello"]


async def test_second_poller_ends_the_first_with_409(tg: Sandbox) -> None:
    async with tg.bot() as first, tg.bot() as second:
        waiting = asyncio.create_task(first.get_updates(timeout=5))
        await held(tg)
        newer = asyncio.create_task(second.get_updates(timeout=0))
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await asyncio.wait_for(waiting, 2)
        assert await newer == ()


async def test_polling_while_a_webhook_is_set_is_409(tg: Sandbox) -> None:
    async with tg.bot() as bot:
        await bot.set_webhook("http://127.0.0.1:9/never")
        with pytest.raises(
            Conflict,
            match=exactly(
                "Conflict: can't use getUpdates method while webhook is active;"
                " use deleteWebhook to delete the webhook first"
            ),
        ):
            await bot.get_updates()
        await bot.delete_webhook()
        assert await bot.get_updates() == ()


async def test_application_polling_does_not_spin(tg: Sandbox) -> None:
    seen: list[str] = []

    async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None and update.message.text is not None
        seen.append(update.message.text)

    alice = tg.world.user("Alice")
    app = tg.app_builder().build()
    app.add_handler(MessageHandler(filters.TEXT, remember))
    async with tg.running(app, poll_timeout=10):
        # Idle, the application waits in one long poll instead of asking again and again.
        await held(tg)
        polls = tg.transcript.of("getUpdates")
        assert float(polls[-1].params["timeout"]) == 10
        await alice.start_bot()
        await tg.world.wait_for(lambda: seen, timeout=2)
        # The held poll brought the update; one more confirms it and is held in turn.
        await held(tg)
        assert len(tg.transcript.of("getUpdates")) == len(polls) + 1
    assert seen == ["/start"]


async def test_stopping_the_server_answers_a_waiting_poll() -> None:
    server = SandboxServer(World())
    await server.start()
    async with Sandbox(server).bot() as bot:
        waiting = asyncio.create_task(bot.get_updates(timeout=20, read_timeout=30))
        await held(server.world)
        await asyncio.wait_for(server.stop(), 2)
        assert await asyncio.wait_for(waiting, 2) == ()
