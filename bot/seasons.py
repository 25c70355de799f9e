"""Seasons: a chat's standings over a calendar period of UTC, and its champion.

Pure: the period a moment falls in, the points a hand gives and the standings that hand
rows add up to. No Telegram and no database here: `bot.store.seasons` reads the rows and
keeps the closed seasons, `bot.season_close` closes and announces them.

Points (`hand_points`): 1 for each hand a player wins in the chat during the season (each
winner of a split pot wins it), and 1 more for each svara he wins; a tournament played in
the chat gives its 1st, 2nd and 3rd place 10, 6 and 3 points (`place_points`; its hands
score nothing of their own, their chips are not real). Practice hands and computer
players never score.

Ties (`standings`): more points first, then more hands won, then whoever reached his
points first (the earlier hand that brought him to his total), then the lower user id.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class SeasonLength(StrEnum):
    """How long a chat's seasons last; the value is what its settings hold."""

    MONTH = "month"
    """From the 1st at 00:00 UTC to the next month's 1st."""
    WEEK = "week"
    """From Monday 00:00 UTC to the next Monday."""
    QUARTER = "quarter"
    """From 1 January, 1 April, 1 July or 1 October at 00:00 UTC to the next of them."""
    OFF = "off"
    """No seasons: no standings and no champions."""


POINTS_PER_WIN = 1
"""Points for each hand won (alone, or in a split pot)."""
POINTS_PER_SVARA_WON = 1
"""Points on top for a hand won in a svara."""


PLACE_POINTS = (10, 6, 3)
"""Points for the 1st, 2nd and 3rd place of a tournament."""


def hand_points(won: bool, svara_won: bool) -> int:
    """The season points one hand gives its player."""
    return (POINTS_PER_WIN if won else 0) + (POINTS_PER_SVARA_WON if svara_won else 0)


def place_points(place: int) -> int:
    """The season points a tournament place gives (0: no place, or below the 3rd)."""
    return PLACE_POINTS[place - 1] if 1 <= place <= len(PLACE_POINTS) else 0


@dataclass(frozen=True, slots=True)
class Period:
    """A stretch of time in whole seconds of the Unix clock: from `start`, up to but not
    including `end`."""

    start: int
    end: int

    def __contains__(self, at: float) -> bool:
        return self.start <= at < self.end

    def since(self, start: int) -> Period | None:
        """This period from `start` on (a season picks up where the last closed one ended),
        None if nothing of it is left."""
        start = max(self.start, start)
        return Period(start, self.end) if start < self.end else None


def _utc(year: int, month: int, day: int = 1) -> int:
    return int(dt.datetime(year, month, day, tzinfo=dt.UTC).timestamp())


def _months_on(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + months
    return index // 12, index % 12 + 1


def period_of(at: float, length: SeasonLength) -> Period:
    """The calendar period of `length` (in UTC) that the moment `at` falls in."""
    when = dt.datetime.fromtimestamp(at, dt.UTC)
    if length is SeasonLength.WEEK:
        monday = when.date() - dt.timedelta(days=when.weekday())
        start = _utc(monday.year, monday.month, monday.day)
        return Period(start, start + 7 * 24 * 3600)
    if length is SeasonLength.MONTH:
        months, first = 1, when.month
    elif length is SeasonLength.QUARTER:
        months, first = 3, when.month - (when.month - 1) % 3
    else:
        raise ValueError(f"seasons of length {length} have no periods")
    return Period(_utc(when.year, first), _utc(*_months_on(when.year, first, months)))


@dataclass(frozen=True, slots=True)
class Scored:
    """One player's row of one hand, as a season reads it (a ``hand_players`` row, or a
    tournament place with the hand that decided it)."""

    hand_id: int
    user_id: int
    won: bool
    svara_won: bool
    at: int
    place: int = 0
    """A tournament place (0: a hand's row)."""


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """One player's line of a season's standings."""

    rank: int
    user_id: int
    points: int
    won: int
    """Hands he won."""
    svaras_won: int
    reached: int
    """The hand that brought him to his points."""
    series: tuple[tuple[int, int], ...]
    """(time, his points so far) after each hand that gave him points, oldest first."""


@dataclass(frozen=True, slots=True)
class ClosedSeason:
    """A season of a chat as it closed."""

    chat_id: int
    period: Period
    length: SeasonLength
    champion: int | None
    """His user id; None when nobody scored."""
    name: str | None
    """The champion's name as the bot knows it now."""
    points: int
    won: int
    """Hands the champion won in the season."""
    closed_at: int
    announce_due: bool


def standings(rows: Iterable[Scored]) -> list[SeasonStanding]:
    """The players who scored, best first (ties as the module says), ranked from 1.
    Computer players (ids below 1) never score."""
    points: dict[int, int] = {}
    won: dict[int, int] = {}
    svaras: dict[int, int] = {}
    reached: dict[int, int] = {}
    series: dict[int, list[tuple[int, int]]] = {}
    for row in sorted(rows, key=lambda r: (r.hand_id, r.user_id)):
        gained = hand_points(row.won, row.svara_won) + place_points(row.place)
        if row.user_id <= 0 or gained == 0:
            continue
        player = row.user_id
        points[player] = points.get(player, 0) + gained
        won[player] = won.get(player, 0) + int(row.won)
        svaras[player] = svaras.get(player, 0) + int(row.svara_won)
        reached[player] = row.hand_id
        series.setdefault(player, []).append((row.at, points[player]))
    order = sorted(points, key=lambda p: (-points[p], -won[p], reached[p], p))
    return [SeasonStanding(rank, p, points[p], won[p], svaras[p], reached[p],
                           tuple(series[p]))
            for rank, p in enumerate(order, start=1)]


__all__ = ["PLACE_POINTS", "POINTS_PER_SVARA_WON", "POINTS_PER_WIN", "ClosedSeason", "Period",
           "Scored",
           "SeasonLength", "SeasonStanding", "hand_points", "period_of", "place_points",
           "standings"]
