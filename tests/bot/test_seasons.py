"""Seasons' rules: calendar periods in UTC, the points of a hand, the standings' order."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.seasons import Period, Scored, SeasonLength, hand_points, period_of, standings


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0,
        second: int = 0) -> int:
    return int(dt.datetime(year, month, day, hour, minute, second, tzinfo=dt.UTC).timestamp())


@pytest.mark.parametrize(("at", "length", "start", "end"), [
    (utc(2026, 12, 3, 13, 5), SeasonLength.MONTH, utc(2026, 12, 1), utc(2027, 1, 1)),
    (utc(2026, 12, 1), SeasonLength.MONTH, utc(2026, 12, 1), utc(2027, 1, 1)),
    (utc(2027, 1, 1) - 1, SeasonLength.MONTH, utc(2026, 12, 1), utc(2027, 1, 1)),
    (utc(2028, 2, 29, 23, 59), SeasonLength.MONTH, utc(2028, 2, 1), utc(2028, 3, 1)),
    # 3 December 2026 is a Thursday: its week began on Monday 30 November.
    (utc(2026, 12, 3, 13, 5), SeasonLength.WEEK, utc(2026, 11, 30), utc(2026, 12, 7)),
    (utc(2026, 11, 30), SeasonLength.WEEK, utc(2026, 11, 30), utc(2026, 12, 7)),
    (utc(2026, 12, 6, 23, 59, 59), SeasonLength.WEEK, utc(2026, 11, 30), utc(2026, 12, 7)),
    (utc(2026, 12, 31, 12), SeasonLength.WEEK, utc(2026, 12, 28), utc(2027, 1, 4)),
    (utc(2026, 12, 3), SeasonLength.QUARTER, utc(2026, 10, 1), utc(2027, 1, 1)),
    (utc(2026, 1, 1), SeasonLength.QUARTER, utc(2026, 1, 1), utc(2026, 4, 1)),
    (utc(2026, 6, 30, 23), SeasonLength.QUARTER, utc(2026, 4, 1), utc(2026, 7, 1)),
    (utc(2026, 8, 15), SeasonLength.QUARTER, utc(2026, 7, 1), utc(2026, 10, 1)),
])
def test_a_season_is_a_calendar_period_of_utc(at: int, length: SeasonLength, start: int,
                                              end: int) -> None:
    assert period_of(at, length) == Period(start, end)


def test_seasons_that_are_off_have_no_period() -> None:
    with pytest.raises(ValueError):
        period_of(utc(2026, 12, 3), SeasonLength.OFF)


def test_a_season_picks_up_where_the_last_closed_one_ended() -> None:
    month = Period(utc(2026, 12, 1), utc(2027, 1, 1))
    assert month.since(utc(2026, 12, 14)) == Period(utc(2026, 12, 14), utc(2027, 1, 1))
    assert month.since(utc(2026, 11, 1)) == month
    assert month.since(utc(2027, 1, 1)) is None


def test_a_hand_won_is_a_point_and_a_svara_won_one_more() -> None:
    assert hand_points(won=False, svara_won=False) == 0
    assert hand_points(won=True, svara_won=False) == 1
    assert hand_points(won=True, svara_won=True) == 2


ANA, BORIS, VERA = 11, 22, 33


def row(hand: int, user: int, won: bool = True, svara: bool = False) -> Scored:
    return Scored(hand, user, won, svara, 1000 + hand)


def test_standings_add_up_the_points_and_leave_out_who_scored_nothing() -> None:
    board = standings([row(1, ANA), row(1, BORIS, won=False), row(2, BORIS, svara=True),
                       row(3, ANA), row(3, VERA, won=False), row(4, ANA, svara=True)])
    assert [(s.rank, s.user_id, s.points, s.won, s.svaras_won) for s in board] == [
        (1, ANA, 4, 3, 1), (2, BORIS, 2, 1, 1)]
    assert board[0].series == ((1001, 1), (1003, 2), (1004, 4))


def test_both_winners_of_a_split_pot_score() -> None:
    board = standings([row(1, ANA), row(1, BORIS)])
    assert [(s.user_id, s.points) for s in board] == [(ANA, 1), (BORIS, 1)]


def test_computer_players_never_score() -> None:
    assert standings([row(1, -8 * ANA - 1), row(2, -8 * ANA - 1, svara=True)]) == []


def test_a_tie_goes_to_more_hands_won_then_to_who_reached_the_points_first() -> None:
    # Boris: 2 points from one svara won; Ana: 2 from two hands -> Ana, more hands won.
    assert [s.user_id for s in standings([row(1, BORIS, svara=True), row(2, ANA),
                                          row(3, ANA)])] == [ANA, BORIS]
    # Same points, same hands won: Vera got there at hand 4, Ana only at hand 5.
    assert [s.user_id for s in standings([row(1, ANA), row(2, VERA), row(4, VERA),
                                          row(5, ANA)])] == [VERA, ANA]
    # Reached in the same hand (a split pot): the lower user id first.
    assert [s.user_id for s in standings([row(1, VERA), row(1, ANA)])] == [ANA, VERA]
