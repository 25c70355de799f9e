"""A whole story through a real PTB Application: command, keyboard, press, answer."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes

from bot.sandbox.harness import Sandbox

Ctx = ContextTypes.DEFAULT_TYPE


async def new_game(update: Update, context: Ctx) -> None:
    assert update.effective_chat is not None
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="v1:join")]])
    await context.bot.send_message(
        update.effective_chat.id, "<b>New table</b>: nobody yet", parse_mode="HTML",
        reply_markup=keyboard,
    )


async def join(update: Update, context: Ctx) -> None:
    query = update.callback_query
    assert query is not None and query.from_user is not None
    await query.answer(f"Welcome, {query.from_user.first_name}")
    await query.edit_message_text(f"Players: {query.from_user.first_name}")


async def test_command_button_and_answer(tg: Sandbox) -> None:
    world = tg.world
    alice, bob = world.user("Alice"), world.user("Bob")
    group = world.group("Friends", members=[alice, bob], admins=[alice])
    app = tg.app_builder().build()
    app.add_handler(CommandHandler("newgame", new_game))
    app.add_handler(CallbackQueryHandler(join, pattern="^v1:join$"))
    async with tg.running(app):
        await alice.send(group, "/newgame")
        table = await world.wait_for(lambda: group.bot_messages(), timeout=3)
        table = group.last_bot_message
        assert table.text == "New table: nobody yet"
        assert table.entities == [{"type": "bold", "offset": 0, "length": 9}]
        assert table.buttons == [["Join"]]
        press = await bob.press(table, "Join")
        answer = await press.answer()
        assert answer.text == "Welcome, Bob"
        assert not answer.show_alert
        await world.wait_idle()
        assert table.text == "Players: Bob"
        assert table.buttons == []


async def test_commands_addressed_to_bots_reach_command_handlers(tg: Sandbox) -> None:
    heard: list[str] = []

    async def bet(update: Update, context: Ctx) -> None:
        assert update.message is not None and update.message.text is not None
        heard.append(update.message.text)

    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice])
    app = tg.app_builder().build()
    app.add_handler(CommandHandler("bet", bet))
    async with tg.running(app):
        await alice.send(group, "/bet 10")
        await alice.send(group, "/bet@svara_test_bot 20")
        await alice.send(group, "/bet@other_bot 30")
        await alice.send(group, "bet 40")
        await tg.world.wait_idle()
    assert heard == ["/bet 10", "/bet@svara_test_bot 20"]
