"""The production rate limiter counts only what Telegram's flood limits count."""

from __future__ import annotations

import asyncio

from telegram.ext import ExtBot

from bot.app import SENDS, rate_limiter
from bot.http import AiohttpRequest
from bot.sandbox.harness import Sandbox


async def test_a_look_up_does_not_wait_behind_the_groups_message_budget(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Table", [alice])
    bot: ExtBot[int] = ExtBot(
        tg.world.token, base_url=tg.server.base_url, request=AiohttpRequest(),
        get_updates_request=AiohttpRequest(pool_size=1),
        rate_limiter=rate_limiter(time_scale=4.0))
    async with bot:
        await bot.send_message(group.id, "one")  # the group's bucket is now used up
        done: list[str] = []

        async def send() -> None:
            await bot.send_message(group.id, "two")  # waits for the bucket to drain
            done.append("second message")

        async def look_up() -> None:
            await bot.get_chat_member(group.id, alice.id)
            done.append("look-up")

        waiting = asyncio.create_task(send())
        await asyncio.sleep(0)  # the message is queued in the limiter first
        await look_up()
        await waiting
    assert done == ["look-up", "second message"]
    assert [c.method for c in tg.transcript.calls if c.chat_id == group.id][-3:] == [
        "sendMessage", "getChatMember", "sendMessage"]


def test_the_limited_calls_are_those_that_put_something_in_a_chat() -> None:
    assert {"sendMessage", "editMessageText", "sendPhoto", "pinChatMessage"} <= SENDS
    assert not {"getChatMember", "getChat", "answerCallbackQuery", "getUpdates"} & SENDS
