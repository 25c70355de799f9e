"""Ephemeral messages (Bot API 10.2/10.3) through PTB, which has no wrapper for them yet.

An ephemeral message is shown in a group to one member only. This module is the one
place that speaks to the Bot API about them; it goes away when python-telegram-bot
catches up. Sends use PTB's own send methods with the new parameters in `api_kwargs`
(so defaults, the rate limiter and keyboards work as for any send); the new methods are
called through `Bot.do_api_request`.

Telegram's refusals become `EphemeralRefused` subclasses the caller can act on: fall back
to the popup or the private chat. Delivery is never guaranteed even when a send succeeds,
so an ephemeral message must never be the only copy of what a player needs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from telegram import (
    Bot,
    BotCommandScope,
    InlineKeyboardMarkup,
    InputFile,
    Message,
    MessageEntity,
)
from telegram.error import BadRequest

WINDOW_SECONDS = 15.0
"""A bot that is not a chat admin may answer a member's press or ephemeral message this
long after it."""

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class EphemeralMessage:
    """A sent ephemeral message: all three ids are needed to edit or delete it."""

    chat_id: int
    receiver_user_id: int
    ephemeral_message_id: int


@dataclass(frozen=True, slots=True)
class Command:
    """A bot command; an ephemeral one reaches the bot but the group never sees it."""

    command: str
    description: str
    is_ephemeral: bool = False


class EphemeralRefused(Exception):
    """Telegram refused an ephemeral send, edit or delete; `description` is its text."""

    def __init__(self, description: str) -> None:
        super().__init__(description)
        self.description = description


class NotInGroup(EphemeralRefused):
    """The chat is a private chat: only groups have ephemeral messages."""


class NotAllowed(EphemeralRefused):
    """The bot is no chat admin and the member did nothing it may answer in the last 15 s."""


class PressExpired(EphemeralRefused):
    """The press named by callback_query_id is unknown, someone else's, or too old."""


class NotMember(EphemeralRefused):
    """The receiver is not a member of the group (or is a bot, or unknown)."""


class CannotReplace(EphemeralRefused):
    """The pressed message cannot be replaced: no press was named, or it was an ephemeral
    message itself (edit that one instead)."""


class EphemeralGone(EphemeralRefused):
    """The ephemeral message to edit, delete or reply to is not there (any more)."""


class NotModified(EphemeralRefused):
    """The edit would change nothing."""


# Texts as PTB shows them (without "Bad Request: ", any case), most specific first.
_REFUSALS: tuple[tuple[str, type[EphemeralRefused]], ...] = (
    ("ephemeral_chat_invalid", NotInGroup),
    ("bot_not_admin", NotAllowed),
    ("query is too old", PressExpired),
    ("user_not_participant", NotMember),
    ("user_bot_invalid", NotMember),
    ("user not found", NotMember),
    ("replace_callback_query_message_invalid", CannotReplace),
    ("message to edit not found", EphemeralGone),
    ("message to delete not found", EphemeralGone),
    ("message to be replied not found", EphemeralGone),
    ("message is not modified", NotModified),
)


def refusal(error: BadRequest) -> EphemeralRefused | None:
    """The specific refusal a 400 answer means, or None for any other bad request."""
    text = error.message.lower()
    for needle, kind in _REFUSALS:
        if needle in text:
            return kind(error.message)
    return None


async def _call(action: Callable[[], Awaitable[_T]]) -> _T:
    try:
        return await action()
    except BadRequest as error:
        refused = refusal(error)
        if refused is None:
            raise
        raise refused from error


def _parameters(
    receiver_user_id: int, callback_query_id: str | None, replace_pressed: bool,
    reply_to_ephemeral_id: int | None,
) -> dict[str, Any]:
    parameters: dict[str, Any] = {"receiver_user_id": receiver_user_id}
    if callback_query_id is not None:
        parameters["callback_query_id"] = callback_query_id
    if replace_pressed:
        parameters["replace_callback_query_message"] = True
    extra: dict[str, Any] = {"ephemeral_message_parameters": parameters}
    if reply_to_ephemeral_id is not None:
        extra["reply_parameters"] = {"ephemeral_message_id": reply_to_ephemeral_id}
    return extra


def _sent(message: Message, receiver_user_id: int) -> EphemeralMessage:
    ephemeral_id = ephemeral_id_of(message)
    if ephemeral_id is None:
        raise EphemeralRefused("the answer carries no ephemeral_message_id")
    return EphemeralMessage(message.chat.id, receiver_user_id, ephemeral_id)


async def send_text(
    bot: Bot,
    chat_id: int,
    receiver_user_id: int,
    text: str,
    *,
    parse_mode: str | None = None,
    entities: Sequence[MessageEntity] | None = None,
    reply_markup: InlineKeyboardMarkup | None = None,
    callback_query_id: str | None = None,
    replace_pressed: bool = False,
    reply_to_ephemeral_id: int | None = None,
) -> EphemeralMessage:
    """Show `text` in the group `chat_id` to `receiver_user_id` alone.

    Name the press it answers (`callback_query_id`, and `replace_pressed` to show it in
    place of the pressed message) or the member's ephemeral message it replies to
    (`reply_to_ephemeral_id`); a bot that is a chat admin needs neither.
    """
    extra = _parameters(receiver_user_id, callback_query_id, replace_pressed,
                        reply_to_ephemeral_id)
    message = await _call(lambda: bot.send_message(
        chat_id, text, parse_mode=parse_mode, entities=entities, reply_markup=reply_markup,
        api_kwargs=extra))
    return _sent(message, receiver_user_id)


async def send_photo(
    bot: Bot,
    chat_id: int,
    receiver_user_id: int,
    photo: bytes | str | InputFile,
    *,
    caption: str | None = None,
    parse_mode: str | None = None,
    reply_markup: InlineKeyboardMarkup | None = None,
    callback_query_id: str | None = None,
    replace_pressed: bool = False,
    reply_to_ephemeral_id: int | None = None,
) -> EphemeralMessage:
    """Show a picture in the group to one member alone (same conditions as `send_text`)."""
    extra = _parameters(receiver_user_id, callback_query_id, replace_pressed,
                        reply_to_ephemeral_id)
    message = await _call(lambda: bot.send_photo(
        chat_id, photo, caption=caption, parse_mode=parse_mode, reply_markup=reply_markup,
        api_kwargs=extra))
    return _sent(message, receiver_user_id)


def _ids(message: EphemeralMessage) -> dict[str, Any]:
    return {
        "chat_id": message.chat_id,
        "receiver_user_id": message.receiver_user_id,
        "ephemeral_message_id": message.ephemeral_message_id,
    }


async def _request(bot: Bot, endpoint: str, api_kwargs: dict[str, Any]) -> None:
    await _call(lambda: bot.do_api_request(endpoint, api_kwargs=api_kwargs))


async def edit_text(
    bot: Bot,
    message: EphemeralMessage,
    text: str,
    *,
    parse_mode: str | None = None,
    reply_markup: InlineKeyboardMarkup | None = None,
) -> None:
    """Replace the text; without `reply_markup` the keyboard goes, as with any edit."""
    kwargs = {**_ids(message), "text": text}
    if parse_mode is not None:
        kwargs["parse_mode"] = parse_mode
    if reply_markup is not None:
        kwargs["reply_markup"] = reply_markup
    await _request(bot, "editEphemeralMessageText", kwargs)


async def edit_caption(
    bot: Bot,
    message: EphemeralMessage,
    caption: str,
    *,
    parse_mode: str | None = None,
    reply_markup: InlineKeyboardMarkup | None = None,
) -> None:
    """Replace the caption of an ephemeral picture."""
    kwargs = {**_ids(message), "caption": caption}
    if parse_mode is not None:
        kwargs["parse_mode"] = parse_mode
    if reply_markup is not None:
        kwargs["reply_markup"] = reply_markup
    await _request(bot, "editEphemeralMessageCaption", kwargs)


async def edit_reply_markup(
    bot: Bot, message: EphemeralMessage, reply_markup: InlineKeyboardMarkup | None
) -> None:
    """Replace the keyboard; None removes it."""
    kwargs = _ids(message)
    if reply_markup is not None:
        kwargs["reply_markup"] = reply_markup
    await _request(bot, "editEphemeralMessageReplyMarkup", kwargs)


async def delete(bot: Bot, message: EphemeralMessage) -> None:
    """Remove the message from its receiver's view."""
    await _request(bot, "deleteEphemeralMessage", _ids(message))


async def set_commands(
    bot: Bot,
    commands: Sequence[Command],
    *,
    scope: BotCommandScope | None = None,
    language_code: str | None = None,
) -> None:
    """setMyCommands with each command's is_ephemeral (PTB's BotCommand lacks it)."""
    listed = [
        {"command": c.command, "description": c.description}
        | ({"is_ephemeral": True} if c.is_ephemeral else {})
        for c in commands
    ]
    await bot.set_my_commands(
        [], scope=scope, language_code=language_code, api_kwargs={"commands": listed}
    )


def ephemeral_id_of(message: Message) -> int | None:
    """The ephemeral_message_id of a message (an ephemeral command, a reply to the bot's
    ephemeral message, or the message a press was on), or None for an ordinary one."""
    value = message.api_kwargs.get("ephemeral_message_id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def answer_to(message: Message) -> EphemeralMessage | None:
    """Where an ephemeral answer to a member's ephemeral `message` goes: its chat, its
    sender and its id (pass the id as `reply_to_ephemeral_id`); None if it is not one."""
    ephemeral_id = ephemeral_id_of(message)
    if ephemeral_id is None or message.from_user is None:
        return None
    return EphemeralMessage(message.chat.id, message.from_user.id, ephemeral_id)


__all__ = [
    "WINDOW_SECONDS",
    "CannotReplace",
    "Command",
    "EphemeralGone",
    "EphemeralMessage",
    "EphemeralRefused",
    "NotAllowed",
    "NotInGroup",
    "NotMember",
    "NotModified",
    "PressExpired",
    "answer_to",
    "delete",
    "edit_caption",
    "edit_reply_markup",
    "edit_text",
    "ephemeral_id_of",
    "refusal",
    "send_photo",
    "send_text",
    "set_commands",
]
