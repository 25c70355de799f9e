"""Reminders: a player whose turn waits is told privately; the reminder goes once he acted."""

from __future__ import annotations

import logging
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode

from bot.live import Live
from bot.outbox.base import Delivery, OutboxBase
from bot.render.cards import nudge_text
from bot.render.messages import table_link
from engine import Hand

log = logging.getLogger(__name__)


class Reminders(OutboxBase):
    """The private reminder of a turn, taken away once the turn has passed."""

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
