"""Every handler of the bot, registered in one place, in the order updates must meet them."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import (
    choose_language,
    commands,
    handlers,
    inline,
    practice,
    replies,
    season_commands,
    seats,
    stats,
    topics,
)
from bot import languages as language_menu
from bot.callback_data import PATTERN
from bot.flood import QUIET, Verdict
from bot.handling import Context


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Add every handler; a command is answered by the first handler that takes it."""
    # Before anything else: one user's flood of commands is not answered.
    app.add_handler(TypeHandler(Update, _guard_commands), group=-4)
    # Then: in a forum whose admins keep the bot to chosen topics, nothing from elsewhere.
    app.add_handler(TypeHandler(Update, topics.guard), group=-3)
    # First of all, and awaited: who reads which language, for every handler after it.
    app.add_handler(TypeHandler(Update, _learn_languages), group=-2)
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.on_migrate))
    app.add_handler(CommandHandler("start", handlers.on_start))
    app.add_handler(CommandHandler("newgame", handlers.on_newgame))
    app.add_handler(CommandHandler("tournament", handlers.on_tournament))
    # Before the group's table commands: in a private chat they reach the practice table.
    practice.register(app)
    seats.register(app)  # /join, /topup, /rebuy, /give
    app.add_handler(CommandHandler(["leave", "back", "endgame", "bet"],
                                   handlers.on_table_command))
    app.add_handler(CommandHandler("help", handlers.on_help))
    app.add_handler(CommandHandler("rules", handlers.on_rules))
    app.add_handler(CommandHandler("table", handlers.on_table))
    app.add_handler(CommandHandler("notify", handlers.on_notify))
    app.add_handler(CommandHandler("language", choose_language.on_language))
    app.add_handler(CallbackQueryHandler(choose_language.on_language_press,
                                         pattern=language_menu.PATTERN))
    app.add_handler(ChatMemberHandler(handlers.on_added, ChatMemberHandler.MY_CHAT_MEMBER))
    commands.register(app)
    stats.register(app)
    season_commands.register(app)  # /season
    topics.register(app)
    app.add_handler(CallbackQueryHandler(handlers.on_press, pattern=PATTERN))
    app.add_handler(CallbackQueryHandler(handlers.on_unknown_press))
    app.add_handler(InlineQueryHandler(inline.on_inline_query))
    app.add_error_handler(handlers.on_error)


async def _learn_languages(update: object, context: Context) -> None:
    if isinstance(update, Update):
        await context.services.languages.learn(update)


async def _guard_commands(update: object, context: Context) -> None:
    """A user past the burst is told once to slow down; his commands are then ignored."""
    if not isinstance(update, Update):
        return
    message = update.message
    user = update.effective_user
    if message is None or user is None or not (message.text or "").startswith("/"):
        return
    verdict = context.services.guard.check(user.id)
    if verdict is Verdict.ANSWER:
        return
    if verdict is Verdict.WARN:
        await context.services.languages.learn(update)
        tr = context.services.languages.for_user(user)
        # Queued apart from his commands' replies: one still being answered cannot
        # replace it.
        context.services.outbox.reply(message, tr.format(replies.SLOW_DOWN,
                                                         time=tr.seconds(int(QUIET))),
                                      key=(user.id, "slow down"))
    raise ApplicationHandlerStop
