"""What a player (or the clock) does. A hand is its start plus a list of these."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.errors import BadAction
from engine.rules import MAX_CHIPS


class Act(StrEnum):
    BLIND = "blind"
    """Bet blind, before the deal (amount: the blind)."""
    NO_BLIND = "no_blind"
    FOLD = "fold"
    CALL = "call"
    RAISE = "raise"
    """Bet or raise (amount: the total this player will have put in this round)."""
    ALL_IN = "all_in"
    JOIN_SVARA = "join_svara"
    SKIP_SVARA = "skip_svara"
    CLOSE_SVARA = "close_svara"
    """The svara join window closes (its timer ran out)."""
    TIMEOUT = "timeout"
    """The player to act ran out of time; the engine decides what that means."""
    LEAVE = "leave"
    """The player leaves the table: folds now if he is in, leaves after the hand."""


_NEEDS_AMOUNT = {Act.BLIND, Act.RAISE}
_NO_SEAT = {Act.CLOSE_SVARA}


@dataclass(frozen=True, slots=True)
class Action:
    """One action. ``seat`` is the index in the hand's seats; ``amount`` only where needed."""

    act: Act
    seat: int | None = None
    amount: int | None = None

    def __post_init__(self) -> None:
        if (self.amount is not None) != (self.act in _NEEDS_AMOUNT):
            need = "needs" if self.act in _NEEDS_AMOUNT else "takes no"
            raise BadAction(f"{self.act} {need} amount")
        if self.amount is not None and not 0 < self.amount <= MAX_CHIPS:
            raise BadAction(f"amount {self.amount} is out of range")
        if (self.seat is None) != (self.act in _NO_SEAT):
            raise BadAction(f"{self.act} {'takes no' if self.act in _NO_SEAT else 'needs a'} seat")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"act": self.act.value}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.amount is not None:
            d["amount"] = self.amount
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        try:
            act = Act(data["act"])
        except (KeyError, ValueError, TypeError) as err:
            raise BadAction(f"unknown action {data!r}") from err
        seat, amount = data.get("seat"), data.get("amount")
        for value in (seat, amount):
            if value is not None and (type(value) is not int):
                raise BadAction(f"not a whole number: {value!r}")
        return cls(act, seat, amount)
