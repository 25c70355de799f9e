"""Answers to commands in a group: queued behind the group's pace, only the newest per
request kept."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from telegram import Message
from telegram.constants import ParseMode

from bot.outbox.base import REPLIES_KEPT, OutboxBase

log = logging.getLogger(__name__)


class Answers(OutboxBase):
    """Replies to commands in a group, queued behind the group's pace."""

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
