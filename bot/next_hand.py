"""What waits for the next hand: chips a player asked for during his own hand, brought
to his stack once it is settled, and a private word for whoever the hand left out.

A top-up or a rebuy asked during the player's hand is kept in the store
(`Gifts.queue`), so a restart does not forget it, and handed out by `Games.after_hand`
under the table's lock, before the table is shown and the next deal is timed. A player
whom the hand left without the ante, or sitting out after his timeouts, is told
privately why and how to come back.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram.constants import ParseMode
from telegram.error import Forbidden, TelegramError
from telegram.ext import Application

from bot import errors, replies
from bot.handling import Services
from bot.live import Live
from bot.store import InsufficientChips, StoreError
from bot.store.errors import HouseDayLimit, NoRebuyLeft
from bot.store.gifts import Queued
from engine import Hand

log = logging.getLogger(__name__)


class NextHand:
    """Hands out queued chips after each hand and says privately who is left out."""

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any],
                 services: Services) -> None:
        self.app = app
        self.services = services
        services.games.after_hand.append(self.after_hand)

    async def after_hand(self, live: Live, hand: Hand, away_before: dict[int, bool]) -> None:
        """The hand is settled (under the table's lock): bring what was queued, then tell
        each player the hand left out how to come back."""
        if live.chat_id > 0:
            return  # a practice table: it closes when its player is out
        store = self.services.store
        try:
            queued = await store.gifts.take_queued(live.id)
        except StoreError as err:
            log.warning("table %s: queued chips not read: %s", live.id, err)
            queued = []
        for ask in queued:
            refusal = await self._bring(live, ask)
            if refusal is not None:
                self._tell(live, ask.user_id, replies.QUEUED_NOT_ADDED, refusal)
        ante = live.settings.ante
        live.told_out -= {s.player for s in live.table.seats if s.stack >= ante}
        for seat in live.table.seats:
            if seat.player < 0 or hand.seat_of(seat.player) is None:
                continue
            if seat.sitting_out and not away_before.get(seat.player, False):
                self._tell(live, seat.player, replies.SAT_OUT_PRIVATE)
            elif seat.stack < ante and not seat.sitting_out \
                    and seat.player not in live.told_out:
                # Once while he stays short, not after every hand he sits out.
                live.told_out.add(seat.player)
                self._tell(live, seat.player, replies.OUT_OF_CHIPS_REBUY
                           if live.settings.rebuy else replies.OUT_OF_CHIPS_PRIVATE)

    async def _bring(self, live: Live, ask: Queued) -> errors.BotError | None:
        """Bring one queued ask to the stack; the refusal to tell him, if it cannot be."""
        store = self.services.store
        seat = live.table.seat(ask.user_id)
        if seat is None:
            return None  # he left meanwhile: nothing to bring
        try:
            if ask.kind == "rebuy":
                chips = live.settings.rebuy
                if chips is None:
                    return errors.NoRebuys()
                try:
                    stack = await store.gifts.rebuy(live.id, ask.user_id, chips,
                                                    most=live.settings.rebuys,
                                                    below=live.settings.ante,
                                                    high=live.settings.max_buy_in,
                                                    daily=self.services.games.house_daily)
                except HouseDayLimit as err:
                    return errors.HouseDay(left=err.left)
                except NoRebuyLeft as err:
                    # Not broke after all: the rebuy is not needed.
                    return None if err.why == "not broke" else errors.RebuysUsed(
                        most=live.settings.rebuys)
                live.table.top_up(ask.user_id, stack - seat.stack, stack)
                return None
            # The chips are for the next hand: its maximum, if an admin changed it meanwhile.
            most = (live.next_settings or live.settings).max_buy_in
            balance = await store.users.balance(ask.user_id)
            room = most - seat.stack
            wanted = min(room, balance) if ask.amount is None else ask.amount
            if not 1 <= wanted <= min(room, balance):
                return errors.BadTopUp(room=max(room, 0), balance=balance)
            try:
                row = await store.tables.top_up(live.id, ask.user_id, wanted)
            except InsufficientChips as err:
                return errors.BadTopUp(room=max(room, 0), balance=err.have)
            live.table.top_up(ask.user_id, row.stack - seat.stack, most)
        except StoreError as err:
            log.warning("table %s: queued chips of %s not brought: %s", live.id, ask.user_id,
                        err)
            return errors.StoreBusy()
        return None

    def _tell(self, live: Live, player: int, msgid: str,
              why: errors.BotError | None = None) -> None:
        """A private word, sent without holding up the table."""
        self.app.create_task(self._send(live, player, msgid, why),
                             name=f"next-hand-word-{live.id}-{player}")

    async def _send(self, live: Live, player: int, msgid: str,
                    why: errors.BotError | None) -> None:
        services = self.services
        try:
            user = await services.store.users.get(player)
        except StoreError as err:
            log.info("table %s: no private word to %s: %s", live.id, player, err)
            return
        if not user.private_chat:
            return
        tr = services.translations.get(user.speaks)
        chat = await services.outbox.chat_info(live.chat_id)
        table = chat.title if chat is not None else ""
        text = tr.format(msgid, table=table, chips=tr.chips(live.settings.rebuy or 0),
                         why=why.text(tr) if why is not None else "")
        try:
            await self.app.bot.send_message(player, text, parse_mode=ParseMode.HTML)
        except Forbidden:
            await services.store.users.set_private_chat(player, False)
        except TelegramError as err:
            log.info("table %s: private word to %s not sent (%s)", live.id, player, err)
