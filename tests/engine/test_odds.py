"""Showdown odds: exact against one opponent, close against several (see test_exact)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product

import pytest

from engine import CARDS, BadCardText, Card, ScoringRules, parse_hand
from engine.players.odds import (
    OPPONENT_HANDS,
    floor_for_top,
    one_opponent,
    opponent_counts,
    showdown_odds,
)
from engine.scoring import score_table

ALL_SCORING = [ScoringRules(*flags) for flags in product((True, False), repeat=3)]


def _mask(cards: tuple[Card, ...]) -> int:
    return sum(1 << c.index for c in cards)


def _enumerated(cards: tuple[Card, ...], rules: ScoringRules) -> Counter[int]:
    """The opponent's possible hands, one by one."""
    table = score_table(rules)
    rest = [c for c in CARDS if c not in cards]
    return Counter(table[_mask(h)] for h in combinations(rest, 3))


@pytest.mark.parametrize("rules", ALL_SCORING)
def test_one_opponent_counts_are_exact(rules: ScoringRules) -> None:
    # A spread of hands under every combination of the scoring switches.
    hands = [*list(combinations(CARDS, 3))[::211], parse_hand("7♣ 7♦ 7♥")]
    for cards in hands:
        expected = _enumerated(cards, rules)
        assert opponent_counts(cards, rules) == expected, cards
        own = score_table(rules)[_mask(cards)]
        below = sum(n for t, n in expected.items() if t < own)
        assert one_opponent(cards, rules) == (
            below / OPPONENT_HANDS, expected[own] / OPPONENT_HANDS
        )


def test_known_hands() -> None:
    # Three sevens (34) cannot be matched: the fourth seven is not enough.
    assert showdown_odds(parse_hand("7♥ 7♦ 7♠")).win == 1.0
    assert showdown_odds(parse_hand("7♥ 7♦ 7♠"), 9).equity == 1.0
    # As plain trips (21) they lose to every suited hand of more.
    trips = showdown_odds(parse_hand("7♥ 7♦ 7♠"), 1, ScoringRules(three_sevens_top=False))
    assert trips.win < 0.9 and trips.lose > 0.05
    # 7♠ 8♣ 8♦ scores the minimum, 8; of the other 8-point hands only 7♦ 8♥ 8♠ is left.
    low = showdown_odds(parse_hand("7♠ 8♣ 8♦"))
    assert low.win == 0.0
    assert low.tie == 1 / 3654
    assert low.equity == 0.5 / 3654


def test_wins_and_losses_balance_over_all_hands() -> None:
    # Every showdown one hand wins is one the other loses.
    wins = loses = 0.0
    for cards in combinations(CARDS, 3):
        odds = showdown_odds(cards)
        wins += odds.win
        loses += odds.lose
    assert wins == pytest.approx(loses, rel=1e-9)
    assert wins > 2000


def test_floor_restricts_the_opponent_exactly() -> None:
    cards = parse_hand("K♥ 9♥ Q♣")  # 19
    table = score_table(ScoringRules())
    rest = [c for c in CARDS if c not in cards]
    strong = [table[_mask(h)] for h in combinations(rest, 3) if table[_mask(h)] >= 17]
    assert one_opponent(cards, floor=17) == (
        sum(t < 19 for t in strong) / len(strong), strong.count(19) / len(strong)
    )
    assert one_opponent(cards, floor=20) == (0.0, 0.0)
    # Without the three sevens' 34 nobody reaches 34 (nor 33 beside three aces): the
    # floor falls to the best hand left, which three aces beat.
    aces, plain = parse_hand("A♠ A♦ A♥"), ScoringRules(three_sevens_top=False)
    assert one_opponent(aces, plain, floor=34) == (1.0, 0.0)


def test_several_opponents_combine_one_by_one() -> None:
    # Beyond the exact counts (here: other scoring switches, or opponents with a floor)
    # each opponent is an independent draw.
    cards, rules = parse_hand("A♠ A♦ 10♣"), ScoringRules(two_sevens=False)
    below, same = one_opponent(cards, rules)
    two = showdown_odds(cards, 2, rules)
    assert two.win == pytest.approx(below**2)
    assert two.tie == pytest.approx((below + same) ** 2 - below**2)
    assert two.equity == pytest.approx(below**2 + below * same + same**2 / 3)
    below, same = one_opponent(cards)
    strong_below, strong_same = one_opponent(cards, floor=20)
    mixed = showdown_odds(cards, [0, 20])
    assert mixed.win == pytest.approx(below * strong_below)
    assert mixed.tie == pytest.approx(
        (below + same) * (strong_below + strong_same) - below * strong_below
    )
    assert showdown_odds(cards, []).equity == 1.0


@pytest.mark.parametrize("text", ["K♥ 9♥ Q♣", "A♠ A♦ 10♣", "10♦ 9♦ J♦", "Q♣ Q♥ 9♦"])
@pytest.mark.parametrize("opponents", [2, 3])
def test_several_opponents_are_close_to_real_deals(text: str, opponents: int) -> None:
    cards = parse_hand(text)
    table = score_table(ScoringRules())
    own = table[_mask(cards)]
    rest = [c for c in CARDS if c not in cards]
    rng = random.Random(f"odds|{text}|{opponents}")
    deals = 20_000
    equity = 0.0
    for _ in range(deals):
        dealt = rng.sample(rest, 3 * opponents)
        scores = [table[_mask(tuple(dealt[3 * i: 3 * i + 3]))] for i in range(opponents)]
        best = max(scores)
        if best < own:
            equity += 1
        elif best == own:
            equity += 1 / (1 + scores.count(own))
    assert showdown_odds(cards, opponents).equity == pytest.approx(equity / deals, abs=0.025)


def test_floor_for_top() -> None:
    # From the distribution of RULES.md: 239 hands score 29 or more, 295 score 28 or more.
    assert floor_for_top(1.0) == 8
    assert floor_for_top(0.05) == 28
    assert floor_for_top(239 / 4960) == 29
    assert floor_for_top(1 / 4960) == 34


def test_a_hand_is_three_different_cards() -> None:
    with pytest.raises(BadCardText):
        showdown_odds(parse_hand("7♥ 7♦"))
    with pytest.raises(BadCardText):
        showdown_odds((CARDS[0], CARDS[0], CARDS[1]))
