"""The pure parts of the real-limits benchmark: percentiles, windows, press-to-screen."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.bench.limits import (
    LATER,
    Sent,
    first_showing,
    largest,
    max_in_window,
    percentile,
    table_screens,
    turn_position,
)
from bot.callback_data import Button, Press


def keyboard(*presses: Press) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": p.button.value, "callback_data": p.encode()}
                                 for p in presses]]}


def hand(hand_id: int, seq: int) -> dict[str, Any]:
    return keyboard(Press(7, hand_id, seq, Button.FOLD), Press(7, hand_id, seq, Button.CALL),
                    Press(7, hand_id, seq, Button.CARDS))


LOBBY = keyboard(Press(7, 0, 0, Button.JOIN), Press(7, 0, 0, Button.START))


def test_percentile_is_the_nearest_rank() -> None:
    hundred = [float(n) for n in range(100, 0, -1)]
    assert percentile(hundred, 0.99) == 99.0
    assert percentile(hundred, 0.50) == 50.0
    assert percentile(hundred, 1.0) == 100.0
    assert percentile([3.0, 1.0, 2.0], 0.99) == 3.0
    assert percentile([4.0], 0.5) == 4.0
    assert percentile([], 0.99) == 0.0


def test_window_counts_the_busiest_minute() -> None:
    assert max_in_window([], 60.0) == 0
    # 10, 59.9, 60 and 61 lie within one minute; 0 and 60 do not (the window is half-open).
    assert max_in_window([0.0, 10.0, 59.9, 60.0, 61.0, 119.9], 60.0) == 4
    assert max_in_window([0.0, 60.0, 120.0], 60.0) == 1
    assert max_in_window([5.0, 5.0, 5.0], 60.0) == 3


def test_position_comes_from_hand_buttons_only() -> None:
    assert turn_position(LOBBY) is None
    assert turn_position(None) is None
    assert turn_position(keyboard(Press(7, 0, 0, Button.BACK))) is None
    assert turn_position(hand(3, 5)) == (3, 5)
    foreign = {"inline_keyboard": [[{"text": "x", "callback_data": "other:9:9"}]]}
    assert turn_position(foreign) is None


def test_screens_follow_the_table_message() -> None:
    sent = [
        Sent(1.0, True, 10, LOBBY),
        Sent(2.0, False, 10, hand(3, 0)),
        Sent(3.0, True, 11, None),  # another message, without buttons: not the table
        Sent(4.0, False, 11, None),
        Sent(5.0, False, 10, hand(3, 1)),
        Sent(6.0, False, 10, None),  # the hand is over
        Sent(7.0, True, 12, hand(4, 0)),  # the table posted anew
        Sent(8.0, False, 10, None),  # the old one, told to look down
        Sent(9.0, False, 12, hand(4, 2)),
    ]
    assert table_screens(sent) == [
        (1.0, (0, LATER)),
        (2.0, (3, 0)),
        (5.0, (3, 1)),
        (6.0, (3, LATER)),
        (7.0, (4, 0)),
        (9.0, (4, 2)),
    ]


def test_a_press_is_shown_by_the_first_later_state() -> None:
    screens = [(1.0, (3, 0)), (2.0, (3, 0)), (4.0, (3, 2)), (6.0, (3, LATER)), (8.0, (4, 0))]
    # A press at turn 0 is shown by the screen of turn 2 (its own turn 1 was skipped).
    assert first_showing(1.5, (3, 0), screens) == 4.0
    # A screen stored at the very moment of the press cannot show it.
    assert first_showing(4.0, (3, 0), screens) == 6.0
    # The last turn of a hand is shown by the hand's end.
    assert first_showing(4.5, (3, 2), screens) == 6.0
    # An edit that still shows the pressed turn does not count.
    assert first_showing(0.5, (3, 2), screens) == 6.0
    assert first_showing(5.0, (4, 0), screens) is None


@pytest.mark.parametrize(("limit", "start"), [
    (0, 10), (1, 10), (7, 10), (10, 10), (63, 10), (63, 100), (150, 10), (200, 10), (500, 10),
])
def test_search_finds_the_largest_count_to_within_a_tenth(limit: int, start: int) -> None:
    tried: list[int] = []

    async def meets(count: int) -> bool:
        tried.append(count)
        return count <= limit

    found = asyncio.run(largest(meets, start, ceiling=200))
    expected = min(limit, 200)
    assert found <= expected
    assert expected - found <= max(1, found // 10)
    assert found == 0 or found in tried
    assert len(tried) == len(set(tried))
    assert len(tried) <= 12
