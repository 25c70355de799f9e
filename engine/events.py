"""What happened. Every applied action returns these, for rendering, history and the ledger."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.cards import Card, format_hand


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple) and value and isinstance(value[0], Card):
                value = format_hand(value, ascii=True)
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class ChipMove(Event):
    """Chips between a player's stack and the pot: ``delta`` is the change of his stack."""

    kind: ClassVar[str] = "chips"
    seat: int
    player: int
    delta: int
    reason: str
    """ante, blind, bet, svara_join (into the pot); win, return, refund (out of it)."""


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round is about to be dealt: the first hand, or a svara."""

    kind: ClassVar[str] = "round"
    round_no: int
    dealer: int
    seats: tuple[int, ...]
    pot: int
    commitment: str


@dataclass(frozen=True, slots=True)
class SatOut(Event):
    kind: ClassVar[str] = "sat_out"
    seat: int
    reason: str
    """``ante`` (cannot cover it) or ``away`` (sitting out)."""


@dataclass(frozen=True, slots=True)
class Blind(Event):
    kind: ClassVar[str] = "blind"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class NoBlind(Event):
    kind: ClassVar[str] = "no_blind"
    seat: int
    timeout: bool = False


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Cards are out; each seat's cards are private, read them with `Hand.cards`."""

    kind: ClassVar[str] = "dealt"
    round_no: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Fold(Event):
    kind: ClassVar[str] = "fold"
    seat: int
    timeout: bool = False
    leaving: bool = False


@dataclass(frozen=True, slots=True)
class Call(Event):
    kind: ClassVar[str] = "call"
    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Raise(Event):
    """A bet (the first after the deal) or a raise, to a total of ``to`` this round."""

    kind: ClassVar[str] = "raise"
    seat: int
    to: int
    opening: bool
    all_in: bool


@dataclass(frozen=True, slots=True)
class Left(Event):
    kind: ClassVar[str] = "left"
    seat: int


@dataclass(frozen=True, slots=True)
class Shown(Event):
    """A player's cards at the showdown."""

    kind: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class PotWon(Event):
    """A pot paid out: to one winner, or split among ``winners`` (split variant)."""

    kind: ClassVar[str] = "pot_won"
    pot: int
    amount: int
    winners: tuple[int, ...]
    points: int | None
    """The winning points, or None when nobody else was left to show."""


@dataclass(frozen=True, slots=True)
class SvaraOpened(Event):
    """A tied pot becomes a svara; ``stake`` is what another seated player pays to join."""

    kind: ClassVar[str] = "svara"
    pot: int
    tied: tuple[int, ...]
    stake: int
    can_join: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SvaraJoined(Event):
    kind: ClassVar[str] = "svara_join"
    seat: int
    stake: int


@dataclass(frozen=True, slots=True)
class SvaraSkipped(Event):
    kind: ClassVar[str] = "svara_skip"
    seat: int


@dataclass(frozen=True, slots=True)
class SvaraClosed(Event):
    """The join window closed; the svara is dealt next."""

    kind: ClassVar[str] = "svara_closed"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    kind: ClassVar[str] = "hand_ended"
    dealer_keeps_deal: bool


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (ChipMove, RoundStarted, SatOut, Blind, NoBlind, Dealt, Fold, Call, Raise, Left,
                Shown, PotWon, SvaraOpened, SvaraJoined, SvaraSkipped, SvaraClosed, HandEnded)
}
"""Event classes by their ``kind``, to read events back from JSON."""
