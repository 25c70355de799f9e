"""Methods that send, edit and delete messages."""

from __future__ import annotations

from typing import Any

from bot.sandbox.api_common import Ctx, Handler, chat_for, message_for, reply_for, thread_for
from bot.sandbox.api_content import caption_text, message_text, photo_from, same_markup
from bot.sandbox.errors import (
    DELETE_NOT_FOUND,
    EDIT_NOT_FOUND,
    NOT_MODIFIED,
    ApiError,
    bad_request,
)
from bot.sandbox.markup import validate_markup
from bot.sandbox.models import MessageRecord

TRUE = (True, "true", "True", 1)
"""A boolean parameter's true, as form and JSON bodies carry it."""


def previews_wanted(ctx: Ctx) -> bool:
    """Whether a text's links get a preview: not when `link_preview_options` turns them
    off, nor by the older `disable_web_page_preview`."""
    options = ctx.params.raw("link_preview_options")
    if isinstance(options, dict) and options.get("is_disabled") in TRUE:
        return False
    return ctx.params.raw("disable_web_page_preview") not in TRUE


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
    message.silent = ctx.params.raw("disable_notification") in TRUE
    message.previews = previews_wanted(ctx)
    return message.to_json()


async def send_photo(ctx: Ctx) -> Any:
    """sendPhoto: an upload is stored as bytes; a known file_id is reused."""
    chat = chat_for(ctx)
    thread_id = thread_for(ctx, chat)
    reply_to = reply_for(ctx, chat)
    photo = photo_from(ctx)
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
    message.previews = previews_wanted(ctx)
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
