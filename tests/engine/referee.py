"""An independent referee: what RULES.md allows now, worked out from a hand's public record.

It reads only whose turn it is, the stacks, the chips put in this round and the events so
far, never the engine's own answers (`legal`, `can`, `verify`), so a property test can hold
the engine to it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import Act, Action, Hand, Limit, Phase
from engine.events import (
    Blind,
    ChipMove,
    Dealt,
    Event,
    Raise,
    RoundStarted,
    SvaraJoined,
    SvaraOpened,
    SvaraSkipped,
)
from engine.rules import MAX_CHIPS

NO_AMOUNT = (Act.FOLD, Act.CALL, Act.ALL_IN, Act.NO_BLIND, Act.JOIN_SVARA, Act.SKIP_SVARA,
             Act.TIMEOUT, Act.LEAVE)


def _last(events: list[Event], kind: type[Event]) -> int:
    """Index of the last event of `kind` (-1 if none)."""
    return max((i for i, e in enumerate(events) if isinstance(e, kind)), default=-1)


@dataclass(frozen=True)
class Turn:
    """The numbers of the turn of the player to act, as the rules define them."""

    seat: int
    blinds: tuple[int, ...]
    """Blinds of this round, in order."""
    opened: bool
    """Somebody bet after this round's deal."""
    level: int
    total: int
    """What this player would have put in with his whole stack."""
    cap: int
    """The highest total a bet or raise may bring him to (the limit)."""


class Referee:
    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.events = list(hand.events)
        self.rules = hand.rules
        round_at = _last(self.events, RoundStarted)
        self.round_events = self.events[round_at:]

    # ------------------------------------------------------------- svara

    def may_join(self) -> set[int]:
        """Seats that may still answer the svara window: not tied, present, able to pay."""
        at = _last(self.events, SvaraOpened)
        opened = self.events[at]
        assert isinstance(opened, SvaraOpened)
        answered = {e.seat for e in self.events[at:] if isinstance(e, SvaraJoined | SvaraSkipped)}
        stake = -(-opened.pot // len(opened.tied))
        return {
            i for i, s in enumerate(self.hand.seats)
            if i not in opened.tied and i not in answered and not s.leaving and s.stack >= stake
        }

    def svara_stake(self) -> int:
        opened = self.events[_last(self.events, SvaraOpened)]
        assert isinstance(opened, SvaraOpened)
        return -(-opened.pot // len(opened.tied))

    # ------------------------------------------------------------- blinds and bets

    def blinds(self) -> list[tuple[int, int]]:
        """(seat, amount) of this round's blinds, in order."""
        return [(e.seat, e.amount) for e in self.round_events if isinstance(e, Blind)]

    def blind_range(self) -> tuple[int, int]:
        """The blind the player to act may bet: from the ante up to the cap, then exactly
        double the last one; never more than his stack or, with a fixed cap, the cap."""
        seat = self.hand.to_act
        assert seat is not None
        blinds = self.blinds()
        if blinds:
            low = high = 2 * blinds[-1][1]
        else:
            low, high = self.rules.ante, self.rules.max_blind
        high = min(high, self.hand.seats[seat].stack)
        step = self.rules.max_bet_step
        if step is not None:
            high = min(high, step)
        return low, high

    def round_pot(self) -> int:
        """This round's own pot: a svara's tied pot and what came in since; or everything
        put in since the antes (nothing is paid out before a round ends)."""
        at = _last(self.events, SvaraOpened)
        opened = self.events[at] if at >= 0 else None
        start = opened.pot if isinstance(opened, SvaraOpened) else 0
        moved = [e for e in self.events[at + 1:] if isinstance(e, ChipMove)]
        assert all(e.delta <= 0 for e in moved), "chips paid out in the middle of a round"
        return start - sum(e.delta for e in moved)

    def turn(self) -> Turn:
        hand = self.hand
        seat = hand.to_act
        assert seat is not None
        me = hand.seats[seat]
        level = max(s.committed for s in hand.seats)
        dealt_at = _last(self.round_events, Dealt)
        opened = dealt_at >= 0 and any(
            isinstance(e, Raise) for e in self.round_events[dealt_at:])
        if self.rules.limit is Limit.POT_LIMIT:
            cap = level + self.round_pot() + (level - me.committed)
        elif self.rules.limit is Limit.FIXED_CAP:
            step = self.rules.max_bet_step
            assert step is not None
            cap = level + step
        else:
            cap = MAX_CHIPS
        return Turn(seat, tuple(a for _, a in self.blinds()), opened, level,
                    me.committed + me.stack, cap)

    def raise_range(self, turn: Turn) -> tuple[int, int]:
        if turn.opened:
            low = turn.level + self.rules.ante
        else:
            low = 2 * turn.blinds[-1] if turn.blinds else self.rules.ante
        return low, min(turn.cap, turn.total)

    # ------------------------------------------------------------- the verdict

    def allows(self, action: Action) -> bool:
        hand, act, seat = self.hand, action.act, action.seat
        if hand.is_over:
            return False
        if seat is not None and not 0 <= seat < len(hand.seats):
            return False
        if act is Act.LEAVE:
            assert seat is not None
            return not hand.seats[seat].leaving
        if hand.phase is Phase.SVARA_JOIN:
            if act is Act.CLOSE_SVARA:
                return True
            return act in (Act.JOIN_SVARA, Act.SKIP_SVARA) and seat in self.may_join()
        if act in (Act.JOIN_SVARA, Act.SKIP_SVARA, Act.CLOSE_SVARA) or seat != hand.to_act:
            return False
        if act is Act.TIMEOUT:
            return True
        if hand.phase is Phase.BLIND:
            if act is Act.NO_BLIND:
                return True
            if act is not Act.BLIND:
                return False
            low, high = self.blind_range()
            assert action.amount is not None
            return low <= action.amount <= high
        if act in (Act.BLIND, Act.NO_BLIND):
            return False
        if act is Act.FOLD:
            return True
        turn = self.turn()
        if act is Act.CALL:
            return turn.opened
        me = hand.seats[turn.seat]
        all_in = me.stack > 0 and turn.total <= turn.cap
        if act is Act.ALL_IN:
            return all_in
        assert act is Act.RAISE and action.amount is not None
        if action.amount == turn.total and all_in:
            return True
        low, high = self.raise_range(turn)
        return low <= action.amount <= high

    # ------------------------------------------------------------- what to try

    def amounts(self, rng: random.Random) -> set[int]:
        """Amounts worth trying now: every edge of the ranges, and a few others."""
        hand = self.hand
        ante = self.rules.ante
        edges = {1, ante, 10**6, rng.randint(1, 50 * ante)}
        if hand.to_act is not None and hand.phase is not Phase.SVARA_JOIN:
            if hand.phase is Phase.BLIND:
                low, high = self.blind_range()
            else:
                turn = self.turn()
                low, high = self.raise_range(turn)
                edges |= {turn.total - 1, turn.total, turn.total + 1, turn.level,
                          turn.cap, turn.cap + 1}
            edges |= {low - 1, low, low + 1, high - 1, high, high + 1}
            if low < high:
                edges.add(rng.randint(low, high))
        return {a for a in edges if 0 < a <= MAX_CHIPS}

    def candidates(self, rng: random.Random) -> list[Action]:
        """Actions to put to the engine: every kind, by the seats that matter and two more."""
        hand = self.hand
        n = len(hand.seats)
        seats = {rng.randrange(n), rng.randrange(n), n}  # n: a seat that does not exist
        if hand.to_act is not None:
            seats.add(hand.to_act)
        seats |= hand.pending
        amounts = sorted(self.amounts(rng))
        out = [Action(Act.CLOSE_SVARA)]
        for seat in sorted(seats):
            out += [Action(act, seat) for act in NO_AMOUNT]
            out += [Action(act, seat, a) for act in (Act.BLIND, Act.RAISE) for a in amounts]
        return out
