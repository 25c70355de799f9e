"""/season, the standings of the chat's current season with their chart, and /season
last, the champions of its past seasons (`bot.seasons` says how points are earned)."""

from __future__ import annotations

import asyncio
import html
from typing import Any

from telegram import Message, Update
from telegram.ext import Application, CommandHandler

from bot.charts import group_chart
from bot.handling import (
    Context,
    command_parts,
    in_group,
    remember_title,
    reply,
    run_command,
    throttled,
)
from bot.i18n import Translator
from bot.names import group_title, told_apart
from bot.render.seasons import (
    NO_CHAMPION_YET,
    SEASON_IN_GROUP,
    SEASON_POINTS,
    SEASON_USAGE,
    SEASONS_OFF,
    champions_text,
    season_text,
)
from bot.render.views import short_name
from bot.season_close import SeasonCloser
from bot.seasons import SeasonStanding

TOP_LENGTH = 10
"""Players listed by /season."""
CHART_LINES = 8
"""Players drawn in /season's chart (the best ones): more do not read on a phone."""
PAST_SEASONS = 6
"""Champions listed by /season last."""


def closer_of(context: Context) -> SeasonCloser:
    closer = context.bot_data.get("seasons")
    assert isinstance(closer, SeasonCloser), "the bot has not finished starting"
    return closer


async def on_season(update: Update, context: Context) -> None:
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        args = context.args or []
        if args not in ([], ["last"]):
            await reply(context, message, tr.gettext(SEASON_USAGE))
            return
        if not in_group(message):
            await reply(context, message, tr.gettext(SEASON_IN_GROUP))
            return
        if args == ["last"]:
            await _past(context, message, tr)
            return
        closer = closer_of(context)
        chat = await context.services.store.chats.get(message.chat_id)
        period = await closer.current(chat)
        if period is None:
            await reply(context, message, tr.gettext(SEASONS_OFF))
            return
        board = await context.services.store.seasons.standings(message.chat_id, period)
        mine = next((s for s in board if s.user_id == who.id), None)
        top = board[:TOP_LENGTH]
        names = await context.services.store.history.names(
            [s.user_id for s in (*top, *([mine] if mine else []))])
        shown = told_apart(names)
        await reply(context, message, season_text(tr, period, top, mine, shown))
        if top:
            await _chart(context, message, tr, top[:CHART_LINES], shown)

    await run_command(message, tr, work(), context)


async def _past(context: Context, message: Message, tr: Translator) -> None:
    """/season last: the champions of the chat's last seasons, newest first."""
    seasons = await context.services.store.seasons.champions(message.chat_id, PAST_SEASONS)
    text = champions_text(tr, seasons) if seasons else tr.gettext(NO_CHAMPION_YET)
    await reply(context, message, text)


async def _chart(context: Context, message: Message, tr: Translator,
                 top: list[SeasonStanding], names: dict[int, str]) -> None:
    """Each top player's points as they grew over the season, one line each."""
    lines = [(short_name(names.get(s.user_id, "?")), list(s.series)) for s in top]
    # The chart is plain text: the chat's title as it is, translations without HTML escapes.
    place = group_title(message.chat.title) or html.unescape(tr.gettext("this chat"))
    png = await asyncio.to_thread(group_chart, lines, place,
                                  html.unescape(tr.gettext(SEASON_POINTS)),
                                  language=tr.language)
    await context.services.outbox.reply_photo(message, png)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The commands of this module; `bot.routes.register` calls it."""
    app.add_handler(CommandHandler("season", throttled("season", on_season)))
