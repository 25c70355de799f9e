"""How players come to a group's table and bring chips: /join, /topup, /rebuy, /give.

During a player's own hand /topup and /rebuy are kept for the next one
(`bot.next_hand`) and answered at once; /topup cancel takes them back. /join during a
hand seats him for the next deal and says so.

/rebuy takes the table's rebuy from the house (a table setting, a few times per table);
a broke player who is not seated yet sits down with it (as his /join does), and
/rebuy cancel takes back one asked for during his hand;
/give @name N gives chips: a chat admin's from the house within the chat's daily
allowance, anyone else's (and an admin's where the chat has no allowance) from his own
balance. The one who gets them may be named by @name, by a text mention or by a reply
to his message; a /give that names nobody, or no amount, is answered with buttons (the
players of the chat, then amounts: `bot.give_menu`) that only the giver may press and
that give once. The chips move in the store (`bot.store.gifts`), one ledger movement
each.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from telegram import InlineKeyboardMarkup, Message, MessageEntity, Update, User
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot import errors, replies
from bot.give_menu import (
    MOST_PLAYERS,
    PATTERN,
    BadGiveData,
    GivePress,
    amounts,
    amounts_keyboard,
    players_keyboard,
)
from bot.handling import (
    Context,
    command_parts,
    is_admin,
    parse_amount,
    player_of,
    popup,
    refuse_press,
    reply,
    run_command,
    thread_of,
    user_tr,
)
from bot.i18n import Translator
from bot.live import Live, Player
from bot.names import display_name, told_apart
from bot.pacing import URGENT
from bot.render.views import short_name
from bot.store import InsufficientChips, UnknownUser
from bot.store.errors import AllowanceSpent, BadInput, MenuUsed
from bot.store.gifts import GiveMenu

MAX_DIGITS = 15


def _table_here(context: Context, message: Message) -> Live:
    live = context.services.games.at(message.chat_id, thread_of(message))
    if live is None or message.chat.type == ChatType.PRIVATE:
        raise errors.NoTable()
    return live


async def on_join(update: Update, context: Context) -> None:
    """/join: sit down now, or (during a hand) for the next deal, and say which."""
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        live = _table_here(context, message)
        during = live.hand is not None
        taken = await context.services.games.join(live, who)
        if taken:
            await reply(context, message, await sat_with_rebuy(context, live, who, taken, tr))
        elif during:
            await reply(context, message, tr.gettext(replies.SEATED_NEXT_HAND))

    await run_command(message, tr, work(), context)


async def sat_with_rebuy(context: Context, live: Live, who: Player, taken: int,
                         tr: Translator) -> str:
    """What a broke player's seat with a rebuy is announced with."""
    left = live.settings.rebuys - await context.services.store.gifts.rebuys_of(live.id, who.id)
    return tr.format(replies.SAT_WITH_REBUY, name=short_name(live.names.get(who.id, who.name)),
                     chips=tr.chips(taken), left=left)


async def on_topup(update: Update, context: Context) -> None:
    """/topup [N | cancel]: chips from the balance now, or at the end of his hand."""
    message, who, tr = command_parts(update, context)
    services = context.services
    args = list(context.args or [])

    async def work() -> None:
        live = _table_here(context, message)
        if args and args[0].lower() == "cancel" and len(args) == 1:
            if not await services.store.gifts.cancel(live.id, who.id):
                raise errors.NothingQueued()
            await reply(context, message, tr.gettext(replies.QUEUE_CANCELLED))
            return
        amount = parse_amount(args) if args else None
        try:
            stack = await services.games.top_up(live, who, amount)
        except (errors.WaitForHand, errors.TopUpAfterHand):
            balance = await services.store.users.balance(who.id)
            seat = live.table.seat(who.id)
            if balance == 0 and seat is not None:
                raise await services.games.empty_balance(live, who.id, seat.stack) from None
            if amount is not None and amount > balance:
                room = (live.next_settings or live.settings).max_buy_in
                raise errors.BadTopUp(room=room, balance=balance) from None
            await services.store.gifts.queue(live.id, who.id, "top_up", amount)
            await reply(context, message, tr.gettext(replies.TOP_UP_ALL_NEXT_HAND)
                        if amount is None else tr.format(replies.TOP_UP_NEXT_HAND,
                                                         chips=tr.chips(amount)))
            return
        await reply(context, message, tr.format(replies.STACK_NOW, stack=stack))

    await run_command(message, tr, work(), context)


async def on_rebuy(update: Update, context: Context) -> None:
    """/rebuy [cancel] in a group: a broke player's chips from the house, now or after his
    hand (or with his seat, if he is not seated yet)."""
    message, who, tr = command_parts(update, context)
    games = context.services.games
    args = [a.lower() for a in context.args or []]

    async def work() -> None:
        live = _table_here(context, message)
        gifts = context.services.store.gifts
        if args == ["cancel"]:
            if not await gifts.cancel(live.id, who.id, "rebuy"):
                raise errors.NothingQueued()
            await reply(context, message, tr.gettext(replies.REBUY_CANCELLED))
            return
        if live.table.seat(who.id) is None and live.settings.rebuy is not None:
            # Not seated yet: a broke player sits down with his rebuy, as his Join would.
            balance = await games.player(who)
            if min(balance, live.settings.max_buy_in) >= live.settings.ante:
                raise errors.JoinFirst()
            taken = await games.join(live, who)
            await reply(context, message, await sat_with_rebuy(context, live, who, taken, tr))
            return
        try:
            taken, stack, left = await games.rebuy(live, who)
        except errors.WaitForHand:
            await gifts.queue(live.id, who.id, "rebuy", None)
            await reply(context, message, tr.gettext(replies.REBUY_NEXT_HAND))
            return
        await reply(context, message, tr.format(
            replies.REBOUGHT, name=short_name(live.names.get(who.id, who.name)),
            chips=tr.chips(taken), stack=stack, left=left))

    await run_command(message, tr, work(), context)


def _amount_and_name(args: list[str], mentioned: bool) -> tuple[int | None, str | None]:
    """``/give @ana 100``, ``/give 100 @ana``, ``/give 100`` (a reply, a text mention, or
    the menu), ``/give @ana`` and ``/give`` (the amounts or the menu): the amount, and
    the @name typed (None when there is none: a text mention's words are no @name)."""
    numbers = [a for a in args if a.isascii() and a.isdigit() and len(a) <= MAX_DIGITS]
    names = [a for a in args if a not in numbers]
    if len(numbers) > 1 or (numbers and int(numbers[0]) <= 0):
        raise errors.GiveUsage()
    if mentioned:
        names = []
    if len(names) > 1 or (names and (not names[0].startswith("@") or len(names[0]) < 2)):
        raise errors.GiveUsage()
    return (int(numbers[0]) if numbers else None), (names[0] if names else None)


def _replied_to(message: Message) -> User | None:
    """Whose message the command answers: nobody's for a topic's first message (which
    every message in a topic seems to answer) and for a message of a bot (the table's
    message, say), so the menu asks."""
    replied = message.reply_to_message
    if replied is None or (message.is_topic_message
                           and replied.message_id == message.message_thread_id):
        return None
    user = replied.from_user
    return None if user is None or user.is_bot else user


def _mentioned(message: Message) -> User | None:
    return next((e.user for e in message.entities
                 if e.type == MessageEntity.TEXT_MENTION and e.user is not None), None)


async def _receiver(context: Context, message: Message,
                    name: str | None) -> tuple[int, str] | None:
    """Who the chips go to, and his name: a text mention, an @name or the replied-to
    player; None when the command names nobody (the menu asks)."""
    user = _mentioned(message)
    if user is None and name is None:
        user = _replied_to(message)
        if user is None:
            return None
    if user is not None:
        if user.is_bot:
            raise errors.GiveUsage()
        await context.services.games.player(player_of(user))
        return user.id, display_name(user.full_name, user.id)
    assert name is not None
    store = context.services.store
    user_id = await store.gifts.find_username(name[1:])
    if user_id is None:
        raise errors.GiveWhom(name=name)
    return user_id, (await store.users.get(user_id)).name


async def _source(context: Context, chat_id: int, giver: int) -> tuple[int | None, int]:
    """Where the giver's chips come from and how many he may give: the house (the chat's
    allowance, for an admin where it is not 0) or his own balance (None)."""
    services = context.services
    settings = await services.games.chat_settings(chat_id)
    if settings.allowance and await is_admin(context, chat_id, giver):
        return settings.allowance, await services.store.gifts.left_today(
            chat_id, settings.allowance)
    return None, await services.store.users.balance(giver)


def _nothing_to_give(allowance: int | None, available: int) -> None:
    if available <= 0:
        raise (errors.GiveTooMuch(balance=0) if allowance is None
               else errors.AllowanceLeft(left=0))


async def _give(context: Context, chat_id: int, who: Player, receiver: int,
                receiver_name: str, amount: int,
                menu: GiveMenu | None = None) -> Callable[[Translator], str]:
    """Give the chips (from the house or his own); what it says, in any language, naming
    the receiver `receiver_name` (as shown)."""
    if receiver == who.id:
        raise errors.GiveSelf()
    gifts = context.services.store.gifts
    allowance, _ = await _source(context, chat_id, who.id)
    shown = receiver_name
    if allowance is not None:
        try:
            left = await gifts.give_from_house(chat_id, who.id, receiver, amount,
                                               allowance=allowance, menu=menu,
                                               daily=context.services.games.house_daily)
        except AllowanceSpent as err:
            raise errors.AllowanceLeft(left=err.left) from None
        return lambda tr: tr.format(replies.GIVEN_BY_HOUSE, name=shown, chips=tr.chips(amount),
                                    left=tr.chips(left))
    try:
        await gifts.give(who.id, receiver, amount, menu=menu)
    except InsufficientChips as err:
        raise errors.GiveTooMuch(balance=err.have) from None
    except (UnknownUser, BadInput):
        raise errors.GiveWhom(name=shown) from None
    return lambda tr: tr.format(replies.GIVEN, name=shown, chips=tr.chips(amount),
                                giver=short_name(who.name))


async def _players(context: Context, message: Message, giver: int) -> list[tuple[int, str]]:
    """Whom a menu offers: the players at this chat's table, then its recent players, the
    giver left out; named as every list names them, namesakes told apart."""
    services = context.services
    live = services.games.at(message.chat_id, thread_of(message))
    ids = [seat.player for seat in live.table.seats] if live is not None else []
    recent = await services.store.gifts.recent_players(message.chat_id, MOST_PLAYERS + 1)
    ids += [user_id for user_id, _ in recent if user_id not in ids]
    ids = [u for u in ids if u != giver and u > 0][:MOST_PLAYERS]
    names = dict(recent)
    names.update(await services.store.history.names([u for u in ids if u not in names]))
    return list(told_apart({u: short_name(names.get(u, "?")) for u in ids}).items())


async def _named(context: Context, message: Message, giver: int, receiver: int,
                 name: str) -> str:
    """The receiver as the menu names him (told apart from a namesake of the chat's)."""
    shown = dict(await _players(context, message, giver))
    return shown.get(receiver, short_name(name))


async def on_give(update: Update, context: Context) -> None:
    """/give in a group: at once when it names someone and an amount, else buttons."""
    message, who, tr = command_parts(update, context)
    services = context.services

    async def work() -> None:
        if message.chat.type == ChatType.PRIVATE:
            raise errors.GroupOnly()
        amount, name = _amount_and_name(list(context.args or []),
                                        _mentioned(message) is not None)
        await services.games.player(who)
        found = await _receiver(context, message, name)
        if found is not None and found[0] == who.id:
            raise errors.GiveSelf()
        if found is not None and amount is not None:
            name = await _named(context, message, who.id, *found)
            said = await _give(context, message.chat_id, who, found[0], name, amount)
            await reply(context, message, said(tr))
            return
        allowance, available = await _source(context, message.chat_id, who.id)
        _nothing_to_give(allowance, available)
        secret, giver = services.link_secret, short_name(who.name)
        if found is not None:  # named, no amount: the amounts
            settings = await services.games.chat_settings(message.chat_id)
            await reply(context, message, tr.format(
                replies.GIVE_HOW_MANY, giver=giver,
                name=await _named(context, message, who.id, *found)),
                reply_markup=amounts_keyboard(tr, secret, message.chat_id, who.id,
                                              message.message_id, found[0],
                                              amounts(settings.ante, available)))
            return
        players = await _players(context, message, who.id)
        if not players:
            raise errors.GiveUsage()
        text = (tr.format(replies.GIVE_TO_WHOM, giver=giver) if amount is None else
                tr.format(replies.GIVE_AMOUNT_TO_WHOM, giver=giver, chips=tr.chips(amount)))
        await reply(context, message, text, reply_markup=players_keyboard(
            secret, message.chat_id, who.id, message.message_id, players, amount))

    await run_command(message, tr, work(), context)


async def on_give_press(update: Update, context: Context) -> None:
    """A button of a /give menu: only the giver's presses count; a name asks the amount,
    an amount gives, once per menu; the menu is edited to what happened."""
    query = update.callback_query
    assert query is not None
    services = context.services
    tr = user_tr(context, query.from_user)
    message = query.message
    try:
        if not isinstance(message, Message) or message.chat.type not in (
                ChatType.GROUP, ChatType.SUPERGROUP):
            raise errors.Expired()
        chat_id = message.chat_id
        try:
            press = GivePress.decode(query.data or "", services.link_secret, chat_id)
        except BadGiveData:
            raise errors.Expired() from None
        if query.from_user.id != press.giver:
            owner = await services.store.users.find(press.giver)
            raise errors.NotYourGift(name=short_name(owner.name if owner else "?"))
        who = player_of(query.from_user)
        menu = GiveMenu(chat_id, press.menu)
        group = services.languages.for_message(chat_id, message.chat.type, query.from_user)
        receiver = await services.store.users.find(press.receiver)
        if receiver is None:
            raise errors.Expired()
        name = await _named(context, message, who.id, receiver.id, receiver.name)
        if await services.store.gifts.menu_used(who.id, menu):
            raise errors.Expired()
        if press.amount is None:
            allowance, available = await _source(context, chat_id, who.id)
            _nothing_to_give(allowance, available)
            settings = await services.games.chat_settings(chat_id)
            text: str = group.format(replies.GIVE_HOW_MANY, giver=short_name(who.name),
                                     name=name)
            markup: InlineKeyboardMarkup | None = amounts_keyboard(
                group, services.link_secret, chat_id, who.id, press.menu, receiver.id,
                amounts(settings.ante, available))
            note: str | None = None
        else:
            try:
                said = await _give(context, chat_id, who, receiver.id, name,
                                   press.amount, menu)
            except MenuUsed:
                raise errors.Expired() from None
            text, markup, note = said(group), None, popup(said(tr))
    except Exception as err:
        await refuse_press(query, tr, err)
        return
    await query.answer(note)
    await services.outbox.pace.slot(chat_id, URGENT)
    with contextlib.suppress(TelegramError):
        await query.edit_message_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The commands of this module; `bot.routes.register` calls it."""
    app.add_handler(CommandHandler("join", on_join))
    app.add_handler(CommandHandler("topup", on_topup))
    app.add_handler(CommandHandler("rebuy", on_rebuy))
    app.add_handler(CommandHandler("give", on_give))
    app.add_handler(CallbackQueryHandler(on_give_press, pattern=PATTERN))
