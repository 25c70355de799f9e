"""Play: presses become engine actions, the deal, the steps after each action, and the
settling of a hand."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot import errors, fairness
from bot.achievements import Award
from bot.clock import Wait
from bot.games.base import GamesBase
from bot.i18n import N_
from bot.live import (
    CLOSED_AS_ASKED,
    Live,
    Player,
    add_badges,
    dealt_in,
    hand_outcome,
    hand_want,
)
from bot.records import TableStatus
from bot.render.cards import private_hands
from bot.store.errors import StoreError
from engine import Act, Action, Hand, Phase
from engine.events import Dealt, Event
from engine.table import Table

log = logging.getLogger(__name__)

TOURNAMENT_OVER = N_("The tournament is over: the pool was paid out by place.")
"""The note of a tournament's table closed after its last hand."""

TURN_ACTS = {Act.FOLD, Act.CALL, Act.RAISE, Act.ALL_IN, Act.BLIND, Act.NO_BLIND}
"""Actions bound to one turn: a press for an earlier turn is stale."""


def _why_no_deal(table: Table) -> str:
    """Why the next hand cannot be dealt, as the note of the closed table."""
    with_chips = [s for s in table.seats if s.stack >= table.rules.ante]
    if len(with_chips) >= 2:
        if table.players_ready():
            return N_("Only one player is active; the others are sitting out: the table is "
                      "closed and every stack went back.")
        return N_("Everyone is sitting out: the table is closed and every stack went back.")
    return N_("Fewer than two players can pay the ante: the table is closed and every stack "
              "went back.")


class Play(GamesBase):
    """The hand in play: presses, deals, cards and settling."""

    async def press(self, live: Live, who: Player, action: Action, *, hand_id: int,
                    seq: int | None) -> tuple[Event, ...]:
        """Apply a player's action, pressed on a button of hand `hand_id`, turn `seq`; what
        it did."""
        async with live.lock:
            hand = live.hand
            if hand is None or hand_id != live.hand_id or hand.is_over:
                raise errors.Expired()
            if seq is not None and seq != len(hand.actions):
                raise errors.Expired()
            seat = hand.seat_of(who.id)
            if seat is None:
                raise errors.NotAtTable()
            action = Action(action.act, seat, action.amount)
            if action.act in TURN_ACTS and hand.phase is not Phase.SVARA_JOIN \
                    and seat != hand.to_act:
                raise errors.NotYourTurn()
            hand.verify(action)
            return await self._apply(live, action)

    def cards(self, live: Live, who: Player, hand_id: int) -> tuple[Hand, int]:
        """The hand and seat whose cards the "My cards" button shows."""
        hand = live.hand
        if hand is None or hand_id != live.hand_id:
            raise errors.Expired()
        seat = hand.seat_of(who.id)
        if seat is None and live.table.seat(who.id) is None:
            raise errors.NotAtTable()
        if seat is None:
            raise errors.NoCardsThisRound()  # he sat down during the hand
        me = hand.seats[seat]
        if me.in_round:
            return hand, seat
        if dealt_in(hand, seat):
            raise errors.NoCardsThisRound()  # a svara he is not in
        if not me.sitting_out:
            raise errors.NoCardsShort()
        at_table = live.table.seat(who.id)
        if at_table is not None and not at_table.sitting_out:
            raise errors.NoCardsThisRound()  # away when dealt, back from the next hand
        raise errors.NoCardsAway()

    async def _deal(self, live: Live) -> None:
        await self._take_settings(live)
        if live.tournament is not None:
            await self._level_up(live)
        if not live.table.can_deal():
            await self._close(live, _why_no_deal(live.table))
            return
        try:
            deal = await fairness.next_deal(self.store, live.id,
                                            [s.player for s in live.table.seats])
            # A test may deal from a seed of its own; then the hand has no derivation to prove.
            fixed = None if self.seed_source is None else self.seed_source()
            hand = live.table.deal(deal.key if fixed is None else fixed)
            began: list[Wait] = []

            def first_wait(hand_id: int) -> str | None:
                # The hand's first wait is written with it.
                wait = self.waits.follow(None, hand_want(live.settings, hand, hand_id))
                began.extend([] if wait is None else [wait])
                return None if wait is None else wait.to_json()

            hand_id, number = await self.store.hands.open_numbered(
                live.id, hand, None if fixed is not None else (deal.nonce, deal.seeds),
                seats=deal.seats, wait=first_wait)
        except StoreError as err:
            self.refusals.saw(live.id, "the new hand", err)
            await self.reload(live)
            raise errors.StoreBusy() from None
        live.last, live.last_id = live.outcome, live.hand_no
        live.hand, live.hand_id, live.hand_no = hand, hand_id, number
        live.seeds = deal.seeds if fixed is None else ()
        live.cards_due = 0
        if began:
            live.wait = live.stored_wait = began[0]
        live.played += 1
        live.table_commitment = deal.commitment
        live.status = TableStatus.PLAYING
        live.outcome = live.note = None
        awards: tuple[Award, ...] = ()
        if hand.is_over:
            # Over at the deal (everyone all-in on the ante): nothing to play, only to settle.
            settled = await self.store.hands.settle(hand_id, hand)
            awards = settled.awards
            live.tournament = settled.tournament or live.tournament
        await self._after(live, hand.events, awards)

    async def _level_up(self, live: Live) -> None:
        """A tournament deals at the ante of its level, taken from absent players too; its
        first deal starts it. It never closes for want of players present while two can
        pay: the absent are dealt in again (their turns then run out)."""
        try:
            if live.tournament is not None and live.tournament.status == "registering":
                live.tournament = await self.store.tournaments.begin(live.id)
            t = live.tournament
            if t is None:
                return
            live.table.rules = replace(live.settings.rules(), ante=t.ante, away_antes=True)
            away = [s for s in live.table.seats if s.sitting_out and s.stack >= t.ante]
            if not live.table.can_deal() and len(live.table.players_ready()) + len(away) >= 2:
                for seat in away:
                    await self.store.tables.update_seat(live.id, seat.player, sitting_out=False,
                                                        timeouts=0)
                    live.table.set_away(seat.player, False)
        except StoreError as err:
            self.refusals.saw(live.id, "the tournament's next level", err)
            raise errors.StoreBusy() from None

    async def _apply(self, live: Live, action: Action, *,
                     leaving: int | None = None) -> tuple[Event, ...]:
        hand = live.hand
        assert hand is not None
        events = tuple(hand.apply(action))
        # What the table waits for after this step is written with it, in one transaction.
        wait = self.waits.follow(live.wait, self._want(live))
        stored = None if wait is None or wait == live.stored_wait else wait.to_json()
        awards: tuple[Award, ...] = ()
        try:
            if hand.is_over:
                settled = await self.store.hands.settle(
                    live.hand_id, hand, action=action, events=events, leaving=leaving,
                    wait=stored)
                awards = settled.awards
                live.tournament = settled.tournament or live.tournament
            else:
                await self.store.hands.record(live.hand_id, action, events,
                                              seq=len(hand.actions), leaving=leaving,
                                              wait=stored, cards_sent=live.cards_due)
                live.cards_due = 0
        except StoreError as err:
            self.refusals.saw(live.id, action, err)
            live.hand = Hand.replay(hand.start_json(),
                                    [a.to_json() for a in hand.actions[:-1]])
            raise errors.StoreBusy() from None
        live.wait = live.stored_wait = wait
        await self._after(live, events, awards)
        return events

    async def _after(self, live: Live, events: tuple[Event, ...] | list[Event],
                     awards: tuple[Award, ...] = ()) -> None:
        """Show what happened, send new cards, settle a finished hand, arm the timer.

        Called once the step is stored: nothing here may undo it, so a failure to close a
        table that asked to close leaves it waiting to close again at the next timer."""
        hand = live.hand
        assert hand is not None
        dealt = [e for e in events if isinstance(e, Dealt)]
        if hand.is_over:
            await self._finish(live, hand, awards)
            if live.tournament is not None and live.tournament.status == "finished":
                try:
                    await self._close(live, TOURNAMENT_OVER)
                except StoreError as err:
                    log.warning("table %s: could not close after its tournament (%s); it "
                                "closes at its next timer", live.id, err)
            elif live.closing:
                try:
                    await self._close(live, CLOSED_AS_ASKED)
                except StoreError as err:
                    log.warning("table %s: could not close after its hand (%s); it closes at "
                                "its next timer", live.id, err)
        if live.status is not TableStatus.CLOSED:
            await self._publish(live)
        if dealt:
            await self._send_cards(live, hand, dealt[-1])

    async def _send_cards(self, live: Live, hand: Hand, dealt: Dealt) -> None:
        """The private cards of the round `dealt` opened (earlier rounds no longer matter)."""
        rounds = sum(1 for e in hand.events if isinstance(e, Dealt))
        # Computer players sit with negative ids (bot.store.practice): they have no chat.
        hands = [h for h in private_hands(hand, dealt.seats, live.hand_no, live.seeds)
                 if h.player > 0]
        letters = [(h, await self._speaks_or(h.player, live.language)) for h in hands]
        self.outbox.send_cards(live, letters, hand_id=live.hand_id, rounds=rounds)

    async def _finish(self, live: Live, hand: Hand, awards: tuple[Award, ...] = ()) -> None:
        """The hand is settled in the store (with the badges it earned, `awards`): take its
        stacks back to the table."""
        live.outcome = hand_outcome(hand, awards)
        add_badges(live, awards)
        before = {s.player: s.sitting_out for s in live.table.seats}
        live.table.settle(hand)
        live.hand = None
        if live.tournament is not None:
            # Who is out has left the table in the store, with the hand.
            for place in live.tournament.places:
                if live.table.seat(place.user_id) is not None:
                    live.table.stand(place.user_id)
        for seat in live.table.seats:
            if seat.sitting_out and not before.get(seat.player, False):
                try:
                    await self.store.tables.update_seat(live.id, seat.player, sitting_out=True,
                                                        timeouts=seat.timeouts)
                except StoreError as err:
                    # The hand is settled; only a restart would forget he sits out.
                    log.warning("table %s: could not save that %s sits out: %s",
                                live.id, seat.player, err)
        for hook in self.after_hand:
            await hook(live, hand, before)
