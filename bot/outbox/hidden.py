"""Cards in the group for one member's eyes (ephemeral messages): "My cards" answered
there, and, where the bot is a chat admin and the chat wants it, each player's cards dealt
there. Each such message follows its hand (a svara's new cards, his turn coming and going,
with his own buttons while it is his) and goes when the hand is over.

Telegram does not promise their delivery, and an app restart forgets them: the private
chat stays the record, and "My cards" can always be pressed again. They are counted as
messages into the group (the cautious reading of Telegram's limits): a deal's wait for
the group's pace after the table message, and the others (an answer to "My cards", an
edit, a deletion) for a quiet moment of the group.
"""

from __future__ import annotations

import asyncio
import logging
import math

from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot import ephemeral_api
from bot.ephemeral_api import EphemeralGone, EphemeralRefused, NotModified
from bot.i18n import Translator
from bot.live import Live
from bot.outbox.base import Hidden, OutboxBase, digest, markup
from bot.pacing import PERSONAL
from bot.render.mine import my_cards

log = logging.getLogger(__name__)

ANSWER_WITHIN = 5.0
"""Seconds Telegram has to answer a send of a member's message (a press's window is 15 s)."""


class HiddenCards(OutboxBase):
    """Each member's own view of his hand in the group, kept up to date."""

    def holds_cards_here(self, table_id: int, player: int, hand_id: int) -> bool:
        """Whether `player` was already sent his cards in the group for this hand."""
        hidden = self._hidden.get(table_id, {}).get(player)
        return hidden is not None and hidden.hand_id == hand_id and not hidden.gone

    def cards_here(self, live: Live, player: int, seat: int, tr: Translator, *,
                   press_id: str) -> bool:
        """"My cards" pressed (`press_id`): his cards, and on his turn his buttons, go into
        the table's group for his eyes only, as soon as the group has a slot. True when
        that slot is free now; the press is answered by then either way (by a popup when
        it is not)."""
        if live.chat_id > 0 or my_cards(live.view(self.now()), tr, seat) is None:
            return False
        at_once = self.pace.wait_for_slot(live.chat_id) == 0
        self._background(self._hidden_now(live, player, seat, tr, press_id))
        return at_once

    async def _hidden_now(self, live: Live, player: int, seat: int, tr: Translator,
                          press_id: str) -> None:
        await self.hidden_cards(live, player, seat, tr, press_id=press_id)

    async def hidden_cards(self, live: Live, player: int, seat: int, tr: Translator, *,
                           press_id: str | None = None) -> bool:
        """Show `player` his cards in the table's group, to him alone: as the answer to his
        press `press_id` (within Telegram's window after it), or, without one, as a chat
        admin may at any time. False when it could not be sent (Telegram refused or did
        not answer, or the group's budget would keep it past the window)."""
        hand_id = live.hand_id
        if press_id is None:
            await self.pace.slot(live.chat_id, PERSONAL)  # a deal's cards: after the table's
        elif not await self._quiet_moment(live.chat_id, ephemeral_api.WINDOW_SECONDS - 3):
            return False  # the press was answered with his cards already (toast or popup)
        screen = my_cards(live.view(self.now()), tr, seat)
        if screen is None or live.hand_id != hand_id:
            return False  # the hand moved on while the group's budget refilled
        try:
            async with asyncio.timeout(ANSWER_WITHIN):
                sent = await ephemeral_api.send_text(
                    self.app.bot, live.chat_id, player, screen.text,
                    parse_mode=ParseMode.HTML, reply_markup=markup(screen),
                    callback_query_id=press_id)
        except (EphemeralRefused, TelegramError, TimeoutError) as err:
            log.info("table %s: cards for %s not shown in the group: %s", live.id, player,
                     err or type(err).__name__)
            self.delivered["hidden refused"] += 1
            return False
        self.delivered["hidden sent"] += 1
        mine = self._hidden.setdefault(live.id, {})
        earlier = mine.get(player)
        mine[player] = Hidden(sent, hand_id, seat, tr, digest(screen))
        if earlier is not None:
            # One message a hand: the newer one takes the older one's place.
            self._gone(live, earlier)
        return True

    async def _quiet_moment(self, chat_id: int, within: float) -> bool:
        """Take the group's slot in its next quiet moment (free, and no other call waiting
        for it), so that the table message never waits behind one member's message; False
        if none came `within` seconds."""
        for _ in range(max(1, math.ceil(within / (self.pace.spacing / 2)))):
            if self.pace.take_spare(chat_id):
                return True
            await asyncio.sleep(self.pace.spacing / 2)
        return False

    def _follow_hidden(self, live: Live) -> None:
        """The table changed: each member's message follows it, or goes with its hand."""
        mine = self._hidden.get(live.id)
        if not mine:
            return
        view = live.view(self.now())
        for hidden in list(mine.values()):
            # None once the hand is over (or the table closed): the message goes with it.
            screen = my_cards(view, hidden.tr, hidden.seat)
            if screen is None or hidden.hand_id != live.hand_id:
                self._gone(live, hidden)
                continue
            hidden.pending = None if digest(screen) == hidden.shown else screen
            self._write_soon(live, hidden)

    def _gone(self, live: Live, hidden: Hidden) -> None:
        hidden.gone = True
        mine = self._hidden.get(live.id, {})
        if mine.get(hidden.message.receiver_user_id) is hidden:
            del mine[hidden.message.receiver_user_id]
            if not mine:
                self._hidden.pop(live.id, None)
        self._write_soon(live, hidden)

    def _write_soon(self, live: Live, hidden: Hidden) -> None:
        if hidden.busy or (hidden.pending is None and not hidden.gone):
            return
        hidden.busy = True
        self._background(self._write_hidden(live.chat_id, hidden))

    async def _write_hidden(self, chat_id: int, hidden: Hidden) -> None:
        """Write the newest screen (or the deletion) when the group has a slot for it."""
        bot = self.app.bot
        try:
            while hidden.gone or hidden.pending is not None:
                # Only in a quiet moment of the group: the table message, which everyone
                # reads, never waits behind what one member sees.
                if not await self._quiet_moment(chat_id, self.pace.spacing):
                    continue
                if hidden.gone:
                    try:
                        await ephemeral_api.delete(bot, hidden.message)
                    except (EphemeralRefused, TelegramError) as err:
                        log.info("a hidden card message was not deleted: %s", err)
                    return
                screen, hidden.pending = hidden.pending, None
                if screen is None:
                    return
                try:
                    await ephemeral_api.edit_text(bot, hidden.message, screen.text,
                                                  parse_mode=ParseMode.HTML,
                                                  reply_markup=markup(screen))
                except NotModified:
                    pass
                except EphemeralGone:
                    return  # nothing left to follow; "My cards" sends a new one
                except (EphemeralRefused, TelegramError) as err:
                    # Not tried again by itself: the table's next change tries anew.
                    log.info("a hidden card message was not edited: %s", err)
                    continue
                hidden.shown = digest(screen)
        finally:
            hidden.busy = False
