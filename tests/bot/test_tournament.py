"""The pure part of a tournament: prizes that add up to the pool, the order of players out
in one hand, the levels, and the season points of its places."""

from __future__ import annotations

import pytest

from bot.seasons import place_points
from bot.tournament import LevelClock, Payout, Schedule, out_order, prizes


def test_prizes_are_the_shares_rounded_down_with_the_rest_to_the_first() -> None:
    assert prizes(400, (65, 35), 4) == [260, 140]
    # 65% of 333 is 216.45, 35% is 116.55: the 1st takes what rounding leaves.
    assert prizes(333, (65, 35), 3) == [217, 116]
    assert prizes(1000, Payout.TOP_THREE.shares, 5) == [500, 300, 200]
    # Two entrants where three places are paid: the 3rd's share goes to the 1st.
    assert prizes(200, (50, 30, 20), 2) == [140, 60]
    assert prizes(300, Payout.WINNER.shares, 3) == [300]
    # A lone entrant is the only place paid: the whole pool is his.
    assert prizes(100, (65, 35), 1) == [100]
    for pool in range(0, 500, 7):
        assert sum(prizes(pool, (50, 30, 20), 3)) == pool


def test_players_out_in_one_hand_place_by_their_stack_at_its_start() -> None:
    # (player, stack at the hand's start, seat order)
    assert out_order([(1, 100, 1), (2, 300, 2), (3, 100, 0)]) == [2, 3, 1]


def test_the_levels_rise_by_hands_and_the_last_ante_holds() -> None:
    s = Schedule(antes=(10, 20, 40), every=3)
    assert [s.level_after(h) for h in range(7)] == [0, 0, 0, 1, 1, 1, 2]
    assert [s.ante(level) for level in (0, 1, 2, 9)] == [10, 20, 40, 40]
    assert Schedule.from_json(s.to_json()) == s


def test_a_schedule_stored_with_every_setting_reads_back_the_same() -> None:
    s = Schedule(buy_in=250, stack=4000, antes=(20, 40, 80), every=15,
                 clock=LevelClock.MINUTES, payout=(50, 30, 20), late_levels=2)
    assert Schedule.from_json(s.to_json()) == s


def test_a_schedule_stored_before_its_later_settings_reads_their_defaults() -> None:
    # A tournament kept before payouts, level clocks and late registration existed.
    old = Schedule.from_json({"buy_in": 50, "stack": 500, "antes": [10, 20], "every": 5})
    assert (old.buy_in, old.stack, old.antes, old.every) == (50, 500, (10, 20), 5)
    assert (old.clock, old.payout, old.late_levels) == (LevelClock.HANDS, (65, 35), 0)
    bare = Schedule.from_json({})
    assert (bare.buy_in, bare.stack, bare.every) == (100, 1000, 10)
    assert bare.antes == (10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000)


@pytest.mark.parametrize("edge", [
    {"buy_in": 1}, {"buy_in": 10**9}, {"stack": 10**9}, {"stack": 1, "antes": (1,)},
    {"antes": (1, 2)}, {"stack": 10, "antes": (10, 20)}, {"every": 1}, {"every": 10_000},
    {"antes": (10, 20), "late_levels": 2}, {"payout": (100,)}, {"payout": (99, 1)},
])
def test_a_schedule_at_the_edges_of_what_can_be_played_is_taken(
        edge: dict[str, object]) -> None:
    Schedule(**edge)  # type: ignore[arg-type]


@pytest.mark.parametrize("wrong", [
    {"payout": (60, 30)}, {"antes": (20, 10)}, {"stack": 5}, {"every": 0},
    {"buy_in": 0}, {"late_levels": 99}, {"buy_in": 10**9 + 1}, {"stack": 10**9 + 1},
    {"antes": ()}, {"antes": (0, 10)}, {"every": 10_001}, {"payout": (100, 0)},
    {"payout": ()}, {"antes": (10, 20), "late_levels": 3}, {"stack": 0, "antes": (1,)},
])
def test_a_schedule_that_cannot_be_played_is_refused(wrong: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Schedule(**wrong)  # type: ignore[arg-type]


def test_a_tournament_place_scores_ten_six_three() -> None:
    assert [place_points(p) for p in range(0, 6)] == [0, 10, 6, 3, 0, 0]
