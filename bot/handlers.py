"""Telegram updates in, table calls out. Each handler parses, calls `Games`, and answers.

Every button press is answered exactly once, whatever happens: with nothing, with a
popup that only the presser sees, or with the deep link that opens the private chat.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import CallbackQuery, Message, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, NetworkError, TelegramError, TimedOut

from bot import errors, replies
from bot.callback_data import BadCallbackData, Button, Press
from bot.handling import (
    JOIN_PAYLOAD,
    Context,
    bet,
    command_name,
    command_parts,
    is_admin,
    join_link,
    joined_table,
    player_of,
    popup,
    refuse_press,
    reply,
    run_command,
    thread_of,
    user_tr,
)
from bot.i18n import Translator
from bot.live import CLOSED_NOW, Live, Player
from bot.records import TableStatus
from bot.render.cards import cards_popup, press_toast
from bot.render.table import CLOSING_AFTER_HAND
from bot.seats import sat_with_rebuy
from bot.texts import help_text, rules_text, welcome_text
from bot.tournament import LevelClock, Schedule
from engine import Act, Action

log = logging.getLogger(__name__)

_TURN = {
    Button.FOLD: Act.FOLD, Button.CALL: Act.CALL, Button.RAISE: Act.RAISE,
    Button.ALL_IN: Act.ALL_IN, Button.BLIND: Act.BLIND, Button.NO_BLIND: Act.NO_BLIND,
}
_SVARA = {Button.SVARA_JOIN: Act.JOIN_SVARA, Button.SVARA_SKIP: Act.SKIP_SVARA}


async def _is_member(context: Context, chat_id: int, user_id: int) -> bool:
    """Whether the user is in the group now (a join link may travel outside it)."""
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    if member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        return False
    return member.status != ChatMemberStatus.RESTRICTED or bool(
        getattr(member, "is_member", False))


# --------------------------------------------------------------------- buttons


async def on_press(update: Update, context: Context) -> None:
    """Any inline button of ours."""
    query = update.callback_query
    assert query is not None
    tr = user_tr(context, query.from_user)
    answered = False
    # The press is answered before the table's screen moves: the writer waits while held.
    async with context.services.outbox.hold(Press.table_of(query.data or "")):
        try:
            answered = await _handle_press(query, context, tr)
        except errors.NeedPrivateChat as err:
            await query.answer(url=join_link(context, err.table_id))
            answered = True
        except Exception as err:
            await refuse_press(query, tr, err)
            answered = True
        finally:
            if not answered:
                await query.answer()


async def _handle_press(query: CallbackQuery, context: Context, tr: Translator) -> bool:
    """Do what the press asks; True if it answered the query itself."""
    games = context.services.games
    try:
        press = Press.decode(query.data or "")
    except BadCallbackData:
        raise errors.Expired() from None
    live = games.tables.get(press.table)
    message = query.message
    if live is None or message is None \
            or not context.services.outbox.pressed_on(live, message.chat, message.message_id):
        raise errors.Expired()
    who = player_of(query.from_user)
    button = press.button
    if button is Button.CARDS:
        hand, seat = games.cards(live, who, press.hand)
        outbox = context.services.outbox
        # Asked again in the same hand: the message in the group may not have reached
        # him (Telegram does not promise it), so the popup answers too.
        again = outbox.holds_cards_here(live.id, who.id, press.hand)
        at_once = outbox.cards_here(live, who.id, seat, tr, press_id=query.id)
        # On their way into the group, for him alone: a toast says them at once; where
        # that message waits for the group's budget, the popup holds them.
        await query.answer(popup(cards_popup(tr, hand, seat)), show_alert=again or not at_once)
        return True
    if press.hand == 0:
        toast = await _lobby_button(context, live, who, button, tr)
        if toast is not None:
            await query.answer(popup(toast))
            return True
    elif button is Button.BACK:
        await games.come_back(live, who)
    elif button in _TURN or button in _SVARA:
        current = live.hand
        mine = None if current is None else current.seat_of(who.id)
        action = Action(_TURN[button], 0, press.amount) if button in _TURN \
            else Action(_SVARA[button], 0)
        events = await games.press(live, who, action, hand_id=press.hand,
                                   seq=press.seq if button in _TURN else None)
        # When the group's budget keeps the table message behind, the answer says at once
        # what the press did.
        toast = None if mine is None else press_toast(tr, events, mine)
        if toast is not None and context.services.outbox.behind(live.chat_id):
            await query.answer(popup(toast))
            return True
    else:
        raise errors.Expired()
    return False


async def _lobby_button(context: Context, live: Live, who: Player, button: Button,
                        tr: Translator) -> str | None:
    """Do what a lobby's button asks (Join also during a hand); a toast to answer with."""
    games = context.services.games
    if button is Button.JOIN:
        during = live.hand is not None
        taken = await games.join(live, who)
        if taken:
            return await sat_with_rebuy(context, live, who, taken, tr)
        if during:
            return tr.gettext(replies.SEATED_NEXT_HAND)
    elif button is Button.LEAVE:
        await games.leave(live, who)
    elif button is Button.START:
        admin = who.id == live.creator or await is_admin(context, live.chat_id, who.id)
        await games.start(live, who, is_admin=admin)
    elif button is Button.BACK:
        await games.come_back(live, who)
    else:
        raise errors.Expired()
    return None


async def on_unknown_press(update: Update, context: Context) -> None:
    """Callback data that is not ours at all: still answered."""
    query = update.callback_query
    assert query is not None
    await query.answer(popup(errors.Expired().text(user_tr(context, query.from_user))),
                       show_alert=True)


# --------------------------------------------------------------------- commands


def _table_here(context: Context, message: Message) -> Live:
    if message.chat.type == ChatType.PRIVATE:
        raise errors.GroupOnly()
    live = context.services.games.at(message.chat_id, thread_of(message))
    if live is None:
        raise errors.NoTable()
    return live


def _group_seen(message: Message, context: Context) -> None:
    """A table opens in groups only; the group is remembered as the command shows it."""
    if message.chat.type == ChatType.PRIVATE:
        raise errors.GroupOnly()
    chat = message.chat
    context.services.outbox.know(chat.id, chat.type, chat.title, chat.username)


async def on_newgame(update: Update, context: Context) -> None:
    message, who, tr = command_parts(update, context)
    games = context.services.games

    async def work() -> None:
        _group_seen(message, context)
        await games.open_table(message.chat_id, thread_of(message), who)

    await run_command(message, tr, work(), context)


async def on_tournament(update: Update, context: Context) -> None:
    """/tournament [buy-in [stack [level length]]]: open a sit-and-go tournament."""
    message, who, tr = command_parts(update, context)
    games = context.services.games

    async def work() -> None:
        _group_seen(message, context)
        settings = await games.chat_settings(message.chat_id)
        schedule = tournament_of_args(context.args or [], settings.tournament())
        await games.open_table(message.chat_id, thread_of(message), who, tournament=schedule)

    await run_command(message, tr, work(), context)


def tournament_of_args(args: list[str], default: Schedule) -> Schedule:
    """The schedule /tournament's words ask for over the chat's `default`: the buy-in, the
    starting stack and the length of a level, in hands (``10``) or minutes (``15m``), each
    optional from the end."""
    clock = default.clock if len(args) < 3 else LevelClock.HANDS
    if len(args) == 3 and args[2].lower().endswith("m"):
        args, clock = [*args[:2], args[2][:-1]], LevelClock.MINUTES
    if len(args) > 3 or not all(a.isdigit() and len(a) <= 9 for a in args):
        raise errors.BadTournament()
    given = [int(a) for a in args]
    buy_in, stack, every = given + [default.buy_in, default.stack, default.every][len(given):]
    try:
        return replace(default, buy_in=buy_in, stack=stack, every=every, clock=clock)
    except ValueError:
        raise errors.BadTournament() from None


async def on_table_command(update: Update, context: Context) -> None:
    """/leave, /back, /endgame and /bet N on this chat's (topic's) table (/join and /topup
    are in bot.seats)."""
    message, who, tr = command_parts(update, context)
    games = context.services.games
    command = command_name(message)

    async def work() -> None:
        live = _table_here(context, message)
        if command == "leave":
            await games.leave(live, who)
        elif command == "back":
            await games.come_back(live, who)
        elif command == "endgame":
            admin = who.id == live.creator or await is_admin(context, live.chat_id, who.id)
            await games.end(live, who, is_admin=admin)
            # Answered: when the hand ends, or now (unless the results message answers).
            if live.closing and live.status is not TableStatus.CLOSED:
                await reply(context, message, tr.gettext(CLOSING_AFTER_HAND))
            elif live.results is None:
                await reply(context, message, tr.gettext(CLOSED_NOW))
        elif command == "bet":
            await bet(games, live, who, context.args)

    await run_command(message, tr, work(), context)


async def on_start(update: Update, context: Context) -> None:
    """/start in private, with or without a join payload from a deep link."""
    message, who, tr = command_parts(update, context)
    if message.chat.type != ChatType.PRIVATE:
        await reply(context, message, help_text(tr))
        return
    services = context.services

    async def work() -> None:
        await services.games.player(who, private_chat=True)
        payload = context.args[0] if context.args else ""
        if not payload.startswith(JOIN_PAYLOAD):
            await reply(context, message, help_text(tr))
            return
        table_id = joined_table(services.link_secret, payload)
        live = None if table_id is None else services.games.tables.get(table_id)
        if live is None:
            raise errors.NoTable()
        if not await _is_member(context, live.chat_id, who.id):
            raise errors.NotAMember()
        await services.games.join(live, who)
        await reply(context, message, tr.gettext(replies.SEATED))

    await run_command(message, tr, work(), context)


async def on_help(update: Update, context: Context) -> None:
    message, _, tr = command_parts(update, context)
    await reply(context, message, help_text(tr))


async def on_rules(update: Update, context: Context) -> None:
    message, _, tr = command_parts(update, context)

    async def work() -> None:
        settings = await context.services.games.chat_settings(message.chat_id)
        await reply(context, message, rules_text(tr, settings))

    await run_command(message, tr, work(), context)


async def on_table(update: Update, context: Context) -> None:
    """/table: the table message again, at the bottom of the chat."""
    message, _, tr = command_parts(update, context)

    async def work() -> None:
        live = _table_here(context, message)
        await context.services.outbox.move_down(live)

    await run_command(message, tr, work(), context)


async def on_notify(update: Update, context: Context) -> None:
    """/notify on|off in private: the reminder when a turn waits, per user."""
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        if message.chat.type != ChatType.PRIVATE:
            await reply(context, message, tr.gettext(replies.NOTIFY_IN_PRIVATE))
            return
        await context.services.games.player(who)
        store = context.services.store.users
        word = (context.args or [""])[0].lower() if len(context.args or []) == 1 else ""
        if word not in ("on", "off"):
            state = await store.notify(who.id)
            await reply(context, message, tr.gettext(replies.REMINDERS_ARE_ON) if state else
                         tr.gettext(replies.REMINDERS_ARE_OFF))
            return
        await store.set_notify(who.id, word == "on")
        await reply(context, message, tr.gettext(replies.REMINDERS_ON)
                     if word == "on" else tr.gettext(replies.REMINDERS_OFF))

    await run_command(message, tr, work(), context)


async def on_added(update: Update, context: Context) -> None:
    """The bot joined a group: one message saying what it is and how to start."""
    change = update.my_chat_member
    if change is None or change.chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        return
    was = change.old_chat_member.status
    now = change.new_chat_member.status
    inside = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
    muted = now == ChatMemberStatus.RESTRICTED and not getattr(
        change.new_chat_member, "can_send_messages", True)
    outbox = context.services.outbox
    if now in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED) or muted:
        # Removed, or may not write: nobody could see or act at its tables any more. The
        # players' letters name the group as this update shows it (after a restart, the
        # bot may not have seen it since).
        chat = change.chat
        outbox.know(chat.id, chat.type, chat.title, chat.username)
        await context.services.games.evict(change.chat.id)
        return
    outbox.rights_changed(change.chat.id)
    if now not in inside or was in inside:
        return
    chat = change.chat
    outbox.know(chat.id, chat.type, chat.title, chat.username)
    tr = context.services.languages.for_message(chat.id, chat.type, change.from_user)
    await outbox.welcome(chat.id, welcome_text(tr))


async def on_migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: its tables and everything else follow to the new id."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id is not None:
        await context.services.games.migrate(message.chat_id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id is not None:
        await context.services.games.migrate(message.migrate_from_chat_id, message.chat_id)


async def on_error(update: object, context: Context) -> None:
    """Log what a handler did not handle; Telegram's refusals of late answers are expected."""
    err = context.error
    if isinstance(err, BadRequest) and "query is too old" in str(err).lower():
        log.info("a button press was answered too late: %s", err)
        return
    if isinstance(err, (TimedOut, NetworkError)):
        log.warning("Telegram did not answer in time: %s", err)
        return
    log.error("unhandled error in an update handler", exc_info=err)
