"""Table rules: the stakes and every switchable variant of RULES.md."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import BadRules
from engine.scoring import ScoringRules


class Limit(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_CAP = "fixed_cap"


class TieRule(StrEnum):
    SVARA = "svara"
    SPLIT = "split"


MAX_SEATS = 10
MAX_CHIPS = 10**15
"""No amount in the engine may exceed this; it keeps every number sane for storage."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything a table may set. Immutable; a hand keeps the rules it started with."""

    ante: int = 10
    blind: bool = True
    blind_cap: int | None = None
    """Largest first blind; None means ten antes."""
    limit: Limit = Limit.NO_LIMIT
    bet_cap: int | None = None
    """With `Limit.FIXED_CAP`: the most one bet or raise may add; None means ten antes."""
    tie: TieRule = TieRule.SVARA
    scoring: ScoringRules = field(default_factory=ScoringRules)
    max_seats: int = MAX_SEATS
    away_antes: bool = False
    """A player sitting out still pays the ante, as a tournament takes it from an absent
    player; he is not dealt in, and his ante is dead money in the pot."""

    def __post_init__(self) -> None:
        top = MAX_CHIPS // 10
        if not 1 <= self.ante <= MAX_CHIPS // 1000:
            raise BadRules(f"the ante must be from 1 to {MAX_CHIPS // 1000}",
                           rule="ante", least=1, most=MAX_CHIPS // 1000)
        if self.blind_cap is not None and not self.ante <= self.blind_cap <= top:
            raise BadRules(f"the blind cap must be from the ante ({self.ante}) to {top}",
                           rule="blind_cap", least=self.ante, most=top)
        if self.bet_cap is not None and not self.ante <= self.bet_cap <= top:
            raise BadRules(f"the bet cap must be from the ante ({self.ante}) to {top}",
                           rule="bet_cap", least=self.ante, most=top)
        if not 2 <= self.max_seats <= MAX_SEATS:
            raise BadRules(f"a table seats 2 to {MAX_SEATS} players",
                           rule="max_seats", least=2, most=MAX_SEATS)

    @property
    def max_blind(self) -> int:
        """The largest first blind."""
        return self.blind_cap if self.blind_cap is not None else 10 * self.ante

    @property
    def max_bet_step(self) -> int | None:
        """With a fixed cap: the most one bet may add over the current level."""
        if self.limit is not Limit.FIXED_CAP:
            return None
        return self.bet_cap if self.bet_cap is not None else 10 * self.ante

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        d = dict(data)
        try:
            d["limit"] = Limit(d.get("limit", Limit.NO_LIMIT))
            d["tie"] = TieRule(d.get("tie", TieRule.SVARA))
            d["scoring"] = ScoringRules(**d.get("scoring", {}))
            return cls(**d)
        except (TypeError, ValueError) as err:
            if isinstance(err, BadRules):
                raise
            raise BadRules(str(err)) from err
