"""The table message: the newest screen left for one writer task per table, which sends
or edits it when the group has a slot, and what Telegram answers about it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from telegram import Chat
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from bot.live import Live
from bot.outbox.base import (
    RETRY_SECONDS,
    OutboxBase,
    TableMessage,
    Writer,
    digest,
    markup,
    retry_delay,
)
from bot.pacing import EDIT, URGENT
from bot.records import TableStatus
from bot.render.messages import moved_text, with_app_button
from bot.render.table import render_table
from bot.render.views import Screen

log = logging.getLogger(__name__)


class TableWriter(OutboxBase):
    """The table message: one per table, edited in place by a writer of its own."""

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

    def pressed_on(self, live: Live, chat: Chat, message_id: int) -> bool:
        """Whether a button pressed on `message_id` in `chat` is one of the table's live
        buttons (its own chat, not a message /table moved down); the chat is remembered
        as the press showed it."""
        if chat.id != live.chat_id or self.retired(live.id, message_id):
            return False
        self.know(chat.id, chat.type, chat.title, chat.username)
        return True

    def behind(self, chat_id: int) -> bool:
        """The group's budget keeps its table message behind by more than `lag_note`: an
        answer to a press should say at once what the press did."""
        return self.pace.wait_for_slot(chat_id) > self.lag_note

    def _message(self, live: Live) -> TableMessage:
        return self._messages.setdefault(live.id, TableMessage())

    def show(self, live: Live) -> None:
        """Make `live` as it is now the next screen of its table message (and of each
        member's own view of his hand in the group)."""
        self._turn_passed(live)
        self._follow_hidden(live)
        tr = self.translations.get(live.language)
        screen = render_table(live.view(self.now()), tr)
        if self.app_link is not None and live.status is not TableStatus.CLOSED:
            screen = with_app_button(screen, tr, self.app_link(live, live.chat_id > 0))
        writer = self._writers.get(live.id)
        if writer is None:
            writer = self._writers[live.id] = Writer(live)
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

    def moved(self, live: Live) -> None:
        """The table's chat has a new id: the old message is gone with the old chat, so
        the next screen is a new message (pinned again where the bot may pin)."""
        self._messages[live.id] = TableMessage()
        self._pinned.pop(live.id, None)

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

    async def _write(self, writer: Writer) -> None:
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
                # slot() returns at once while the group has a slot free: let the other
                # tasks run before this writer looks again.
                await asyncio.sleep(0)
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
        # Only once the closing screen was set: a table closes a moment before its last
        # screen is ready, and an edit landing in between must not drop its message.
        if writer.closed:
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
            return retry_delay(err)
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
