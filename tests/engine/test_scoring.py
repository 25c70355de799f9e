from collections import Counter

import pytest

from engine import BadCardText, ScoringRules, parse_hand, score
from engine.cards import Card
from engine.scoring import score_table

# RULES.md §2: every worked example.
EXAMPLES = [
    ("7♥ 9♦ 9♣", 9),
    ("7♠ 8♣ 8♦", 8),
    ("8♣ K♥ 9♦", 10),
    ("Q♣ Q♥ 9♦", 10),
    ("Q♦ K♦ 10♠", 20),
    ("10♠ 8♠ K♥", 18),
    ("K♥ 9♥ Q♣", 19),
    ("10♦ 9♦ J♦", 29),
    ("10♠ 10♦ 10♣", 30),
    ("Q♣ Q♥ Q♦", 30),
    ("A♠ A♦ 10♣", 22),
    ("8♠ A♦ 7♣", 22),
    ("7♣ K♥ K♦", 31),
    ("7♣ A♥ A♦", 33),
    ("7♣ A♥ K♥", 32),
    ("7♥ 7♦ 8♠", 23),
    ("7♣ 7♦ A♦", 29),
    ("7♥ 7♦ 7♠", 34),
]


@pytest.mark.parametrize(("hand", "points"), EXAMPLES)
def test_rules_examples(hand: str, points: int) -> None:
    assert score(parse_hand(hand)) == points


def test_api_from_the_issue() -> None:
    assert score(parse_hand("7c Kh Kd")) == 31


def test_full_distribution_of_all_4960_hands() -> None:
    counts = Counter(score_table().values())
    assert counts == {
        8: 9, 9: 51, 10: 1104, 11: 540, 15: 63, 16: 63, 17: 345, 18: 426, 19: 453,
        20: 651, 21: 492, 22: 234, 23: 147, 24: 7, 25: 12, 26: 18, 27: 50, 28: 56,
        29: 65, 30: 68, 31: 76, 32: 16, 33: 10, 34: 4,
    }
    assert sum(counts.values()) == 4960
    assert not {12, 13, 14} & counts.keys()


def test_two_sevens_variant_off() -> None:
    rules = ScoringRules(two_sevens=False)
    assert score(parse_hand("7♥ 7♦ 8♠"), rules) == 8
    assert score(parse_hand("7♥ 7♠ 7♦"), rules) == 34


def test_three_sevens_as_plain_trips() -> None:
    rules = ScoringRules(three_sevens_top=False)
    assert score(parse_hand("7♥ 7♦ 7♠"), rules) == 21
    assert score(parse_hand("7♥ 7♦ 8♠"), rules) == 23
    # With the Chechak: 11 + the pair of sevens (14) beats plain trips.
    assert score(parse_hand("7♣ 7♦ 7♠"), rules) == 25


def test_chechak_off_is_an_ordinary_seven() -> None:
    rules = ScoringRules(chechak=False)
    assert score(parse_hand("7♣ K♥ K♦"), rules) == 10
    assert score(parse_hand("7♣ K♣ 9♦"), rules) == 17
    assert score(parse_hand("8♠ A♦ 7♣"), rules) == 11


def test_every_variant_table_is_complete() -> None:
    for a in (True, False):
        for b in (True, False):
            for c in (True, False):
                assert len(score_table(ScoringRules(a, b, c))) == 4960


@pytest.mark.parametrize(("hand", "shown"), [("7c Kh", "7♣ K♥"),
                                             ("7c Kh Kd Ks", "7♣ K♥ K♦ K♠")])
def test_only_three_card_hands_score(hand: str, shown: str) -> None:
    with pytest.raises(BadCardText) as refusal:
        score(parse_hand(hand))
    # The player is shown his cards and why.
    assert str(refusal.value) == (
        f"Not a card (or a valid hand): {shown!r}: a hand is three different cards.")


def test_a_hand_with_a_card_twice_is_refused_with_the_cards_named() -> None:
    seven, king = parse_hand("7c Kd")
    with pytest.raises(BadCardText) as refusal:
        score((seven, seven, king))
    assert str(refusal.value) == (
        "Not a card (or a valid hand): '7♣ 7♣ K♦': a hand is three different cards.")


def test_a_pair_beside_an_odd_card_is_no_three_of_a_kind_wherever_it_sits() -> None:
    for hand in ("K♣ K♦ Q♥", "K♣ Q♥ K♦", "Q♥ K♣ K♦"):
        assert score(parse_hand(hand)) == score(parse_hand("K♣ K♦ Q♥")) < 30


@pytest.mark.parametrize("text", ["Kd Kd 9s", "9s Ah Ah", "As Kd As", "Ks Ks Qh Jh"])
def test_a_hand_repeating_any_card_is_refused_not_scored(text: str) -> None:
    # Built card by card: parse_hand itself already refuses a repeated card.
    cards = tuple(Card.parse(part) for part in text.split())
    with pytest.raises(BadCardText) as refusal:
        score(cards)
    assert str(refusal.value).endswith(": a hand is three different cards.")
