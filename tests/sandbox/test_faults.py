"""Injected faults: API errors, held answers (client timeouts) and dropped connections."""

from __future__ import annotations

import pytest
from telegram.error import BadRequest, Forbidden, NetworkError, TimedOut

from bot.sandbox.faults import Fault
from bot.sandbox.harness import Sandbox
from tests.sandbox.helpers import exactly


async def test_api_errors_for_the_next_calls_only(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    tg.faults.fail_next("sendMessage", Fault.forbidden("bot was kicked from the group chat"))
    tg.faults.fail_next("editMessageText", Fault.bad_request("message can't be edited"), times=2)
    async with tg.bot() as bot:
        kicked = exactly("Forbidden: bot was kicked from the group chat")
        with pytest.raises(Forbidden, match=kicked):
            await bot.send_message(group.id, "x")
        sent = await bot.send_message(group.id, "y")
        for _ in range(2):
            with pytest.raises(BadRequest, match=exactly("message can't be edited")):
                await bot.edit_message_text("z", group.id, sent.message_id)
        await bot.edit_message_text("z", group.id, sent.message_id)
    assert [m.text for m in group.bot_messages()] == ["z"]
    assert [c.fault for c in tg.transcript.calls if c.fault] == ["error", "error", "error"]


async def test_faults_can_target_one_chat(tg: Sandbox) -> None:
    first, second = tg.world.group("One"), tg.world.group("Two")
    tg.faults.fail_next("sendMessage", Fault.bad_request("chat not found"), chat_id=second.id)
    async with tg.bot() as bot:
        await bot.send_message(first.id, "fine")
        with pytest.raises(BadRequest, match=exactly("chat not found")):
            await bot.send_message(second.id, "lost")


async def test_timeout_and_the_message_that_was_sent_anyway(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    tg.faults.fail_next("sendMessage", Fault.timeout(hold=2.0))
    tg.faults.fail_next("sendMessage", Fault.timeout(hold=2.0, applied=True))
    async with tg.bot() as bot:
        with pytest.raises(TimedOut):
            await bot.send_message(group.id, "never arrives", read_timeout=0.1)
        with pytest.raises(TimedOut):
            await bot.send_message(group.id, "arrives, answer lost", read_timeout=0.1)
    assert [m.text for m in group.bot_messages()] == ["arrives, answer lost"]


async def test_dropped_connection(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    tg.faults.fail_next("sendMessage", Fault.drop())
    async with tg.bot() as bot:
        with pytest.raises(NetworkError):
            await bot.send_message(group.id, "x")
        await bot.send_message(group.id, "y")
    assert [m.text for m in group.bot_messages()] == ["y"]
