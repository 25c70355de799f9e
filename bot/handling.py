"""What every handler module shares: the services, who and where an update comes from, the
reply, and the one place where a command or a press is refused.

A command handler reads like this::

    async def on_something(update: Update, context: Context) -> None:
        message, who, tr = command_parts(update, context)

        async def work() -> None:
            ...                      # parse; call `Games`; `await reply(...)`
                                     # raise a `bot.errors.BotError` to refuse

        await run_command(message, tr, work(), context)

`run_command` answers any refusal or failure as a reply; a button press answers its
refusal with `refuse_press` (a popup). Storage failures and bugs are logged in
`logged_refusal`, once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import CallbackContext, ExtBot

from bot import errors, replies
from bot.flood import CommandGuard
from bot.games import Games
from bot.i18n import Translations, Translator
from bot.languages import Languages
from bot.live import Live, Player
from bot.names import display_name
from bot.outbox import TelegramOutbox
from bot.store import StorageFailure, Store, StoreError
from engine import Act, Action, GameError

log = logging.getLogger(__name__)

POPUP_LIMIT = 200
"""Telegram shows at most this many characters in a button's popup."""
JOIN_PAYLOAD = "j"
"""Deep-link payloads: ``j<table id in hex>_<signature>`` joins that table."""


@dataclass
class Services:
    """What the handlers share: built once at start-up (`bot.app`)."""

    store: Store
    games: Games
    translations: Translations
    outbox: TelegramOutbox
    link_secret: bytes
    """Signs the join links, so a link opens only the table it was made for."""
    languages: Languages
    """Who reads which language (`bot.languages`)."""
    guard: CommandGuard = field(default_factory=CommandGuard)
    """Who sent too many commands lately (`bot.flood`)."""
    verify_url: str | None = None
    """Where docs/verify.html is served, for the link /hand N gives (None: no link)."""


class Context(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    @property
    def services(self) -> Services:
        services = self.bot_data.get("services")
        assert isinstance(services, Services), "the bot has not finished starting"
        return services


# --------------------------------------------------------------------- who and where


def player_of(user: User) -> Player:
    return Player(user.id, display_name(user.full_name, user.id), user.language_code,
                  user.username)


def thread_of(message: Message) -> int | None:
    return message.message_thread_id if message.is_topic_message else None


def user_tr(context: Context, user: User) -> Translator:
    """The translator for the user's own language (popups, private messages)."""
    return context.services.languages.for_user(user)


def command_parts(update: Update, context: Context) -> tuple[Message, Player, Translator]:
    """The message of a command, who sent it, and the translator of who reads the reply:
    the group in its language, a private chat in the user's."""
    message = update.effective_message
    user = update.effective_user
    assert message is not None and user is not None
    tr = context.services.languages.for_message(message.chat_id, message.chat.type, user)
    return message, player_of(user), tr


def command_name(message: Message) -> str:
    """``/Bet@svara_bot 50`` -> ``bet``."""
    return (message.text or "").split()[0].split("@")[0].lstrip("/").lower()


async def is_admin(context: Context, chat_id: int, user_id: int) -> bool:
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


# --------------------------------------------------------------------- join links


def join_payload(secret: bytes, table_id: int) -> str:
    """``j<table id in hex>_<signature>``: a link nobody can make up for another table."""
    digest = hmac.new(secret, f"join:{table_id}".encode(), hashlib.sha256).digest()
    signature = base64.urlsafe_b64encode(digest[:12]).decode().rstrip("=")
    return f"{JOIN_PAYLOAD}{table_id:x}_{signature}"


def joined_table(secret: bytes, payload: str) -> int | None:
    """The table a join payload is for, if its signature is ours."""
    number, _, _ = payload[len(JOIN_PAYLOAD):].partition("_")
    if not payload.startswith(JOIN_PAYLOAD) or not 1 <= len(number) <= 12:
        return None
    try:
        table_id = int(number, 16)
    except ValueError:
        return None
    return table_id if hmac.compare_digest(join_payload(secret, table_id), payload) else None


def join_link(context: Context, table_id: int) -> str:
    payload = join_payload(context.services.link_secret, table_id)
    return f"https://t.me/{context.bot.username}?start={payload}"


# --------------------------------------------------------------------- answers


def popup(text: str) -> str:
    """`text` cut to what a popup shows."""
    return text if len(text) <= POPUP_LIMIT else text[: POPUP_LIMIT - 1] + "…"


async def reply(context: Context, message: Message, text: str, **kwargs: Any) -> None:
    """Reply to a command. The handler does not wait for it: in a group the reply is
    queued for the group's pace (a repeat of the same command by the same user replaces
    the one still queued), so no update place is held while the group's budget refills."""
    user = message.from_user
    command = (message.text or "").split(maxsplit=1)[0].split("@")[0].lower() \
        if (message.text or "").startswith("/") else ""
    context.services.outbox.reply(message, text, key=(user.id if user else 0, command),
                                  **kwargs)


def logged_refusal(err: Exception) -> errors.BotError:
    """What to tell the player about `err`; storage failures and bugs are logged here."""
    if isinstance(err, StorageFailure):
        log.warning("storage failed while handling an update: %s", err)
    elif isinstance(err, StoreError) and errors.store_refusal(err) is None:
        log.error("the store refused what the bot let through", exc_info=err)
    elif not isinstance(err, errors.BotError | GameError | StoreError):
        log.error("unexpected error while handling an update", exc_info=err)
    return errors.refusal(err)


async def refuse_press(query: CallbackQuery, tr: Translator, err: Exception) -> None:
    """Answer a button press with why it did nothing, in a popup only the presser sees."""
    await query.answer(popup(logged_refusal(err).text(tr)), show_alert=True)


async def run_command(message: Message, tr: Translator, work: Awaitable[None],
                      context: Context) -> bool:
    """Await a command's work; answer any refusal or failure as a reply. True if it went
    through. This is the one place where commands are refused."""
    try:
        await work
    except errors.NeedPrivateChat as err:
        link = join_link(context, err.table_id)
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton(tr.gettext(replies.OPEN_THE_BOT),
                                                                url=link)]])
        await reply(context, message, err.text(tr), reply_markup=keyboard)
        return False
    except Exception as err:
        await reply(context, message, logged_refusal(err).text(tr))
        return False
    return True


# --------------------------------------------------------------------- shared commands


def parse_amount(args: list[str] | None) -> int:
    """The one positive whole number a command was given (``/bet 50``)."""
    if not args or len(args) != 1 or len(args[0]) > 15 or not (
        args[0].isascii() and args[0].isdigit()
    ):
        raise errors.BadNumber()
    value = int(args[0])
    if value <= 0:
        raise errors.BadNumber()
    return value


async def bet(games: Games, live: Live, who: Player, args: list[str] | None) -> None:
    """/bet N: bet or raise to N in the hand in play (at a group's or a practice table)."""
    amount = parse_amount(args)
    if live.hand is None:
        raise errors.NoHand()
    await games.press(live, who, Action(Act.RAISE, 0, amount), hand_id=live.hand_id, seq=None)


# --------------------------------------------------------------------- repeats


REPEAT_SECONDS = 1.0


Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


def clock_of(context: Context) -> float:
    clock = context.bot_data.get("clock", time.time)
    return float(clock())


class Throttle:
    """Per user and command with its arguments: at most one answer a second (the same
    command with other arguments is another request, answered too)."""

    def __init__(self) -> None:
        self._last: dict[tuple[int, str], float] = {}

    def allow(self, user_id: int, command: str, now: float) -> bool:
        last = self._last.get((user_id, command))
        if last is not None and 0 <= now - last < REPEAT_SECONDS:
            return False
        self._last[(user_id, command)] = now
        if len(self._last) > 10_000:
            self._last = {k: v for k, v in self._last.items() if now - v < REPEAT_SECONDS}
        return True


def throttled(name: str, handler: Handler) -> Handler:
    async def run(update: Update, context: Context) -> None:
        user = update.effective_user
        if user is None or update.effective_message is None:
            return
        throttle = context.bot_data.setdefault("throttle", Throttle())
        asked = " ".join([name, *(context.args or [])])
        if throttle.allow(user.id, asked, clock_of(context)):
            await handler(update, context)

    return run


def in_group(message: Message) -> bool:
    return message.chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def remember_title(context: Context, message: Message) -> None:
    """Keep the group's name, so statements can say where chips are."""
    if in_group(message) and message.chat.title:
        await context.services.store.history.set_title(message.chat_id, message.chat.title)
