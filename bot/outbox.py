"""The table's voice in Telegram: one table message edited in place, cards by DM.

Telegram errors never stop a table: "not modified" is nothing to do, a lost message is
sent again, a flood wait or a timeout schedules the same edit for later, and a player who
cannot be written to privately still has the "My cards" button.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, WebAppInfo
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import Application

from bot import replies
from bot.games import Live, Told
from bot.i18n import Translations, Translator
from bot.pacing import EDIT, URGENT, GroupPace
from bot.render import (
    WEB_APP,
    PrivateHand,
    Screen,
    moved_text,
    nudge_text,
    render_cards,
    render_table,
    results_text,
    table_link,
    with_app_button,
)
from bot.store import TableStatus
from engine import Hand

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
"""How soon a table message that could not be sent is tried again."""

SEND_TRIES = 8
"""Tries of one message through flood waits and network errors (backing off up to
`BACKOFF_MAX` seconds) before it is counted as lost."""
BACKOFF_MAX = 30.0
RESULTS_AGAIN = 60.0
"""Seconds before a results message lost after `SEND_TRIES` is sent again (the pause
doubles up to `RESULTS_AGAIN_MAX`), for as long as the bot runs; after a stop the next
start sends it."""
RESULTS_AGAIN_MAX = 900.0

REPLIES_KEPT = 20
"""Replies one group may have waiting for its pace; past that the oldest is dropped."""

LAG_NOTE = 1.0
"""Seconds the table message may lag behind a press before the press's answer says what
it did ("Raised to 100")."""


class Delivery(Enum):
    """How a message ended."""

    SENT = "sent"
    BLOCKED = "blocked"
    """The recipient blocked the bot, or the bot may not write to the group (403)."""
    REFUSED = "refused"
    """Telegram refused it for good (a 400: chat not found, a bad message)."""
    SUPERSEDED = "superseded"
    """Not worth sending any more (a reminder of a turn that has passed)."""
    LOST = "lost"
    """Every try failed on flood waits or the network."""

    @property
    def settled(self) -> bool:
        """Nothing more can be done for it (a restart would not help either)."""
        return self is not Delivery.LOST


@dataclass(frozen=True, slots=True)
class ChatInfo:
    """What the bot needs to know of a group to name it and link to it."""

    type: str
    title: str
    username: str | None = None


def markup(screen: Screen) -> InlineKeyboardMarkup | None:
    if not screen.buttons:
        return None
    return InlineKeyboardMarkup([[_button(label, data) for label, data in row]
                                 for row in screen.buttons])


def _button(label: str, data: str) -> InlineKeyboardButton:
    """A press, or the Mini App's link (`bot.render.with_app_button`)."""
    if data.startswith("https://"):
        return InlineKeyboardButton(label, url=data)
    if data.startswith(WEB_APP):
        return InlineKeyboardButton(label, web_app=WebAppInfo(data[len(WEB_APP):]))
    return InlineKeyboardButton(label, callback_data=data)


def digest(screen: Screen) -> str:
    """A short fingerprint of a screen: equal screens, equal digests (kept with the table)."""
    data = json.dumps([screen.text, screen.buttons], ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(data.encode(), digest_size=12).hexdigest()


def _retry_delay(err: Exception) -> float:
    if isinstance(err, RetryAfter):
        after = err.retry_after  # seconds, or a timedelta with PTB_TIMEDELTA
        seconds = after.total_seconds() if hasattr(after, "total_seconds") else float(after)
        return seconds + 0.1
    return RETRY_SECONDS


@dataclass(eq=False)
class TableMessage:
    """A table's message in its chat, as the outbox last put it there."""

    id: int | None = None
    """The message edited in place (None: not sent yet, or lost: the next screen is sent
    anew)."""
    shown: str | None = None
    """A digest of the screen it shows (to skip edits that change nothing); stored with the
    table, so a restart knows it too."""
    retired: set[int] = field(default_factory=set)
    """Earlier table messages (moved down by /table): their buttons are expired."""


@dataclass(eq=False)
class _Writer:
    """One table's screen writer: the newest screen not yet in the chat, and who holds it."""

    live: Live
    pending: Screen | None = None
    backing_off: bool = False
    """Telegram refused or did not answer: the writer waits before it tries again."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    closed: bool = False
    """The table's close was seen: its results are on their way."""


class TelegramOutbox:
    """`bot.games.Outbox` over a python-telegram-bot `Application`.

    The table message is written by one task per table, outside the table's lock: `show`
    only leaves the newest screen for it. The writer waits for the group's next slot
    (`GroupPace`), then sends whatever screen is newest by then, so screens superseded in
    the meantime are never sent, and a press is never kept waiting for Telegram.
    """

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any],
                 translations: Translations, pace: GroupPace | None = None,
                 now: Callable[[], float] = time.time) -> None:
        self.app = app
        self.told: Told | None = None
        """Who is told what reached the chats (`Games`, which keeps it in the store)."""
        self.translations = translations
        self.pace = pace or GroupPace()
        self.now = now
        self.lag_note = LAG_NOTE
        self._writers: dict[int, _Writer] = {}
        self._holds: dict[int, int] = {}
        self._failures: dict[int, int] = {}
        self._sending: set[asyncio.Task[None]] = set()
        self._cards: dict[int, tuple[int, dict[int, int]]] = {}
        """Table id to its hand's card messages: (hand id, player to message id)."""
        self._reminders: dict[int, tuple[Hand, int, int, int]] = {}
        """Table id to the reminder sent for its turn: (the hand, its turn, the player, the
        message), taken away once that turn has passed."""
        self._chats: dict[int, ChatInfo] = {}
        self._may_pin: dict[int, bool] = {}
        self._pinned: dict[int, int] = {}
        """Table id to the message pinned for it."""
        self._messages: dict[int, TableMessage] = {}
        self._replies: dict[int, dict[object, list[tuple[Message, str, dict[str, Any]]]]] = {}
        """Per group, the replies waiting for its pace, by who asked what: the replies to
        the newest such request only."""
        self._answering: set[int] = set()
        """Groups whose queued replies are being sent."""
        self.replies_dropped = 0
        self._stopping = False
        self.delivered: Counter[str] = Counter()
        """Messages by how they ended (`Delivery`), and tries that met a flood wait."""
        self.app_link: Callable[[Live, bool], str | None] | None = None
        """The table's Mini App, when the bot serves one (`bot.miniapp`): its link for the
        table's own chat, or (True) the page for a ``web_app`` button in a private chat."""

    # ----------------------------------------------------------------- what the chat shows

    def resume(self, live: Live, *, message_id: int | None, shown: str | None) -> None:
        """After a restart: the table's message and what it showed, as last stored."""
        self._messages[live.id] = TableMessage(message_id, shown)

    def message_id(self, table_id: int) -> int | None:
        """The table message of a live table (None before the first is sent)."""
        message = self._messages.get(table_id)
        return None if message is None else message.id

    def retired(self, table_id: int, message_id: int) -> bool:
        """Whether `message_id` is an earlier message of the table (its buttons expired)."""
        message = self._messages.get(table_id)
        return message is not None and message_id in message.retired

    def _message(self, live: Live) -> TableMessage:
        return self._messages.setdefault(live.id, TableMessage())

    # ----------------------------------------------------------------- the table message

    def show(self, live: Live) -> None:
        """Make `live` as it is now the next screen of its table message."""
        self._turn_passed(live)
        tr = self.translations.get(live.language)
        screen = render_table(live.view(self.now()), tr)
        if self.app_link is not None and live.status is not TableStatus.CLOSED:
            screen = with_app_button(screen, tr, self.app_link(live, live.chat_id > 0))
        writer = self._writers.get(live.id)
        if writer is None:
            writer = self._writers[live.id] = _Writer(live)
        if live.status is TableStatus.CLOSED and not writer.closed:
            writer.closed = True
            self._background(self._after_close(live))
        writer.live = live
        writer.pending = None if digest(screen) == self._message(live).shown else screen
        if writer.pending is None:
            return
        writer.wake.set()
        if writer.task is None or writer.task.done():
            writer.task = asyncio.get_running_loop().create_task(self._write(writer))

    @contextlib.asynccontextmanager
    async def hold(self, table_id: int | None) -> AsyncIterator[None]:
        """While held, the table's screen waits: a press is answered before the screen moves."""
        if table_id is None:
            yield
            return
        self._holds[table_id] = self._holds.get(table_id, 0) + 1
        try:
            yield
        finally:
            left = self._holds.pop(table_id) - 1
            if left:
                self._holds[table_id] = left
            writer = self._writers.get(table_id)
            if writer is not None:
                writer.wake.set()

    def figures(self) -> dict[str, float]:
        """What waits and how messages ended, for the operator's metrics."""
        return {
            "screens_waiting": float(sum(1 for w in self._writers.values()
                                         if w.pending is not None)),
            "replies_waiting": float(sum(len(v) for q in self._replies.values()
                                         for v in q.values())),
            "replies_merged": float(self.replies_dropped),
            **{f"messages_{how}": float(n) for how, n in self.delivered.items()},
        }

    @property
    def busy(self) -> bool:
        """A screen or a group message is due or being written (one waiting to try again
        after an error is not)."""
        return bool(self._sending) or any(
            w.task is not None and not w.task.done() and not w.backing_off
            for w in self._writers.values())

    async def _write(self, writer: _Writer) -> None:
        """Send the newest screen whenever the group's budget allows; stop when none is due."""
        while writer.pending is not None:
            live = writer.live
            if self._holds.get(live.id):
                writer.wake.clear()
                await writer.wake.wait()
                continue
            message = self._message(live)
            await self.pace.slot(live.chat_id, URGENT if message.id is None else EDIT)
            screen = writer.pending
            if screen is None or digest(screen) == message.shown or self._holds.get(live.id):
                self.pace.give_back(live.chat_id)
                if screen is not None and digest(screen) == message.shown:
                    writer.pending = None
                continue
            writer.pending = None
            delay = await self._send(live, screen, self._message(live))
            if delay is not None:
                if writer.pending is None:
                    writer.pending = screen
                writer.backing_off = True
                try:
                    await asyncio.sleep(delay)
                finally:
                    writer.backing_off = False
        if writer.live.status is TableStatus.CLOSED:
            self._writers.pop(writer.live.id, None)
            self._messages.pop(writer.live.id, None)

    async def _send(self, live: Live, screen: Screen, message: TableMessage) -> float | None:
        """Put `screen` in the chat as `message`; seconds to wait before trying again, or
        None."""
        try:
            await self._put(live, screen, message)
        except BadRequest as err:
            text = str(err).lower()
            if "not modified" in text:
                await self._shown(live, screen, message)
                return None
            if "message to edit not found" in text or "message can't be edited" in text:
                message.id = None
                return 0.0
            return self._refused(live, err, message)
        except ChatMigrated as err:
            # The group became a supergroup: the table follows, and is posted there anew.
            self._chat_moved(live.chat_id, err.new_chat_id)
            return None
        except Forbidden as err:
            log.warning("table %s: cannot write to chat %s: %s", live.id, live.chat_id, err)
            self._chat_gone(live.chat_id)
            return None
        except (RetryAfter, NetworkError) as err:
            log.info("table %s: table message delayed (%s)", live.id, err)
            return _retry_delay(err)
        self._failures.pop(live.id, None)
        return None

    def _refused(self, live: Live, err: BadRequest, message: TableMessage) -> float | None:
        """An unexpected 400: try the edit once more, then post a fresh table message,
        rather than leave the players with the buttons of a turn that is over."""
        failures = self._failures.get(live.id, 0) + 1
        self._failures[live.id] = failures
        log.warning("table %s: Telegram refused the table message (%d): %s",
                    live.id, failures, err)
        if failures == 1:
            return RETRY_SECONDS
        if failures == 2:
            message.id = None
            return 0.0
        return None

    async def _put(self, live: Live, screen: Screen, message: TableMessage) -> None:
        bot = self.app.bot
        if message.id is None:
            sent = await bot.send_message(
                live.chat_id, screen.text, parse_mode=ParseMode.HTML,
                reply_markup=markup(screen), message_thread_id=live.thread_id,
                disable_web_page_preview=True,
            )
            message.id = sent.message_id
            if live.status is not TableStatus.CLOSED and self.told is not None:
                await self.told.message_sent(live, sent.message_id)
            await self._shown(live, screen, message)
            if live.status is not TableStatus.CLOSED:
                self._pin_soon(live, sent.message_id)
            return
        if live.status is not TableStatus.CLOSED and self._pinned.get(live.id) != message.id:
            self._pin_soon(live, message.id)
        await bot.edit_message_text(
            screen.text, chat_id=live.chat_id, message_id=message.id,
            parse_mode=ParseMode.HTML, reply_markup=markup(screen),
            disable_web_page_preview=True,
        )
        await self._shown(live, screen, message)

    async def _shown(self, live: Live, screen: Screen, message: TableMessage) -> None:
        """The chat shows `screen` now: remember it, with the table, for after a restart."""
        shown = message.shown = digest(screen)
        if live.status is not TableStatus.CLOSED and self.told is not None:
            await self.told.shown(live, shown)

    # ----------------------------------------------------------------- the sending path

    async def _deliver(self, what: str, chat_id: int, send: Callable[[], Awaitable[object]],
                       *, paced: bool = False,
                       wanted: Callable[[], bool] | None = None) -> Delivery:
        """Send one message the way every message but the table's goes out: through the
        group's pace when `paced`, again after a flood wait (as long as Telegram asks) or a
        network error (backing off), until it is sent, refused for good, no longer
        `wanted`, or `SEND_TRIES` are used up. Each end is counted; losses are logged."""
        backoff = 1.0
        for attempt in range(1, SEND_TRIES + 1):
            if self._stopping:
                log.warning("%s to %s not sent: the bot is stopping", what, chat_id)
                return self._ended(Delivery.LOST)
            if wanted is not None and not wanted():
                log.info("%s to %s superseded before try %d", what, chat_id, attempt)
                return self._ended(Delivery.SUPERSEDED)
            if paced:
                await self.pace.slot(chat_id, URGENT)
            try:
                await send()
            except RetryAfter as err:
                pause = _retry_delay(err)
                self.delivered["flood waits"] += 1
                log.info("%s to %s: flood wait of %.1f s (try %d)", what, chat_id, pause,
                         attempt)
            except ChatMigrated as err:
                self._chat_moved(chat_id, err.new_chat_id)
                return self._ended(Delivery.REFUSED)
            except Forbidden as err:
                log.info("%s to %s: blocked (%s)", what, chat_id, err)
                if chat_id < 0:
                    self._chat_gone(chat_id)
                return self._ended(Delivery.BLOCKED)
            except BadRequest as err:
                log.info("%s to %s refused: %s", what, chat_id, err)
                return self._ended(Delivery.REFUSED)
            except (TimedOut, NetworkError) as err:
                pause, backoff = backoff, min(BACKOFF_MAX, backoff * 2)
                log.info("%s to %s: %s (try %d)", what, chat_id, err, attempt)
            except TelegramError as err:
                log.info("%s to %s refused: %s", what, chat_id, err)
                return self._ended(Delivery.REFUSED)
            else:
                return self._ended(Delivery.SENT)
            try:
                await asyncio.sleep(pause)
            except asyncio.CancelledError:
                log.warning("%s to %s lost: the bot stopped before it could try again",
                            what, chat_id)
                self._ended(Delivery.LOST)
                raise
        log.warning("%s to %s lost after %d tries", what, chat_id, SEND_TRIES)
        return self._ended(Delivery.LOST)

    def _ended(self, how: Delivery) -> Delivery:
        self.delivered[how.value] += 1
        return how

    # ----------------------------------------------------------------- private messages

    def send_cards(self, live: Live, hands: list[tuple[PrivateHand, str | None]], *,
                   hand_id: int, rounds: int) -> None:
        """Send the cards in the background: the table's lock is not held for DMs."""
        self._background(self._send_all(live, hands, hand_id, rounds))

    async def _send_all(self, live: Live, hands: list[tuple[PrivateHand, str | None]],
                        hand_id: int, rounds: int) -> None:
        if self._cards.get(live.id, (0, {}))[0] != hand_id:
            self._cards[live.id] = (hand_id, {})
        ended = await asyncio.gather(*(self._send_cards(live, private, language, hand_id)
                                       for private, language in hands))
        if self.told is not None and all(how.settled for how in ended):
            # Until this is recorded, a restart sends the round's cards again.
            await self.told.cards_sent(live, hand_id, rounds)

    def crowded(self) -> bool:
        """The overall budget is short (the limiter says so): private messages that can be
        read elsewhere give way, so the tables' screens keep their pace."""
        limiter = getattr(self.app.bot, "rate_limiter", None)
        return bool(getattr(limiter, "crowded", False))

    async def _send_cards(self, live: Live, private: PrivateHand, language: str | None,
                          hand_id: int) -> Delivery:
        player = private.player
        if self.crowded() and player != live.chat_id:
            # The "My cards" button shows them (a popup: Telegram does not count it).
            log.info("table %s: cards to %s left to My cards (the budget is short)",
                     live.id, player)
            return self._ended(Delivery.SUPERSEDED)
        tr = self.translations.get(language)
        chat = await self.chat_info(live.chat_id)
        text = render_cards(tr, private, None if chat is None else chat.title)
        sent = self._cards.get(live.id, (0, {}))[1]
        earlier = sent.get(player)
        if earlier is not None:
            # A svara's cards replace the hand's: one card message per hand.
            how = await self._deliver(
                "cards", player,
                partial(self.app.bot.edit_message_text, text, player, earlier,
                        parse_mode=ParseMode.HTML, reply_markup=self._app_button(live, tr)),
                wanted=lambda: live.hand_id == hand_id)
            if how is not Delivery.REFUSED:
                return how
            # The earlier message is gone: the cards go out as a new one.

        async def send() -> None:
            message = await self.app.bot.send_message(player, text, parse_mode=ParseMode.HTML,
                                                      reply_markup=self._app_button(live, tr))
            sent[player] = message.message_id

        how = await self._deliver(
            "cards", player, send,
            # A practice table's cards go into the chat of its table message: its pace.
            paced=player == live.chat_id,
            # Worth sending until the next hand is dealt (a round that ended at once too).
            wanted=lambda: live.hand_id == hand_id)
        if how is Delivery.BLOCKED:
            # Blocked or never started: "My cards" still shows his hand in the group.
            await self._no_private_chat(player)
        return how

    async def _no_private_chat(self, player: int) -> None:
        if self.told is not None:
            await self.told.blocked(player)

    def _chat_moved(self, old: int, new: int) -> None:
        if self.told is not None:
            self._background(self.told.chat_moved(old, new))

    def _chat_gone(self, chat_id: int) -> None:
        if self.told is not None:
            self._background(self.told.chat_gone(chat_id))

    def moved(self, live: Live) -> None:
        """The table's chat has a new id: the old message is gone with the old chat, so
        the next screen is a new message (pinned again where the bot may pin)."""
        self._messages[live.id] = TableMessage()
        self._pinned.pop(live.id, None)
        info = self._chats.get(live.chat_id)
        if info is None:
            self._may_pin.pop(live.chat_id, None)

    def evicted(self, live: Live, players: list[tuple[int, str | None]]) -> None:
        """Tell each player privately why his table closed (the group is out of reach)."""
        self._background(self._tell_evicted(live, players))

    async def _tell_evicted(self, live: Live, players: list[tuple[int, str | None]]) -> None:
        info = self._chats.get(live.chat_id)
        for player, language in players:
            tr = self.translations.get(language)
            text = tr.format(replies.TABLE_CLOSED_NO_GROUP,
                             group=info.title if info is not None and info.title
                             else tr.gettext(replies.YOUR_GROUP))
            await self._deliver("closing notice", player, partial(
                self.app.bot.send_message, player, text, parse_mode=ParseMode.HTML))

    # ----------------------------------------------------------------- replies

    def reply(self, message: Message, text: str, *, key: object, **kwargs: Any) -> None:
        """Answer `message` without holding up its handler: in a group the reply waits
        for the group's pace in a queue of its own, where a repeat of the same request
        (`key`) replaces the one still waiting."""
        kwargs.setdefault("parse_mode", ParseMode.HTML)
        if message.chat.type == "private":
            self._background(self._reply_now(message, text, kwargs, paced=False))
            return
        queue = self._replies.setdefault(message.chat_id, {})
        waiting = queue.pop(key, [])
        if waiting and waiting[0][0].message_id != message.message_id:
            self.replies_dropped += len(waiting)  # an earlier request of the same
            waiting = []
        queue[key] = [*waiting, (message, text, kwargs)]
        while len(queue) > REPLIES_KEPT:
            self.replies_dropped += len(queue.pop(next(iter(queue))))
        if message.chat_id not in self._answering:
            self._answering.add(message.chat_id)
            self._background(self._send_replies(message.chat_id))

    async def _send_replies(self, chat_id: int) -> None:
        try:
            queue = self._replies.get(chat_id)
            while queue:
                key = next(iter(queue))
                waiting = queue[key]
                message, text, kwargs = waiting.pop(0)
                if not waiting:
                    del queue[key]
                await self._reply_now(message, text, kwargs, paced=True)
        finally:
            self._answering.discard(chat_id)
            if not self._replies.get(chat_id):
                self._replies.pop(chat_id, None)

    async def _reply_now(self, message: Message, text: str, kwargs: dict[str, Any], *,
                         paced: bool) -> None:
        await self._deliver("reply", message.chat_id,
                            partial(message.reply_text, text, **kwargs), paced=paced)

    # ----------------------------------------------------------------- the group itself

    def know(self, chat_id: int, chat_type: str, title: str | None,
             username: str | None) -> None:
        """Remember a group as an update showed it (its name for card messages and nudges)."""
        if chat_type in ("group", "supergroup"):
            self._chats[chat_id] = ChatInfo(chat_type, title or "", username)

    async def chat_info(self, chat_id: int) -> ChatInfo | None:
        """The group as last seen, or asked of Telegram once (after a restart)."""
        info = self._chats.get(chat_id)
        if info is not None:
            return info
        try:
            chat = await self.app.bot.get_chat(chat_id)
        except TelegramError as err:
            log.info("could not look up chat %s: %s", chat_id, err)
            return None
        self.know(chat_id, chat.type, chat.title, chat.username)
        return self._chats.get(chat_id)

    async def group_message(self, chat_id: int, thread_id: int | None, text: str) -> bool:
        """A new message in a group, through the group's pace, ahead of edits."""
        how = await self._deliver("group message", chat_id, partial(
            self.app.bot.send_message, chat_id, text, parse_mode=ParseMode.HTML,
            message_thread_id=thread_id, disable_web_page_preview=True), paced=True)
        return how is Delivery.SENT

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` as one of the application's tasks: its errors reach the error
        handler, and stopping the application waits for it. Before the application runs
        (the start-up restore) or once it has stopped, the task is the loop's own, its
        failure logged here (PTB would warn on stderr that it will not await it);
        `stop_sending` still ends it."""
        if self.app.running:
            task = self.app.create_task(work, name="outbox")
        else:
            task = asyncio.get_running_loop().create_task(work, name="outbox")
            task.add_done_callback(_log_failure)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def move_down(self, live: Live) -> None:
        """/table: post the table message anew at the bottom; the old one points down and
        loses its buttons (a press on it is answered as expired)."""
        message = self._message(live)
        old = message.id
        retired = set(message.retired)
        if old is not None:
            retired.add(old)
        was_pinned = old is not None and self._pinned.get(live.id) == old
        if was_pinned:
            del self._pinned[live.id]  # the new message is pinned in its place
        # A record of its own: an edit of the old message still on its way writes to the
        # old record, and cannot take the new message's place.
        self._messages[live.id] = TableMessage(None, None, retired)
        self.show(live)
        if old is None:
            return
        tr = self.translations.get(live.language)
        await self.pace.slot(live.chat_id, EDIT)
        try:
            await self.app.bot.edit_message_text(moved_text(tr), chat_id=live.chat_id,
                                                 message_id=old, parse_mode=ParseMode.HTML,
                                                 reply_markup=None)
        except TelegramError as err:
            log.info("table %s: could not point the old message down: %s", live.id, err)
        if was_pinned:
            await self._unpin(live, old)

    async def _may_pin_in(self, chat_id: int) -> bool:
        known = self._may_pin.get(chat_id)
        if known is not None:
            return known
        try:
            me = await self.app.bot.get_chat_member(chat_id, self.app.bot.id)
        except TelegramError:
            return False
        may = bool(getattr(me, "can_pin_messages", False)) or me.status == "creator"
        self._may_pin[chat_id] = may
        return may

    def _pin_soon(self, live: Live, message_id: int) -> None:
        """Pin in the background; not once the bot is stopping (a message sent as it stops
        is pinned by the first edit after the restart)."""
        if not self._stopping and self.app.running:
            self._background(self._pin(live, message_id))

    async def _pin(self, live: Live, message_id: int) -> None:
        """Pin the table message from the moment it is posted until the table closes, where
        the bot may pin. Pinned in the lobby, while the group's minute has room, the pin
        never takes the slot of a turn's screen once the game runs."""
        if self._pinned.get(live.id) == message_id or not await self._may_pin_in(live.chat_id):
            return
        self._pinned[live.id] = message_id
        await self.pace.slot(live.chat_id, EDIT)
        try:
            await self.app.bot.pin_chat_message(live.chat_id, message_id,
                                                disable_notification=True)
        except TelegramError as err:
            log.info("table %s: could not pin its message: %s", live.id, err)
            self._may_pin[live.chat_id] = False
            self._pinned.pop(live.id, None)

    async def _unpin(self, live: Live, message_id: int | None = None) -> None:
        """Unpin `message_id`, or the message pinned for the table now."""
        if message_id is None:
            message_id = self._pinned.pop(live.id, None)
        if message_id is None:
            return
        await self.pace.slot(live.chat_id, EDIT)
        try:
            await self.app.bot.unpin_chat_message(live.chat_id, message_id)
        except TelegramError as err:
            log.info("table %s: could not unpin its message: %s", live.id, err)

    async def _after_close(self, live: Live) -> None:
        """A table closed: its results message (if a hand was played), and no pin left."""
        self._cards.pop(live.id, None)
        self._reminders.pop(live.id, None)
        await self._unpin(live)
        await self._send_results(live)

    def results_again(self, live: Live) -> None:
        """After a restart: a closed table's results message that had not arrived."""
        self._background(self._send_results(live))

    async def _send_results(self, live: Live) -> None:
        """The results message; once it has reached the chat, or the chat refused it for
        good, the store is told (until then it is due, and a restart sends it again). One
        lost through every try is sent again later while the bot runs."""
        if live.results is None:
            return
        results, names = live.results
        tr = self.translations.get(live.language)
        send = partial(
            self.app.bot.send_message, live.chat_id, results_text(tr, names, results),
            parse_mode=ParseMode.HTML, message_thread_id=live.thread_id,
            disable_web_page_preview=True)
        pause = RESULTS_AGAIN
        while await self._deliver("results message", live.chat_id, send,
                                  paced=True) is Delivery.LOST:
            if self._stopping:
                return  # still due: the next start sends it
            log.warning("table %s: its results message is sent again in %.0f s", live.id,
                        pause)
            await asyncio.sleep(pause)  # a stop cancels it here, still due
            pause = min(RESULTS_AGAIN_MAX, pause * 2)
        if self.told is not None:
            await self.told.results_sent(live)

    # ----------------------------------------------------------------- reminders

    def remind(self, live: Live, player: int, language: str | None, left: int) -> None:
        """Tell `player` privately that the table waits for him (in the background)."""
        hand = live.hand
        if hand is not None:
            self._background(self._remind(live, hand, len(hand.actions), player, language,
                                          left))

    async def _remind(self, live: Live, hand: Hand, turn: int, player: int,
                      language: str | None, left: int) -> None:
        if self.crowded():
            log.info("table %s: no reminder to %s (the budget is short)", live.id, player)
            self._ended(Delivery.SUPERSEDED)
            return
        chat = await self.chat_info(live.chat_id)
        tr = self.translations.get(language)
        text = nudge_text(tr, chat.title if chat is not None else "", hand, left)
        link = None if chat is None else table_link(chat.type, live.chat_id, chat.username,
                                                    self.message_id(live.id))
        keyboard = self._app_button(live, tr) or (None if link is None else InlineKeyboardMarkup(
            [[InlineKeyboardButton(tr.gettext("Open the table"), url=link)]]))
        async def send() -> None:
            message = await self.app.bot.send_message(player, text, parse_mode=ParseMode.HTML,
                                                      reply_markup=keyboard)
            self._reminders[live.id] = (hand, turn, player, message.message_id)

        how = await self._deliver("reminder", player, send,
                                  wanted=lambda: live.hand is hand and len(hand.actions) == turn)
        if how is Delivery.BLOCKED:
            await self._no_private_chat(player)

    def _turn_passed(self, live: Live) -> None:
        """The turn a reminder was sent for is over: the reminder goes, the chat stays short."""
        reminder = self._reminders.get(live.id)
        if reminder is None:
            return
        hand, turn, player, message_id = reminder
        if live.hand is hand and len(hand.actions) == turn:
            return
        del self._reminders[live.id]

        async def remove() -> None:
            await self._deliver("reminder removal", player,
                                partial(self.app.bot.delete_message, player, message_id))

        self._background(remove())

    async def stop_sending(self) -> None:
        """Stopping: messages still waiting to try again give up now (each is counted and
        logged), so nothing holds the shutdown."""
        self._stopping = True
        waiting = [task for task in self._sending if not task.done()]
        for task in waiting:
            task.cancel()
        for task in waiting:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    def _app_button(self, live: Live, tr: Translator) -> InlineKeyboardMarkup | None:
        """In a private chat, the button that opens the table's Mini App (if served)."""
        page = None if self.app_link is None else self.app_link(live, True)
        return None if page is None else markup(with_app_button(Screen(""), tr, page))

    def stop(self) -> None:
        for writer in self._writers.values():
            if writer.task is not None:
                writer.task.cancel()


def _log_failure(task: asyncio.Task[None]) -> None:
    """A send started outside the running application failed: say so in the log."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("a message could not be sent: %s: %s", type(error).__name__, error,
                  exc_info=error)
