"""The tg fixture's end-of-test check and the waiting helpers."""

from __future__ import annotations

import asyncio

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.sandbox.errors import SandboxError
from bot.sandbox.harness import Sandbox


async def test_check_lists_unexpected_violations(tg: Sandbox) -> None:
    bob = tg.world.user("Bob")
    group = tg.world.group("Friends", members=[bob])
    async with tg.bot() as bot:
        choice = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
        await bot.send_message(group.id, "pick", reply_markup=choice)
    await bob.press(group.last_bot_message, "A")
    with pytest.raises(AssertionError, match=r"\[unanswered_callback\] press of 'a' by Bob"):
        tg.check()
    tg.expect("unanswered_callback")
    tg.check()
    with pytest.raises(ValueError, match="unknown violation kinds"):
        tg.expect("typo")


async def test_an_edit_that_changes_nothing_is_a_violation(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    async with tg.bot() as bot:
        sent = await bot.send_message(group.id, "table")
        await bot.edit_message_text("table, edited", group.id, sent.message_id)
        with pytest.raises(BadRequest, match=r"^Message is not modified"):
            await bot.edit_message_text("table, edited", group.id, sent.message_id)
    assert [v.kind for v in tg.violations()] == ["not_modified"]
    with pytest.raises(AssertionError, match=r"\[not_modified\] editMessageText: Bad Request: "
                       "message is not modified"):
        tg.check()
    tg.expect("not_modified")
    tg.check()


async def test_wait_idle_waits_for_the_bot_to_fetch_updates(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    await alice.start_bot()
    with pytest.raises(SandboxError, match="1 updates pending"):
        await tg.world.wait_idle(timeout=0.05)
    async with tg.bot() as bot:
        updates = await bot.get_updates()
        await bot.get_updates(offset=updates[-1].update_id + 1)
    await tg.world.wait_idle(quiet=0.02)


async def test_wait_for_returns_the_value(tg: Sandbox) -> None:
    box: list[int] = []
    asyncio.get_running_loop().call_later(0.02, box.append, 7)
    assert await tg.world.wait_for(lambda: box, timeout=1) == [7]
    with pytest.raises(SandboxError, match="seven did not become true"):
        await tg.world.wait_for(lambda: 7 in box[1:], timeout=0.03, what="seven")
