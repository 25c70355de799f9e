"""Showdown odds from the 4960 hands: how often a hand beats or ties random opposing hands.

For one opponent the odds are exact. The opponent's hand is any three of the 29 cards
the player does not hold (3654 hands, all equally likely); how many of them score each
number of points is counted by inclusion and exclusion over the player's three cards:

    hands of score t avoiding {a, b, c}
        = all hands of score t
        - those holding a, b or c (counted per card)
        + those holding two of them (counted per pair)
        - the hand {a, b, c} itself.

The per-card and per-pair counts are built once per scoring rule set (one pass over the
4960 hands); a hand's 35 counts then take a few list additions, and are kept.

An opponent may be known to hold a strong hand: ``floor`` restricts him to the hands
scoring at least that many points, still exactly (the same counts, fewer of them).

For two to five opponents with no floor and the default scoring the odds are exact too:
`engine.players.exact` counts the deals of disjoint hands once for every hand, and the
counts are read from a data file. Otherwise, opponents beyond those counts (with a floor,
a sixth and later one, or any under other scoring switches) are taken as independent
draws from the 29 cards, which they are not quite (two opponents cannot hold the same
card). The error of that approximation is small (see docs/STRATEGY.md and the tests); it
is deterministic and costs one product per opponent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from engine.cards import CARDS, Card
from engine.errors import BadCardText
from engine.players.exact import stored_counts, stored_most, tie_chances
from engine.scoring import DEFAULT_SCORING, ScoringRules, score_table

TOP_SCORE = 34
_SIZE = TOP_SCORE + 1
OPPONENT_HANDS = 3654
"""Hands of three among the 29 cards a player does not hold: C(29, 3)."""


@dataclass(frozen=True, slots=True)
class Odds:
    """One hand's chances at a showdown."""

    win: float
    """Every opponent scores less."""
    tie: float
    """Nobody scores more, and at least one opponent scores the same."""
    equity: float
    """The expected share of the pot: a win is all of it, a tie with k others 1/(k+1)."""

    @property
    def lose(self) -> float:
        return max(0.0, 1.0 - self.win - self.tie)


class _Counts:
    """The score counts of one scoring rule set: all hands, per card and per pair."""

    def __init__(self, rules: ScoringRules) -> None:
        table = score_table(rules)
        self.all = [0] * _SIZE
        self.card = [[0] * _SIZE for _ in CARDS]
        self.pair: dict[tuple[int, int], list[int]] = {
            p: [0] * _SIZE for p in combinations(range(len(CARDS)), 2)
        }
        for mask, points in table.items():
            a, b, c = (i for i in range(len(CARDS)) if mask >> i & 1)
            self.all[points] += 1
            for i in (a, b, c):
                self.card[i][points] += 1
            for p in ((a, b), (a, c), (b, c)):
                self.pair[p][points] += 1
        self.table = table
        self.global_below = _cumulative(self.all)
        self._hands: dict[int, tuple[list[int], list[int], int]] = {}

    def opponents(self, indices: tuple[int, int, int]) -> tuple[list[int], list[int], int]:
        """For the hand of these cards: opponent hands per score, those below each score,
        and the hand's own score."""
        a, b, c = sorted(indices)
        mask = 1 << a | 1 << b | 1 << c
        found = self._hands.get(mask)
        if found is not None:
            return found
        own = self.table[mask]
        counts = list(self.all)
        for i in (a, b, c):
            for t, n in enumerate(self.card[i]):
                counts[t] -= n
        for p in ((a, b), (a, c), (b, c)):
            for t, n in enumerate(self.pair[p]):
                counts[t] += n
        counts[own] -= 1
        found = (counts, _cumulative(counts), own)
        self._hands[mask] = found
        return found


def _cumulative(counts: Sequence[int]) -> list[int]:
    """``out[t]`` is how many are below ``t`` (one entry more than the counts)."""
    out = [0]
    for n in counts:
        out.append(out[-1] + n)
    return out


@cache
def _counts(rules: ScoringRules) -> _Counts:
    return _Counts(rules)


def _indices(cards: Iterable[Card]) -> tuple[int, int, int]:
    cards = tuple(cards)
    if len(cards) != 3 or len(set(cards)) != 3:
        raise BadCardText(" ".join(str(c) for c in cards), "a hand is three different cards")
    a, b, c = (card.index for card in cards)
    return a, b, c


def opponent_counts(
    cards: Iterable[Card], scoring: ScoringRules = DEFAULT_SCORING
) -> dict[int, int]:
    """How many of the 3654 hands an opponent may hold score each number of points."""
    counts, _, _ = _counts(scoring).opponents(_indices(cards))
    return {t: n for t, n in enumerate(counts) if n}


def one_opponent(
    cards: Iterable[Card], scoring: ScoringRules = DEFAULT_SCORING, floor: int = 0
) -> tuple[float, float]:
    """Exactly: the chances one random opponent scores less, and the same.

    With ``floor``, the opponent holds one of the hands scoring at least ``floor``
    (lowered to the best hand he can hold when none reaches it).
    """
    return _one(_counts(scoring), _indices(cards), floor)


def _one(table: _Counts, indices: tuple[int, int, int], floor: int) -> tuple[float, float]:
    counts, below, own = table.opponents(indices)
    floor = max(0, min(floor, TOP_SCORE))
    while floor > 0 and below[_SIZE] - below[floor] == 0:
        floor -= 1
    possible = below[_SIZE] - below[floor]
    if own < floor:
        return 0.0, 0.0
    return (below[own] - below[floor]) / possible, counts[own] / possible


def showdown_odds(
    cards: Iterable[Card],
    opponents: int | Sequence[int] = 1,
    scoring: ScoringRules = DEFAULT_SCORING,
) -> Odds:
    """The odds of ``cards`` against random opposing hands from the other 29 cards.

    ``opponents`` is their number, or one floor per opponent (see `one_opponent`).
    Exact for one opponent, and for up to five with no floor under the default scoring;
    the others are each counted as an independent draw.
    """
    floors = [0] * opponents if isinstance(opponents, int) else list(opponents)
    if not floors:
        return Odds(1.0, 0.0, 1.0)
    table, indices = _counts(scoring), _indices(cards)
    # ties[k]: the chance that nobody so far scores more and exactly k of them score the same.
    ties = [1.0]
    free = min(stored_most(), sum(1 for f in floors if f <= 0))
    counts = stored_counts(indices, scoring) if free > 1 else None
    if counts is not None:
        ties = tie_chances(counts, free)
        floors = sorted(floors, reverse=True)[: len(floors) - free]
    by_floor = {f: _one(table, indices, f) for f in set(floors)}
    for f in floors:
        below, same = by_floor[f]
        nxt = [0.0] * (len(ties) + 1)
        for k, p in enumerate(ties):
            nxt[k] += p * below
            nxt[k + 1] += p * same
        ties = nxt
    win = ties[0]
    tie = sum(ties[1:])
    equity = sum(p / (k + 1) for k, p in enumerate(ties))
    return Odds(win, tie, equity)


def floor_for_top(share: float, scoring: ScoringRules = DEFAULT_SCORING) -> int:
    """The floor of the strongest ``share`` of all hands: the highest score ``t`` such
    that at least that share of the 4960 hands score ``t`` or more."""
    counts = _counts(scoring)
    total = counts.global_below[_SIZE]
    for t in range(TOP_SCORE, -1, -1):
        if total - counts.global_below[t] >= share * total:
            return t
    return 0
