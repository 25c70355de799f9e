"""Per-chat table settings: the engine's rules plus the timers and the buy-in."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import Limit, Rules, ScoringRules, TieRule
from engine.rules import MAX_SEATS


class TableSettings(BaseModel):
    """What a chat's admins may set for its tables; stored as JSON with the chat."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    ante: int = Field(default=10, ge=1, le=10**9)
    blind: bool = True
    blind_cap: int | None = Field(default=None, ge=1)
    limit: Limit = Limit.NO_LIMIT
    bet_cap: int | None = Field(default=None, ge=1)
    tie: TieRule = TieRule.SVARA
    two_sevens: bool = True
    three_sevens_top: bool = True
    chechak: bool = True
    max_seats: int = Field(default=MAX_SEATS, ge=2, le=MAX_SEATS)
    max_buy_in_antes: int = Field(default=100, ge=1, le=10**6)
    turn_timeout: float = Field(default=45, gt=0, le=3600)
    blind_timeout: float = Field(default=20, gt=0, le=3600)
    svara_join_timeout: float = Field(default=30, gt=0, le=3600)
    next_hand_delay: float = Field(default=5, ge=0, le=3600)
    autostart: float = Field(default=0, ge=0, le=3600)
    """Seconds after the second player joins before the lobby starts by itself; 0: never."""

    @property
    def max_buy_in(self) -> int:
        return self.ante * self.max_buy_in_antes

    def rules(self) -> Rules:
        """The engine rules these settings describe (raises `engine.BadRules`)."""
        return Rules(
            ante=self.ante,
            blind=self.blind,
            blind_cap=self.blind_cap,
            limit=self.limit,
            bet_cap=self.bet_cap,
            tie=self.tie,
            scoring=ScoringRules(self.two_sevens, self.three_sevens_top, self.chechak),
            max_seats=self.max_seats,
        )

    @classmethod
    def load(cls, data: dict[str, Any] | None, **defaults: Any) -> TableSettings:
        """Settings from stored JSON over the operator's defaults; bad stored values fall back."""
        merged = {**defaults, **(data or {})}
        try:
            return cls.model_validate(merged)
        except ValidationError:
            return cls.model_validate(defaults)
