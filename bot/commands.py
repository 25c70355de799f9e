"""Commands that remember: /history, /hand N with its fairness proof, /seed, /balance,
/daily, /settings and /nextgame (/top and /stats: `bot.stats`).

Each handler answers bad input with one line and changes nothing; a command repeated
faster than once a second by the same user is answered once (`Throttle`). The clock is
``bot_data["clock"]`` (wall time in seconds), so tests can move time.
"""

from __future__ import annotations

from typing import Any

from telegram import Message, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, TypeHandler

from bot import errors, replies, settings_menu
from bot.dates import wait_text
from bot.handling import (
    Context,
    clock_of,
    command_parts,
    in_group,
    is_admin,
    popup,
    refuse_press,
    remember_title,
    reply,
    run_command,
    throttled,
)
from bot.i18n import Translator
from bot.live import Player
from bot.names import group_title, told_apart
from bot.records import PlayedHand
from bot.render.history import hand_text, history_text, proof_texts, short_hash, statement_text
from bot.store import BonusNotDue, StoreError
from bot.store.fairness import SEED_LENGTH, valid_seed
from bot.store.next_game import NextGame
from bot.store.statement import statement
from bot.table_settings import one_setting_text, rules_lines, saved_note, settings_text
from engine import seed_hash

DAILY_BONUS = 200
"""The daily bonus when the settings do not say (``SVARA_DAILY_BONUS``)."""
HISTORY_LENGTH = 10


# --------------------------------------------------------------------- history


async def _names(context: Context, hands: list[PlayedHand]) -> dict[int, str]:
    players = sorted({s.player for p in hands for s in p.hand.seats})
    return told_apart(await context.services.store.history.names(players))


async def on_history(update: Update, context: Context) -> None:
    message, _, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        if not in_group(message):
            await reply(context, message, tr.gettext(replies.HISTORY_IN_GROUP))
            return
        if context.args:
            await reply(context, message, tr.gettext(replies.HISTORY_NO_ARGUMENTS))
            return
        hands = await context.services.store.history.chat_hands(message.chat_id,
                                                                HISTORY_LENGTH)
        if not hands:
            await reply(context, message, tr.gettext(replies.NO_HAND_YET))
            return
        names = await _names(context, hands)
        await reply(context, message, history_text(tr, names, hands))

    await run_command(message, tr, work(), context)


def hand_number(args: list[str]) -> int | None:
    """The N of /hand N (``12`` or ``#12``), or None. Only ASCII digits: "²" and "٣" are
    digits to `str.isdigit`, yet `int` refuses the first and reads the second."""
    if len(args) != 1:
        return None
    digits = args[0].removeprefix("#")
    if not 0 < len(digits) <= 12 or not (digits.isascii() and digits.isdigit()):
        return None
    return int(digits)


async def on_hand(update: Update, context: Context) -> None:
    message, _, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        if not in_group(message):
            await reply(context, message, tr.gettext(replies.HAND_IN_GROUP))
            return
        args = context.args or []
        number = hand_number(args)
        if number is None:
            await reply(context, message, tr.gettext(replies.HAND_USAGE))
            return
        played = await context.services.store.history.chat_hand(message.chat_id, number)
        if played is None:
            await reply(context, message, tr.format(replies.NO_SUCH_HAND, id=number))
            return
        names = await _names(context, [played])
        await reply(context, message, hand_text(tr, names, played))
        for text in proof_texts(tr, names, played, context.services.verify_url):
            await reply(context, message, text)

    await run_command(message, tr, work(), context)


async def on_seed(update: Update, context: Context) -> None:
    """/seed TEXT: the player's own contribution to every deal from the next one on;
    /seed alone says what it is now."""
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        await context.services.games.player(who)
        fairness = context.services.store.fairness
        text = (message.text or "").partition(" ")[2].strip()
        if not text:
            seed = await fairness.seed(who.id)
            if seed is None:
                await reply(context, message, tr.gettext(replies.SEED_NONE))
            else:
                await reply(context, message, tr.format(replies.SEED_IS, seed=seed,
                                                         short=short_hash(seed_hash(seed))))
            return
        if not valid_seed(text):
            await reply(context, message, tr.format(replies.SEED_USAGE, most=SEED_LENGTH))
            return
        await fairness.set_seed(who.id, text)
        await reply(context, message, tr.format(replies.SEED_SET, seed=text,
                                                 short=short_hash(seed_hash(text))))

    await run_command(message, tr, work(), context)


# --------------------------------------------------------------------- chips


async def on_balance(update: Update, context: Context) -> None:
    """/balance: in a group one line; in private a statement."""
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        services = context.services
        await services.games.player(who)
        found = await statement(services.store.db, who.id)
        if message.chat.type != ChatType.PRIVATE:
            await reply(context, message, tr.format(
                replies.BALANCE_IN_GROUP, name=who.name, balance=tr.chips(found.balance),
                tables=tr.chips(sum(t.stack for t in found.tables))))
            return
        await reply(context, message, statement_text(tr, who.name, found))

    await run_command(message, tr, work(), context)


async def _note_title(update: Update, context: Context) -> None:
    """Every update from a group keeps its name fresh (one read per new name)."""
    message = update.effective_message
    if message is None or not in_group(message) or not message.chat.title:
        return
    known: dict[int, str] = context.bot_data.setdefault("titles", {})
    if known.get(message.chat_id) == message.chat.title:
        return
    try:
        if await context.services.store.history.set_title(message.chat_id, message.chat.title):
            known[message.chat_id] = message.chat.title
    except StoreError:
        return  # the command itself answers that storage failed


async def on_daily(update: Update, context: Context) -> None:
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        if context.args:
            await reply(context, message, tr.gettext(replies.DAILY_NO_ARGUMENTS))
            return
        services = context.services
        await services.games.player(who)
        amount = int(context.bot_data.get("daily_bonus", DAILY_BONUS))
        now = int(clock_of(context))
        try:
            balance = await services.store.users.daily_bonus(who.id, amount, now=now)
        except BonusNotDue as err:
            due = err.due_at
            await reply(context, message, tr.format(replies.NEXT_BONUS,
                                                     wait=wait_text(tr, due - now)))
            return
        await reply(context, message, tr.format(
            replies.BONUS,
            name=who.name, amount=tr.chips(amount), balance=balance))

    await run_command(message, tr, work(), context)


# --------------------------------------------------------------------- settings


async def on_settings(update: Update, context: Context) -> None:
    """/settings: an admin gets the menu of buttons; others read them; NAME VALUE as text."""
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        if context.args or not in_group(message) or not await is_admin(
                context, message.chat_id, who.id):
            await _settings_as_text(context, message, who, tr)
            return
        settings = await context.services.games.chat_settings(message.chat_id)
        await reply(context, message, settings_text(tr, settings),
                     reply_markup=settings_menu.main_keyboard(tr, settings))

    await run_command(message, tr, work(), context)


async def _settings_as_text(context: Context, message: Message, who: Player,
                            tr: Translator) -> None:
    """/settings without the menu: the settings in force, or NAME VALUE changes one."""
    games = context.services.games
    args = context.args or []
    if message.chat.type == ChatType.PRIVATE:
        raise errors.GroupOnly()
    if not args:
        settings = await games.chat_settings(message.chat_id)
        await reply(context, message, settings_text(tr, settings))
        return
    if len(args) != 2:
        await reply(context, message,
                    tr.gettext(replies.SETTINGS_USAGE))
        return
    if not await is_admin(context, message.chat_id, who.id):
        raise errors.OnlyCreatorOrAdmin()
    settings = await games.change_settings(message.chat_id, args[0], args[1])
    await reply(context, message, "\n".join([tr.gettext(replies.SETTINGS_SAVED),
                                             *rules_lines(tr, settings)]))


async def on_settings_press(update: Update, context: Context) -> None:
    """A button of the /settings menu: answered once, the menu edited in place."""
    query = update.callback_query
    assert query is not None
    tr = context.services.languages.for_user(query.from_user)
    message = query.message
    try:
        press = settings_menu.MenuPress.decode(query.data or "")
        if message is None or message.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
            raise errors.Expired()
        chat_id = message.chat.id
        if not await is_admin(context, chat_id, query.from_user.id):
            await query.answer(tr.gettext(replies.SETTINGS_ONLY_ADMINS), show_alert=True)
            return
        games = context.services.games
        note = None
        if press.setting is not None and press.value is not None:
            settings = await games.change_settings(chat_id, press.setting, press.value)
            note = saved_note(tr, settings, press.setting)
        else:
            settings = await games.chat_settings(chat_id)
        markup = (settings_menu.main_keyboard(tr, settings) if press.setting is None
                  else settings_menu.values_keyboard(tr, press.setting, settings))
        text = (settings_text(tr, settings) if press.setting is None
                else one_setting_text(tr, settings, press.setting))
    except settings_menu.BadMenuData:
        await query.answer(popup(errors.Expired().text(tr)), show_alert=True)
        return
    except Exception as err:
        await refuse_press(query, tr, err)
        return
    await query.answer(note)
    from bot.pacing import URGENT

    await context.services.outbox.pace.slot(chat_id, URGENT)
    try:
        await query.edit_message_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)
    except TelegramError:
        return  # the same menu again ("not modified"), or the message is gone


# --------------------------------------------------------------------- next game


async def on_nextgame(update: Update, context: Context) -> None:
    """/nextgame in a group: a private word when its next table opens; /nextgame off."""
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        await remember_title(context, message)
        if not in_group(message):
            await reply(context, message, tr.gettext(replies.NEXTGAME_IN_GROUP))
            return
        args = context.args or []
        if args not in ([], ["off"]):
            await reply(context, message, tr.gettext(replies.NEXTGAME_USAGE))
            return
        services = context.services
        await services.games.player(who)
        waiting = NextGame(services.store.db)
        if args == ["off"]:
            await waiting.remove(message.chat_id, who.id)
            await reply(context, message, tr.gettext(
                replies.NEXTGAME_OFF))
            return
        if not (await services.store.users.get(who.id)).private_chat:
            await reply(context, message, tr.gettext(
                replies.NEXTGAME_PRIVATE_FIRST))
            return
        await waiting.add(message.chat_id, who.id, at=int(clock_of(context)))
        await reply(context, message, tr.format(
            replies.NEXTGAME_ON, name=who.name))

    await run_command(message, tr, work(), context)


async def after_newgame(update: Update, context: Context) -> None:
    """After /newgame: if a table opened, tell those waiting for it, once."""
    message = update.effective_message
    if message is None or not in_group(message):
        return
    services = context.services
    live = services.games.at(message.chat_id, message.message_thread_id
                             if message.is_topic_message else None)
    told: set[int] = context.bot_data.setdefault("next_game_told", set())
    if live is None or live.id in told:
        return
    told.add(live.id)
    try:
        waiting = await NextGame(services.store.db).take(message.chat_id)
    except StoreError:
        return
    place = group_title(message.chat.title)
    for user_id in waiting:
        if update.effective_user is not None and user_id == update.effective_user.id:
            continue
        user = await services.store.users.get(user_id)
        tr = services.translations.get(user.speaks)
        try:
            await context.bot.send_message(user_id, tr.format(
                replies.TABLE_OPENED, place=place),
                parse_mode=ParseMode.HTML)
        except TelegramError:
            continue


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The commands of this module; `bot.routes.register` calls it."""
    app.add_handler(TypeHandler(Update, _note_title, block=False), group=-1)
    app.add_handler(CommandHandler("settings", on_settings))
    app.add_handler(CommandHandler("newgame", after_newgame), group=1)
    app.add_handler(CallbackQueryHandler(on_settings_press, pattern=settings_menu.PATTERN))
    for name, handler in (("history", on_history), ("hand", on_hand), ("seed", on_seed),
                          ("daily", on_daily),
                          ("balance", on_balance), ("nextgame", on_nextgame)):
        app.add_handler(CommandHandler(name, throttled(name, handler)))
