"""Commands of figures: /top, the chat's leaderboard, and /stats, a player's figures and
chart (or the chat's, with /stats group)."""

from __future__ import annotations

import asyncio
import html
from dataclasses import replace
from typing import Any

from telegram import Message, Update
from telegram.ext import Application, CommandHandler

from bot import replies
from bot.charts import chips_chart, group_chart
from bot.handling import (
    Context,
    clock_of,
    command_parts,
    in_group,
    player_of,
    remember_title,
    reply,
    run_command,
    throttled,
)
from bot.i18n import Translator
from bot.names import group_title, told_apart
from bot.records import NetLine
from bot.render.history import leaderboard_text, stats_text
from bot.render.views import short_name

TOP_LENGTH = 10


GROUP_DAYS = 30
"""The window of /stats group."""


REGULAR_HANDS = 3
"""A regular has played this many hands in the window; the chart draws only regulars
(everyone, while nobody is one yet)."""


GROUP_LINES = 8
"""At most this many lines (the players with the most hands): more do not read on a phone."""


async def on_top(update: Update, context: Context) -> None:
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        args = context.args or []
        everywhere = args == ["all"]
        if args and not everywhere:
            await reply(context, message, tr.gettext(replies.TOP_USAGE))
            return
        if not everywhere and not in_group(message):
            await reply(context, message, tr.gettext(replies.TOP_IN_GROUP))
            return
        history = context.services.store.history
        board, mine = await history.leaderboard(None if everywhere else message.chat_id,
                                                who.id, TOP_LENGTH)
        if not board:
            await reply(context, message, tr.gettext(replies.NO_HAND_YET))
            return
        shown = told_apart({s.user_id: s.name for s in (*board, *([mine] if mine else []))})
        board = [replace(s, name=shown[s.user_id]) for s in board]
        mine = None if mine is None else replace(mine, name=shown[mine.user_id])
        await reply(context, message, leaderboard_text(tr, board, mine, everywhere=everywhere))

    await run_command(message, tr, work(), context)


async def on_stats(update: Update, context: Context) -> None:
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        if context.args == ["group"]:
            await _group_stats(context, message, tr)
            return
        if context.args:
            await reply(context, message, tr.gettext(replies.STATS_USAGE))
            return
        target = player_of(message.from_user) if message.from_user else who
        replied = message.reply_to_message
        if replied is not None and not (replied.is_topic_message
                                        and replied.message_id == message.message_thread_id):
            if replied.from_user is None or replied.from_user.is_bot:
                await reply(context, message, tr.gettext(replies.STATS_NOT_THE_BOT))
                return
            target = player_of(replied.from_user)
        chat_id = message.chat_id if in_group(message) else None
        history = context.services.store.history
        stats = await history.player(target.id, chat_id)
        if stats.played == 0:
            await reply(context, message, tr.format(replies.NOT_PLAYED,
                                                     name=target.name))
            return
        # Badges are earned once, wherever: /stats lists them all, in a group too.
        badges = [h.badge for h in await context.services.store.achievements.held(target.id)]
        await reply(context, message, stats_text(tr, target.name, stats, badges))
        series = await history.chips_over_time(target.id, chat_id)
        title = group_title(message.chat.title)
        place = title if chat_id is not None and title else tr.gettext(replies.EVERY_CHAT)
        png = await asyncio.to_thread(chips_chart, series, str(target.name), str(place),
                                      tr.gettext(replies.NET_CHIPS), language=tr.language)
        await _send_photo(context, message, png)

    await run_command(message, tr, work(), context)


def regulars(nets: list[NetLine]) -> list[NetLine]:
    """The lines /stats group draws: players with `REGULAR_HANDS` hands or more (everyone
    while nobody has that many), at most `GROUP_LINES`, the most hands first."""
    chosen = [n for n in nets if len(n.series) >= REGULAR_HANDS] or nets
    return sorted(chosen, key=lambda n: -len(n.series))[:GROUP_LINES]


async def _group_stats(context: Context, message: Message, tr: Translator) -> None:
    """/stats group: each regular's net in this chat over the last 30 days, as a chart."""
    if not in_group(message):
        await reply(context, message, tr.gettext("/stats group works in a group."))
        return
    since = int(clock_of(context)) - GROUP_DAYS * 24 * 3600
    nets = await context.services.store.history.chat_nets(message.chat_id, since)
    if not nets:
        await reply(context, message, tr.format(
            "No hand has been played here in the last {days} days.", days=GROUP_DAYS))
        return
    chosen = regulars(nets)
    shown = told_apart({n.user_id: n.name for n in chosen})
    lines = [(short_name(shown[n.user_id]), n.series) for n in chosen]
    # The chart is plain text: the chat's title as it is, translations without HTML escapes.
    place = group_title(message.chat.title) or html.unescape(tr.gettext("this chat"))
    label = html.unescape(tr.format("Net chips, last {days} days", days=GROUP_DAYS))
    png = await asyncio.to_thread(group_chart, lines, place, label, language=tr.language)
    await _send_photo(context, message, png)


async def _send_photo(context: Context, message: Message, png: bytes) -> None:
    await context.services.outbox.reply_photo(message, png)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The commands of this module; `bot.routes.register` calls it."""
    for name, handler in (("top", on_top), ("stats", on_stats)):
        app.add_handler(CommandHandler(name, throttled(name, handler)))
