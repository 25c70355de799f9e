"""What every method handler gets, and the chat checks they share."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.sandbox.errors import (
    BLOCKED,
    CANT_INITIATE,
    CHAT_NOT_FOUND,
    ApiError,
    bad_request,
    forbidden,
)
from bot.sandbox.faults import Faults
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.params import Params
from bot.sandbox.transcript import Transcript
from bot.sandbox.webhook import Webhook
from bot.sandbox.world import World


@dataclass(frozen=True, slots=True)
class Ctx:
    """One call being served, with the parts of the server a method may use."""

    world: World
    params: Params
    transcript: Transcript
    """Where a method flags what the bot did wrong."""
    faults: Faults
    """The faults a test asked for."""
    webhook: Webhook
    """The webhook the bot set, if any."""


Handler = Callable[[Ctx], Awaitable[Any]]


def chat_for(ctx: Ctx, *, writing: bool = True) -> ChatRecord:
    """The chat named by chat_id, with the 400/403 answers Telegram gives.

    `writing` adds the checks for sending or editing: a user who never started the bot
    or blocked it, and a group the bot is no longer in.
    """
    raw = ctx.params.raw("chat_id")
    if raw is None or raw == "":
        raise bad_request("chat_id is empty")
    chat = ctx.world.find_chat(raw)
    if chat is None:
        raise ApiError(400, CHAT_NOT_FOUND)
    if chat.type == "private" and chat.user is not None:
        user = chat.user
        if user.blocked and writing:
            raise ApiError(403, BLOCKED)
        if not user.started and not user.blocked:
            # The bot may not even look up a user who never opened the chat.
            raise ApiError(403, CANT_INITIATE) if writing else ApiError(400, CHAT_NOT_FOUND)
    elif chat.migrated_to is not None:
        raise ApiError(
            400,
            "Bad Request: group chat was upgraded to a supergroup chat",
            {"migrate_to_chat_id": chat.migrated_to},
        )
    elif chat.bot_status == "kicked":
        raise forbidden(f"bot was kicked from the {chat.type} chat")
    elif chat.bot_status == "left":
        raise forbidden(f"bot is not a member of the {chat.type} chat")
    return chat


def thread_for(ctx: Ctx, chat: ChatRecord) -> int | None:
    """Validate message_thread_id against the chat's forum topics."""
    thread_id = ctx.params.get_int("message_thread_id")
    if thread_id is None or not chat.is_forum:
        return None
    if thread_id not in chat.topics:
        raise bad_request("message thread not found")
    return thread_id


def reply_for(ctx: Ctx, chat: ChatRecord) -> MessageRecord | None:
    """The message replied to, from reply_parameters or the older reply_to_message_id."""
    params = ctx.params
    message_id = params.get_int("reply_to_message_id")
    allow_missing = params.get_bool("allow_sending_without_reply")
    reply = params.raw("reply_parameters")
    if isinstance(reply, dict):
        message_id = int(reply["message_id"]) if "message_id" in reply else None
        allow_missing = bool(reply.get("allow_sending_without_reply", False))
    if message_id is None:
        return None
    target = ctx.world.find_message(chat, message_id)
    if target is None and not allow_missing:
        raise bad_request("message to be replied not found")
    return target


def message_for(ctx: Ctx, chat: ChatRecord, missing: str) -> MessageRecord:
    """The message named by message_id in `chat`, or a 400 with `missing`."""
    if ctx.params.has("inline_message_id"):
        raise bad_request("MESSAGE_ID_INVALID")
    message_id = ctx.params.need_int("message_id")
    message = ctx.world.find_message(chat, message_id)
    if message is None:
        raise ApiError(400, missing)
    return message
