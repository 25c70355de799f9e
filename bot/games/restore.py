"""Start-up: every live table brought back from the store as it was, its hand, its wait
and its due messages."""

from __future__ import annotations

import logging

from bot.clock import Wait
from bot.games.base import GamesBase
from bot.games.play import TOURNAMENT_OVER
from bot.i18n import N_
from bot.live import CLOSED_AS_ASKED, Live, hand_outcome
from bot.records import TableStatus
from bot.render.views import Outcome
from bot.store.models import Table as StoredTable
from bot.table_settings import TableSettings
from engine import Hand
from engine.events import Dealt
from engine.table import Table

log = logging.getLogger(__name__)


class Restore(GamesBase):
    """Memory rebuilt from the store, at start-up and after a failed step."""

    async def _live_of(self, row: StoredTable) -> Live:
        """A table as the store holds it: seats, settings, its hand in progress, its wait."""
        chat = await self.store.chats.get(row.chat_id)
        settings = TableSettings.load(row.rules, **self.defaults.model_dump())
        live = Live(row.id, row.chat_id, row.thread_id, row.creator, settings,
                    Table(settings.rules()), status=row.status, closing=row.closing,
                    language=chat.language or await self.speaks(row.creator))
        if not row.practice:
            # A change of the chat's settings during a hand is in the chat's row: the
            # table takes it at its next deal, after a restart too.
            wanted = await self.chat_settings(row.chat_id)
            if wanted != settings:
                live.next_settings = wanted
        await self._restore(live, row)
        return live

    async def _restore(self, live: Live, row: StoredTable | None = None) -> None:
        """Make memory what the store holds: status, seats, the hand in progress and what
        the table waits for (the store is the truth after a failed step)."""
        if row is None:
            row = await self.store.tables.get(live.id)
        live.status = row.status
        live.closing = row.closing
        if row.status is TableStatus.CLOSED:
            live.hand = None
            self._forget(live)
            self._show(live)
            self.waits.cancel(live.id)
            return
        await self.reload(live)
        live.hand = None
        last = await self.store.hands.last(live.id)
        if last is not None and last.status == "open":
            hand = Hand.replay(last.start, await self.store.hands.actions(last.id))
            live.hand, live.hand_id = hand, last.id
            proof = await self.store.fairness.proof(last.id)
            live.seeds = () if proof is None else proof.seeds
            live.table.resume_hand(hand)
            if hand.is_over:  # its last step was stored, its settling was not
                settled = await self.store.hands.settle(last.id, hand)
                live.tournament = settled.tournament or live.tournament
                await self._finish(live, hand, settled.awards)
        elif last is not None:
            live.hand_id = last.id
        stored = Wait.from_json(row.wait)
        want = self._want(live)
        live.stored_wait = stored
        live.wait = stored if stored is not None and want is not None \
            and stored.name == (want.kind, want.hand_id, want.turn) else None

    async def resume_all(self) -> list[str]:
        """At start-up: recover unfinished hands, then bring every live table back, each
        waiting until the deadline it showed before (at once if that has passed)."""
        reports = await self.store.recover()
        lines = [r.describe() for r in reports]
        by_table = {r.table_id: r for r in reports}
        for row in await self.store.tables.live_tables():
            live = await self._live_of(row)
            report = by_table.get(row.id)
            if report is not None and report.outcome == "refunded":
                live.note = N_("The bot restarted and could not resume the hand: every chip "
                               "in it went back to its owner.")
            elif live.hand is None:
                # Between hands the table shows how the last one ended, after a restart too.
                live.outcome = await self._last_outcome(live)
            self._register(live)
            async with live.lock:
                self.outbox.resume(live, message_id=row.message_id, shown=row.shown)
                if live.closing and (live.hand is None or live.hand.is_over):
                    # /endgame came during a hand that has ended (or was refunded) since.
                    await self._close(live, CLOSED_AS_ASKED)
                    continue
                if live.tournament is not None and live.tournament.status == "finished":
                    # Its last hand was settled, the close of its table was not.
                    await self._close(live, TOURNAMENT_OVER)
                    continue
                await self._publish(live)
                await self._resend_cards(live)
        for row in await self.store.tables.results_due():
            await self._results_again(row)
        return lines

    async def _results_again(self, row: StoredTable) -> None:
        """A table closed before the restart whose results message had not reached its
        chat: it is sent now (still due if the ledger cannot be read)."""
        chat = await self.store.chats.get(row.chat_id)
        settings = TableSettings.load(row.rules, **self.defaults.model_dump())
        live = Live(row.id, row.chat_id, row.thread_id, row.creator, settings,
                    Table(settings.rules()), status=TableStatus.CLOSED,
                    language=chat.language or await self.speaks(row.creator))
        live.played = await self.store.hands.count(row.id)
        live.results = await self._results(live)
        if live.results is None:
            return
        self.outbox.results_again(live)

    async def _last_outcome(self, live: Live) -> Outcome | None:
        """How the table's last hand ended, rebuilt from the database (None if it did not)."""
        last = await self.store.hands.last(live.id)
        if last is None or last.status != "settled":
            return None
        hand = Hand.replay(last.start, await self.store.hands.actions(last.id))
        if not hand.is_over:
            return None
        return hand_outcome(hand, await self.store.achievements.of_hand(last.id))

    async def _resend_cards(self, live: Live) -> None:
        """Cards of a round that was dealt but not sent before the process stopped."""
        hand = live.hand
        if hand is None or hand.is_over:
            return
        dealt = [e for e in hand.events if isinstance(e, Dealt)]
        row = await self.store.hands.get(live.hand_id)
        if len(dealt) > row.cards_sent:
            await self._send_cards(live, hand, dealt[-1])
