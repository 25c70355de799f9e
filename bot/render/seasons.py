"""The texts of seasons: /season's standings, /season last's champions, and the
announcement of a season's champion in its group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.dates import date_text, day_text
from bot.i18n import N_, Html, Translator
from bot.render.views import short_name
from bot.seasons import (
    PLACE_POINTS,
    POINTS_PER_SVARA_WON,
    POINTS_PER_WIN,
    ClosedSeason,
    Period,
    SeasonStanding,
)

SEASON_USAGE = N_("Use /season for this season's standings, /season last for the champions "
                  "of the seasons before.")
SEASON_IN_GROUP = N_("/season works in a group.")
SEASONS_OFF = N_("This chat has no seasons (a chat admin turns them on: /settings season "
                 "month).")
NO_CHAMPION_YET = N_("No season of this chat has ended with a champion yet.")
SEASON_POINTS = N_("Season points")


def span_text(tr: Translator, period: Period) -> Html:
    """A season's days, first to last: "2026-12-01 – 2026-12-31"."""
    return tr.format("{first} – {last}", first=day_text(period.start),
                     last=day_text(period.end - 1))


def formula_text(tr: Translator) -> Html:
    """How points are earned, as `bot.seasons.hand_points` and `place_points` count them."""
    first, second, third = PLACE_POINTS
    return tr.format("Points: {win} for each hand won, {svara} more for each svara won; "
                     "a tournament's 1st, 2nd and 3rd place: {first}, {second} and {third}.",
                     win=POINTS_PER_WIN, svara=POINTS_PER_SVARA_WON, first=first,
                     second=second, third=third)


def standing_line(tr: Translator, s: SeasonStanding, name: str) -> Html:
    return tr.format("{rank}. {name}: <b>{points}</b> · {won} won", rank=s.rank,
                     name=short_name(name), points=tr.points(s.points), won=s.won)


def season_text(tr: Translator, period: Period, board: Sequence[SeasonStanding],
                mine: SeasonStanding | None, names: Mapping[int, str]) -> str:
    """/season: this season's days and end, its top players, the asker's own place."""
    lines = [tr.format("🏆 <b>This season</b>: {span}", span=span_text(tr, period)),
             tr.format("It ends {when}.", when=date_text(period.end)), ""]
    if not board:
        lines.append(tr.gettext("Nobody has points yet this season: win a hand here to "
                                "score."))
    lines += [standing_line(tr, s, names.get(s.user_id, "?")) for s in board]
    if mine is None:
        if board:
            lines += ["", tr.gettext("You have no points this season yet.")]
    elif mine.rank > len(board):
        lines += ["", tr.format("Your place: {rank}, with {points}.", rank=mine.rank,
                                points=tr.points(mine.points))]
    lines += ["", formula_text(tr)]
    return "\n".join(lines)


def champions_text(tr: Translator, seasons: Sequence[ClosedSeason]) -> str:
    """/season last: the champions of the chat's past seasons, newest first."""
    if not seasons:
        return tr.gettext(NO_CHAMPION_YET)
    lines = [tr.gettext("🏆 <b>Champions of the past seasons</b>")]
    lines += [tr.format("{span}: <b>{name}</b>, {points}", span=span_text(tr, s.period),
                        name=short_name(s.name or "?"), points=tr.points(s.points))
              for s in seasons]
    return "\n".join(lines)


def champion_text(tr: Translator, season: ClosedSeason) -> str:
    """The announcement in the group when a season ends with a champion."""
    return "\n".join([
        tr.format("🏆 The season {span} is over. Its champion: <b>{name}</b>, {points}, "
                  "hands won: {won}.", span=span_text(tr, season.period),
                  name=short_name(season.name or "?"), points=tr.points(season.points),
                  won=season.won),
        tr.gettext("A new season begins now: /season shows the standings."),
    ])
