"""The HTTP surface: body formats, answer shapes, tokens, unknown methods, chat lookups."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from telegram import BotCommand, BotCommandScopeChat
from telegram.error import BadRequest, EndPointNotFound, InvalidToken
from telegram.ext import ApplicationBuilder

from bot.sandbox.harness import Sandbox
from tests.sandbox.helpers import exactly

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000020000000308060000009dd1b7b1"
    "0000000d4944415478da63f8ffff3f0300050001ff8a2b0f400000000049454e44ae426082"
)


async def raw(tg: Sandbox, method: str, **kwargs: Any) -> tuple[int, dict[str, Any]]:
    url = f"{tg.server.base_url}{tg.world.token}/{method}"
    async with aiohttp.ClientSession() as session, session.post(url, **kwargs) as response:
        return response.status, await response.json()


async def test_form_json_and_query_bodies(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    markup = {"inline_keyboard": [[{"text": "Join", "callback_data": "j"}]]}
    status, body = await raw(
        tg, "sendMessage", data={"chat_id": str(group.id), "text": "form",
                                 "reply_markup": json.dumps(markup)}
    )
    assert status == 200 and body["ok"] is True
    assert body["result"]["reply_markup"] == markup
    assert body["result"]["chat"] == {"id": group.id, "type": "group", "title": "Friends"}
    assert isinstance(body["result"]["date"], int)
    status, body = await raw(
        tg, "SENDMESSAGE", json={"chat_id": group.id, "text": "json", "reply_markup": markup}
    )
    assert status == 200 and body["result"]["text"] == "json"
    status, body = await raw(tg, "sendMessage", params={"chat_id": str(group.id), "text": "q"})
    assert status == 200 and body["result"]["message_id"] == 3
    assert [c.params.get("reply_markup") for c in tg.transcript.calls[:2]] == [markup, markup]
    assert [c.chat_id for c in tg.transcript.calls] == [group.id] * 3


async def test_error_shape_and_unknown_methods(tg: Sandbox) -> None:
    tg.expect("unknown_method")
    status, body = await raw(tg, "sendMessage", data={"chat_id": "-1", "text": "x"})
    assert (status, body) == (
        400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}
    )
    status, body = await raw(tg, "sendTelepathy")
    assert (status, body) == (
        404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
    )
    async with tg.bot() as bot:
        with pytest.raises(EndPointNotFound):
            await bot.do_api_request("sendTelepathy", api_kwargs={"chat_id": 1})
    assert [v.kind for v in tg.violations()] == ["unknown_method", "unknown_method"]


async def test_wrong_token_is_unauthorized(tg: Sandbox) -> None:
    app = ApplicationBuilder().token("1:wrong").base_url(tg.server.base_url).build()
    with pytest.raises(InvalidToken):
        await app.initialize()


async def test_get_me_and_chat_lookups(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice", username="alice"), tg.world.user("Bob")
    group = tg.world.supergroup("Club", members=[bob], admins=[alice], username="club")
    await alice.start_bot()
    async with tg.bot() as bot:
        assert bot.username == "svara_test_bot"
        assert bot.can_read_all_group_messages is False
        statuses = [
            (await bot.get_chat_member(group.id, user_id)).status
            for user_id in (alice.id, bob.id, bot.id, tg.world.user("Eve").id)
        ]
        assert statuses == ["creator", "member", "member", "left"]


async def test_commands_per_scope(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    async with tg.bot() as bot:
        await bot.set_my_commands([BotCommand("newgame", "Open a table")])
        scope = BotCommandScopeChat(group.id)
        await bot.set_my_commands([BotCommand("bet", "Raise")], scope=scope)
        with pytest.raises(BadRequest, match=exactly("BOT_COMMAND_INVALID")):
            await bot.set_my_commands([BotCommand("NewGame", "caps are not allowed")])
    stored = {key: [c["command"] for c in commands]
              for key, commands in tg.world.commands.items()}
    assert stored == {'[{"type": "default"}, ""]': ["newgame"],
                      f'[{{"chat_id": {group.id}, "type": "chat"}}, ""]': ["bet"]}


async def test_photo_upload_is_stored_and_downloadable(tg: Sandbox) -> None:
    tg.expect("length")
    alice = tg.world.user("Alice")
    await alice.start_bot()
    async with tg.bot() as bot:
        sent = await bot.send_photo(alice.id, PNG, caption="<i>your cards</i>", parse_mode="HTML")
        assert sent.caption == "your cards"
        assert (sent.photo[-1].width, sent.photo[-1].height) == (2, 3)
        again = await bot.send_photo(alice.id, sent.photo[-1].file_id)
        file = await bot.get_file(again.photo[-1].file_id)
        assert bytes(await file.download_as_bytearray()) == PNG
        with pytest.raises(BadRequest, match=exactly("message caption is too long")):
            await bot.send_photo(alice.id, PNG, caption="x" * 1025)
    assert alice.inbox[0].photo is not None and alice.inbox[0].photo.data == PNG
    upload = tg.transcript.of("sendPhoto")[0].params["photo"]
    assert upload.startswith("<upload")
