"""Methods that send, edit and delete messages."""

from __future__ import annotations

import hashlib
import struct
from typing import Any

from bot.sandbox.api_common import Ctx, Handler, chat_for, message_for, reply_for, thread_for
from bot.sandbox.errors import (
    CAPTION_TOO_LONG,
    DELETE_NOT_FOUND,
    EDIT_NOT_FOUND,
    NOT_MODIFIED,
    ApiError,
    bad_request,
)
from bot.sandbox.markup import validate_markup
from bot.sandbox.models import FileRecord, MessageRecord
from bot.sandbox.text import MAX_CAPTION, Parsed, prepare_text


def _entities(ctx: Ctx, name: str) -> list[dict[str, Any]] | None:
    value = ctx.params.raw(name)
    return value if isinstance(value, list) else None


def message_text(ctx: Ctx) -> Parsed:
    """The text of a sendMessage or editMessageText, checked as Telegram checks it."""
    return prepare_text(
        ctx.params.get_str("text"),
        ctx.params.get_str("parse_mode"),
        _entities(ctx, "entities"),
        strict_entities=ctx.world.strict_html_entities,
    )


def caption_text(ctx: Ctx) -> Parsed:
    """The caption of a sendPhoto (or an edit of it), checked as Telegram checks it."""
    return prepare_text(
        ctx.params.get_str("caption"),
        ctx.params.get_str("parse_mode"),
        _entities(ctx, "caption_entities"),
        limit=MAX_CAPTION,
        too_long=CAPTION_TOO_LONG,
        allow_empty=True,
        strict_entities=ctx.world.strict_html_entities,
    )


async def send_message(ctx: Ctx) -> Any:
    """sendMessage."""
    chat = chat_for(ctx)
    thread_id = thread_for(ctx, chat)
    reply_to = reply_for(ctx, chat)
    parsed = message_text(ctx)
    markup = validate_markup(ctx.params.raw("reply_markup"),
                             private=chat.type == "private")
    message = ctx.world.store(
        chat,
        ctx.world.bot,
        text=parsed.text,
        entities=parsed.entities,
        reply_markup=markup,
        thread_id=thread_id,
        reply_to=reply_to,
    )
    return message.to_json()


def _photo_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG; other formats get a plausible square."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return 320, 320


async def send_photo(ctx: Ctx) -> Any:
    """sendPhoto: an upload is stored as bytes; a known file_id is reused."""
    chat = chat_for(ctx)
    thread_id = thread_for(ctx, chat)
    reply_to = reply_for(ctx, chat)
    photo = _photo_from(ctx)
    parsed = caption_text(ctx)
    markup = validate_markup(ctx.params.raw("reply_markup"),
                             private=chat.type == "private")
    message = ctx.world.store(
        chat,
        ctx.world.bot,
        text=None,
        entities=parsed.entities,
        reply_markup=markup,
        thread_id=thread_id,
        reply_to=reply_to,
    )
    message.photo = photo
    message.caption = parsed.text or None
    return message.to_json()


def _photo_from(ctx: Ctx) -> FileRecord:
    files = ctx.world.files
    ref = ctx.params.get_str("photo")
    upload = ctx.params.uploads.get("photo")
    if ref and ref.startswith("attach://"):
        upload = ctx.params.uploads.get(ref.removeprefix("attach://"))
    if upload is not None:
        digest = hashlib.sha1(upload.data).hexdigest()[:16]
        width, height = _photo_size(upload.data)
        record = FileRecord(
            file_id=f"AgAC{digest}{len(files)}",
            file_unique_id=f"AQAD{digest}",
            data=upload.data,
            path=f"photos/file_{len(files)}.jpg",
            width=width,
            height=height,
        )
        files[record.file_id] = record
        return record
    if ref and ref in files:
        return files[ref]
    if ref and ref.lower().startswith(("http://", "https://")):
        # Telegram would fetch the URL; the stand-in keeps the address as the content.
        record = FileRecord(f"AgACurl{len(files)}", f"AQADurl{len(files)}", ref.encode(), "")
        files[record.file_id] = record
        return record
    if not ref:
        raise bad_request("there is no photo in the request")
    raise bad_request("wrong file identifier/HTTP URL specified")


def _to_edit(ctx: Ctx) -> MessageRecord:
    """The message an edit names; only the bot's own messages can be edited."""
    message = message_for(ctx, chat_for(ctx), EDIT_NOT_FOUND)
    if message.sender is not ctx.world.bot:
        raise bad_request("message can't be edited")
    return message


def _edited(ctx: Ctx, message: MessageRecord) -> Any:
    message.edit_date = int(ctx.world.wall())
    ctx.world.touch()
    return message.to_json()


async def edit_message_text(ctx: Ctx) -> Any:
    """editMessageText; leaving out reply_markup removes the keyboard, as Telegram does."""
    message = _to_edit(ctx)
    if message.text is None:
        raise bad_request("there is no text in the message to edit")
    parsed = message_text(ctx)
    markup = validate_markup(ctx.params.raw("reply_markup"),
                             private=message.chat.type == "private")
    if (
        parsed.text == message.text
        and parsed.entities == message.entities
        and same_markup(markup, message.reply_markup)
    ):
        raise ApiError(400, NOT_MODIFIED)
    message.history.append(message.text)
    message.text = parsed.text
    message.entities = parsed.entities
    message.reply_markup = markup
    return _edited(ctx, message)


async def edit_message_reply_markup(ctx: Ctx) -> Any:
    """editMessageReplyMarkup; without reply_markup the keyboard is removed."""
    message = _to_edit(ctx)
    markup = validate_markup(ctx.params.raw("reply_markup"),
                             private=message.chat.type == "private")
    if same_markup(markup, message.reply_markup):
        raise ApiError(400, NOT_MODIFIED)
    message.reply_markup = markup
    return _edited(ctx, message)


async def pin_chat_message(ctx: Ctx) -> Any:
    """pinChatMessage: anywhere in private, only as an admin in groups."""
    chat = chat_for(ctx)
    message = message_for(ctx, chat, "Bad Request: message to pin not found")
    if chat.is_group and chat.bot_status != "administrator":
        raise bad_request("not enough rights to manage pinned messages in the chat")
    chat.pinned = [m for m in chat.pinned if m != message.message_id] + [message.message_id]
    ctx.world.touch()
    return True


async def unpin_chat_message(ctx: Ctx) -> Any:
    """unpinChatMessage: the given message, or the newest pinned one."""
    chat = chat_for(ctx)
    if chat.is_group and chat.bot_status != "administrator":
        raise bad_request("not enough rights to manage pinned messages in the chat")
    message_id = ctx.params.get_int("message_id")
    if message_id is None and chat.pinned:
        message_id = chat.pinned[-1]
    chat.pinned = [m for m in chat.pinned if m != message_id]
    ctx.world.touch()
    return True


def same_markup(new: dict[str, Any] | None, old: dict[str, Any] | None) -> bool:
    def rows(markup: dict[str, Any] | None) -> Any:
        return (markup or {}).get("inline_keyboard") or []

    return bool(rows(new) == rows(old))


def _deletable(ctx: Ctx, message: MessageRecord) -> bool:
    chat = message.chat
    if message.service.get("forum_topic_created"):
        return False
    if chat.type == "private" or message.sender is ctx.world.bot:
        return True
    return chat.bot_status == "administrator"


async def delete_message(ctx: Ctx) -> Any:
    """deleteMessage: the bot's own messages, anything in private, anything as group admin."""
    chat = chat_for(ctx, writing=False)
    message = message_for(ctx, chat, DELETE_NOT_FOUND)
    if not _deletable(ctx, message):
        raise bad_request("message can't be deleted")
    message.deleted = True
    ctx.world.touch()
    return True


HANDLERS: dict[str, Handler] = {
    "sendmessage": send_message,
    "sendphoto": send_photo,
    "editmessagetext": edit_message_text,
    "editmessagereplymarkup": edit_message_reply_markup,
    "pinchatmessage": pin_chat_message,
    "unpinchatmessage": unpin_chat_message,
    "deletemessage": delete_message,
}
