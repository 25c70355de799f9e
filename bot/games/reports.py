"""What the messenger reports back about what reached the chats, kept in the store."""

from __future__ import annotations

import logging

from bot.games.base import GamesBase
from bot.live import Live
from bot.records import TableStatus
from bot.store.errors import StoreError

log = logging.getLogger(__name__)


class Reports(GamesBase):
    """The `Told` side of the games: what the outbox saw delivered."""

    async def message_sent(self, live: Live, message_id: int) -> None:
        try:
            await self.store.tables.set_message(live.id, message_id)
        except StoreError as err:
            # Kept in memory; after a restart the table is posted anew.
            log.warning("table %s: could not save its message id: %s", live.id, err)

    async def shown(self, live: Live, digest: str) -> None:
        # Kept in memory and written at a clean stop (`keep_shown`), not after every edit:
        # after a crash a stale digest costs one edit that changes nothing.
        live.shown = digest

    async def keep_shown(self) -> None:
        """At a clean stop: what each table message shows, so a restart does not edit a
        message into what it already shows, and which cards went out, so a restart does
        not send them again."""
        for live in list(self.tables.values()):
            if live.status is TableStatus.CLOSED:
                continue
            await self._keep_cards_sent(live)
            if live.shown is None:
                continue
            try:
                await self.store.tables.set_shown(live.id, live.shown)
            except StoreError as err:
                log.warning("table %s: could not remember the table message: %s", live.id, err)

    async def cards_sent(self, live: Live, hand_id: int, rounds: int) -> None:
        # Written with the hand's next step, not in a transaction of its own; a hand
        # that is over no longer needs it (its cards are never sent again).
        if live.hand_id == hand_id and live.hand is not None and not live.hand.is_over:
            live.cards_due = max(live.cards_due, rounds)

    async def _keep_cards_sent(self, live: Live) -> None:
        if not live.cards_due or live.hand is None or live.hand.is_over:
            return
        try:
            await self.store.hands.set_cards_sent(live.hand_id, live.cards_due)
            live.cards_due = 0
        except StoreError as err:
            log.warning("table %s: could not record the cards of hand %s as sent: %s",
                        live.id, live.hand_id, err)

    async def results_sent(self, live: Live) -> None:
        try:
            await self.store.tables.results_sent(live.id)
        except StoreError as err:
            # Due still: sent once more at the next start.
            log.warning("table %s: could not record its results as sent: %s", live.id, err)

    async def blocked(self, player: int) -> None:
        try:
            await self.store.users.set_private_chat(player, False)
        except StoreError as err:
            log.warning("could not record that %s cannot be written to: %s", player, err)
