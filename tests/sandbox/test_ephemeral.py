"""Ephemeral messages and commands: one member sees them, on Telegram's conditions."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.error import BadRequest, RetryAfter

from bot.sandbox.ephemeral import EphemeralRecord
from bot.sandbox.errors import SandboxError
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FloodMode
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.sandbox.helpers import exactly

TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x03\x08\x02"
    b"\x00\x00\x00\x00\x00\x00\x00"
)

# PTB itself reads its deprecated int retry_after while building RetryAfter.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=label.lower()) for label in labels]]
    )


async def send(bot: Bot, chat: ChatRecord, to: Player | int, text: str = "your cards",
               **extra: Any) -> Message:
    receiver = to if isinstance(to, int) else to.id
    parameters: dict[str, Any] = {"receiver_user_id": receiver}
    reply = extra.pop("reply_parameters", None)
    for name in ("callback_query_id", "replace_callback_query_message"):
        if name in extra:
            parameters[name] = extra.pop(name)
    kwargs: dict[str, Any] = {"ephemeral_message_parameters": parameters}
    if reply is not None:
        kwargs["reply_parameters"] = reply
    return await bot.send_message(chat.id, text, api_kwargs=kwargs, **extra)


def seen(tg: Sandbox, chat: ChatRecord, player: Player) -> list[str | None]:
    return [r.text for r in tg.world.ephemeral.seen_by(chat, player.record, tg.world.clock())]


async def test_an_admin_bot_shows_any_member_a_message_no_one_else_sees(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob], bot_admin=True)
    async with tg.bot() as bot:
        sent = await send(bot, group, alice, "A♠ K♠ Q♠")
        again = await send(bot, group, bob, "2♦ 3♣ 9♥")
    assert sent.message_id == 0
    assert sent.api_kwargs["ephemeral_message_id"] == 1
    assert sent.api_kwargs["receiver_user"]["id"] == alice.id
    assert again.api_kwargs["ephemeral_message_id"] == 2
    assert group.messages == []  # nothing in the group's history
    assert seen(tg, group, alice) == ["A♠ K♠ Q♠"]
    assert seen(tg, group, bob) == ["2♦ 3♣ 9♥"]


async def test_other_bots_answer_only_a_press_and_only_within_15_seconds(tg: Sandbox) -> None:
    clock = Clock()
    tg.world.clock = clock
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob])
    async with tg.bot() as bot:
        await bot.send_message(group.id, "table", reply_markup=keyboard("Cards"))
        with pytest.raises(BadRequest, match=exactly("BOT_NOT_ADMIN")):
            await send(bot, group, alice)
        press = await alice.press(group.last_bot_message, "Cards")
        await bot.answer_callback_query(press.query.id)
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):  # Bob did not press
            await send(bot, group, bob, callback_query_id=press.query.id)
        clock.now += 15.0
        await send(bot, group, alice, "in time", callback_query_id=press.query.id)
        clock.now += 0.5
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await send(bot, group, alice, "too late", callback_query_id=press.query.id)
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await send(bot, group, alice, callback_query_id="42")
    assert seen(tg, group, alice) == ["in time"]
    assert seen(tg, group, bob) == []


async def test_refused_in_private_chats_to_outsiders_and_to_bots(tg: Sandbox) -> None:
    alice, carol = tg.world.user("Alice"), tg.world.user("Carol")
    await alice.start_bot()
    group = tg.world.group("Friends", members=[alice], bot_admin=True)
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly("EPHEMERAL_CHAT_INVALID")):
            await send(bot, alice.dm, alice)
        with pytest.raises(BadRequest, match=exactly("USER_NOT_PARTICIPANT")):
            await send(bot, group, carol)
        with pytest.raises(BadRequest, match=exactly("USER_BOT_INVALID")):
            await send(bot, group, tg.world.bot.id)
        with pytest.raises(BadRequest, match=exactly("user not found")):
            await send(bot, group, 99)
    assert tg.world.ephemeral.all(group) == []
    assert [m.text for m in alice.dm.messages] == ["/start"]


async def test_a_reply_to_an_ephemeral_command_opens_the_window(tg: Sandbox) -> None:
    clock = Clock()
    tg.world.clock = clock
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob])
    async with tg.bot() as bot:
        await bot.set_my_commands(
            [], api_kwargs={"commands": [
                {"command": "balance", "description": "Your chips", "is_ephemeral": True},
                {"command": "newgame", "description": "Open a table"},
            ]},
        )
        asked = await alice.send(group, "/balance")
        await bob.send(group, "/newgame")
        updates = await bot.get_updates()
        command = updates[0].message
        assert command is not None and command.text == "/balance"
        assert command.message_id == 0
        ephemeral_id = command.api_kwargs["ephemeral_message_id"]
        assert command.api_kwargs["receiver_user"]["id"] == tg.world.bot.id
        assert updates[1].message is not None and "ephemeral_message_id" not in (
            updates[1].message.api_kwargs)
        with pytest.raises(BadRequest, match=exactly("message to be replied not found")):
            await send(bot, group, bob, reply_parameters={"ephemeral_message_id": ephemeral_id})
        clock.now += 10
        answer = await send(bot, group, alice, "1000 chips",
                            reply_parameters={"ephemeral_message_id": ephemeral_id})
        assert answer.reply_to_message is not None
        assert answer.reply_to_message.api_kwargs["ephemeral_message_id"] == ephemeral_id
        clock.now += 6
        with pytest.raises(BadRequest, match=exactly("BOT_NOT_ADMIN")):
            await send(bot, group, alice, reply_parameters={"ephemeral_message_id": ephemeral_id})
    assert isinstance(asked, EphemeralRecord)
    assert [m.text for m in group.messages] == ["/newgame"]  # the group saw Bob's only
    assert seen(tg, group, alice) == ["/balance", "1000 chips"]
    assert seen(tg, group, bob) == []


async def test_a_member_replying_to_the_bots_ephemeral_message_is_ephemeral(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob], bot_admin=True)
    async with tg.bot() as bot:
        await send(bot, group, alice, "How many?")
        (question,) = tg.world.ephemeral.all(group)
        with pytest.raises(SandboxError, match="does not see"):
            await bob.send(group, "3", reply_to=question)
        await alice.send(group, "30", reply_to=question)
        (update,) = await bot.get_updates()
    assert update.message is not None and update.message.text == "30"
    assert update.message.api_kwargs["ephemeral_message_id"] == 2
    assert group.messages == []


async def test_commands_are_ephemeral_only_where_registered_so(tg: Sandbox) -> None:
    alice = tg.world.user("Alice", language_code="bg")
    group = tg.world.group("Friends", members=[alice])
    other = tg.world.group("Others", members=[alice])
    async with tg.bot() as bot:
        await bot.set_my_commands([], api_kwargs={"commands": [
            {"command": "stats", "description": "Stats"}]})
        await bot.set_my_commands([], scope=None, api_kwargs={
            "scope": {"type": "chat", "chat_id": group.id},
            "commands": [{"command": "stats", "description": "S", "is_ephemeral": True}]})
        with pytest.raises(BadRequest, match=exactly('field "is_ephemeral" must be of type '
                                                       'Boolean')):
            await bot.set_my_commands([], api_kwargs={"commands": [
                {"command": "stats", "description": "S", "is_ephemeral": "yes"}]})
    await alice.send(group, "/stats")
    await alice.send(group, "/stats@svara_test_bot")
    await alice.send(group, "/stats@other_bot")
    await alice.send(other, "/stats")
    assert [m.text for m in group.messages] == ["/stats@other_bot"]
    assert [m.text for m in other.messages] == ["/stats"]
    assert seen(tg, group, alice) == ["/stats", "/stats@svara_test_bot"]


async def test_shown_in_place_of_the_pressed_message_only_for_a_public_one(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice])
    async with tg.bot() as bot:
        await bot.send_message(group.id, "table", reply_markup=keyboard("Cards"))
        table = group.last_bot_message
        with pytest.raises(BadRequest, match=exactly("REPLACE_CALLBACK_QUERY_MESSAGE_INVALID")):
            await send(bot, group, alice, replace_callback_query_message=True)
        press = await alice.press(table, "Cards")
        await send(bot, group, alice, "your cards", reply_markup=keyboard("Fold"),
                   callback_query_id=press.query.id, replace_callback_query_message=True)
        await bot.answer_callback_query(press.query.id)
        (cards,) = tg.world.ephemeral.all(group)
        assert cards.replaces == table.message_id
        again = await alice.press(cards, "Fold")
        with pytest.raises(BadRequest, match=exactly("REPLACE_CALLBACK_QUERY_MESSAGE_INVALID")):
            await send(bot, group, alice, callback_query_id=again.query.id,
                       replace_callback_query_message=True)
        await bot.answer_callback_query(again.query.id)


async def test_presses_on_an_ephemeral_message_arrive_as_callback_queries(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob], bot_admin=True)
    async with tg.bot() as bot:
        await send(bot, group, alice, reply_markup=keyboard("Fold", "Call"))
        (cards,) = tg.world.ephemeral.all(group)
        with pytest.raises(SandboxError, match="does not see"):
            await bob.press(cards, "Fold")
        press = await alice.press(cards, "Call")
        (update,) = await bot.get_updates()
        query = update.callback_query
        assert query is not None and query.data == "call"
        assert isinstance(query.message, Message)
        assert query.message.message_id == 0
        assert query.message.api_kwargs["ephemeral_message_id"] == cards.ephemeral_id
        await query.answer()
    assert press.answered


async def test_edits_and_deletes_name_chat_receiver_and_ephemeral_id(tg: Sandbox) -> None:
    tg.expect("not_modified")
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob], bot_admin=True)
    async with tg.bot() as bot:
        sent = await send(bot, group, alice, "A♠", reply_markup=keyboard("Fold"))
        ids = {"chat_id": group.id, "receiver_user_id": alice.id,
               "ephemeral_message_id": sent.api_kwargs["ephemeral_message_id"]}
        edited = await bot.do_api_request("editEphemeralMessageText",
                                          api_kwargs={**ids, "text": "A♠ K♠"})
        assert edited is True
        (cards,) = tg.world.ephemeral.all(group)
        assert (cards.text, cards.labels) == ("A♠ K♠", [])  # no reply_markup: no keyboard
        await bot.do_api_request("editEphemeralMessageReplyMarkup", api_kwargs={
            **ids, "reply_markup": keyboard("Call").to_dict()})
        assert cards.labels == ["Call"]
        with pytest.raises(BadRequest, match=exactly("message is not modified: specified new "
                                                       "message content and reply markup are "
                                                       "exactly the same as a current content "
                                                       "and reply markup of the message")):
            await bot.do_api_request("editEphemeralMessageReplyMarkup", api_kwargs={
                **ids, "reply_markup": keyboard("Call").to_dict()})
        with pytest.raises(BadRequest, match=exactly("there is no caption in the message to "
                                                       "edit")):
            await bot.do_api_request("editEphemeralMessageCaption",
                                     api_kwargs={**ids, "caption": "x"})
        wrong = {**ids, "receiver_user_id": bob.id}
        with pytest.raises(BadRequest, match=exactly("message to edit not found")):
            await bot.do_api_request("editEphemeralMessageText",
                                     api_kwargs={**wrong, "text": "mine now"})
        with pytest.raises(BadRequest, match=exactly("message to delete not found")):
            await bot.do_api_request("deleteEphemeralMessage", api_kwargs=wrong)
        assert await bot.do_api_request("deleteEphemeralMessage", api_kwargs=ids) is True
        assert seen(tg, group, alice) == []
        with pytest.raises(BadRequest, match=exactly("message to edit not found")):
            await bot.do_api_request("editEphemeralMessageText", api_kwargs={**ids, "text": "?"})
        with pytest.raises(BadRequest, match=exactly("message to delete not found")):
            await bot.do_api_request("deleteEphemeralMessage", api_kwargs=ids)


async def test_a_photo_can_be_ephemeral_and_its_caption_edited(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice], bot_admin=True)
    async with tg.bot() as bot:
        sent = await bot.send_photo(group.id, PNG, caption="chart", api_kwargs={
            "ephemeral_message_parameters": {"receiver_user_id": alice.id}})
        assert sent.message_id == 0 and sent.photo and sent.caption == "chart"
        await bot.do_api_request("editEphemeralMessageCaption", api_kwargs={
            "chat_id": group.id, "receiver_user_id": alice.id,
            "ephemeral_message_id": sent.api_kwargs["ephemeral_message_id"],
            "caption": "new chart"})
    (chart,) = tg.world.ephemeral.all(group)
    assert (chart.caption, chart.photo is not None) == ("new chart", True)
    assert group.messages == []


async def test_a_lost_ephemeral_message_is_accepted_but_never_shown(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob], bot_admin=True)
    tg.faults.lose_ephemeral(receiver_id=alice.id)
    async with tg.bot() as bot:
        lost = await send(bot, group, alice, "lost")
        await send(bot, group, bob, "to Bob")
        await send(bot, group, alice, "second")
        assert await bot.do_api_request("editEphemeralMessageText", api_kwargs={
            "chat_id": group.id, "receiver_user_id": alice.id,
            "ephemeral_message_id": lost.api_kwargs["ephemeral_message_id"],
            "text": "still lost"}) is True
    assert seen(tg, group, alice) == ["second"]
    assert seen(tg, group, bob) == ["to Bob"]


async def test_an_ephemeral_message_may_vanish_later(tg: Sandbox) -> None:
    clock = Clock()
    tg.world.clock = clock
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice], bot_admin=True)
    tg.faults.lose_ephemeral(vanish_after=5.0)
    async with tg.bot() as bot:
        await send(bot, group, alice, "for a while")
        await send(bot, group, alice, "kept")
        assert seen(tg, group, alice) == ["for a while", "kept"]
        clock.now += 5.0
        assert seen(tg, group, alice) == ["kept"]
        assert tg.world.ephemeral.restart_app(alice.record, clock.now) == 1
        assert seen(tg, group, alice) == []


async def test_ephemeral_messages_count_against_the_groups_limit(tg: Sandbox) -> None:
    tg.flood.mode = FloodMode.ENFORCE
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice], bot_admin=True)
    async with tg.bot() as bot:
        for index in range(10):
            await bot.send_message(group.id, f"public {index}")
        for index in range(9):
            await send(bot, group, alice, f"private {index}")
        await bot.do_api_request("editEphemeralMessageText", api_kwargs={
            "chat_id": group.id, "receiver_user_id": alice.id, "ephemeral_message_id": 1,
            "text": "edited"})
        with pytest.raises(RetryAfter):
            await send(bot, group, alice, "one too many")
        with pytest.raises(RetryAfter):
            await bot.do_api_request("editEphemeralMessageText", api_kwargs={
                "chat_id": group.id, "receiver_user_id": alice.id, "ephemeral_message_id": 2,
                "text": "edited"})
    tg.expect("flood")
    assert len(tg.world.ephemeral.all(group)) == 9
    assert tg.flood.refused_by_rule()["group"] == 2
