"""Hand scores (RULES.md §2). All 4960 hands are scored once per rule set; a score is a lookup."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from engine.cards import CARDS, SEVEN_OF_CLUBS, Card, Rank
from engine.errors import BadCardText


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The scoring switches of RULES.md §2 (all on by default)."""

    two_sevens: bool = True
    """Two sevens score 23."""
    three_sevens_top: bool = True
    """Three sevens score 34 (off: scored as plain trips)."""
    chechak: bool = True
    """The 7♣ is the Chechak (off: an ordinary seven)."""


DEFAULT_SCORING = ScoringRules()


def _points(card: Card, chechak: bool) -> int:
    if chechak and card == SEVEN_OF_CLUBS:
        return 11
    return card.rank.points


def _pair_group(a: Card, b: Card) -> int | None:
    """Value of two cards that form a group (same suit or same rank), else None."""
    if a.suit == b.suit or a.rank == b.rank:
        return a.rank.points + b.rank.points
    return None


def compute_score(cards: tuple[Card, Card, Card], rules: ScoringRules) -> int:
    """Score one three-card hand from first principles (used to build the table)."""
    values: list[int] = []
    by_suit: dict[int, int] = {}
    for c in cards:
        by_suit[c.suit] = by_suit.get(c.suit, 0) + _points(c, rules.chechak)
    values.append(max(by_suit.values()))
    ranks = [c.rank for c in cards]
    aces = ranks.count(Rank.ACE)
    sevens = ranks.count(Rank.SEVEN)
    if aces >= 2:
        values.append(11 * aces)
    if ranks[0] == ranks[1] == ranks[2]:
        values.append(3 * ranks[0].points)
    if sevens == 2 and rules.two_sevens:
        values.append(23)
    if sevens == 3 and rules.three_sevens_top:
        values.append(34)
    if rules.chechak and SEVEN_OF_CLUBS in cards:
        a, b = (c for c in cards if c != SEVEN_OF_CLUBS)
        group = _pair_group(a, b)
        values.append(11 + (group if group is not None else max(a.rank.points, b.rank.points)))
    return max(values)


def _mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


@cache
def score_table(rules: ScoringRules = DEFAULT_SCORING) -> dict[int, int]:
    """Scores of all 4960 hands under `rules`, keyed by the hand's card bit mask."""
    return {_mask(h): compute_score(h, rules) for h in combinations(CARDS, 3)}


def score(cards: Iterable[Card], rules: ScoringRules = DEFAULT_SCORING) -> int:
    """The points of a three-card hand: ``score(parse_hand("7c Kh Kd")) == 31``."""
    cards = tuple(cards)
    try:
        return score_table(rules)[_mask(cards)] if len(cards) == 3 else _bad(cards)
    except KeyError:
        return _bad(cards)


def _bad(cards: tuple[Card, ...]) -> int:
    text = " ".join(str(c) for c in cards)
    raise BadCardText(text, "a hand is three different cards")
