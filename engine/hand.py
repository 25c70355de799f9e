"""One hand of Svara as a state machine (RULES.md §3, §5, §6).

A hand runs from the antes to the last chip paid out, svaras included. Every action is
checked by `verify` (which raises a specific `GameError` and changes nothing), answered
by `can`, and applied by `apply`, which returns the events it caused. A hand is fully
determined by `start_json()` and its `actions`, and serialises losslessly with `to_json`.
The state and its read-only queries are `HandState`'s (engine.hand_state); this module
holds the actions that change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Act, Action
from engine.cards import Card
from engine.deck import commitment, shuffled_deck
from engine.errors import NotEnoughPlayers
from engine.events import (
    Blind,
    Call,
    ChipMove,
    Dealt,
    Event,
    Fold,
    HandEnded,
    Left,
    NoBlind,
    PotWon,
    Raise,
    RoundStarted,
    SatOut,
    Shown,
    SvaraClosed,
    SvaraJoined,
    SvaraOpened,
    SvaraSkipped,
)
from engine.hand_state import HandState
from engine.legality import can_blind, legal_moves, verify_action
from engine.pots import Pot, build_pots
from engine.rules import Rules, TieRule
from engine.scoring import score
from engine.snapshot import hand_from_json, hand_to_json
from engine.state import Legal, Phase, SeatIn


class Hand(HandState):
    """A hand in progress. Create it with `Hand.start`; drive it with `apply`."""

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(cls, rules: Rules, seats: Sequence[SeatIn], dealer: int, seed: bytes) -> Hand:
        """Seat the players, take the antes and open the blind (or deal)."""
        hand = cls(rules, seats, dealer, seed)
        hand._take_antes()
        return hand

    @classmethod
    def from_start(cls, start: dict[str, Any]) -> Hand:
        seats = [SeatIn(**s) for s in start["seats"]]
        return cls.start(Rules.from_json(start["rules"]), seats, start["dealer"],
                         bytes.fromhex(start["seed"]))

    @classmethod
    def replay(cls, start: dict[str, Any], actions: Sequence[dict[str, Any]]) -> Hand:
        """Rebuild a hand from its start and its action log."""
        hand = cls.from_start(start)
        for a in actions:
            hand.apply(Action.from_json(a))
        return hand

    # ----------------------------------------------------------------- legality

    def legal(self, seat: int | None = None) -> Legal | None:
        """What `seat` (default: the player to act) may do now, or None."""
        return legal_moves(self, seat)

    def _can_blind(self, seat: int) -> bool:
        return can_blind(self, seat)

    # ----------------------------------------------------------------- actions

    def verify(self, action: Action) -> None:
        """Raise the `GameError` that `action` would meet; return if it would apply."""
        verify_action(self, action)

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except Exception:
            return False
        return True

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply `action` fully, or raise and change nothing. Returns the new events."""
        self.verify(action)
        mark = len(self.events)
        self.actions.append(action)
        seat = action.seat
        act = action.act
        if act is Act.LEAVE:
            assert seat is not None
            self._leave(seat)
        elif act is Act.CLOSE_SVARA:
            self._close_svara()
        elif act is Act.JOIN_SVARA:
            assert seat is not None
            self._join_svara(seat)
        elif act is Act.SKIP_SVARA:
            assert seat is not None
            self.pending.discard(seat)
            self._emit(SvaraSkipped(seat))
            if not self.pending:
                self._close_svara()
        else:
            assert seat is not None
            if act is Act.TIMEOUT and self.phase is Phase.BETTING:
                # Only a turn timeout counts, and once per hand (see `_count_timeouts`).
                self.seats[seat].timeouts = self._start[seat].timeouts + 1
            if self.phase is Phase.BLIND:
                if act is Act.BLIND:
                    assert action.amount is not None
                    self._blind(seat, action.amount)
                else:
                    self._emit(NoBlind(seat, timeout=act is Act.TIMEOUT))
                    self._deal()
            elif act in (Act.FOLD, Act.TIMEOUT):
                self._fold(seat, timeout=act is Act.TIMEOUT)
            elif act is Act.CALL:
                self._call(seat)
            else:
                me = self.seats[seat]
                to = action.amount if act is Act.RAISE else me.committed + me.stack
                assert to is not None
                self._bet_to(seat, to)
        return tuple(self.events[mark:])

    # ----------------------------------------------------------------- transitions

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    def _move(self, seat: int, delta: int, reason: str) -> None:
        s = self.seats[seat]
        s.stack += delta
        self._emit(ChipMove(seat, s.player, delta, reason))

    def _take_antes(self) -> None:
        ante = self.rules.ante
        order = self.order_after(self.dealer)
        payers = [i for i in order
                  if not self.seats[i].sitting_out and self.seats[i].stack >= ante]
        if len(payers) < 2:
            raise NotEnoughPlayers(len(payers))
        for i in order:
            s = self.seats[i]
            if i in payers:
                s.in_round = True
                self._move(i, -ante, "ante")
                self.dead += ante
            else:
                if self.rules.away_antes and s.sitting_out and s.stack >= ante:
                    self._move(i, -ante, "ante")
                    self.dead += ante
                self._emit(SatOut(i, "away" if s.sitting_out else "ante"))
        self._begin_round()

    def _commit_next_round(self) -> None:
        """Publish the next round's commitment (once): at its start, or for a svara as soon as
        it opens, before anyone decides whether to buy in."""
        if len(self.commitments) <= self.round_no:
            self.commitments.append(commitment(self.seed, self.round_no + 1))

    def _begin_round(self) -> None:
        self._commit_next_round()
        self.round_no += 1
        self.deck = shuffled_deck(self.seed, self.round_no)
        for s in self.seats:
            s.folded = False
            s.committed = 0
            s.blind = 0
            s.cards = ()
        self.opened = False
        self.last_blind = 0
        self.blind_seat = None
        players = tuple(i for i in self.order_after(self.dealer) if self.seats[i].in_round)
        self._emit(RoundStarted(self.round_no, self.dealer, players, self.round_pot,
                                self.commitment))
        first = players[0]
        if self.rules.blind and self._can_blind(first):
            self.phase = Phase.BLIND
            self.to_act = first
        else:
            self._deal()

    def _blind(self, seat: int, amount: int) -> None:
        me = self.seats[seat]
        me.committed += amount
        me.blind = amount
        self._move(seat, -amount, "blind")
        self._emit(Blind(seat, amount))
        self.last_blind = amount
        self.blind_seat = seat
        # The chain ends when it comes back round to a player who has blinded already.
        nxt = next(i for i in self.order_after(seat) if self.in_play(i))
        if not self.seats[nxt].blind and self._can_blind(nxt):
            self.to_act = nxt
        else:
            self._deal()

    def _deal(self) -> None:
        order = [i for i in self.order_after(self.dealer) if self.in_play(i)]
        cards: dict[int, list[Card]] = {i: [] for i in order}
        k = 0
        for _ in range(3):
            for i in order:
                cards[i].append(self.deck[k])
                k += 1
        for i in order:
            self.seats[i].cards = tuple(cards[i])
        self._emit(Dealt(self.round_no, tuple(order)))
        self.phase = Phase.BETTING
        self.need = {i for i in order if self.seats[i].stack > 0}
        self._advance(self.blind_seat if self.blind_seat is not None else self.dealer)

    def _fold(self, seat: int, *, timeout: bool = False, leaving: bool = False) -> None:
        self.seats[seat].folded = True
        self.need.discard(seat)
        self._emit(Fold(seat, timeout=timeout, leaving=leaving))
        if seat == self.to_act or self.to_act is None:
            self._advance(seat)
        else:
            # Out of turn (a player left): the turn stays where it was.
            self._advance((self.to_act - 1) % len(self.seats))

    def _call(self, seat: int) -> None:
        me = self.seats[seat]
        amount = min(self.level - me.committed, me.stack)
        me.committed += amount
        self._move(seat, -amount, "bet")
        self.need.discard(seat)
        self._emit(Call(seat, amount, all_in=me.stack == 0))
        self._advance(seat)

    def _bet_to(self, seat: int, to: int) -> None:
        me = self.seats[seat]
        level = self.level
        amount = to - me.committed
        me.committed = to
        self._move(seat, -amount, "bet")
        if to > level:
            opening = not self.opened
            self.opened = True
            self.need = {i for i, s in enumerate(self.seats)
                         if i != seat and self.in_play(i) and s.stack > 0}
            self._emit(Raise(seat, to, opening=opening, all_in=me.stack == 0))
        else:
            self.need.discard(seat)
            self._emit(Call(seat, amount, all_in=me.stack == 0))
        self._advance(seat)

    def _advance(self, after: int) -> None:
        """Pass the turn to the next player after `after` who must act, or end the betting."""
        alive = [i for i in self.order_after(self.dealer) if self.in_play(i)]
        if len(alive) == 1:
            self._win_uncontested(alive[0])
            return
        able = [i for i in alive if self.seats[i].stack > 0]
        if len(able) <= 1 and all(self.seats[i].committed >= self.level for i in able):
            self.need.clear()
        if not self.need:
            self._showdown(alive)
            return
        self.to_act = next(i for i in self.order_after(after) if i in self.need)

    def _leave(self, seat: int) -> None:
        me = self.seats[seat]
        me.leaving = True
        self._emit(Left(seat))
        if self.phase is Phase.SVARA_JOIN:
            self.pending.discard(seat)
            if me.in_round:
                me.folded = True
            if not self.pending:
                self._close_svara()
        elif self.in_play(seat):
            if self.phase is Phase.BLIND:
                me.folded = True
                self._emit(Fold(seat, leaving=True))
                alive = [i for i in self.order_after(self.dealer) if self.in_play(i)]
                if len(alive) == 1:
                    self._win_uncontested(alive[0])
                elif seat == self.to_act:
                    self._deal()
            else:
                self._fold(seat, leaving=True)

    # ----------------------------------------------------------------- endings

    def _take_round_chips(self) -> None:
        for s in self.seats:
            s.committed = 0
        self.dead = 0
        self.to_act = None
        self.need.clear()

    def _win_uncontested(self, winner: int) -> None:
        w = self.seats[winner]
        others = max((s.committed for i, s in enumerate(self.seats) if i != winner), default=0)
        uncalled = max(0, w.committed - others)
        won = self.dead + sum(s.committed for s in self.seats) - uncalled
        if uncalled:
            self._move(winner, uncalled, "return")
        self._move(winner, won, "win")
        self._emit(PotWon(0, won, (winner,), None))
        self.dealer_keeps = (
            winner == self.dealer and self.round_no == 1 and not self.opened
            and self.last_blind == 0
        )
        self._take_round_chips()
        self._next_svara_or_end()

    def _showdown(self, alive: list[int]) -> None:
        points = {i: score(self.seats[i].cards, self.rules.scoring) for i in alive}
        for i in alive:
            self._emit(Shown(i, self.seats[i].cards, points[i]))
        pots = build_pots([s.committed for s in self.seats], alive, self.dead)
        self._take_round_chips()
        new_svaras: list[tuple[int, tuple[int, ...]]] = []
        for n, pot in enumerate(pots):
            best = max(points[i] for i in pot.eligible)
            winners = tuple(i for i in pot.eligible if points[i] == best)
            if len(winners) > 1 and self.rules.tie is TieRule.SVARA:
                new_svaras.append((pot.amount, winners))
            else:
                self._pay(n, pot, winners, None if pot.uncalled else best)
        self.queued[:0] = new_svaras
        self._next_svara_or_end()

    def _pay(self, n: int, pot: Pot, winners: tuple[int, ...], best: int | None) -> None:
        if pot.uncalled:
            self._move(winners[0], pot.amount, "return")
            return
        share, odd = divmod(pot.amount, len(winners))
        # Odd chips go to the first tied player left of the dealer.
        first = next(i for i in self.order_after(self.dealer) if i in winners)
        for i in winners:
            self._move(i, share + (odd if i == first else 0), "win")
        self._emit(PotWon(n, pot.amount, winners, best))

    def _next_svara_or_end(self) -> None:
        if not self.queued:
            self.phase = Phase.OVER
            self.to_act = None
            self._count_timeouts()
            self._emit(HandEnded(self.dealer_keeps))
            return
        amount, tied = self.queued.pop(0)
        stake = -(-amount // len(tied))
        # Every player present may buy in, those sitting out included (RULES.md §5).
        can_join = tuple(
            i for i in self.order_after(self.dealer)
            if i not in tied and not self.seats[i].leaving and self.seats[i].stack >= stake
        )
        for i, s in enumerate(self.seats):
            s.in_round = i in tied
            # A tied player who has left the table gives up his share of the svara.
            s.folded = s.in_round and s.leaving
        self.dead = amount
        self.tied = tied
        self.stake = stake
        self._commit_next_round()
        self._emit(SvaraOpened(amount, tied, stake, can_join))
        if can_join:
            self.phase = Phase.SVARA_JOIN
            self.pending = set(can_join)
        else:
            self._close_svara()

    def _join_svara(self, seat: int) -> None:
        self.pending.discard(seat)
        me = self.seats[seat]
        me.in_round = True
        self.dead += self.stake
        self._move(seat, -self.stake, "svara_join")
        self._emit(SvaraJoined(seat, self.stake))
        if not self.pending:
            self._close_svara()

    def _close_svara(self) -> None:
        self.pending.clear()
        players = [i for i in self.order_after(self.dealer) if self.in_play(i)]
        self._emit(SvaraClosed(tuple(players)))
        for s in self.seats:
            if s.folded:
                s.in_round = False
        if len(players) >= 2:
            self.to_act = None
            self._begin_round()
            return
        # Nobody left to play it against: one player takes the pot; if every tied
        # player left, the tied players share it as in the split variant.
        winners = tuple(players) or self.tied
        pot = Pot(self.dead, winners)
        self.dead = 0
        self._pay(0, pot, winners, None)
        self._next_svara_or_end()

    def _count_timeouts(self) -> None:
        """At the end: a turn timeout in this hand makes one more in a row (set when it
        happened); any other hand a player was dealt into or joined breaks the streak."""
        played = {i for e in self.events if isinstance(e, RoundStarted) and e.round_no == 1
                  for i in e.seats}
        played |= {e.seat for e in self.events if isinstance(e, SvaraJoined)}
        for i in played:
            if self.seats[i].timeouts != self._start[i].timeouts + 1:
                self.seats[i].timeouts = 0

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The whole state, losslessly; `from_json` restores an equal hand."""
        return hand_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hand:
        return hand_from_json(data, cls)
