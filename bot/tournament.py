"""Sit-and-go tournaments: the level schedule, the places and the prizes.

Pure: no Telegram and no database. `bot.store.tournaments` keeps a tournament's row, its
pool and its places; the games (`bot.games`) deal its hands at the ante of its level.

A tournament's chips are not real chips. Each entrant pays the buy-in from his balance
into the tournament's pool (a ledger account of real chips), and sits with the starting
stack in tournament chips, issued for that table alone. A player is out when his stack
can no longer pay the ante of the next hand; the last one standing wins. When it ends,
its tournament chips are withdrawn and the pool is paid by place (`prizes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

DEFAULT_ANTES = (10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000)
"""The antes of the levels, one per level; the last holds for good."""
DEFAULT_PAYOUT = (65, 35)
"""Per cent of the pool for the 1st, 2nd ... place."""


class Payout(StrEnum):
    """The payout tables a group chooses from; the value is what its settings hold."""

    TOP_TWO = "65/35"
    TOP_THREE = "50/30/20"
    WINNER = "100"

    @property
    def shares(self) -> tuple[int, ...]:
        """Per cent of the pool for the 1st, 2nd ... place."""
        return tuple(int(p) for p in self.value.split("/"))


class LevelClock(StrEnum):
    """What makes a tournament's level rise."""

    HANDS = "hands"
    MINUTES = "minutes"


@dataclass(frozen=True, slots=True)
class Schedule:
    """What a tournament is played for and how its levels rise."""

    buy_in: int = 100
    stack: int = 1000
    antes: tuple[int, ...] = DEFAULT_ANTES
    every: int = 10
    """Hands (or minutes, by `clock`) per level."""
    clock: LevelClock = LevelClock.HANDS
    payout: tuple[int, ...] = DEFAULT_PAYOUT
    late_levels: int = 0
    """Registration stays open during the first this many levels (0: until the start)."""

    def __post_init__(self) -> None:
        if not 1 <= self.buy_in <= 10**9 or not 1 <= self.stack <= 10**9:
            raise ValueError("a buy-in and a starting stack are 1 to 10^9 chips")
        if not self.antes or any(a < 1 for a in self.antes) or list(self.antes) != sorted(
                self.antes):
            raise ValueError("the antes of the levels are rising whole numbers")
        if self.antes[0] > self.stack:
            raise ValueError("the starting stack pays at least the first ante")
        if not 1 <= self.every <= 10_000:
            raise ValueError("a level lasts 1 to 10000 hands or minutes")
        if not self.payout or any(p < 1 for p in self.payout) or sum(self.payout) != 100:
            raise ValueError("a payout table is per cents of the pool that add up to 100")
        if not 0 <= self.late_levels <= len(self.antes):
            raise ValueError("late registration lasts at most as many levels as there are")

    def ante(self, level: int) -> int:
        """The ante of `level` (0 the first); past the last level the last one holds."""
        return self.antes[min(level, len(self.antes) - 1)]

    def level_after(self, hands: int) -> int:
        """With levels by hands: the level of the hand dealt after `hands` hands."""
        return hands // self.every

    def to_json(self) -> dict[str, object]:
        return {"buy_in": self.buy_in, "stack": self.stack, "antes": list(self.antes),
                "every": self.every, "clock": self.clock.value,
                "payout": list(self.payout), "late_levels": self.late_levels}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Schedule:
        antes = data.get("antes", DEFAULT_ANTES)
        payout = data.get("payout", DEFAULT_PAYOUT)
        assert isinstance(antes, list | tuple) and isinstance(payout, list | tuple)
        return cls(buy_in=int(str(data.get("buy_in", 100))),
                   stack=int(str(data.get("stack", 1000))),
                   antes=tuple(int(a) for a in antes),
                   every=int(str(data.get("every", 10))),
                   clock=LevelClock(str(data.get("clock", "hands"))),
                   payout=tuple(int(p) for p in payout),
                   late_levels=int(str(data.get("late_levels", 0))))


def prizes(pool: int, payout: Sequence[int], entrants: int) -> list[int]:
    """The prize of each paid place, 1st first: its per cent of the pool, rounded down.

    Places beyond the entrants are not paid; their shares, and the chips rounding leaves,
    go to the 1st place, so the prizes add up to the pool exactly.
    """
    paid = [pool * p // 100 for p in payout[:max(1, entrants)]]
    paid[0] += pool - sum(paid)
    return paid


def out_order(busted: Sequence[tuple[int, int, int]]) -> list[int]:
    """Players out in the same hand, from the best place to the worst: `busted` holds
    (player, stack at the hand's start, seat order); the bigger starting stack places
    higher, an equal one goes to the earlier seat."""
    return [p for p, _, _ in sorted(busted, key=lambda b: (-b[1], b[2]))]

