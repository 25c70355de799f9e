"""The parts of a hand's state: phases, seats, and the legal-moves value."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card


class Phase(StrEnum):
    BLIND = "blind"
    BETTING = "betting"
    SVARA_JOIN = "svara_join"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class SeatIn:
    """A seated player as a hand starts: his table stack and whether he is away."""

    player: int
    stack: int
    sitting_out: bool = False
    timeouts: int = 0
    """Timeouts in a row before this hand."""


@dataclass(frozen=True, slots=True)
class Legal:
    """Everything one player may do now; ``None`` fields are not possible."""

    seat: int
    phase: Phase
    fold: bool = False
    call: int | None = None
    """Chips a call adds (less than the level when it is an all-in call)."""
    raise_to: tuple[int, int] | None = None
    """Inclusive range of the total a bet or raise brings this player to."""
    all_in: int | None = None
    """The total an all-in brings this player to, when he may go all-in."""
    opening: bool = False
    """A bet now is the first after the deal (labelled "Bet", not "Raise")."""
    blind: tuple[int, int] | None = None
    """Inclusive range of the blind; one value when the blind must double the last."""
    svara_stake: int | None = None


@dataclass(slots=True)
class SeatState:
    """One seat inside a hand (mutable; only `Hand` changes it)."""

    player: int
    stack: int
    sitting_out: bool = False
    timeouts: int = 0
    in_round: bool = False
    folded: bool = False
    committed: int = 0
    blind: int = 0
    cards: tuple[Card, ...] = ()
    leaving: bool = False


SEAT_FIELDS = ("player", "stack", "sitting_out", "timeouts", "in_round", "folded",
                "committed", "blind", "leaving")
