"""Answers to commands in a group: queued behind the group's pace, only the newest per
request kept."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from telegram import Message
from telegram.constants import ParseMode

from bot import ephemeral_api
from bot.ephemeral_api import EphemeralMessage
from bot.outbox.base import REPLIES_KEPT, Delivery, OutboxBase
from bot.pacing import URGENT

log = logging.getLogger(__name__)

HIDDEN_WAIT = ephemeral_api.WINDOW_SECONDS - 5
"""The longest wait for the group's slot, behind the calls already waiting for it, with
which an answer to an ephemeral command is still tried there (Telegram takes it only within
its window after the command)."""


class Answers(OutboxBase):
    """Replies to commands in a group, queued behind the group's pace."""

    def reply(self, message: Message, text: str, *, key: object, **kwargs: Any) -> None:
        """Answer `message` without holding up its handler: in a group the reply waits
        for the group's pace in a queue of its own, where a repeat of the same request
        (`key`) replaces the one still waiting."""
        kwargs.setdefault("parse_mode", ParseMode.HTML)
        if message.chat.type == "private":
            self._background(self._reply_now(message, text, kwargs))
            return
        queue = self._replies.setdefault(message.chat_id, {})
        waiting = queue.pop(key, [])
        if waiting and _request(waiting[0][0]) != _request(message):
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
                await self._reply_now(message, text, kwargs)
        finally:
            self._answering.discard(chat_id)
            if not self._replies.get(chat_id):
                self._replies.pop(chat_id, None)

    async def _reply_now(self, message: Message, text: str, kwargs: dict[str, Any]) -> None:
        asker = ephemeral_api.answer_to(message)
        if asker is not None:
            await self._reply_hidden(message, asker, text, kwargs)
            return
        await self._deliver("reply", message.chat_id,
                            partial(message.reply_text, text, **kwargs))

    async def _reply_hidden(self, message: Message, asker: EphemeralMessage, text: str,
                            kwargs: dict[str, Any]) -> None:
        """An ephemeral command (the group did not see it) is answered the same way, to its
        sender alone, when the group has a slot for it soon enough (Telegram takes it only
        within seconds of the command); else, or where Telegram refuses it, in his private
        chat; and only where that is closed too, in the group."""
        if self.pace.wait_for_slot(message.chat_id, URGENT) <= HIDDEN_WAIT:
            how = await self._deliver("hidden reply", message.chat_id, partial(
                ephemeral_api.send_text, self.app.bot, asker.chat_id, asker.receiver_user_id,
                text, parse_mode=kwargs.get("parse_mode"),
                reply_markup=kwargs.get("reply_markup"),
                reply_to_ephemeral_id=asker.ephemeral_message_id))
            if how is not Delivery.REFUSED:
                return
        how = await self._deliver("reply", asker.receiver_user_id, partial(
            self.app.bot.send_message, asker.receiver_user_id, text, **kwargs))
        if how in (Delivery.BLOCKED, Delivery.REFUSED):
            await self._deliver("reply", message.chat_id, partial(
                self.app.bot.send_message, message.chat_id, text,
                message_thread_id=message.message_thread_id, **kwargs))

    async def reply_photo(self, message: Message, photo: bytes) -> None:
        """A picture answering a command (a chart): to its asker alone for an ephemeral
        command, as a text answer goes; else in the chat, through the group's pace."""
        asker = ephemeral_api.answer_to(message)
        bot = self.app.bot
        if asker is None:
            await self._deliver("photo", message.chat_id, partial(message.reply_photo, photo))
            return
        if self.pace.wait_for_slot(message.chat_id, URGENT) <= HIDDEN_WAIT:
            how = await self._deliver("hidden photo", message.chat_id, partial(
                ephemeral_api.send_photo, bot, asker.chat_id, asker.receiver_user_id, photo,
                reply_to_ephemeral_id=asker.ephemeral_message_id))
            if how is not Delivery.REFUSED:
                return
        how = await self._deliver("photo", asker.receiver_user_id,
                                  partial(bot.send_photo, asker.receiver_user_id, photo))
        if how in (Delivery.BLOCKED, Delivery.REFUSED):
            await self._deliver("photo", message.chat_id, partial(
                bot.send_photo, message.chat_id, photo,
                message_thread_id=message.message_thread_id))


def _request(message: Message) -> tuple[int, int | None]:
    """Which message asked: its id, and its ephemeral id (every ephemeral one has id 0)."""
    return message.message_id, ephemeral_api.ephemeral_id_of(message)
