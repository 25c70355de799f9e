"""The ephemeral-message adapter, driving PTB's real Bot over HTTP against the stand-in."""

from __future__ import annotations

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden

from bot import ephemeral_api as eph
from bot.sandbox.harness import Sandbox

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x03\x08\x02"
    b"\x00\x00\x00\x00\x00\x00\x00"
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def buttons(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=label.lower()) for label in labels]]
    )


def seen(tg: Sandbox, chat_id: int, user_id: int) -> list[tuple[str | None, list[str]]]:
    chat, user = tg.world.chats[chat_id], tg.world.users[user_id]
    return [(r.text or r.caption, r.labels)
            for r in tg.world.ephemeral.seen_by(chat, user, tg.world.clock())]


async def test_an_admin_bot_sends_edits_and_deletes_by_typed_ids(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob], bot_admin=True)
    async with tg.bot() as bot:
        sent = await eph.send_text(bot, group.id, alice.id, "<b>A♠</b> K♠", parse_mode="HTML",
                                   reply_markup=buttons("Fold"))
        assert sent == eph.EphemeralMessage(group.id, alice.id, 1)
        assert seen(tg, group.id, alice.id) == [("A♠ K♠", ["Fold"])]
        await eph.edit_text(bot, sent, "A♠ K♠ Q♠", reply_markup=buttons("Call", "Fold"))
        assert seen(tg, group.id, alice.id) == [("A♠ K♠ Q♠", ["Call", "Fold"])]
        await eph.edit_reply_markup(bot, sent, None)
        assert seen(tg, group.id, alice.id) == [("A♠ K♠ Q♠", [])]
        with pytest.raises(eph.NotModified):
            await eph.edit_reply_markup(bot, sent, None)
        chart = await eph.send_photo(bot, group.id, alice.id, PNG, caption="chart")
        await eph.edit_caption(bot, chart, "new chart")
        assert seen(tg, group.id, alice.id)[1] == ("new chart", [])
        await eph.delete(bot, sent)
        with pytest.raises(eph.EphemeralGone):
            await eph.edit_text(bot, sent, "gone")
        with pytest.raises(eph.EphemeralGone):
            await eph.delete(bot, sent)
    assert seen(tg, group.id, alice.id) == [("new chart", [])]
    assert seen(tg, group.id, bob.id) == []
    assert group.messages == []
    tg.expect("not_modified")


async def test_refusals_become_exceptions_the_bot_can_act_on(tg: Sandbox) -> None:
    clock = Clock()
    tg.world.clock = clock
    alice, bob, carol = (tg.world.user(n) for n in ("Alice", "Bob", "Carol"))
    await alice.start_bot()
    group = tg.world.group("Friends", members=[alice, bob])
    async with tg.bot() as bot:
        with pytest.raises(eph.NotInGroup):
            await eph.send_text(bot, alice.id, alice.id, "cards")
        with pytest.raises(eph.NotAllowed):
            await eph.send_text(bot, group.id, alice.id, "cards")
        with pytest.raises(eph.NotMember):
            await eph.send_text(bot, group.id, carol.id, "cards")
        await bot.send_message(group.id, "table", reply_markup=buttons("Cards"))
        press = await alice.press(group.last_bot_message, "Cards")
        await bot.answer_callback_query(press.query.id)
        with pytest.raises(eph.CannotReplace):
            await eph.send_text(bot, group.id, alice.id, "cards", replace_pressed=True)
        with pytest.raises(eph.PressExpired):
            await eph.send_text(bot, group.id, bob.id, "cards", callback_query_id=press.query.id)
        sent = await eph.send_text(bot, group.id, alice.id, "cards",
                                   callback_query_id=press.query.id, replace_pressed=True)
        assert tg.world.ephemeral.all(group)[0].replaces == group.last_bot_message.message_id
        with pytest.raises(BadRequest) as other:  # anything else stays PTB's own error
            await eph.send_text(bot, group.id, alice.id, "",
                                callback_query_id=press.query.id)
        assert not isinstance(other.value, eph.EphemeralRefused)
        clock.now += 16
        with pytest.raises(eph.PressExpired):
            await eph.send_text(bot, group.id, alice.id, "late", callback_query_id=press.query.id)
        await eph.edit_text(bot, sent, "edits need no window")
        tg.world.kick_bot(group, alice)
        with pytest.raises(Forbidden):
            await eph.send_text(bot, group.id, alice.id, "cards")
    tg.expect("length")


async def test_an_ephemeral_command_is_answered_ephemerally(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob])
    async with tg.bot() as bot:
        await eph.set_commands(bot, [eph.Command("balance", "Your chips", is_ephemeral=True),
                                     eph.Command("newgame", "Open a table")])
        await alice.send(group, "/balance")
        await bob.send(group, "/newgame")
        first, second = await bot.get_updates()
        assert first.message is not None and second.message is not None
        target = eph.answer_to(first.message)
        assert target is not None and target.receiver_user_id == alice.id
        assert eph.answer_to(second.message) is None
        await eph.send_text(bot, target.chat_id, target.receiver_user_id, "1000 chips",
                            reply_to_ephemeral_id=target.ephemeral_message_id)
    assert [m.text for m in group.messages] == ["/newgame"]
    assert seen(tg, group.id, alice.id) == [("/balance", []), ("1000 chips", [])]
    assert seen(tg, group.id, bob.id) == []


async def test_a_press_on_an_ephemeral_message_names_it(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice], bot_admin=True)
    async with tg.bot() as bot:
        sent = await eph.send_text(bot, group.id, alice.id, "cards", reply_markup=buttons("Fold"))
        (cards,) = tg.world.ephemeral.all(group)
        await alice.press(cards, "Fold")
        (update,) = await bot.get_updates()
        query = update.callback_query
        assert query is not None and query.message is not None
        assert eph.ephemeral_id_of(query.message) == sent.ephemeral_message_id  # type: ignore[arg-type]
        with pytest.raises(eph.CannotReplace):
            await eph.send_text(bot, group.id, alice.id, "x", callback_query_id=query.id,
                                replace_pressed=True)
        await query.answer()
        await eph.edit_text(bot, sent, "folded")
    assert seen(tg, group.id, alice.id) == [("folded", [])]
