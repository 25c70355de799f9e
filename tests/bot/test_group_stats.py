"""Which players /stats group draws."""

from __future__ import annotations

from bot.records import NetLine
from bot.stats import GROUP_LINES, REGULAR_HANDS, regulars


def line(user_id: int, hands: int) -> NetLine:
    return NetLine(user_id, f"P{user_id}", [(t, t) for t in range(hands)])


def test_only_regulars_are_drawn_the_most_hands_first() -> None:
    assert (REGULAR_HANDS, GROUP_LINES) == (3, 8)
    nets = [line(1, 2), line(2, 3), line(3, 7), line(4, 1)]
    assert [n.user_id for n in regulars(nets)] == [3, 2]


def test_while_nobody_is_a_regular_everyone_is_drawn() -> None:
    assert [n.user_id for n in regulars([line(1, 1), line(2, 2)])] == [2, 1]


def test_at_most_eight_lines() -> None:
    nets = [line(i, 3 + i) for i in range(1, 11)]
    assert [n.user_id for n in regulars(nets)] == [10, 9, 8, 7, 6, 5, 4, 3]
