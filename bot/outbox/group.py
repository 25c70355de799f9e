"""The group itself: what the bot knows of it, its pinned table message, and the results
message of a closed table (sent again until it arrives)."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot.live import Live
from bot.outbox.base import RESULTS_AGAIN, RESULTS_AGAIN_MAX, ChatInfo, Delivery, OutboxBase
from bot.pacing import EDIT
from bot.render.messages import results_text

log = logging.getLogger(__name__)


class GroupChat(OutboxBase):
    """What the outbox knows of a group, its pins and the results message of a closed table."""

    def know(self, chat_id: int, chat_type: str, title: str | None,
             username: str | None) -> None:
        """Remember a group as an update showed it (its name for card messages and nudges)."""
        if chat_type in ("group", "supergroup"):
            self._chats[chat_id] = ChatInfo(chat_type, title or "", username)

    async def chat_info(self, chat_id: int) -> ChatInfo | None:
        """The group as last seen, or asked of Telegram once (after a restart): the card
        messages of one deal, sent together, share one question."""
        info = self._chats.get(chat_id)
        if info is not None:
            return info
        asking = self._asking.get(chat_id)
        if asking is None:
            asking = self._asking[chat_id] = asyncio.ensure_future(self._look_up(chat_id))
            asking.add_done_callback(lambda _: self._asking.pop(chat_id, None))
        # Shielded: one card message given up on does not cancel the others' answer.
        return await asyncio.shield(asking)

    async def _look_up(self, chat_id: int) -> ChatInfo | None:
        try:
            chat = await self.app.bot.get_chat(chat_id)
        except TelegramError as err:
            log.info("could not look up chat %s: %s", chat_id, err)
            return None
        self.know(chat_id, chat.type, chat.title, chat.username)
        return self._chats.get(chat_id)

    async def welcome(self, chat_id: int, text: str) -> None:
        """The bot's one message on joining a group, through the group's pace."""
        await self._deliver("welcome", chat_id, partial(
            self.app.bot.send_message, chat_id, text, parse_mode=ParseMode.HTML))

    async def announce(self, chat_id: int, thread_id: int | None, text: str) -> Delivery:
        """A message of the bot's own to a group (a season's champion), through the group's
        pace, without a link preview; how it ended."""
        return await self._deliver("announcement", chat_id, partial(
            self.app.bot.send_message, chat_id, text, parse_mode=ParseMode.HTML,
            message_thread_id=thread_id, disable_web_page_preview=True))

    async def _rights_in(self, chat_id: int) -> tuple[bool, bool]:
        """Whether the bot is an admin of the group, and whether it may pin there: asked of
        Telegram once, then known until its rights change (not known: neither)."""
        known = self._rights.get(chat_id)
        if known is not None:
            return known
        try:
            me = await self.app.bot.get_chat_member(chat_id, self.app.bot.id)
        except TelegramError:
            return False, False
        known = self._rights[chat_id] = (
            me.status in ("administrator", "creator"),
            bool(getattr(me, "can_pin_messages", False)) or me.status == "creator")
        return known

    async def is_admin_in(self, chat_id: int) -> bool:
        """Whether the bot is an admin of the group."""
        return (await self._rights_in(chat_id))[0]

    def rights_changed(self, chat_id: int) -> None:
        """The bot's membership of the group changed: what it may do there is asked anew."""
        self._rights.pop(chat_id, None)

    async def _may_pin_in(self, chat_id: int) -> bool:
        return (await self._rights_in(chat_id))[1]

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
            known = self._rights.get(live.chat_id)
            if known is not None:
                # Refused: not tried again until the bot's rights change. Had they changed
                # while the pin was on its way, they stay to be asked anew.
                self._rights[live.chat_id] = (known[0], False)
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
