"""Forum topics a chat's admins keep the bot to: `/topics here` adds the topic it is sent
in, `/topics all` frees the bot again. Elsewhere in that chat the bot answers nothing (its
own table messages keep working wherever they are, so no table is left stranded)."""

from __future__ import annotations

from typing import Any

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.ext import Application, ApplicationHandlerStop, CommandHandler

from bot.handling import Context, command_parts, is_admin, reply, run_command
from bot.i18n import Translator

COMMAND = "topics"


def topic_of(message: Message) -> int:
    """The forum topic a message is in: its thread, or 0 for the General topic."""
    thread = message.message_thread_id
    return thread if message.is_topic_message and thread is not None else 0


async def kept_to(context: Context, chat_id: int) -> tuple[int, ...] | None:
    """The topics the chat keeps the bot to (None: every topic), as the store holds them;
    remembered for the run, and forgotten when an admin changes them."""
    known: dict[int, tuple[int, ...] | None] = context.bot_data.setdefault("topics", {})
    if chat_id not in known:
        known[chat_id] = (await context.services.store.chats.get(chat_id)).topics
    return known[chat_id]


async def guard(update: object, context: Context) -> None:
    """Before every handler: a message in a topic the chat keeps the bot out of goes
    unanswered (only /topics itself is heard, so an admin can always change it)."""
    if not isinstance(update, Update) or update.callback_query is not None:
        return
    message = update.effective_message
    if message is None or message.chat.type != ChatType.SUPERGROUP or not message.chat.is_forum:
        return
    kept = await kept_to(context, message.chat_id)
    if kept is None or topic_of(message) in kept:
        return
    words = (message.text or "").split(maxsplit=1)
    if words and words[0].split("@")[0].lower() == f"/{COMMAND}":
        return
    raise ApplicationHandlerStop


async def on_topics(update: Update, context: Context) -> None:
    """/topics, /topics here, /topics all."""
    message, who, tr = command_parts(update, context)
    chat = message.chat
    if chat.type != ChatType.SUPERGROUP or not chat.is_forum:
        await reply(context, message, tr.gettext("/topics works in a forum group."))
        return
    said = (context.args or [""])[0].lower()
    if said not in ("here", "all"):
        await reply(context, message, _state(tr, await kept_to(context, chat.id)))
        return
    if not await is_admin(context, chat.id, who.id):
        await reply(context, message,
                    tr.gettext("Only a chat admin chooses the topics the bot answers in."))
        return
    kept = await kept_to(context, chat.id)
    wanted = None if said == "all" else tuple({*(kept or ()), topic_of(message)})

    async def work() -> None:
        saved = await context.services.store.chats.set_topics(chat.id, wanted)
        context.bot_data.setdefault("topics", {})[chat.id] = saved.topics
        await reply(context, message, _state(tr, saved.topics))

    await run_command(message, tr, work(), context)


def _state(tr: Translator, kept: tuple[int, ...] | None) -> str:
    if kept is None:
        return tr.gettext("The bot answers in every topic of this chat; /topics here (chat "
                          "admins) keeps it to this one.")
    return tr.nformat("The bot answers in {count} topic of this chat only; /topics here adds "
                      "this one, /topics all frees it.",
                      "The bot answers in {count} topics of this chat only; /topics here "
                      "adds this one, /topics all frees it.", len(kept), count=len(kept))


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The guard (before everything but the flood guard) and /topics."""
    app.add_handler(CommandHandler(COMMAND, on_topics))
