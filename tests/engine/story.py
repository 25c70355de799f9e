"""A small story-telling harness: named players, actions by name, chips checked each step."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import count

from engine import Act, Action, Card, Event, Hand, Rules, SeatIn, score, shuffled_deck

NAMES = ("ana", "boris", "vera", "georgi", "dora", "emil", "zhana", "ivo", "kalin", "lili")


def deal(seed: bytes, round_no: int, order: Sequence[int]) -> dict[int, tuple[Card, ...]]:
    """The cards each seat in `order` (left of the dealer first) gets in a round."""
    deck = shuffled_deck(seed, round_no)
    return {seat: tuple(deck[k * len(order) + j] for k in range(3)) for j, seat in enumerate(order)}


def seed_where(
    order: Sequence[int],
    wanted: Callable[[dict[int, int]], bool],
    *,
    round_no: int = 1,
    then: tuple[Sequence[int], Callable[[dict[int, int]], bool]] | None = None,
) -> bytes:
    """The first seed whose deal gives points that satisfy `wanted` (and `then`, next round)."""
    for i in count():
        seed = i.to_bytes(4, "big")
        points = {s: score(c) for s, c in deal(seed, round_no, order).items()}
        if not wanted(points):
            continue
        if then is not None:
            order2, wanted2 = then
            points2 = {s: score(c) for s, c in deal(seed, round_no + 1, order2).items()}
            if not wanted2(points2):
                continue
        return seed
    raise AssertionError("unreachable")


class Story:
    """A hand told with names: ``story.do("ana", Act.BLIND, 10)``."""

    def __init__(
        self,
        stacks: Sequence[int],
        *,
        dealer: int = 0,
        rules: Rules | None = None,
        seed: bytes = b"story",
        away: Sequence[int] = (),
    ) -> None:
        seats = [SeatIn(100 + i, s, sitting_out=i in away) for i, s in enumerate(stacks)]
        self.total = sum(stacks)
        self.hand = Hand.start(rules or Rules(), seats, dealer, seed)
        self.log: list[Event] = list(self.hand.events)

    def seat(self, name: str) -> int:
        return NAMES.index(name)

    def do(self, name: str | None, act: Act, amount: int | None = None) -> tuple[Event, ...]:
        seat = None if name is None else self.seat(name)
        events = self.hand.apply(Action(act, seat, amount))
        self.log.extend(events)
        assert sum(self.hand.stacks.values()) + self.hand.pot == self.total
        return events

    def stack(self, name: str) -> int:
        return self.hand.seats[self.seat(name)].stack

    def kinds(self, events: Sequence[Event]) -> list[str]:
        return [e.kind for e in events]

    @property
    def to_act(self) -> str | None:
        seat = self.hand.to_act
        return None if seat is None else NAMES[seat]
