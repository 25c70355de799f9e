"""Cards of the 32-card Svara deck, and their text forms."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from engine.errors import BadCardText


class Rank(IntEnum):
    """Card ranks, lowest first. The value orders ranks; points are separate."""

    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def points(self) -> int:
        """Points of a card of this rank: 7-9 face value, 10-K ten, ace eleven."""
        if self <= Rank.TEN:
            return int(self)
        return 11 if self is Rank.ACE else 10

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "cdhs"[self]


_RANK_LABELS = {
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANK_BY_TEXT = {label: rank for rank, label in _RANK_LABELS.items()} | {"T": Rank.TEN}
_SUIT_BY_TEXT = {s.symbol: s for s in Suit} | {s.letter: s for s in Suit}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. Immutable; `index` (0-31) identifies it compactly."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        return (self.rank - Rank.SEVEN) * 4 + self.suit

    def __str__(self) -> str:
        return self.rank.label + self.suit.symbol

    @property
    def ascii(self) -> str:
        """The ASCII form, e.g. ``Tc`` for 10♣ (one character per rank)."""
        return ("T" if self.rank is Rank.TEN else self.rank.label) + self.suit.letter

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``7♣``, ``7c``, ``10h``, ``Th`` or ``10♥`` (case-insensitive letters)."""
        t = text.strip()
        if len(t) < 2:
            raise BadCardText(text)
        rank = _RANK_BY_TEXT.get(t[:-1].upper())
        # Not `get(lower) or get(t[-1])`: clubs is Suit 0, falsy, so "7C" would be refused.
        suit = _SUIT_BY_TEXT.get(t[-1].lower())
        if rank is None or suit is None:
            raise BadCardText(text)
        return CARDS[(rank - Rank.SEVEN) * 4 + suit]


CARDS: tuple[Card, ...] = tuple(Card(r, s) for r in Rank for s in Suit)
"""All 32 cards, ordered by `Card.index`."""

SEVEN_OF_CLUBS = Card(Rank.SEVEN, Suit.CLUBS)


def parse_hand(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas: ``"7♣ K♥ K♦"`` or ``"7c Kh Kd"``."""
    parts = text.replace(",", " ").split()
    if not parts:
        raise BadCardText(text)
    cards = tuple(Card.parse(p) for p in parts)
    if len(set(cards)) != len(cards):
        raise BadCardText(text, "a card appears twice")
    return cards


def format_hand(cards: Iterable[Card], *, ascii: bool = False) -> str:
    """The cards as text, ``"7♣ K♥ K♦"`` (or ``"7c Kh Kd"`` with ``ascii=True``)."""
    return " ".join(c.ascii if ascii else str(c) for c in cards)
