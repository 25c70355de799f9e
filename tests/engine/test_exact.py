"""Exact showdown odds against several opponents dealt without replacement."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from engine import CARDS, ScoringRules, parse_hand
from engine.players.exact import (
    MOST,
    canonical,
    deals,
    stored,
    stored_counts,
    stored_most,
    suit_swaps,
    tie_chances,
    tie_counts,
)
from engine.players.odds import one_opponent, showdown_odds
from engine.scoring import DEFAULT_SCORING, score_table

RULES = DEFAULT_SCORING


def _indices(text: str) -> tuple[int, int, int]:
    a, b, c = (card.index for card in parse_hand(text))
    return a, b, c


def _enumerated(indices: tuple[int, int, int], n: int, rules: ScoringRules) -> Counter[int]:
    """Sets of ``n`` disjoint opponents' hands nobody of which scores more, by how many
    score the same: every such set, one by one."""
    table = score_table(rules)
    own = table[sum(1 << i for i in indices)]
    rest = [i for i in range(32) if i not in indices]
    allowed = []
    for hand in combinations(rest, 3):
        mask = sum(1 << i for i in hand)
        if table[mask] <= own:
            allowed.append((mask, table[mask] == own))
    found: Counter[int] = Counter()

    def grow(start: int, used: int, left: int, same: int) -> None:
        if left == 0:
            found[same] += 1
            return
        for j in range(start, len(allowed)):
            mask, tie = allowed[j]
            if not mask & used:
                grow(j + 1, used | mask, left - 1, same + tie)

    grow(0, 0, n, 0)
    return found


# Hands of every kind of strength; the slow enumeration is kept to those with few hands
# scoring at most as much (the weak ones) for two and three opponents.
ONE = ["7♠ 8♣ 8♦", "9♣ 8♦ 10♥", "Q♣ Q♥ 9♦", "K♥ 9♥ Q♣", "A♠ A♦ 10♣", "10♦ 9♦ J♦",
       "7♣ K♥ K♦", "A♠ A♦ A♥", "7♥ 7♦ 7♠"]
TWO = ["9♣ 8♦ 10♥", "Q♣ Q♥ 9♦", "8♠ 9♣ 10♦", "K♥ 9♥ Q♣"]
THREE = ["7♠ 8♣ 8♦", "9♣ 8♦ 9♥", "7♦ 9♠ 8♥"]


@pytest.mark.parametrize("text", ONE)
def test_one_opponent_matches_the_enumeration(text: str) -> None:
    counts = tie_counts(_indices(text), RULES, most=1)
    assert counts[1] == [_enumerated(_indices(text), 1, RULES)[k] for k in range(2)]


@pytest.mark.parametrize("text", TWO)
def test_two_opponents_match_the_enumeration(text: str) -> None:
    counts = tie_counts(_indices(text), RULES, most=2)
    expected = _enumerated(_indices(text), 2, RULES)
    assert counts[2] == [expected[k] for k in range(3)], text
    assert sum(counts[2]) > 0


@pytest.mark.parametrize("text", THREE)
def test_three_opponents_match_the_enumeration(text: str) -> None:
    counts = tie_counts(_indices(text), RULES, most=3)
    expected = _enumerated(_indices(text), 3, RULES)
    assert counts[3] == [expected[k] for k in range(4)], text


def test_other_scoring_matches_the_enumeration() -> None:
    plain = ScoringRules(two_sevens=False, three_sevens_top=False, chechak=False)
    cards = _indices("9♣ 8♦ 10♥")
    expected = _enumerated(cards, 2, plain)
    assert tie_counts(cards, plain, most=2)[2] == [expected[k] for k in range(3)]


def test_deals() -> None:
    assert deals(1) == 3654
    assert deals(2) == 3654 * 2600
    assert deals(5) == 3654 * 2600 * 1771 * 1140 * 680


def _odds(text: str, n: int) -> tuple[float, float, float]:
    """Win, tie and equity against ``n`` opponents, from the exact counts."""
    chances = tie_chances(tie_counts(_indices(text), RULES, most=n), n)
    return chances[0], sum(chances[1:]), sum(p / (k + 1) for k, p in enumerate(chances))


def test_three_aces_lose_only_to_three_sevens() -> None:
    # Worked by hand: against A♣ A♦ A♥ (33) only three sevens (34) score more, and nothing
    # the same (7♣ with two aces would need two of the three aces held). There are four
    # such hands among the 3654; two opponents can never both hold one (four sevens), so
    # against n opponents exactly n * 4 of every 3654 deals lose.
    for n in range(1, MOST + 1):
        win, tie, equity = _odds("A♣ A♦ A♥", n)
        assert win == pytest.approx(1 - 4 * n / 3654, rel=1e-12), n
        assert tie == 0.0 and equity == win
    # The independent draws say (1 - 4/3654)**n instead.
    assert _odds("A♣ A♦ A♥", 5)[0] != pytest.approx((1 - 4 / 3654) ** 5, rel=1e-9)
    assert showdown_odds(parse_hand("A♣ A♦ A♥"), 5, ScoringRules(two_sevens=False)).win == (
        pytest.approx((1 - 4 / 3654) ** 5, rel=1e-12))


def test_three_sevens_always_win() -> None:
    for n in range(1, MOST + 1):
        assert _odds("7♥ 7♦ 7♠", n) == (1.0, 0.0, 1.0)


def test_the_lowest_hand_against_two() -> None:
    # 7♠ 8♣ 8♦ scores 8; the only other 8-point hand left is 7♦ 8♥ 8♠, and nothing
    # scores less. Against one opponent it ties only with that hand; against two, one of
    # them holds something else, which scores more: no win, no tie.
    assert _odds("7♠ 8♣ 8♦", 1) == (0.0, 1 / 3654, 0.5 / 3654)
    assert _odds("7♠ 8♣ 8♦", 2) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("text", ["7♠ 8♣ 8♦", "9♣ 8♦ 10♥", "7♦ 9♠ 8♥", "A♣ A♦ A♥",
                                  "7♣ A♥ A♦", "7♥ 7♦ 7♠"])
def test_chances_fall_with_more_opponents(text: str) -> None:
    counts = tie_counts(_indices(text), RULES)
    wins, anys, equities = [], [], []
    for n in range(1, MOST + 1):
        chances = tie_chances(counts, n)
        assert all(0.0 <= p <= 1.0 for p in chances) and sum(chances) <= 1.0 + 1e-12
        wins.append(chances[0])
        anys.append(sum(chances))
        equities.append(sum(p / (k + 1) for k, p in enumerate(chances)))
    assert wins == sorted(wins, reverse=True)
    assert anys == sorted(anys, reverse=True)
    assert equities == sorted(equities, reverse=True)
    # One opponent: the same as the counts by inclusion and exclusion.
    below, same = one_opponent(parse_hand(text))
    assert tie_chances(counts, 1) == pytest.approx([below, same], abs=1e-15)


def test_suits_the_scoring_cannot_tell_apart() -> None:
    assert len(suit_swaps(RULES)) == 6 and len(suit_swaps(ScoringRules(chechak=False))) == 24
    assert len({canonical(h, RULES) for h in combinations(range(32), 3)}) == 1192
    # The chechak tells clubs apart: 7♣ K♥ K♦ is not 7♦ K♥ K♣.
    assert canonical(_indices("7♣ K♥ K♦"), RULES) != canonical(_indices("7♦ K♥ K♣"), RULES)
    assert canonical(_indices("7♠ K♥ K♦"), RULES) == canonical(_indices("7♦ K♥ K♠"), RULES)
    assert tie_counts(_indices("A♠ A♦ 7♥"), RULES, 2) == tie_counts(_indices("A♥ A♠ 7♦"), RULES, 2)


KEPT = 5
"""Opponents the data file in the repository counts up to."""
QUICK = 3
"""Opponents the slower hands are counted again against here (against five: seconds each)."""


def test_the_kept_counts_are_those_counted_again() -> None:
    assert stored_most() == KEPT
    # Strong, weak and some middling hands in full, and the same hand with its suits
    # exchanged (spades for diamonds) read from the data file.
    for text in ("A♣ A♦ A♥", "7♣ A♥ A♦", "7♠ 8♣ 8♦", "Q♣ Q♥ 9♦", "10♦ 9♦ J♦"):
        indices = _indices(text)
        assert stored_counts(indices, RULES) == tie_counts(indices, RULES, KEPT), text
    assert stored_counts(_indices("10♠ 9♠ J♠"), RULES) == tie_counts(_indices("10♦ 9♦ J♦"),
                                                                      RULES, KEPT)
    # Slower middling hands against fewer opponents.
    for text in ("7♣ 10♦ Q♥", "K♥ 9♥ Q♣"):
        indices = _indices(text)
        kept = stored_counts(indices, RULES)
        assert kept is not None and len(kept) == KEPT + 1, text
        assert kept[:QUICK + 1] == tie_counts(indices, RULES, QUICK), text
    assert set(stored()) == {canonical(h, RULES) for h in combinations(range(32), 3)}
    assert stored_counts(_indices("A♣ A♦ A♥"), ScoringRules(chechak=False)) is None


def test_every_kept_hand_falls_with_more_opponents() -> None:
    for hand in combinations(range(32), 3):
        counts = stored_counts(hand, RULES)
        assert counts is not None
        # One opponent: the same as the counts by inclusion and exclusion.
        below, same = one_opponent(tuple(CARDS[i] for i in hand))
        assert tie_chances(counts, 1) == [below, same], hand
        wins, anys = [], []
        for n in range(1, KEPT + 1):
            chances = tie_chances(counts, n)
            assert all(0.0 <= p <= 1.0 for p in chances) and sum(chances) <= 1.0 + 1e-12
            wins.append(chances[0])
            anys.append(sum(chances))
        assert wins == sorted(wins, reverse=True), hand
        assert anys == sorted(anys, reverse=True), hand


def test_every_seat_of_a_deal_has_its_fair_share() -> None:
    # Deal n + 1 hands: the best hand takes the pot, tied best hands share it, so each
    # seat's share averages 1 / (n + 1). Seen from the first seat holding hand h, its
    # share is the sum over k of n! * counts[n][k] / (k + 1), over the deals(n) deals of
    # the others, for each of the 4960 hands h. Every kept count of every hand takes part.
    for n in range(1, KEPT + 1):
        shares = Fraction(0)
        for hand in combinations(range(32), 3):
            counts = stored_counts(hand, RULES)
            assert counts is not None
            shares += sum(Fraction(c, k + 1) for k, c in enumerate(counts[n]))
        assert shares * math.factorial(n) / (4960 * deals(n)) == Fraction(1, n + 1), n


def test_showdown_odds_are_exact_up_to_the_kept_opponents() -> None:
    aces = parse_hand("A♣ A♦ A♥")
    for n in range(1, KEPT + 1):
        assert showdown_odds(aces, n).win == pytest.approx(1 - 4 * n / 3654, rel=1e-12)
    # Beyond them, each further opponent is an independent draw.
    assert showdown_odds(aces, KEPT + 1).win == pytest.approx(
        (1 - 4 * KEPT / 3654) * (1 - 4 / 3654), rel=1e-12)
    cards = parse_hand("K♥ 9♥ Q♣")
    two = showdown_odds(cards, 2)
    below, same = one_opponent(cards, floor=17)
    mixed = showdown_odds(cards, [0, 17, 0])
    assert mixed.win == pytest.approx(two.win * below, rel=1e-12)
    assert mixed.win + mixed.tie == pytest.approx((two.win + two.tie) * (below + same),
                                                  rel=1e-12)
