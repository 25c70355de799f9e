"""Side pots: who may win which chips (RULES.md §3.8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]
    """Seats that may win it, in the order they were given."""
    uncalled: bool = False
    """Only its one eligible player put chips in it: they go back to him."""


def build_pots(
    committed: Sequence[int], alive: Sequence[int], dead: int = 0
) -> list[Pot]:
    """Split a round's chips into a main pot and side pots, main pot first.

    ``committed[i]`` is what seat i put in this round (folded seats included), ``alive``
    the seats still in (in showing order), ``dead`` chips every alive seat may win
    (antes, a svara's pot and join stakes).
    """
    levels = sorted({committed[s] for s in alive})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        layer = sum(min(c, level) - min(c, previous) for c in committed)
        eligible = tuple(s for s in alive if committed[s] >= level)
        contributors = [i for i, c in enumerate(committed) if c > previous]
        if not pots:
            layer += dead
        if layer > 0 or (not pots and dead > 0):
            first_with_dead = not pots and dead > 0
            uncalled = contributors == list(eligible) == [eligible[0]] and not first_with_dead
            pots.append(Pot(layer, eligible, uncalled))
        previous = level
    # A player who folded after putting in more than everyone still in (he left out of
    # turn) leaves chips above the top level: they belong to the last pot.
    leftover = sum(committed) + dead - sum(p.amount for p in pots)
    if leftover:
        last = pots[-1]
        pots[-1] = Pot(last.amount + leftover, last.eligible, False)
    return pots
