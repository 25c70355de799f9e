"""A table's timer: what happens when a wait rings, its reminder, and the recovery of a
timer that failed."""

from __future__ import annotations

import logging
import math

from bot import errors
from bot.clock import Wait, WaitKind
from bot.games.base import GamesBase
from bot.i18n import N_
from bot.live import CLOSED_AS_ASKED, Live
from bot.records import TableStatus
from bot.store.errors import StoreError
from engine import Act, Action

log = logging.getLogger(__name__)


class Timers(GamesBase):
    """What a table does when its one wait rings."""

    async def on_timer(self, table_id: int, wait: Wait) -> None:
        """A table's timer rang; it acts only if the table still waits for exactly that.

        Whatever goes wrong here (the store, the engine, a bug), the table is left waiting
        for something: it is reloaded from the store and the wait rings again a little later.
        """
        live = self.tables.get(table_id)
        if live is None:
            return
        async with live.lock:
            if live.wait != wait:
                return
            try:
                await self._ring(live, wait)
                if live.wait == wait and not self._forgotten(live):
                    raise RuntimeError(f"still waiting for {wait.kind} after it rang")
            except Exception as err:
                await self._recover(live, wait, err)

    async def on_remind(self, table_id: int, wait: Wait) -> None:
        """The reminder of a turn that still waits: the player to act is told privately."""
        live = self.tables.get(table_id)
        if live is None:
            return
        async with live.lock:
            hand = live.hand
            if live.wait != wait or hand is None or hand.to_act is None:
                return
            player = hand.seats[hand.to_act].player
            if player < 0:  # a computer player
                return
            try:
                user = await self.store.users.get(player)
                if not user.private_chat or not await self.store.users.notify(player):
                    return
            except StoreError as err:
                log.info("table %s: no reminder for %s: %s", live.id, player, err)
                return
            self.outbox.remind(live, player, user.speaks, math.ceil(wait.left(self.clock())))

    async def _recover(self, live: Live, wait: Wait, err: Exception) -> None:
        """A timer failed: log it, make memory what the store holds, and wait again."""
        if isinstance(err, StoreError | errors.StoreBusy):
            log.warning("table %s: the %s timer could not be saved (%s); trying again",
                        live.id, wait.kind, err)
        else:
            log.error("table %s: the %s timer failed", live.id, wait.kind, exc_info=err)
        retry = wait.again(self.clock())
        try:
            await self._restore(live)
        except Exception as again:
            log.warning("table %s: could not reload it from the store (%s); again in %.0f s",
                        live.id, again, retry.seconds)
            live.wait = retry
            self._arm(live)
            return
        if self._forgotten(live):
            return
        want = self._want(live)
        if want is not None and (want.kind, want.hand_id, want.turn) == wait.name:
            live.wait = retry  # the same wait, a little later
        await self._publish(live)

    async def _ring(self, live: Live, wait: Wait) -> None:
        """Do what a timer that rang waits for (under the lock)."""
        if wait.kind in (WaitKind.NEXT, WaitKind.GRACE):
            # After a grace nobody came back in, the deal closes the table.
            if live.closing:
                await self._close(live, CLOSED_AS_ASKED)
            else:
                await self._deal(live)
        elif wait.kind is WaitKind.AUTOSTART:
            if live.status is TableStatus.LOBBY and live.table.can_deal():
                await self._deal(live)
            else:
                await self._publish(live)
        elif wait.kind is WaitKind.IDLE:
            if live.status is TableStatus.LOBBY:
                await self._close(live, N_("Nobody started the game: the table is closed "
                                           "and every buy-in went back."))
        elif live.hand is not None and not live.hand.is_over:
            if wait.kind is WaitKind.SVARA:
                await self._apply(live, Action(Act.CLOSE_SVARA))
            elif live.hand.to_act is not None:
                await self._apply(live, Action(Act.TIMEOUT, live.hand.to_act))
        else:
            await self._publish(live)
