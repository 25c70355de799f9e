"""How players come to a group's table and bring chips: /join, /topup, /rebuy, /give.

During a player's own hand /topup and /rebuy are kept for the next one
(`bot.next_hand`) and answered at once; /topup cancel takes them back. /join during a
hand seats him for the next deal and says so.

/rebuy takes the table's rebuy from the house (a table setting, a few times per table);
a broke player who is not seated yet sits down with it (as his /join does), and
/rebuy cancel takes back one asked for during his hand;
/give @name N gives chips: a chat admin's from the house within the chat's daily
allowance, anyone else's (and an admin's where the chat has no allowance) from his own
balance. The chips move in the store (`bot.store.gifts`), one ledger movement each.
"""

from __future__ import annotations

from typing import Any

from telegram import Message, MessageEntity, Update
from telegram.constants import ChatType
from telegram.ext import Application, CommandHandler

from bot import errors, replies
from bot.games import Live, Player
from bot.handling import (
    Context,
    command_parts,
    is_admin,
    parse_amount,
    player_of,
    reply,
    run_command,
    thread_of,
)
from bot.i18n import Translator
from bot.names import display_name
from bot.render import short_name
from bot.store import InsufficientChips, UnknownUser
from bot.store.errors import AllowanceSpent, BadInput

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


def _amount_and_name(args: list[str]) -> tuple[int, str | None]:
    """``/give @ana 100``, ``/give 100 @ana`` or (as a reply) ``/give 100``."""
    numbers = [a for a in args if a.isascii() and a.isdigit() and len(a) <= MAX_DIGITS]
    names = [a for a in args if a not in numbers]
    if len(numbers) != 1 or int(numbers[0]) <= 0:
        raise errors.GiveUsage()
    return int(numbers[0]), " ".join(names) or None


async def _receiver(context: Context, message: Message, name: str | None) -> tuple[int, str]:
    """Who the chips go to, and his name: the replied-to player, a mention, or an @name."""
    if name is None:
        target = message.reply_to_message.from_user if message.reply_to_message else None
        if target is None or target.is_bot:
            raise errors.GiveUsage()
        await context.services.games.player(player_of(target))
        return target.id, display_name(target.full_name, target.id)
    for entity in message.entities:
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            user = entity.user
            await context.services.games.player(player_of(user))
            return user.id, display_name(user.full_name, user.id)
    if not name.startswith("@") or len(name) < 2:
        raise errors.GiveUsage()
    store = context.services.store
    user_id = await store.gifts.find_username(name[1:])
    if user_id is None:
        raise errors.GiveWhom(name=name)
    return user_id, (await store.users.get(user_id)).name


async def on_give(update: Update, context: Context) -> None:
    """/give @name N in a group."""
    message, who, tr = command_parts(update, context)
    services = context.services

    async def work() -> None:
        if message.chat.type == ChatType.PRIVATE:
            raise errors.GroupOnly()
        amount, name = _amount_and_name(list(context.args or []))
        await services.games.player(who)
        receiver, receiver_name = await _receiver(context, message, name)
        if receiver == who.id:
            raise errors.GiveSelf()
        settings = await services.games.chat_settings(message.chat_id)
        shown = short_name(receiver_name)
        if settings.allowance and await is_admin(context, message.chat_id, who.id):
            try:
                left = await services.store.gifts.give_from_house(
                    message.chat_id, who.id, receiver, amount, allowance=settings.allowance,
                    daily=services.games.house_daily)
            except AllowanceSpent as err:
                raise errors.AllowanceLeft(left=err.left) from None
            await reply(context, message, tr.format(replies.GIVEN_BY_HOUSE, name=shown,
                                                    chips=tr.chips(amount),
                                                    left=tr.chips(left)))
            return
        try:
            await services.store.gifts.give(who.id, receiver, amount)
        except InsufficientChips as err:
            raise errors.GiveTooMuch(balance=err.have) from None
        except (UnknownUser, BadInput):
            raise errors.GiveWhom(name=name or shown) from None
        await reply(context, message, tr.format(replies.GIVEN, name=shown,
                                                chips=tr.chips(amount),
                                                giver=short_name(who.name)))

    await run_command(message, tr, work(), context)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The commands of this module; `bot.routes.register` calls it."""
    app.add_handler(CommandHandler("join", on_join))
    app.add_handler(CommandHandler("topup", on_topup))
    app.add_handler(CommandHandler("rebuy", on_rebuy))
    app.add_handler(CommandHandler("give", on_give))
