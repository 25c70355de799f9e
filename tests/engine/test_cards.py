import pytest

from engine import CARDS, BadCardText, Card, Rank, Suit, format_hand, parse_hand


def test_deck_has_32_distinct_cards() -> None:
    assert len(set(CARDS)) == 32
    assert [c.index for c in CARDS] == list(range(32))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7♣ K♥ K♦", "7♣ K♥ K♦"),
        ("7c Kh Kd", "7♣ K♥ K♦"),
        ("10s Th", "10♠ 10♥"),
        ("10♠,A♦", "10♠ A♦"),
        ("qc jd", "Q♣ J♦"),
        ("7C KH TD", "7♣ K♥ 10♦"),
    ],
)
def test_parse_both_forms(text: str, expected: str) -> None:
    assert format_hand(parse_hand(text)) == expected


def test_ascii_form_round_trips() -> None:
    for card in CARDS:
        assert Card.parse(card.ascii) == card
        assert Card.parse(str(card)) == card


def test_ten_is_T_in_ascii() -> None:
    assert Card(Rank.TEN, Suit.HEARTS).ascii == "Th"


@pytest.mark.parametrize("text", ["", "6c", "1c", "Kx", "K", "7c 7c", "♣7", "11h", "Kh Zz"])
def test_bad_text_is_a_clear_error(text: str) -> None:
    with pytest.raises(BadCardText) as err:
        parse_hand(text)
    assert "card" in str(err.value)
