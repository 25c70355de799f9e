"""Ephemeral messages: sent with ephemeral_message_parameters, edited and deleted by id.

Rules (Bot API 10.2, fields regrouped in 10.3):

* only in groups and supergroups, only to a member who is not a bot;
* a bot that is a chat administrator may send to any member at any time;
* any other bot only within 15 s of an eligible action by the receiver in that chat: a
  press (`callback_query_id`) or the receiver's own ephemeral message it replies to
  (`reply_parameters.ephemeral_message_id`);
* `replace_callback_query_message` needs the press, and not a press on an ephemeral
  message (that one is edited instead);
* the answer is a Message whose `message_id` is 0 and which carries
  `ephemeral_message_id`; edits answer True, as Telegram does.

sendMessage and sendPhoto without ephemeral_message_parameters are served as before.
"""

from __future__ import annotations

from typing import Any

from bot.sandbox.api_common import Ctx, Handler, chat_for, reply_for, thread_for
from bot.sandbox.api_content import caption_text, message_text, photo_from, same_markup
from bot.sandbox.api_messages import send_message as send_plain_message
from bot.sandbox.api_messages import send_photo as send_plain_photo
from bot.sandbox.ephemeral import WINDOW, EphemeralRecord
from bot.sandbox.errors import (
    DELETE_NOT_FOUND,
    EDIT_NOT_FOUND,
    EPHEMERAL_BOT_NOT_ADMIN,
    EPHEMERAL_CHAT_INVALID,
    EPHEMERAL_NOT_PARTICIPANT,
    EPHEMERAL_RECEIVER_BOT,
    EPHEMERAL_REPLACE_INVALID,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    ApiError,
    bad_request,
)
from bot.sandbox.markup import validate_markup
from bot.sandbox.models import ChatRecord, MessageRecord, UserRecord
from bot.sandbox.text import Parsed

PARAMETERS = "ephemeral_message_parameters"
MEMBERS = ("creator", "administrator", "member")


def _receiver(ctx: Ctx, chat: ChatRecord, parameters: dict[str, Any]) -> UserRecord:
    raw = parameters.get("receiver_user_id")
    if raw is None or raw == "":
        raise bad_request("receiver_user_id is empty")
    try:
        receiver_id = int(raw)
    except (TypeError, ValueError):
        raise bad_request('field "receiver_user_id" must be of type Integer') from None
    if receiver_id == ctx.world.bot.id:
        raise ApiError(400, EPHEMERAL_RECEIVER_BOT)
    receiver = ctx.world.users.get(receiver_id)
    if receiver is None:
        raise bad_request("user not found")
    if receiver.is_bot:
        raise ApiError(400, EPHEMERAL_RECEIVER_BOT)
    if chat.members.get(receiver_id) not in MEMBERS:
        raise ApiError(400, EPHEMERAL_NOT_PARTICIPANT)
    return receiver


def _ephemeral_reply(ctx: Ctx, chat: ChatRecord, receiver: UserRecord) -> EphemeralRecord | None:
    """The ephemeral message named by reply_parameters.ephemeral_message_id, if any."""
    reply = ctx.params.raw("reply_parameters")
    if not isinstance(reply, dict) or reply.get("ephemeral_message_id") is None:
        return None
    try:
        ephemeral_id = int(reply["ephemeral_message_id"])
    except (TypeError, ValueError):
        raise bad_request('field "ephemeral_message_id" must be of type Integer') from None
    target = ctx.world.ephemeral.find(chat, ephemeral_id)
    if target is None or receiver not in (target.sender, target.receiver):
        raise bad_request("message to be replied not found")
    return target


def _prepare(ctx: Ctx) -> tuple[ChatRecord, UserRecord, dict[str, Any]]:
    """Check who may send what to whom; the chat, the receiver and the record's fields."""
    world = ctx.world
    parameters = ctx.params.raw(PARAMETERS)
    if not isinstance(parameters, dict):
        raise bad_request(f"can't parse {PARAMETERS} JSON object")
    chat = chat_for(ctx)
    if not chat.is_group:
        raise ApiError(400, EPHEMERAL_CHAT_INVALID)
    receiver = _receiver(ctx, chat, parameters)
    now = world.clock()
    eligible = False
    replaces: int | None = None
    query_id = parameters.get("callback_query_id")
    replace = parameters.get("replace_callback_query_message") in (True, "true", "True", 1)
    if query_id is not None and query_id != "":
        query = world.queries.get(str(query_id))
        if (
            query is None
            or query.user is not receiver
            or query.message.chat is not chat
            or now - query.created > WINDOW
        ):
            raise ApiError(400, QUERY_TOO_OLD)
        eligible = True
        if replace:
            if isinstance(query.message, EphemeralRecord):
                raise ApiError(400, EPHEMERAL_REPLACE_INVALID)
            replaces = query.message.message_id
    elif replace:
        raise ApiError(400, EPHEMERAL_REPLACE_INVALID)
    reply: MessageRecord | None = _ephemeral_reply(ctx, chat, receiver)
    if reply is not None:
        assert isinstance(reply, EphemeralRecord)
        if reply.sender is receiver and now - reply.sent_at <= WINDOW:
            eligible = True
    else:
        reply = reply_for(ctx, chat)
    if not eligible and chat.bot_status != "administrator":
        raise ApiError(400, EPHEMERAL_BOT_NOT_ADMIN)
    fields: dict[str, Any] = {
        "thread_id": thread_for(ctx, chat),
        "reply_to": reply,
        "replaces": replaces,
        "sent_at": now,
    }
    return chat, receiver, fields


def _store(ctx: Ctx, chat: ChatRecord, receiver: UserRecord, fields: dict[str, Any],
           parsed: Parsed, *, caption: bool) -> EphemeralRecord:
    world = ctx.world
    markup = validate_markup(ctx.params.raw("reply_markup"), private=False)
    record = EphemeralRecord(
        chat=chat,
        message_id=0,
        sender=world.bot,
        date=int(world.wall()),
        text=None if caption else parsed.text,
        caption=(parsed.text or None) if caption else None,
        entities=parsed.entities,
        reply_markup=markup,
        receiver=receiver,
        after=chat.next_message_id - 1,
        **fields,
    )
    world.ephemeral.add(record)
    vanish_after = ctx.faults.take_ephemeral_loss(receiver.id)
    if vanish_after is not None:
        record.lost_at = record.sent_at + vanish_after
    world.touch()
    return record


async def send_message(ctx: Ctx) -> Any:
    """sendMessage, ephemeral when ephemeral_message_parameters is given."""
    if not ctx.params.has(PARAMETERS):
        return await send_plain_message(ctx)
    chat, receiver, fields = _prepare(ctx)
    parsed = message_text(ctx)
    return _store(ctx, chat, receiver, fields, parsed, caption=False).to_json()


async def send_photo(ctx: Ctx) -> Any:
    """sendPhoto, ephemeral when ephemeral_message_parameters is given."""
    if not ctx.params.has(PARAMETERS):
        return await send_plain_photo(ctx)
    chat, receiver, fields = _prepare(ctx)
    parsed = caption_text(ctx)
    photo = photo_from(ctx)
    record = _store(ctx, chat, receiver, fields, parsed, caption=True)
    record.photo = photo
    return record.to_json()


def _named(ctx: Ctx, missing: str) -> EphemeralRecord:
    """The bot's ephemeral message named by chat_id, receiver_user_id, ephemeral_message_id."""
    chat = chat_for(ctx)
    receiver_id = ctx.params.need_int("receiver_user_id")
    ephemeral_id = ctx.params.need_int("ephemeral_message_id")
    record = ctx.world.ephemeral.find(chat, ephemeral_id)
    if record is None or record.receiver is None or record.receiver.id != receiver_id:
        raise ApiError(400, missing)
    return record


def _own(ctx: Ctx, record: EphemeralRecord) -> EphemeralRecord:
    if record.sender is not ctx.world.bot:
        raise bad_request("message can't be edited")
    return record


def _edited(ctx: Ctx, record: EphemeralRecord) -> bool:
    record.edit_date = int(ctx.world.wall())
    ctx.world.touch()
    return True


async def edit_text(ctx: Ctx) -> Any:
    """editEphemeralMessageText; leaving out reply_markup removes the keyboard."""
    record = _own(ctx, _named(ctx, EDIT_NOT_FOUND))
    if record.text is None:
        raise bad_request("there is no text in the message to edit")
    parsed = message_text(ctx)
    markup = validate_markup(ctx.params.raw("reply_markup"), private=False)
    if (
        parsed.text == record.text
        and parsed.entities == record.entities
        and same_markup(markup, record.reply_markup)
    ):
        raise ApiError(400, NOT_MODIFIED)
    record.history.append(record.text)
    record.text, record.entities, record.reply_markup = parsed.text, parsed.entities, markup
    return _edited(ctx, record)


async def edit_caption(ctx: Ctx) -> Any:
    """editEphemeralMessageCaption; only a message with a photo has a caption."""
    record = _own(ctx, _named(ctx, EDIT_NOT_FOUND))
    if record.photo is None:
        raise bad_request("there is no caption in the message to edit")
    parsed = caption_text(ctx)
    markup = validate_markup(ctx.params.raw("reply_markup"), private=False)
    caption = parsed.text or None
    if (
        caption == record.caption
        and parsed.entities == record.entities
        and same_markup(markup, record.reply_markup)
    ):
        raise ApiError(400, NOT_MODIFIED)
    record.history.append(record.caption)
    record.caption, record.entities, record.reply_markup = caption, parsed.entities, markup
    return _edited(ctx, record)


async def edit_reply_markup(ctx: Ctx) -> Any:
    """editEphemeralMessageReplyMarkup; without reply_markup the keyboard is removed."""
    record = _own(ctx, _named(ctx, EDIT_NOT_FOUND))
    markup = validate_markup(ctx.params.raw("reply_markup"), private=False)
    if same_markup(markup, record.reply_markup):
        raise ApiError(400, NOT_MODIFIED)
    record.reply_markup = markup
    return _edited(ctx, record)


async def delete(ctx: Ctx) -> Any:
    """deleteEphemeralMessage: the bot's own ephemeral messages."""
    record = _named(ctx, DELETE_NOT_FOUND)
    if record.sender is not ctx.world.bot:
        raise bad_request("message can't be deleted")
    record.deleted = True
    ctx.world.touch()
    return True


HANDLERS: dict[str, Handler] = {
    "sendmessage": send_message,
    "sendphoto": send_photo,
    "editephemeralmessagetext": edit_text,
    "editephemeralmessagecaption": edit_caption,
    "editephemeralmessagereplymarkup": edit_reply_markup,
    "deleteephemeralmessage": delete,
}
