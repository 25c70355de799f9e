"""The computer player: hand strength against pot odds, position and stack, in three levels.

At each decision the player looks only at what a seated player sees: his own cards, the
chips on the table and what the others did this round. docs/STRATEGY.md describes the
play; `Style` holds every number a level changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from engine.actions import Act, Action
from engine.events import Raise, RoundStarted
from engine.hand import Hand
from engine.players.odds import floor_for_top, showdown_odds
from engine.players.play import legal_for
from engine.state import Legal


class Level(StrEnum):
    CAUTIOUS = "cautious"
    NORMAL = "normal"
    BOLD = "bold"


@dataclass(frozen=True, slots=True)
class Style:
    """How a level plays; every threshold is a share of the pot (equity) or of chips."""

    call_margin: float
    """Stay in when the equity is at least the pot odds times this."""
    behind: float
    """Equity asked on top, per opponent who still acts after him this round."""
    risk: float
    """Equity asked on top, per share of his chips the call costs."""
    raise_edge: float
    """Bet or raise when the equity passes its fair share by this part of the rest."""
    bet_size: float
    """A value bet adds about this share of the pot; more with a stronger hand."""
    max_raises: int
    """Bets and raises of his own in one betting round, at most."""
    respect: float
    """An opponent's raise puts him among the strongest ``respect`` share of hands."""
    bluff: float
    """Chance to bet a weak hand at one or two opponents, when it costs little."""
    blind: float
    """Chance to bet blind, when the blind costs at most `blind_share` of his chips."""
    blind_share: float
    svara: float
    """Chance to join a svara, when the stake is at most `svara_share` of his stack."""
    svara_share: float


STYLES: dict[Level, Style] = {
    Level.CAUTIOUS: Style(
        call_margin=1.3, behind=0.03, risk=0.25, raise_edge=0.55, bet_size=0.5,
        max_raises=1, respect=0.45, bluff=0.0, blind=0.0, blind_share=0.0, svara=0.0,
        svara_share=0.0,
    ),
    Level.NORMAL: Style(
        call_margin=1.1, behind=0.02, risk=0.1, raise_edge=0.4, bet_size=0.75,
        max_raises=2, respect=0.55, bluff=0.03, blind=0.25, blind_share=0.05, svara=0.5,
        svara_share=0.1,
    ),
    Level.BOLD: Style(
        call_margin=1.0, behind=0.01, risk=0.0, raise_edge=0.3, bet_size=1.0,
        max_raises=3, respect=0.7, bluff=0.08, blind=0.5, blind_share=0.1, svara=1.0,
        svara_share=0.25,
    ),
}

OPENING_WEIGHT = 0.5
"""Someone must bet first (there is no check), so the first bet says less than a raise."""
SHOVE_SHARE = 0.6
"""A bet that would take this share of his chips goes all-in instead."""
CRUMBS = 0.25
"""A call that would leave less than this share of the pot behind goes all-in instead."""


@dataclass(frozen=True, slots=True)
class Situation:
    """What a player weighs at his turn to bet (all public, but his own cards)."""

    equity: float
    fair: float
    """His share if every hand were alike: 1 / players still in."""
    pot: int
    """Chips in this round's pot now (svaras waiting for their turn excluded)."""
    cost: int
    """Chips the cheapest way to stay in adds: the call, or the least bet."""
    behind: int
    chips: int
    """All he can have in this round: committed plus stack."""
    raises: int
    """His own bets and raises this round."""
    opponents: int


class Computer:
    """A computer player of one level; its randomness comes only from ``rng``."""

    def __init__(self, level: Level, rng: random.Random) -> None:
        self.level = level
        self.style = STYLES[level]
        self.rng = rng

    def __repr__(self) -> str:
        return f"Computer({self.level.value})"

    def decide(self, hand: Hand, seat: int) -> Action:
        """One action among those ``hand.legal(seat)`` offers (`NotYourTurn` if none)."""
        legal = legal_for(hand, seat)
        if legal.svara_stake is not None:
            return self._svara(hand, seat, legal.svara_stake)
        if legal.blind is not None:
            return self._blind(hand, seat, legal.blind)
        return self._bet(hand, seat, legal)

    # ----------------------------------------------------------------- before the cards

    def _svara(self, hand: Hand, seat: int, stake: int) -> Action:
        # Joining costs a fair share of the pot, so it pays only through the betting
        # that follows: a level joins as far as it trusts itself and its stack allows.
        stack = hand.seats[seat].stack
        if stake <= self.style.svara_share * stack and self.rng.random() < self.style.svara:
            return Action(Act.JOIN_SVARA, seat)
        return Action(Act.SKIP_SVARA, seat)

    def _blind(self, hand: Hand, seat: int, blind: tuple[int, int]) -> Action:
        # A blind is a bet on a random hand; it buys the last word in the betting and makes
        # the first bet after the deal cost double, so it is a small, occasional pressure.
        low, high = blind
        amount = low
        if self.level is Level.BOLD and high > low and self.rng.random() < 0.5:
            amount = min(high, 2 * low)
        me = hand.seats[seat]
        chips = me.stack + me.committed
        if amount <= self.style.blind_share * chips and self.rng.random() < self.style.blind:
            return Action(Act.BLIND, seat, amount)
        return Action(Act.NO_BLIND, seat)

    # ----------------------------------------------------------------- betting

    def situation(self, hand: Hand, seat: int, legal: Legal) -> Situation | None:
        """The numbers behind a betting decision, or None when folding is all he may do."""
        me = hand.seats[seat]
        if legal.call is not None:
            cost = legal.call
        elif legal.raise_to is not None:
            cost = legal.raise_to[0] - me.committed
        elif legal.all_in is not None:
            cost = legal.all_in - me.committed
        else:
            return None
        opponents = [i for i in range(len(hand.seats)) if i != seat and hand.in_play(i)]
        weights, raises = _raises_this_round(hand, seat)
        scoring = hand.rules.scoring
        floors = [
            floor_for_top(self.style.respect ** weights[i], scoring) if weights.get(i) else 0
            for i in opponents
        ]
        odds = showdown_odds(hand.cards(seat), floors, scoring)
        return Situation(
            equity=odds.equity,
            fair=1 / (len(opponents) + 1),
            pot=hand.dead + sum(s.committed for s in hand.seats),
            cost=cost,
            behind=len(hand.need - {seat}),
            chips=me.committed + me.stack,
            raises=raises,
            opponents=len(opponents),
        )

    def _bet(self, hand: Hand, seat: int, legal: Legal) -> Action:
        fold = Action(Act.FOLD, seat)
        now = self.situation(hand, seat, legal)
        if now is None:
            return fold
        style = self.style
        level = hand.level
        can_raise = legal.raise_to is not None or (
            legal.all_in is not None and legal.all_in > level
        )
        strong = now.fair + (1 - now.fair) * style.raise_edge
        if now.equity >= strong and now.raises < style.max_raises and can_raise:
            return self._raise(hand, seat, legal, now, strong)
        needed = (
            now.cost / (now.pot + now.cost) * style.call_margin
            + now.behind * style.behind
            + style.risk * now.cost / max(1, now.chips)
        )
        if now.cost == 0 or now.equity >= needed:
            return self._stay(hand, seat, legal, now)
        if (
            legal.raise_to is not None and now.raises == 0 and now.opponents <= 2
            and now.cost <= now.chips // 8 and self.rng.random() < style.bluff
        ):
            return self._raise(hand, seat, legal, now, strong, bluff=True)
        return fold

    def _stay(self, hand: Hand, seat: int, legal: Legal, now: Situation) -> Action:
        """Call, or the least bet when nobody has bet yet."""
        me = hand.seats[seat]
        crumbs = me.stack - now.cost
        if legal.all_in is not None and 0 < crumbs < CRUMBS * now.pot and now.equity >= now.fair:
            return Action(Act.ALL_IN, seat)
        if legal.call is not None:
            return Action(Act.CALL, seat)
        if legal.raise_to is not None:
            return Action(Act.RAISE, seat, legal.raise_to[0])
        return Action(Act.ALL_IN, seat)

    def _raise(
        self, hand: Hand, seat: int, legal: Legal, now: Situation, strong: float,
        *, bluff: bool = False,
    ) -> Action:
        """Bet or raise by a share of the pot that grows with the hand's strength."""
        me = hand.seats[seat]
        level = hand.level
        size = self.style.bet_size
        if not bluff:
            size *= 1 + (now.equity - strong) / max(1e-9, 1 - strong)
        size *= self.rng.uniform(0.8, 1.2)
        pot_after_call = now.pot + level - me.committed
        target = level + max(hand.rules.ante, round(size * pot_after_call))
        if legal.all_in is not None and (
            legal.raise_to is None or (not bluff and target >= SHOVE_SHARE * now.chips)
        ):
            return Action(Act.ALL_IN, seat)
        assert legal.raise_to is not None
        low, high = legal.raise_to
        return Action(Act.RAISE, seat, max(low, min(high, target)))


def _raises_this_round(hand: Hand, seat: int) -> tuple[dict[int, float], int]:
    """How much each seat has raised this round (the first bet counts less), and how
    many times ``seat`` himself has bet or raised."""
    weights: dict[int, float] = {}
    mine = 0
    for event in reversed(hand.events):
        if isinstance(event, RoundStarted):
            break
        if isinstance(event, Raise):
            weight = OPENING_WEIGHT if event.opening else 1.0
            weights[event.seat] = weights.get(event.seat, 0.0) + weight
            mine += event.seat == seat
    return weights, mine
