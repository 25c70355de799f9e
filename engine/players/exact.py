"""Exact showdown odds against up to five random opponents, dealt without replacement.

Against ``n`` opponents the chance that nobody scores more than a hand and exactly ``k``
of them score the same is a count of sets of ``n`` pairwise disjoint hands drawn from
the 29 other cards, ``k`` of them scoring the same and the rest less:

    P(n, k) = n! * sets(k same, n - k less) / (C(29, 3) * C(26, 3) * ... n factors)

(each set of ``n`` different hands goes to the ``n`` opponents in ``n!`` orders).

`tie_counts` counts those sets with one pass over the 29 cards, suit by suit and high
cards first. Each card is left out, starts a new opponent's hand, or joins a hand already
started; a hand closes at its third card, scoring less, the same or more (then it is
dropped). A hand that is still open matters only through what each completion from the
cards not yet passed would score, so open hands with the same completions are merged.
Most of a hand's points come from one suit, so once a suit is passed the open hands
differ little more than by their ranks and merge well: against five, a hand of 19 points
peaks at 50,000 states and takes 2.3 seconds (passing the cards rank by rank, it took 556).

The counts of all 4960 hands for the default scoring are kept in ``showdown.json`` (one
entry per hand up to exchanging the suits ♦ ♥ ♠, which the scoring cannot tell apart:
1192 entries), against up to five opponents: ``python -m engine.players.count --most 5
--jobs 2`` writes it in half an hour on two cores. Counting a hand against five takes
from a thousandth of a second (strong hands) to several seconds (middling ones), so it is
never done while playing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from functools import cache
from importlib import resources
from itertools import combinations, permutations

from engine.scoring import DEFAULT_SCORING, ScoringRules, score_table

MOST = 5
"""The largest number of opponents the exact counts cover."""
DATA = "showdown.json"

_LESS, _SAME, _MORE = 0, 1, 2


def tie_counts(indices: tuple[int, int, int], rules: ScoringRules, most: int = MOST) -> (
    list[list[int]]
):
    """``out[n][k]``: sets of ``n`` disjoint hands (``n`` up to ``most``) from the cards
    not in the hand of these card indices, where ``k`` score the same and ``n - k`` less."""
    table = score_table(rules)
    own = table[_mask(indices)]
    # Suit by suit, high cards first: most of what a hand scores comes from one suit, so
    # hands opened in a suit already passed differ only by their ranks and merge well.
    deck = sorted((i for i in range(32) if i not in indices), key=lambda i: (i % 4, -i))

    def kind(a: int, b: int, c: int) -> int:
        t = table[1 << a | 1 << b | 1 << c]
        return _LESS if t < own else _SAME if t == own else _MORE

    merged: dict[tuple[int, int, tuple[int, ...]] | tuple[int, tuple[int, ...]],
                 tuple[int, ...] | None] = {}

    def merge(pos: int, part: tuple[int, ...]) -> tuple[int, ...] | None:
        """The open hand standing for ``part`` once the cards before ``pos`` are passed,
        or None when every completion scores more."""
        if (pos, part) in merged:
            return merged[(pos, part)]
        later = deck[pos:]
        if len(part) == 2:
            completions = tuple(kind(part[0], part[1], c) for c in later)
        else:
            completions = tuple(kind(part[0], c, d) for c, d in combinations(later, 2))
        if all(k == _MORE for k in completions):
            result = None
        else:
            result = merged.setdefault((pos, len(part), completions), part)
        merged[(pos, part)] = result
        return result

    State = tuple[tuple[tuple[int, ...], ...], int, int]
    states: dict[State, int] = {((), 0, 0): 1}
    for pos, card in enumerate(deck):
        after: dict[State, int] = {}
        left = len(deck) - pos - 1

        def add(parts: tuple[tuple[int, ...], ...], same: int, less: int, ways: int,
                pos: int = pos, left: int = left, after: dict[State, int] = after) -> None:
            if sum(3 - len(p) for p in parts) > left:
                return
            kept = []
            for p in parts:
                q = merge(pos + 1, p)
                if q is None:
                    return
                kept.append(q)
            key = (tuple(sorted(kept)), same, less)
            after[key] = after.get(key, 0) + ways

        for (parts, same, less), ways in states.items():
            add(parts, same, less, ways)
            if len(parts) + same + less < most:
                add((*parts, (card,)), same, less, ways)
            for part in set(parts):
                copies = parts.count(part)
                rest = list(parts)
                rest.remove(part)
                if len(part) == 1:
                    add((*rest, (part[0], card)), same, less, ways * copies)
                else:
                    k = kind(part[0], part[1], card)
                    if k == _LESS:
                        add(tuple(rest), same, less + 1, ways * copies)
                    elif k == _SAME:
                        add(tuple(rest), same + 1, less, ways * copies)
        states = after
    out = [[0] * (n + 1) for n in range(most + 1)]
    for (parts, same, less), ways in states.items():
        if not parts:
            out[same + less][same] += ways
    return out


def deals(n: int) -> int:
    """Ordered deals of ``n`` hands from 29 cards."""
    return math.prod(math.comb(29 - 3 * i, 3) for i in range(n))


def tie_chances(counts: list[list[int]], n: int) -> list[float]:
    """``out[k]``: the chance that against ``n`` opponents nobody scores more and exactly
    ``k`` score the same."""
    total = deals(n)
    order = math.factorial(n)
    return [order * c / total for c in counts[n]]


def _mask(indices: tuple[int, ...]) -> int:
    return sum(1 << i for i in indices)


def suit_swaps(rules: ScoringRules) -> list[tuple[int, ...]]:
    """The exchanges of suits the scoring cannot tell apart: any, or those keeping ♣
    when the 7♣ is the Chechak."""
    if rules.chechak:
        return [(0, *p) for p in permutations((1, 2, 3))]
    return list(permutations(range(4)))


def canonical(indices: tuple[int, int, int], rules: ScoringRules) -> int:
    """The smallest mask of the hand under `suit_swaps`."""
    return min(
        _mask(tuple(i - i % 4 + swap[i % 4] for i in indices)) for swap in suit_swaps(rules)
    )


def hand_classes(rules: ScoringRules) -> Iterator[tuple[int, int, int]]:
    """One hand of each class the scoring cannot tell apart (suits it treats alike)."""
    seen: set[int] = set()
    for hand in combinations(range(32), 3):
        key = canonical(hand, rules)
        if key not in seen:
            seen.add(key)
            yield hand


@cache
def stored() -> dict[int, list[list[int]]]:
    """The counts kept for the default scoring, by canonical mask (none without the data
    file); each hand's list runs from no opponent to `stored_most`."""
    data = resources.files("engine.players").joinpath(DATA)
    if not data.is_file():
        return {}
    return {int(k): v for k, v in json.loads(data.read_text(encoding="utf-8"))["hands"].items()}


def stored_most() -> int:
    """The most opponents the kept counts cover (0: none kept)."""
    return len(next(iter(stored().values()), [[1]])) - 1


def stored_counts(indices: tuple[int, int, int], rules: ScoringRules) -> list[list[int]] | None:
    """The kept counts of this hand, or None (other scoring rules, or not kept)."""
    if rules != DEFAULT_SCORING:
        return None
    return stored().get(canonical(indices, rules))
