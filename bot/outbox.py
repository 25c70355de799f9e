"""The table's voice in Telegram: one table message edited in place, cards by DM, timers.

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
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application, Job

from bot.games import Live, Wait
from bot.i18n import Translations
from bot.pacing import EDIT, URGENT, GroupPace
from bot.render import PrivateHand, Screen, render_cards, render_table
from bot.store import Store, StoreError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
"""How soon a table message that could not be sent is tried again."""

TimerCallback = Callable[[int, Wait], Awaitable[None]]


def markup(screen: Screen) -> InlineKeyboardMarkup | None:
    if not screen.buttons:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=data) for label, data in row]
         for row in screen.buttons]
    )


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
class _Writer:
    """One table's screen writer: the newest screen not yet in the chat, and who holds it."""

    live: Live
    pending: Screen | None = None
    backing_off: bool = False
    """Telegram refused or did not answer: the writer waits before it tries again."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class TelegramOutbox:
    """`bot.games.Outbox` over a python-telegram-bot `Application`.

    The table message is written by one task per table, outside the table's lock: `show`
    only leaves the newest screen for it. The writer waits for the group's next slot
    (`GroupPace`), then sends whatever screen is newest by then, so screens superseded in
    the meantime are never sent, and a press is never kept waiting for Telegram.
    """

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any], store: Store,
                 translations: Translations, pace: GroupPace | None = None) -> None:
        self.app = app
        self.store = store
        self.translations = translations
        self.pace = pace or GroupPace()
        self.on_timer: TimerCallback | None = None
        self._jobs: dict[int, Job[Any]] = {}
        self._writers: dict[int, _Writer] = {}
        self._holds: dict[int, int] = {}
        self._failures: dict[int, int] = {}
        self._sending: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------------- the table message

    def show(self, live: Live) -> None:
        """Make `live` as it is now the next screen of its table message."""
        screen = render_table(live.view(), self.translations.get(live.language))
        writer = self._writers.get(live.id)
        if writer is None:
            writer = self._writers[live.id] = _Writer(live)
        writer.live = live
        writer.pending = None if digest(screen) == live.shown else screen
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

    @property
    def busy(self) -> bool:
        """A screen is due or being written (one waiting to try again after an error is not)."""
        return any(w.task is not None and not w.task.done() and not w.backing_off
                   for w in self._writers.values())

    async def _write(self, writer: _Writer) -> None:
        """Send the newest screen whenever the group's budget allows; stop when none is due."""
        while writer.pending is not None:
            live = writer.live
            if self._holds.get(live.id):
                writer.wake.clear()
                await writer.wake.wait()
                continue
            first = live.message_id is None
            await self.pace.slot(live.chat_id, URGENT if first else EDIT)
            screen = writer.pending
            if screen is None or digest(screen) == live.shown or self._holds.get(live.id):
                self.pace.give_back(live.chat_id)
                if screen is not None and digest(screen) == live.shown:
                    writer.pending = None
                continue
            writer.pending = None
            delay = await self._send(live, screen)
            if delay is not None:
                if writer.pending is None:
                    writer.pending = screen
                writer.backing_off = True
                try:
                    await asyncio.sleep(delay)
                finally:
                    writer.backing_off = False
        if writer.live.status == "closed":
            self._writers.pop(writer.live.id, None)

    async def _send(self, live: Live, screen: Screen) -> float | None:
        """Put `screen` in the chat; seconds to wait before trying again, or None."""
        try:
            await self._put(live, screen)
        except BadRequest as err:
            text = str(err).lower()
            if "not modified" in text:
                await self._shown(live, screen)
                return None
            if "message to edit not found" in text or "message can't be edited" in text:
                live.message_id = None
                return 0.0
            return self._refused(live, err)
        except Forbidden as err:
            log.warning("table %s: cannot write to chat %s: %s", live.id, live.chat_id, err)
            return None
        except (RetryAfter, NetworkError) as err:
            log.info("table %s: table message delayed (%s)", live.id, err)
            return _retry_delay(err)
        self._failures.pop(live.id, None)
        return None

    def _refused(self, live: Live, err: BadRequest) -> float | None:
        """An unexpected 400: try the edit once more, then post a fresh table message,
        rather than leave the players with the buttons of a turn that is over."""
        failures = self._failures.get(live.id, 0) + 1
        self._failures[live.id] = failures
        log.warning("table %s: Telegram refused the table message (%d): %s",
                    live.id, failures, err)
        if failures == 1:
            return RETRY_SECONDS
        if failures == 2:
            live.message_id = None
            return 0.0
        return None

    async def _put(self, live: Live, screen: Screen) -> None:
        bot = self.app.bot
        if live.message_id is None:
            message = await bot.send_message(
                live.chat_id, screen.text, parse_mode=ParseMode.HTML,
                reply_markup=markup(screen), message_thread_id=live.thread_id,
                disable_web_page_preview=True,
            )
            live.message_id = message.message_id
            if live.status != "closed":
                try:
                    await self.store.tables.set_message(live.id, message.message_id)
                except StoreError as err:
                    # Kept in memory; after a restart the table is posted anew.
                    log.warning("table %s: could not save its message id: %s", live.id, err)
            await self._shown(live, screen)
            return
        await bot.edit_message_text(
            screen.text, chat_id=live.chat_id, message_id=live.message_id,
            parse_mode=ParseMode.HTML, reply_markup=markup(screen),
            disable_web_page_preview=True,
        )
        await self._shown(live, screen)

    async def _shown(self, live: Live, screen: Screen) -> None:
        """The chat shows `screen` now: remember it, with the table, for after a restart."""
        live.shown = digest(screen)
        if live.status == "closed":
            return
        try:
            await self.store.tables.set_shown(live.id, live.shown)
        except StoreError as err:
            # A stale digest only costs one edit that changes nothing after a restart.
            log.warning("table %s: could not remember the table message: %s", live.id, err)

    # ----------------------------------------------------------------- private messages

    def send_cards(self, live: Live, hands: list[PrivateHand], *, hand_id: int,
                   rounds: int) -> None:
        """Send the cards in the background: the table's lock is not held for DMs."""
        job = self._send_all(live, hands, hand_id, rounds)
        task = asyncio.get_running_loop().create_task(job)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_all(self, live: Live, hands: list[PrivateHand], hand_id: int,
                        rounds: int) -> None:
        await asyncio.gather(*(self._send_cards(live, private) for private in hands))
        try:
            # Until this is recorded, a restart sends the round's cards again.
            await self.store.hands.set_cards_sent(hand_id, rounds)
        except StoreError as err:
            log.warning("table %s: could not record the cards of hand %s as sent: %s",
                        live.id, hand_id, err)

    async def _send_cards(self, live: Live, private: PrivateHand) -> None:
        player = private.player
        try:
            user = await self.store.users.get(player)
            tr = self.translations.get(user.language)
            if player == live.chat_id:
                # A practice table's cards go into the chat of its table message: its pace.
                await self.pace.slot(player, URGENT)
            await self.app.bot.send_message(player, render_cards(tr, private),
                                            parse_mode=ParseMode.HTML)
        except Forbidden:
            # Blocked or never started: "My cards" still shows his hand in the group.
            await self.store.users.set_private_chat(player, False)
        except TelegramError as err:
            log.info("table %s: cards to %s not sent (%s)", live.id, player, err)

    # ----------------------------------------------------------------- timers

    def arm(self, live: Live, wait: Wait | None) -> None:
        _drop(self._jobs.pop(live.id, None))
        queue = self.app.job_queue
        if wait is None or queue is None or self.on_timer is None:
            return
        ring = self.on_timer

        async def fire(_: Any) -> None:
            await ring(live.id, wait)

        self._jobs[live.id] = queue.run_once(fire, when=wait.seconds, name=f"table-{live.id}")

    def stop(self) -> None:
        for job in self._jobs.values():
            _drop(job)
        self._jobs.clear()
        for writer in self._writers.values():
            if writer.task is not None:
                writer.task.cancel()


def _drop(job: Job[Any] | None) -> None:
    """Cancel a timer that may already have rung or been cleared with its scheduler."""
    if job is None or job.removed:
        return
    with contextlib.suppress(JobLookupError):
        job.schedule_removal()
