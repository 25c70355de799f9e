"""A tournament of computer players: the three levels and a calling station at one table
(four seats, or up to ten with the same players sitting more than once).

The hands are played in blocks of one hand per seat, one deck order per block: each
player plays each seat of the block once, so each gets every hand of the deal once and
the luck of the cards largely cancels out. Stacks start fresh at every hand, so a hand's
result is its chips won or lost, and the blocks are independent; the confidence
intervals are those of the block means (normal approximation, 95%).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.hand import Hand
from engine.players.play import CallingStation, Player, play_hand
from engine.players.strategy import Computer, Level
from engine.rules import MAX_SEATS, Rules
from engine.state import SeatIn

STATION = "station"
NAMES: tuple[str, ...] = (*(level.value for level in Level), STATION)
Z95 = 1.959964
STACK_ANTES = 100
"""Every hand starts with stacks of this many antes (the default largest buy-in)."""


@dataclass(frozen=True, slots=True)
class Figure:
    """Chips per hand, with a 95% confidence interval."""

    mean: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.mean:+8.2f}  [{self.low:+8.2f}, {self.high:+8.2f}]"


@dataclass(frozen=True, slots=True)
class Standings:
    hands: int
    rules: Rules
    per_hand: dict[str, Figure]
    """Chips each player won (or lost, when negative) per hand."""
    over_station: dict[str, Figure]
    """Per hand, how many chips more than the calling station each level won."""


def make_players(seed: int) -> dict[str, Player]:
    """The four players, each with randomness of its own derived from ``seed``."""
    players: dict[str, Player] = {
        level.value: Computer(level, random.Random(f"{seed}|{level.value}")) for level in Level
    }
    players[STATION] = CallingStation()
    return players


def _deck_seed(seed: int, block: int) -> bytes:
    return hashlib.sha256(f"svara-tournament|{seed}|{block}".encode()).digest()


def seating(seats: int) -> list[str]:
    """Who sits at a table of ``seats``: the players of `NAMES` in turn, so each sits at
    least once (four seats: each once; six: cautious and normal twice)."""
    if not len(NAMES) <= seats <= MAX_SEATS:
        raise ValueError(f"a tournament table has {len(NAMES)} to {MAX_SEATS} seats")
    return [NAMES[i % len(NAMES)] for i in range(seats)]


def play_block(
    players: dict[str, Player], seed: int, block: int, rules: Rules, seats: int = len(NAMES)
) -> dict[str, int]:
    """One deal played once from every seat, the players moved one seat on each time: the
    chips each player won in all."""
    lineup = seating(seats)
    random.Random(f"{seed}|lineup|{block}").shuffle(lineup)
    deck = _deck_seed(seed, block)
    won = dict.fromkeys(NAMES, 0)
    for shift in range(seats):
        # A player's id is his place in the lineup; seat i holds lineup[i + shift].
        ids = [(i + shift) % seats for i in range(seats)]
        seated = [SeatIn(player, STACK_ANTES * rules.ante) for player in ids]
        hand = play_hand(Hand.start(rules, seated, 0, deck),
                         {i: players[lineup[player]] for i, player in enumerate(ids)})
        for player, net in hand.result()["net"].items():
            won[lineup[player]] += net
    return won


def figure(totals: Sequence[float], per: int) -> Figure:
    """Mean and 95% interval of block totals, divided by the hands in a block."""
    n = len(totals)
    mean = sum(totals) / n
    spread = math.sqrt(sum((t - mean) ** 2 for t in totals) / (n - 1)) if n > 1 else math.inf
    half = Z95 * spread / math.sqrt(n)
    return Figure(mean / per, (mean - half) / per, (mean + half) / per)


def play(hands: int = 10_000, seed: int = 1, rules: Rules | None = None,
         seats: int = len(NAMES)) -> Standings:
    """Play about ``hands`` hands (rounded up to whole blocks of one hand per seat) at a
    table of ``seats``; a player who sits more than once is counted per seat."""
    rules = rules or Rules()
    players = make_players(seed)
    copies = Counter(seating(seats))
    blocks = max(2, -(-hands // seats))
    blocks_won = [play_block(players, seed, b, rules, seats) for b in range(blocks)]
    results = [{n: won[n] / copies[n] for n in NAMES} for won in blocks_won]
    per_hand = {n: figure([r[n] for r in results], seats) for n in NAMES}
    over = {
        n: figure([r[n] - r[STATION] for r in results], seats) for n in NAMES if n != STATION
    }
    return Standings(blocks * seats, rules, per_hand, over)
