"""The table's voice in Telegram: the state every part of the outbox shares, and the one
sending path every message takes.

Telegram errors never stop a table: "not modified" is nothing to do, a lost message is
sent again, a flood wait or a timeout schedules the same edit for later, and a player who
cannot be written to privately still has the "My cards" button."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, WebAppInfo
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

from bot.ephemeral_api import EphemeralMessage, EphemeralRefused
from bot.i18n import Translations, Translator
from bot.live import Live, Told
from bot.pacing import URGENT, GroupPace
from bot.render.messages import WEB_APP
from bot.render.views import Screen
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


def retry_delay(err: Exception) -> float:
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
class Writer:
    """One table's screen writer: the newest screen not yet in the chat, and who holds it."""

    live: Live
    pending: Screen | None = None
    backing_off: bool = False
    """Telegram refused or did not answer: the writer waits before it tries again."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    closed: bool = False
    """The table's close was seen: its results are on their way."""


@dataclass(eq=False)
class Hidden:
    """One member's message in the group, shown to him alone, for one hand."""

    message: EphemeralMessage
    hand_id: int
    seat: int
    tr: Translator
    shown: str
    """A digest of what it shows."""
    pending: Screen | None = None
    """The newest screen not yet written to it."""
    gone: bool = False
    """The hand is over (or a newer message took its place): it is to be deleted."""
    busy: bool = False
    """A writer is at work on it."""


class OutboxBase(ABC):
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
        self._writers: dict[int, Writer] = {}
        self._holds: dict[int, int] = {}
        self._failures: dict[int, int] = {}
        self._sending: set[asyncio.Task[None]] = set()
        self._cards: dict[int, tuple[int, dict[int, int]]] = {}
        """Table id to its hand's card messages: (hand id, player to message id)."""
        self._reminders: dict[int, tuple[Hand, int, int, int]] = {}
        """Table id to the reminder sent for its turn: (the hand, its turn, the player, the
        message), taken away once that turn has passed."""
        self._chats: dict[int, ChatInfo] = {}
        self._asking: dict[int, asyncio.Future[ChatInfo | None]] = {}
        """Groups whose title is being asked of Telegram, and the answer to share."""
        self._rights: dict[int, tuple[bool, bool]] = {}
        """Per group: whether the bot is a chat admin there (it may then show a member his
        cards there at any time), and whether it may pin."""
        self._hidden: dict[int, dict[int, Hidden]] = {}
        """Table id to each member's message in its group shown to him alone (bot.outbox.hidden)."""
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

    async def _deliver(self, what: str, chat_id: int, send: Callable[[], Awaitable[object]],
                       *, paced: bool | None = None,
                       wanted: Callable[[], bool] | None = None) -> Delivery:
        """Send one message the way every message but the table's goes out: through the
        chat's pace when `paced` (by default: when the chat is a group), again after a
        flood wait (as long as Telegram asks) or a network error (backing off), until it
        is sent, refused for good, no longer `wanted`, or `SEND_TRIES` are used up. Each
        end is counted; losses are logged."""
        if paced is None:
            paced = chat_id < 0  # every call into a group counts against its budget
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
                pause = retry_delay(err)
                self.delivered["flood waits"] += 1
                log.info("%s to %s: flood wait of %.1f s (try %d)", what, chat_id, pause,
                         attempt)
            except EphemeralRefused as err:
                log.info("%s to %s refused: %s", what, chat_id, err)
                return self._ended(Delivery.REFUSED)
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
            task.add_done_callback(log_failure)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _no_private_chat(self, player: int) -> None:
        if self.told is not None:
            await self.told.blocked(player)

    def _chat_moved(self, old: int, new: int) -> None:
        if self.told is not None:
            self._background(self.told.chat_moved(old, new))

    def _chat_gone(self, chat_id: int) -> None:
        if self.told is not None:
            self._background(self.told.chat_gone(chat_id))

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

    def stop(self) -> None:
        for writer in self._writers.values():
            if writer.task is not None:
                writer.task.cancel()

    # ----------------------------------------------------------------- the other jobs
    # What one part of the class asks of another (each defined in its own module).

    @abstractmethod
    def message_id(self, table_id: int) -> int | None:
        """The table message of a live table (bot.outbox.table)."""

    @abstractmethod
    def crowded(self) -> bool:
        """The bot's overall budget is short (bot.outbox.private)."""

    @abstractmethod
    async def hidden_cards(self, live: Live, player: int, seat: int, tr: Translator, *,
                           press_id: str | None = None) -> bool:
        """Show a member his cards in the group, to him alone (bot.outbox.hidden)."""

    @abstractmethod
    def holds_cards_here(self, table_id: int, player: int, hand_id: int) -> bool:
        """Whether a member holds his cards in the group for this hand (bot.outbox.hidden)."""

    @abstractmethod
    async def is_admin_in(self, chat_id: int) -> bool:
        """Whether the bot is an admin of the group (bot.outbox.group)."""

    @abstractmethod
    def _follow_hidden(self, live: Live) -> None:
        """Each member's hidden message follows the table (bot.outbox.hidden)."""

    @abstractmethod
    def know(self, chat_id: int, chat_type: str, title: str | None,
             username: str | None) -> None:
        """Remember a group as an update showed it (bot.outbox.group)."""

    @abstractmethod
    async def chat_info(self, chat_id: int) -> ChatInfo | None:
        """The group as last seen, or asked of Telegram once (bot.outbox.group)."""

    @abstractmethod
    def _pin_soon(self, live: Live, message_id: int) -> None:
        """Pin the table message in the background (bot.outbox.group)."""

    @abstractmethod
    async def _unpin(self, live: Live, message_id: int | None = None) -> None:
        """Unpin `message_id`, or the message pinned for the table now (bot.outbox.group)."""

    @abstractmethod
    async def _after_close(self, live: Live) -> None:
        """A table closed: its results message, and no pin left (bot.outbox.group)."""

    @abstractmethod
    def _turn_passed(self, live: Live) -> None:
        """The turn a reminder was sent for is over (bot.outbox.reminders)."""

    @abstractmethod
    def _app_button(self, live: Live, tr: Translator) -> InlineKeyboardMarkup | None:
        """In a private chat, the button that opens the Mini App (bot.outbox.private)."""


def log_failure(task: asyncio.Task[None]) -> None:
    """A send started outside the running application failed: say so in the log."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("a message could not be sent: %s: %s", type(error).__name__, error,
                  exc_info=error)
