"""Seeds that make the bot deal a wanted story.

The bot deals with `engine.table.Table.deal(seed)`: the first dealer is drawn from the
seed and the cards depend on the seat order and who can pay the ante. A replica of the
live table (same rules, seats, stacks and button) deals exactly what the bot will, so a
search over seeds finds one whose deal tells the story a test wants.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.live import Live
from engine import Card, Hand, score, shuffled_deck
from engine.table import Table

TRIES = 50_000


def replica(live: Live) -> Table:
    """A copy of the live table between hands: rules, seats, stacks and the button."""
    return Table.from_json({**live.table.to_json(), "in_hand": False, "dealt": []})


def cards_of(
    hand: Hand, round_no: int = 1, seats: Iterable[int] | None = None
) -> dict[int, tuple[Card, ...]]:
    """The cards each seat gets in a round of `hand`, dealt one at a time left of the dealer.

    `seats` are the players of that round (default: those dealt into the first round); a
    svara round is played by the tied seats and those who joined.
    """
    playing = (
        {i for i, s in enumerate(hand.seats) if s.in_round} if seats is None else set(seats)
    )
    order = [i for i in hand.order_after(hand.dealer) if i in playing]
    deck = shuffled_deck(hand.seed, round_no)
    return {seat: tuple(deck[k * len(order) + j] for k in range(3))
            for j, seat in enumerate(order)}


def points_of(
    hand: Hand, round_no: int = 1, seats: Iterable[int] | None = None
) -> dict[int, int]:
    """The points each seat holds in a round (see `cards_of`)."""
    return {seat: score(cards, hand.rules.scoring)
            for seat, cards in cards_of(hand, round_no, seats).items()}


def best(points: dict[int, int], seats: Iterable[int] | None = None) -> int | None:
    """The one seat with the highest points among `seats`, or None on a tie."""
    chosen = list(points) if seats is None else list(seats)
    top = max(points[s] for s in chosen)
    winners = [s for s in chosen if points[s] == top]
    return winners[0] if len(winners) == 1 else None


def find_seed(
    table: Table, wanted: Callable[[Hand], bool], *, tries: int = TRIES
) -> tuple[bytes, Hand]:
    """The first seed whose next deal at `table` satisfies `wanted`, and that hand.

    The hand is a fresh replica (antes taken, nothing played), for the test to read the
    dealer and the cards from.
    """
    for i in range(tries):
        seed = b"story-" + i.to_bytes(4, "big")
        hand = Table.from_json(table.to_json()).deal(seed)
        if wanted(hand):
            return seed, hand
    raise AssertionError(f"no seed in {tries} deals gives the wanted story")
