"""sendMessage, edits and deletes: the limits and error texts of the real server."""

from __future__ import annotations

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.error import BadRequest, Forbidden

from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FloodMode
from tests.sandbox.helpers import exactly


def keyboard(*rows: list[str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=f"d:{label}") for label in row] for row in rows]
    )


async def test_message_json_is_parsed_by_ptb(tg: Sandbox) -> None:
    alice = tg.world.user("Alice", username="alice")
    group = tg.world.supergroup("Club", members=[alice], forum=True, topics=["Table 1"])
    thread = group.topic("Table 1")
    async with tg.bot() as bot:
        sent = await bot.send_message(
            group.id, "hi", message_thread_id=thread, reply_markup=keyboard(["A", "B"])
        )
    assert sent.chat.type == "supergroup"
    assert sent.chat.is_forum
    assert sent.message_thread_id == thread
    assert sent.from_user is not None and sent.from_user.is_bot
    assert sent.reply_markup == keyboard(["A", "B"])
    assert isinstance(sent.date.timestamp(), float)
    assert group.last_bot_message.thread_id == thread


async def test_text_length_limits(tg: Sandbox) -> None:
    tg.expect("length")
    tg.flood.mode = FloodMode.OFF  # four quick DMs would break the private-chat limit
    alice = tg.world.user("Alice")
    await alice.start_bot()
    async with tg.bot() as bot:
        await bot.send_message(alice.id, "x" * 4096)
        # entities do not count: 4096 characters of text inside a <b> tag still pass
        await bot.send_message(alice.id, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
        with pytest.raises(BadRequest, match=exactly("message is too long")):
            await bot.send_message(alice.id, "x" * 4097)
        with pytest.raises(BadRequest, match=exactly("message text is empty")):
            await bot.send_message(alice.id, "   ")
    assert len(alice.inbox) == 2


@pytest.mark.parametrize(
    ("html", "error"),
    [
        ("<div>x</div>", 'Unsupported start tag "div" at byte offset 0'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("a < b", 'Unsupported start tag "" at byte offset 2'),
        ("Tom & Jerry", "Unsupported HTML entity at byte offset 4"),
        ("&nbsp;", "Unsupported HTML entity at byte offset 0"),
        ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
    ],
)
async def test_bad_html_is_refused(tg: Sandbox, html: str, error: str) -> None:
    tg.expect("html")
    group = tg.world.group("Friends")
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly("can't parse entities: " + error)):
            await bot.send_message(group.id, html, parse_mode="HTML")
    assert [v.kind for v in tg.violations()] == ["html"]


async def test_allowed_html_becomes_entities(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    html = (
        '<b>bold</b> <i>it</i> <u>u</u> <s>s</s> <tg-spoiler>sp</tg-spoiler> '
        '<a href="https://t.me/x">link</a> <code>c</code> <pre>p</pre> '
        '<blockquote>q</blockquote> &lt;&gt;&amp;&quot; &#9824;'
    )
    async with tg.bot() as bot:
        sent = await bot.send_message(group.id, html, parse_mode="HTML")
    assert sent.text == 'bold it u s sp link c p q <>&" ♠'
    kinds = [e.type for e in sent.entities]
    assert kinds == [
        "bold", "italic", "underline", "strikethrough", "spoiler", "text_link", "code",
        "pre", "blockquote",
    ]
    assert sent.entities[5].url == "https://t.me/x"


async def test_callback_data_is_at_most_64_bytes(tg: Sandbox) -> None:
    tg.expect("markup")
    group = tg.world.group("Friends")
    async with tg.bot() as bot:
        ok = InlineKeyboardMarkup([[InlineKeyboardButton("ok", callback_data="é" * 32)]])
        await bot.send_message(group.id, "fits", reply_markup=ok)
        too_long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="é" * 33)]])
        with pytest.raises(BadRequest, match=exactly("BUTTON_DATA_INVALID")):
            await bot.send_message(group.id, "66 bytes", reply_markup=too_long)


async def test_web_app_buttons_only_in_private_chats(tg: Sandbox) -> None:
    tg.expect("markup")
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice])
    app = InlineKeyboardMarkup([[InlineKeyboardButton(
        "Open", web_app=WebAppInfo("https://svara.example/app/"))]])
    link = InlineKeyboardMarkup([[InlineKeyboardButton(
        "Open", url="https://t.me/svara_test_bot?startapp=t1_x")]])
    await alice.start_bot()
    async with tg.bot() as bot:
        await bot.send_message(alice.id, "private", reply_markup=app)
        await bot.send_message(group.id, "a direct link", reply_markup=link)
        with pytest.raises(BadRequest, match=exactly("BUTTON_TYPE_INVALID")):
            await bot.send_message(group.id, "web_app", reply_markup=app)
        sent = await bot.send_message(group.id, "plain")
        with pytest.raises(BadRequest, match=exactly("BUTTON_TYPE_INVALID")):
            await bot.edit_message_text("edited", group.id, sent.message_id, reply_markup=app)


async def test_keyboard_shape(tg: Sandbox) -> None:
    tg.expect("markup")
    group = tg.world.group("Friends")
    labels = [str(n) for n in range(9)]
    async with tg.bot() as bot:
        await bot.send_message(group.id, "8 in a row", reply_markup=keyboard(labels[:8]))
        with pytest.raises(BadRequest, match=exactly("reply markup is too long")):
            await bot.send_message(group.id, "9 in a row", reply_markup=keyboard(labels))
        many = keyboard(*[[f"{r}.{c}" for c in range(8)] for r in range(13)])  # 104 buttons
        with pytest.raises(BadRequest, match=exactly("reply markup is too long")):
            await bot.send_message(group.id, "too many", reply_markup=many)


async def test_edits(tg: Sandbox) -> None:
    tg.expect("not_modified")
    group = tg.world.group("Friends")
    async with tg.bot() as bot:
        sent = await bot.send_message(group.id, "table", reply_markup=keyboard(["Join"]))
        with pytest.raises(
            BadRequest,
            match=exactly(
                "message is not modified: specified new message content and reply markup are"
                " exactly the same as a current content and reply markup of the message"
            ),
        ):
            await bot.edit_message_text("table", group.id, sent.message_id,
                                        reply_markup=keyboard(["Join"]))
        # the same text without reply_markup is a change: the keyboard goes away
        edited = await bot.edit_message_text("table", group.id, sent.message_id)
        assert isinstance(edited, type(sent)) and edited.reply_markup is None
        record = group.last_bot_message
        assert record.buttons == [] and record.edit_date is not None
        await bot.edit_message_reply_markup(group.id, sent.message_id, reply_markup=keyboard(["A"]))
        assert record.buttons == [["A"]]
        await bot.edit_message_reply_markup(group.id, sent.message_id)
        assert record.buttons == []
        with pytest.raises(BadRequest, match=exactly("message to edit not found")):
            await bot.edit_message_text("x", group.id, 999)


async def test_deletes(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice])
    said = await alice.send(group, "/hello")
    async with tg.bot() as bot:
        first = await bot.send_message(group.id, "one")
        second = await bot.send_message(group.id, "two")
        assert await bot.delete_message(group.id, first.message_id)
        with pytest.raises(BadRequest, match=exactly("message to delete not found")):
            await bot.delete_message(group.id, first.message_id)
        with pytest.raises(BadRequest, match=exactly("message can't be deleted")):
            await bot.delete_message(group.id, said.message_id)
        assert await bot.delete_message(group.id, second.message_id)
    assert group.bot_messages() == []


async def test_chat_not_found_and_private_chats(tg: Sandbox) -> None:
    alice, carol = tg.world.user("Alice"), tg.world.user("Carol")
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly("chat not found")):
            await bot.send_message(-4242, "anyone?")
        with pytest.raises(
            Forbidden, match=exactly("Forbidden: bot can't initiate conversation with a user")
        ):
            await bot.send_message(alice.id, "psst")
        await carol.start_bot()
        await bot.send_message(carol.id, "welcome")
        carol.block_bot()
        with pytest.raises(Forbidden, match=exactly("Forbidden: bot was blocked by the user")):
            await bot.send_message(carol.id, "still there?")
    assert [m.text for m in carol.inbox] == ["welcome"]


async def test_photos_and_pins(tg: Sandbox) -> None:
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")
    group = tg.world.group("Friends")
    admin_group = tg.world.supergroup("Club", bot_admin=True)
    async with tg.bot() as bot:
        photo = await bot.send_photo(group.id, png, caption="hand 1")
        with pytest.raises(
            BadRequest, match=exactly("not enough rights to manage pinned messages in the chat")
        ):
            await bot.pin_chat_message(group.id, photo.message_id)
        table = await bot.send_message(admin_group.id, "table")
        assert await bot.pin_chat_message(admin_group.id, table.message_id)
        assert admin_group.pinned == [table.message_id]
        assert await bot.unpin_chat_message(admin_group.id)
    assert admin_group.pinned == []
