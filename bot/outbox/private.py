"""Private messages: every player's cards, and the letter that tells him his table closed
because the bot lost its group."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from telegram import InlineKeyboardMarkup
from telegram.constants import ParseMode

from bot import replies
from bot.i18n import Translator
from bot.live import Live
from bot.outbox.base import Delivery, OutboxBase, markup
from bot.render.cards import render_cards
from bot.render.messages import with_app_button
from bot.render.views import PrivateHand, Screen
from bot.table_settings import CardsWhere

log = logging.getLogger(__name__)


class PrivateMessages(OutboxBase):
    """Each player's cards, and the letters a player gets privately."""

    def send_cards(self, live: Live, hands: list[tuple[PrivateHand, str | None]], *,
                   hand_id: int, rounds: int) -> None:
        """Send the cards in the background: the table's lock is not held for DMs."""
        self._background(self._send_all(live, hands, hand_id, rounds))

    async def _send_all(self, live: Live, hands: list[tuple[PrivateHand, str | None]],
                        hand_id: int, rounds: int) -> None:
        if self._cards.get(live.id, (0, {}))[0] != hand_id:
            self._cards[live.id] = (hand_id, {})
        group = live.settings.cards is not CardsWhere.PRIVATE and live.chat_id < 0 \
            and await self.is_admin_in(live.chat_id)
        ended = await asyncio.gather(*(self._deal_to(live, private, language, hand_id,
                                                     in_group=group)
                                       for private, language in hands))
        if self.told is not None and all(how.settled for how in ended):
            # Until this is recorded, a restart sends the round's cards again.
            await self.told.cards_sent(live, hand_id, rounds)

    def crowded(self) -> bool:
        """The overall budget is short (the limiter says so): private messages that can be
        read elsewhere give way, so the tables' screens keep their pace."""
        limiter = getattr(self.app.bot, "rate_limiter", None)
        return bool(getattr(limiter, "crowded", False))

    async def _deal_to(self, live: Live, private: PrivateHand, language: str | None,
                       hand_id: int, *, in_group: bool) -> Delivery:
        """One player's cards: in the group for his eyes only where the chat wants it and
        the bot may, and in his private chat, the record (without a sound when the group
        already showed them and the chat wants them there alone)."""
        shown = False
        hand = live.hand
        if in_group and hand is not None and live.hand_id == hand_id:
            seat = hand.seat_of(private.player)
            if self.holds_cards_here(live.id, private.player, hand_id):
                shown = True  # a svara's cards: the message there follows the hand
            elif seat is not None:
                shown = await self.hidden_cards(live, private.player, seat,
                                                self.translations.get(language))
        quiet = shown and live.settings.cards is CardsWhere.GROUP
        return await self._send_cards(live, private, language, hand_id, quiet=quiet)

    async def _send_cards(self, live: Live, private: PrivateHand, language: str | None,
                          hand_id: int, *, quiet: bool = False) -> Delivery:
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
                                                      reply_markup=self._app_button(live, tr),
                                                      disable_notification=quiet)
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

    def _app_button(self, live: Live, tr: Translator) -> InlineKeyboardMarkup | None:
        """In a private chat, the button that opens the table's Mini App (if served)."""
        page = None if self.app_link is None else self.app_link(live, True)
        return None if page is None else markup(with_app_button(Screen(""), tr, page))

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
