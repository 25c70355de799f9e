"""What the command handlers answer, by name: every one-line reply of a command or a
button, in one place for translators and for whoever adds a command.

A handler answers ``tr.gettext(replies.NAME)``, or ``tr.format(replies.NAME, value=...)``
where the message has ``{value}`` fields. Refusals are `bot.errors` classes; long texts are
in `bot.texts`, messages made of game data in `bot.render`.
"""

from __future__ import annotations

from bot.i18n import N_

# Seats and stacks (bot.handlers)

SEATED = N_("You are at the table. Your cards will come here; good luck!")
STACK_NOW = N_("Your stack is now {stack}.")
OPEN_THE_BOT = N_("Open the bot")

# /notify (bot.handlers)

NOTIFY_IN_PRIVATE = N_("Send /notify on or /notify off to me in private.")
REMINDERS_ARE_ON = N_("Turn reminders are on. /notify off stops them.")
REMINDERS_ARE_OFF = N_("Turn reminders are off. /notify on starts them.")
REMINDERS_ON = N_("I will remind you when your turn waits.")
REMINDERS_OFF = N_("No more turn reminders.")

# /history and /hand (bot.commands)

HISTORY_IN_GROUP = N_("/history works in a group.")
HISTORY_NO_ARGUMENTS = N_("/history takes no arguments.")
NO_HAND_YET = N_("No hand has been played here yet.")
HAND_IN_GROUP = N_("/hand works in a group.")
HAND_USAGE = N_("Use /hand NUMBER, e.g. /hand 12 (numbers are in /history).")
NO_SUCH_HAND = N_("No hand #{id} was played in this chat.")

# /balance and /daily (bot.commands)

BALANCE_IN_GROUP = N_("{name}: {balance} chips, {tables} at tables. /balance in private for the "
                      "statement.")
DAILY_NO_ARGUMENTS = N_("/daily takes no arguments.")
NEXT_BONUS = N_("Your next bonus comes in {wait}.")
BONUS = N_("🎁 {name}: +{amount} chips. Balance: {balance}. Come back in 24 h.")

# /top and /stats (bot.commands)

TOP_USAGE = N_("Use /top, or /top all for every chat.")
TOP_IN_GROUP = N_("/top works in a group; /top all works anywhere.")
STATS_USAGE = N_("Use /stats, or reply /stats to a player's message.")
STATS_NOT_THE_BOT = N_("Reply to a player's message, not the bot's.")
NOT_PLAYED = N_("{name} has not played a hand here yet.")
EVERY_CHAT = N_("every chat")
NET_CHIPS = N_("Net chips")

# /settings (bot.commands)

SETTINGS_USAGE = N_("Use /settings NAME VALUE, e.g. /settings tie split.")
SETTINGS_SAVED = N_("Saved. The next hand deals with:")
SETTINGS_ONLY_ADMINS = N_("Only chat admins can change the settings.")
SETTING_SAVED = N_("Saved: {name} {value}.")

# /nextgame (bot.commands)

NEXTGAME_IN_GROUP = N_("/nextgame works in a group.")
NEXTGAME_USAGE = N_("Use /nextgame, or /nextgame off.")
NEXTGAME_OFF = N_("Fine: no word from me about the next table here.")
NEXTGAME_PRIVATE_FIRST = N_("Open a private chat with me first (press Start there), so I can "
                            "write to you; then send /nextgame again.")
NEXTGAME_ON = N_("{name}: I will tell you privately when the next table opens here (once). "
                 "/nextgame off to cancel.")
TABLE_OPENED = N_("🃏 A table has opened in {place}. Join it there.")

# /practice (bot.practice)

HOW_MANY_COMPUTERS = N_("How many computer players do you want to play against?")
PRACTICE_OPENED = N_("Practice against {names}. You play with {chips} practice chips: they are "
                     "not your balance and never become it. The table closes when you leave, sit "
                     "out or run out of chips, or on /endgame.")
PRACTICE_LEFT = N_("You left the practice table, so it is closed. Send /practice to play again.")
PRACTICE_SAT_OUT = N_("You sat out, so the practice table is closed. Send /practice to play "
                      "again.")
PRACTICE_BROKE = N_("You have no practice chips left for the ante: the table is closed. Send "
                    "/practice for new ones.")
