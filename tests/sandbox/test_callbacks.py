"""Button presses and answerCallbackQuery: once, in time, short, and only real buttons."""

from __future__ import annotations

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.sandbox.errors import SandboxError
from bot.sandbox.harness import Sandbox
from bot.sandbox.models import MessageRecord
from tests.sandbox.helpers import exactly

TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


async def table_with_buttons(tg: Sandbox, *labels: str) -> MessageRecord:
    group = next(c for c in tg.world.chats.values() if c.is_group)
    markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=f"v1:{label}") for label in labels]]
    )
    async with tg.bot() as bot:
        await bot.send_message(group.id, "table", reply_markup=markup)
    return group.last_bot_message


async def test_press_delivers_a_callback_query(tg: Sandbox) -> None:
    tg.expect("answered_twice")
    bob = tg.world.user("Bob")
    tg.world.group("Friends", members=[bob])
    table = await table_with_buttons(tg, "Join", "Leave")
    press = await bob.press(table, "Join")
    async with tg.bot() as bot:
        (update,) = await bot.get_updates()
        query = update.callback_query
        assert query is not None and query.message is not None
        assert query.data == "v1:Join"
        assert query.from_user.first_name == "Bob"
        assert query.message.message_id == table.message_id
        await query.answer("Seat taken", show_alert=True)
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await query.answer("again")
    answer = await press.answer()
    assert (answer.text, answer.show_alert, answer.url) == ("Seat taken", True, None)
    assert [v.kind for v in tg.transcript.violations] == ["answered_twice"]


async def test_answer_text_is_at_most_200_characters(tg: Sandbox) -> None:
    tg.expect("length")
    bob = tg.world.user("Bob")
    tg.world.group("Friends", members=[bob])
    press = await bob.press(await table_with_buttons(tg, "Join"), "Join")
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly("MESSAGE_TOO_LONG")):
            await bot.answer_callback_query(press.query.id, "x" * 201)
        await bot.answer_callback_query(press.query.id, "x" * 200)
    assert press.answered


async def test_late_answers_are_refused(tg: Sandbox) -> None:
    tg.expect("unanswered_callback")
    now = [1000.0]
    tg.world.clock = lambda: now[0]
    bob = tg.world.user("Bob")
    tg.world.group("Friends", members=[bob])
    press = await bob.press(await table_with_buttons(tg, "Join"), "Join")
    now[0] += 15.5  # Telegram waits 15 s for the answer
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await bot.answer_callback_query(press.query.id)
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await bot.answer_callback_query("12345")
    assert not press.answered
    assert [v.kind for v in tg.violations()] == ["unanswered_callback"]


async def test_answer_url_opens_a_deep_link(tg: Sandbox) -> None:
    bob = tg.world.user("Bob")
    tg.world.group("Friends", members=[bob])
    press = await bob.press(await table_with_buttons(tg, "Cards"), "Cards")
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly("URL_INVALID")):
            await bot.answer_callback_query(press.query.id, url="https://example.com")
        await bot.answer_callback_query(press.query.id, url="https://t.me/svara_test_bot?start=c7")
    answer = await press.answer()
    assert answer.url is not None
    await bob.open_link(answer.url)
    assert bob.dm.messages[-1].text == "/start c7"


async def test_buttons_are_found_on_the_current_message(tg: Sandbox) -> None:
    bob = tg.world.user("Bob")
    group = tg.world.group("Friends", members=[bob])
    table = await table_with_buttons(tg, "Join")
    async with tg.bot() as bot:
        await bot.edit_message_reply_markup(
            group.id,
            table.message_id,
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("Fold", callback_data="f")]]),
        )
    with pytest.raises(SandboxError, match=r"no button 'Join'.*\['Fold'\]"):
        await bob.press(table, "Join")
    async with tg.bot() as bot:
        await bot.delete_message(group.id, table.message_id)
    with pytest.raises(SandboxError, match="deleted"):
        await bob.press(table, "Fold")
    assert tg.world.queries == {}


async def test_url_buttons_are_links_not_presses(tg: Sandbox) -> None:
    bob = tg.world.user("Bob")
    group = tg.world.group("Friends", members=[bob])
    link = InlineKeyboardButton("Open", url="https://t.me/svara_test_bot?start=g1")
    async with tg.bot() as bot:
        await bot.send_message(group.id, "go", reply_markup=InlineKeyboardMarkup([[link]]))
    message = group.last_bot_message
    with pytest.raises(SandboxError, match="open_link"):
        await bob.press(message, "Open")
    await bob.open_link(message.button("Open")["url"])
    assert bob.record.started
