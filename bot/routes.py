"""Every handler of the bot, registered in one place, in the order updates must meet them."""

from __future__ import annotations

from typing import Any

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    InlineQueryHandler,
)

from bot import commands, handlers, inline, practice
from bot.callback_data import PATTERN


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Add every handler; a command is answered by the first handler that takes it."""
    app.add_handler(CommandHandler("start", handlers.on_start))
    app.add_handler(CommandHandler("newgame", handlers.on_newgame))
    # Before the group's table commands: in a private chat they reach the practice table.
    practice.register(app)
    app.add_handler(CommandHandler(["join", "leave", "back", "endgame", "bet", "topup"],
                                   handlers.on_table_command))
    app.add_handler(CommandHandler("help", handlers.on_help))
    app.add_handler(CommandHandler("rules", handlers.on_rules))
    app.add_handler(CommandHandler("table", handlers.on_table))
    app.add_handler(CommandHandler("notify", handlers.on_notify))
    app.add_handler(ChatMemberHandler(handlers.on_added, ChatMemberHandler.MY_CHAT_MEMBER))
    commands.register(app)
    app.add_handler(CallbackQueryHandler(handlers.on_press, pattern=PATTERN))
    app.add_handler(CallbackQueryHandler(handlers.on_unknown_press))
    app.add_handler(InlineQueryHandler(inline.on_inline_query))
    app.add_error_handler(handlers.on_error)
