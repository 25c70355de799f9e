"""The computer players' tournament: deterministic, conserving, and the levels beat a
player who calls everything."""

from __future__ import annotations

import math

import pytest

from engine.players.__main__ import main
from engine.players.tournament import NAMES, STATION, figure, play, seating
from engine.rules import Limit, Rules

HANDS = 2000
"""Enough that each level's margin over the station is many times its interval."""


def test_the_levels_beat_the_calling_station() -> None:
    result = play(HANDS, seed=20_240_601)
    assert result.hands == HANDS
    # Every chip one player wins another loses.
    assert sum(f.mean for f in result.per_hand.values()) == pytest.approx(0, abs=1e-9)
    for name in ("normal", "bold"):
        assert result.over_station[name].low > 0, name
    assert result.per_hand[STATION].high < 0


def test_the_levels_beat_the_calling_station_at_pot_limit() -> None:
    result = play(HANDS // 2, seed=5, rules=Rules(limit=Limit.POT_LIMIT, blind=False))
    for name in ("normal", "bold"):
        assert result.over_station[name].low > 0, name


def test_the_levels_beat_the_calling_station_at_six_seats() -> None:
    result = play(1200, seed=7, seats=6)
    assert result.hands == 1200
    # Cautious and normal sit twice: per seat, every chip won is lost by another seat.
    seats = {"cautious": 2, "normal": 2, "bold": 1, STATION: 1}
    assert sum(f.mean * seats[n] for n, f in result.per_hand.items()) == pytest.approx(
        0, abs=1e-9)
    for name in ("normal", "bold"):
        assert result.over_station[name].low > 0, name


def test_a_tournament_seats_every_player() -> None:
    assert seating(6) == ["cautious", "normal", "bold", STATION, "cautious", "normal"]
    for seats in (3, 11):
        with pytest.raises(ValueError, match="4 to 10 seats"):
            play(100, seats=seats)


def test_the_same_seed_plays_the_same_tournament() -> None:
    assert play(200, seed=3) == play(200, seed=3)
    assert play(200, seed=3) != play(200, seed=4)


def test_figure_is_the_mean_per_hand_with_its_interval() -> None:
    # Blocks of 4 hands won 8, 12, 10 and 10 chips: 2.5 per hand, spread sqrt(8/3).
    fig = figure([8, 12, 10, 10], 4)
    half = 1.959964 * math.sqrt(8 / 3) / 2 / 4
    assert fig.mean == 2.5
    assert fig.low == pytest.approx(2.5 - half)
    assert fig.high == pytest.approx(2.5 + half)


def test_the_command_prints_every_player(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--hands", "40", "--seed", "2"])
    out = capsys.readouterr().out
    assert out.startswith("40 hands, seed 2: 4 players")
    main(["--hands", "12", "--seats", "6"])
    assert capsys.readouterr().out.startswith("12 hands, seed 1: 6 players")
    rows = [line.split()[0] for line in out.splitlines()[2:6]]
    assert rows == list(NAMES)
