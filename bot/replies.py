"""What the command handlers answer, by name: every one-line reply of a command or a
button, in one place for translators and for whoever adds a command.

A handler answers ``tr.gettext(replies.NAME)``, or ``tr.format(replies.NAME, value=...)``
where the message has ``{value}`` fields. Each message says below it when it is sent.
Refusals are `bot.errors` classes; long texts are in `bot.texts`, messages made of game
data in `bot.render`.
"""

from __future__ import annotations

from bot.i18n import N_

# --------------------------------------------------------------------- seats (bot.handlers)

SEATED = N_("You are at the table. Your cards will come here; good luck!")
"""In private, after a join link from the group was opened and the join went through."""
STACK_NOW = N_("Your stack is now {stack}.")
"""After /topup."""
REBOUGHT = N_("{name} takes {chips} from the house: stack {stack}, {left} more rebuys.")
"""After /rebuy."""
GIVEN = N_("{name} gets {chips} from {giver}.")
"""After a player's /give of his own chips."""
GIVEN_BY_HOUSE = N_("{name} gets {chips} from the house; the chat may give {left} more "
                    "today.")
"""After a chat admin's /give from the house."""
SEATED_NEXT_HAND = N_("You sit down at the next hand.")
"""/join while a hand is played: the seat is taken, the cards come from the next deal."""
TOP_UP_NEXT_HAND = N_("+{chips} at the next hand. /topup cancel takes it back.")
"""/topup N during the player's own hand."""
TOP_UP_ALL_NEXT_HAND = N_("Chips up to the table's maximum at the next hand. /topup cancel "
                          "takes it back.")
"""/topup (no amount) during the player's own hand."""
REBUY_NEXT_HAND = N_("A rebuy at the next hand, if you have no chips left then. /rebuy cancel "
                     "takes it back.")
"""/rebuy during the player's own hand."""
QUEUE_CANCELLED = N_("Cancelled: nothing is added at the next hand.")
"""/topup cancel."""
REBUY_CANCELLED = N_("Cancelled: no rebuy at the next hand.")
"""/rebuy cancel."""
SAT_WITH_REBUY = N_("{name} sits down with {chips} from the house (a rebuy), {left} more "
                    "rebuys.")
"""A broke player's Join (or /rebuy before he sits) where the chat allows rebuys."""

# --------------------------------------------------------------------- after a hand, in private

QUEUED_NOT_ADDED = N_("{table}: the chips you asked for could not be added. {why}")
"""A top-up or rebuy queued during the player's hand could not be brought when it ended."""
SAT_OUT_PRIVATE = N_("{table}: you sit out, your turn ran out in two hands in a row. Press "
                     "I'm back on the table, or send /back there, to play from the next hand.")
"""A player the last hand left sitting out after his timeouts."""
OUT_OF_CHIPS_PRIVATE = N_("{table}: your stack is below the ante, so you sit out. Send /topup "
                          "there to bring chips from your balance, or a friend can /give you "
                          "some.")
"""A player the last hand left without the ante, at a table without rebuys."""
OUT_OF_CHIPS_REBUY = N_("{table}: your stack is below the ante, so you sit out. Send /topup "
                        "there to bring chips from your balance, or /rebuy to take {chips} "
                        "from the house.")
"""A player the last hand left without the ante, at a table with rebuys."""
OPEN_THE_BOT = N_("Open the bot")
"""The button under a refusal that needs the private chat first (it opens it)."""

# --------------------------------------------------------------------- /notify (bot.handlers)

NOTIFY_IN_PRIVATE = N_("Send /notify on or /notify off to me in private.")
"""/notify sent in a group."""
REMINDERS_ARE_ON = N_("Turn reminders are on. /notify off stops them.")
"""/notify alone, while the reminders are on."""
REMINDERS_ARE_OFF = N_("Turn reminders are off. /notify on starts them.")
"""/notify alone, while the reminders are off."""
REMINDERS_ON = N_("I will remind you when your turn waits.")
"""After /notify on."""
REMINDERS_OFF = N_("No more turn reminders.")
"""After /notify off."""

# --------------------------------------------------------------------- /history and /hand

HISTORY_IN_GROUP = N_("/history works in a group.")
"""/history in private."""
HISTORY_NO_ARGUMENTS = N_("/history takes no arguments.")
"""/history with anything after it."""
NO_HAND_YET = N_("No hand has been played here yet.")
"""/history or /top where no hand was settled."""
HAND_IN_GROUP = N_("/hand works in a group.")
"""/hand in private."""
HAND_USAGE = N_("Use /hand NUMBER, e.g. /hand 12 (numbers are in /history).")
"""/hand without a number, or with something else."""
NO_SUCH_HAND = N_("No hand {id} was played in this chat.")
"""/hand N where N is not a settled hand of this chat."""

# --------------------------------------------------------------------- /balance and /daily

BALANCE_IN_GROUP = N_("{name}: {balance}, {tables} at tables. /balance in private for the "
                      "statement.")
"""/balance in a group: one line (the statement is sent in private only)."""
DAILY_NO_ARGUMENTS = N_("/daily takes no arguments.")
"""/daily with anything after it."""
NEXT_BONUS = N_("Your next bonus comes in {wait}.")
"""/daily before a day has passed; {wait} is like "3 h 20 min"."""
BONUS = N_("🎁 {name}: +{amount}. Balance: {balance}. Come back in 24 h.")
"""/daily that paid the bonus."""

# --------------------------------------------------------------------- /top and /stats

TOP_USAGE = N_("Use /top, or /top all for every chat.")
"""/top with anything but "all"."""
TOP_IN_GROUP = N_("/top works in a group; /top all works anywhere.")
"""/top in private."""
STATS_USAGE = N_("Use /stats, or reply /stats to a player's message.")
"""/stats with arguments."""
STATS_NOT_THE_BOT = N_("Reply to a player's message, not the bot's.")
"""/stats sent as a reply to the bot's own message."""
NOT_PLAYED = N_("{name} has not played a hand here yet.")
"""/stats for a player with no settled hand here (or anywhere, in private)."""
EVERY_CHAT = N_("every chat")
"""The place named in the title of the /stats chart when it counts every chat."""
NET_CHIPS = N_("Net chips")
"""The label of the /stats chart's line."""

# --------------------------------------------------------------------- /settings

SETTINGS_USAGE = N_("Use /settings NAME VALUE, e.g. /settings tie split.")
"""/settings with one word, or more than two."""
SETTINGS_SAVED = N_("Saved. The next hand deals with:")
"""After /settings NAME VALUE; the rules lines follow."""
SETTINGS_ONLY_ADMINS = N_("Only chat admins can change the settings.")
"""A press on the /settings menu by someone who is not an admin (a popup)."""
SETTING_SAVED = N_("Saved. {label}: {value}.")
"""A value chosen in the /settings menu (a short note over the chat), in plain words."""

# --------------------------------------------------------------------- /nextgame

NEXTGAME_IN_GROUP = N_("/nextgame works in a group.")
"""/nextgame in private."""
NEXTGAME_USAGE = N_("Use /nextgame, or /nextgame off.")
"""/nextgame with anything but "off"."""
NEXTGAME_OFF = N_("Fine: no word from me about the next table here.")
"""After /nextgame off."""
NEXTGAME_PRIVATE_FIRST = N_("Open a private chat with me first (press Start there), so I can "
                            "write to you; then send /nextgame again.")
"""/nextgame from someone the bot cannot write to privately yet."""
NEXTGAME_ON = N_("{name}: I will tell you privately when the next table opens here (once). "
                 "/nextgame off to cancel.")
"""After /nextgame: the word will come once."""
TABLE_OPENED = N_("🃏 A table has opened in {place}. Join it there.")
"""In private, to those who sent /nextgame, when /newgame opened a table in {place}."""

# --------------------------------------------------------------------- /practice

HOW_MANY_COMPUTERS = N_("How many computer players do you want to play against?")
"""/practice alone; buttons 1 to 5 follow."""
PRACTICE_OPENED = N_("Practice against {names}. You play with {chips}: they are not your "
                     "balance and never become it. The table closes when you leave, sit out or "
                     "run out of chips, or on /endgame.")
"""Before the first table message of a practice table."""
PRACTICE_LEFT = N_("You left the practice table, so it is closed. Send /practice to play again.")
"""A practice table closed by itself because its player left."""
PRACTICE_SAT_OUT = N_("You sat out, so the practice table is closed. Send /practice to play "
                      "again.")
"""A practice table closed by itself because its player sat out."""
PRACTICE_BROKE = N_("You have no practice chips left for the ante: the table is closed. Send "
                    "/practice for new ones.")
"""A practice table closed by itself because its player ran out of chips."""

# --------------------------------------------------------------------- /language

LANGUAGE_OF_GROUP = N_("Language of this group: <b>{language}</b>. Admins can change it:")
"""/language in a group; a button per language follows."""
LANGUAGE_OF_USER = N_("Your language: <b>{language}</b>. It is used in private messages, "
                      "popups and reminders; groups keep their own.")
"""/language in private; a button per language and "As in Telegram" follow."""
LANGUAGE_AS_TELEGRAM = N_("As in Telegram")
"""The private menu's button back to the Telegram app's language."""
GROUP_LANGUAGE_SAVED = N_("Saved. This group's language: {language}.")
"""A group's language chosen (written in that language). The name comes after a colon:
a language's name in itself is capitalised ("Български"), which reads wrong mid-sentence."""
USER_LANGUAGE_SAVED = N_("Saved. Your language: {language}.")
"""A user's own language chosen (written in that language)."""

# --------------------------------------------------------------------- the bot removed (bot.outbox)

TABLE_CLOSED_NO_GROUP = N_("I can no longer write to {group}, so the table there is closed: a "
                           "hand in play was refunded and your chips are back in your "
                           "balance.")
"""In private, to each player of a table whose group removed the bot or took away its right
to write."""
YOUR_GROUP = N_("your group")
"""The group's name in that message when the bot does not know its title."""

# --------------------------------------------------------------------- floods (bot.routes)

SLOW_DOWN = N_("Too many commands at once: I will answer you again in {time}.")
"""To a user who sent more commands in a few seconds than a person types; his next ones
are ignored for that long."""
SEED_NONE = N_("You have no seed of your own: at each table you get one that follows from "
               "its secret. Set your own with /seed TEXT.")
"""/seed alone, from a player who never had one."""

SEED_IS = N_("Your seed: <code>{seed}</code> (<code>{short}</code> in /hand).\nChange it "
             "with /seed TEXT.")
"""/seed alone: the player's seed now."""

SEED_USAGE = N_("Use /seed TEXT: 1 to {most} characters of your own, mixed into the deals at "
                "every table where you have not been dealt a hand yet.")
"""/seed with a text that cannot be a seed (too long, or not printable)."""

SEED_SET = N_("Your seed is now <code>{seed}</code> (<code>{short}</code> in /hand). It counts "
              "at every table where you have not been dealt a hand yet; where you have, your "
              "seed stays until the table closes. Best: set it after a table opens, before "
              "its first deal.")
"""/seed TEXT went through."""

APP_SEED_SET = N_("🔐 Your own seed is set: this app drew it on your phone and keeps it. It "
                  "counts from your first deal at this table, and the checking page finds "
                  "your seat with it.")
"""The Mini App's seed button pressed before his first deal at the table."""

APP_SEED_LATER = N_("🔐 Your own seed is set, for the tables you have not been dealt at yet: "
                    "here yours was fixed at your first deal and stays until the table "
                    "closes.")
"""The Mini App's seed button pressed after his first deal at the table."""

GIVE_TO_WHOM = N_("🎁 {giver}: give chips to whom?")
"""/give with nobody named: the players' buttons follow."""
GIVE_AMOUNT_TO_WHOM = N_("🎁 {giver}: give {chips} to whom?")
"""/give N with nobody named: the players' buttons follow."""
GIVE_HOW_MANY = N_("🎁 {giver}: how many chips for {name}?")
"""/give to someone named (or a name pressed) without an amount: the amounts follow."""
