"""The bot's HTTP client (`bot.http.AiohttpRequest`) against the local stand-in: plain
calls, uploads (multipart) and the timeouts PTB passes."""

from __future__ import annotations

import struct
import zlib

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest
from telegram.request import BaseRequest

from bot.http import AiohttpRequest, _seconds
from bot.sandbox.harness import Sandbox


def png(width: int, height: int) -> bytes:
    """A small grey PNG of the given size, made here byte by byte."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    rows = b"".join(b"\x00" + bytes([128]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def our_bot(tg: Sandbox) -> Bot:
    return Bot(tg.world.token, base_url=tg.server.base_url,
               base_file_url=tg.server.base_file_url, request=AiohttpRequest(),
               get_updates_request=AiohttpRequest(pool_size=1))


async def test_a_photo_is_uploaded_with_its_caption_and_keyboard(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Table", [alice])
    picture = png(7, 5)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="a")]])
    async with our_bot(tg) as bot:
        sent = await bot.send_photo(group.id, picture, caption="<b>chips</b> over time",
                                    parse_mode="HTML", reply_markup=keyboard)
        assert sent.caption == "chips over time"
        assert (sent.photo[-1].width, sent.photo[-1].height) == (7, 5)
        file = await bot.get_file(sent.photo[-1].file_id)
        assert bytes(await file.download_as_bytearray()) == picture
    stored = group.last_bot_message
    assert stored.photo is not None and stored.photo.data == picture
    assert stored.reply_markup == {"inline_keyboard": [[{"text": "Again", "callback_data": "a"}]]}
    assert str(tg.transcript.of("sendPhoto")[0].params["photo"]).startswith("<upload")


async def test_plain_calls_and_refusals_go_through(tg: Sandbox) -> None:
    tg.expect("length")
    alice = tg.world.user("Alice")
    group = tg.world.group("Table", [alice])
    async with our_bot(tg) as bot:
        sent = await bot.send_message(group.id, "<i>hello</i>", parse_mode="HTML")
        assert sent.text == "hello"
        with pytest.raises(BadRequest):
            await bot.send_message(group.id, "")
    assert group.last_bot_message.text == "hello"


def test_timeouts_not_given_are_ours() -> None:
    assert _seconds(BaseRequest.DEFAULT_NONE, 5.0) == 5.0
    assert _seconds(None, 5.0) is None
    assert _seconds(2, 5.0) == 2
    assert _seconds(0.5, None) == 0.5
