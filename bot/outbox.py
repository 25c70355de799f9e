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
from collections.abc import Awaitable, Callable
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application, Job

from bot.games import Live, Wait
from bot.i18n import Translations
from bot.render import PrivateHand, Screen, render_cards, render_table
from bot.store import Store
from bot.store.errors import StoreError

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


class TelegramOutbox:
    """`bot.games.Outbox` over a python-telegram-bot `Application`."""

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any], store: Store,
                 translations: Translations) -> None:
        self.app = app
        self.store = store
        self.translations = translations
        self.on_timer: TimerCallback | None = None
        self._jobs: dict[int, Job[Any]] = {}
        self._retries: dict[int, Job[Any]] = {}
        self._failures: dict[int, int] = {}
        self._sending: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------------- the table message

    async def show(self, live: Live) -> None:
        tr = self.translations.get(live.language)
        screen = render_table(live.view(), tr)
        if digest(screen) == live.shown:
            return
        try:
            await self._put(live, screen)
        except BadRequest as err:
            text = str(err).lower()
            if "not modified" in text:
                await self._shown(live, screen)
            elif "message to edit not found" in text or "message can't be edited" in text:
                live.message_id = None
                await self._try_again(live, 0)
            else:
                await self._refused(live, err)
        except Forbidden as err:
            log.warning("table %s: cannot write to chat %s: %s", live.id, live.chat_id, err)
        except (RetryAfter, NetworkError) as err:
            log.info("table %s: table message delayed (%s)", live.id, err)
            await self._try_again(live, _retry_delay(err))
        else:
            self._failures.pop(live.id, None)

    async def _refused(self, live: Live, err: BadRequest) -> None:
        """An unexpected 400: try the edit once more, then post a fresh table message,
        rather than leave the players with the buttons of a turn that is over."""
        failures = self._failures.get(live.id, 0) + 1
        self._failures[live.id] = failures
        log.warning("table %s: Telegram refused the table message (%d): %s",
                    live.id, failures, err)
        if failures == 1:
            await self._try_again(live, RETRY_SECONDS)
        elif failures == 2:
            live.message_id = None
            await self._try_again(live, 0)

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
                await self.store.tables.set_message(live.id, message.message_id)
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

    async def _try_again(self, live: Live, delay: float) -> None:
        """Show the table again later, under its lock (a flood wait must not hold it)."""
        queue = self.app.job_queue
        if queue is None:
            return
        _drop(self._retries.pop(live.id, None))

        async def again(_: Any) -> None:
            self._retries.pop(live.id, None)
            async with live.lock:
                await self.show(live)

        self._retries[live.id] = queue.run_once(again, when=max(delay, 0.01),
                                                name=f"show-{live.id}")

    # ----------------------------------------------------------------- private messages

    def send_cards(self, live: Live, hands: list[PrivateHand]) -> None:
        """Send the cards in the background: the table's lock is not held for DMs."""
        task = asyncio.get_running_loop().create_task(self._send_all(live, hands))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_all(self, live: Live, hands: list[PrivateHand]) -> None:
        await asyncio.gather(*(self._send_cards(live, private) for private in hands))

    async def _send_cards(self, live: Live, private: PrivateHand) -> None:
        player = private.player
        try:
            user = await self.store.users.get(player)
            tr = self.translations.get(user.language)
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
        for job in [*self._jobs.values(), *self._retries.values()]:
            _drop(job)
        self._jobs.clear()
        self._retries.clear()


def _drop(job: Job[Any] | None) -> None:
    """Cancel a timer that may already have rung or been cleared with its scheduler."""
    if job is None or job.removed:
        return
    with contextlib.suppress(JobLookupError):
        job.schedule_removal()
