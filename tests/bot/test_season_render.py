"""How seasons read: /season's top and the asker's own place, the formula, /season last,
and the champion's announcement."""

from __future__ import annotations

import datetime as dt

from bot.i18n import Translations
from bot.render.seasons import champion_text, champions_text, season_text
from bot.seasons import ClosedSeason, Period, SeasonLength, SeasonStanding

EN = Translations.load().get("en")
DECEMBER = Period(int(dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp()),
                  int(dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()))


def line(rank: int, user: int, points: int, won: int) -> SeasonStanding:
    return SeasonStanding(rank, user, points, won, points - won, rank, ())


def test_the_asker_further_down_reads_his_own_place_under_the_top() -> None:
    top = [line(1, 1, 5, 4), line(2, 2, 1, 1)]
    text = season_text(EN, DECEMBER, top, line(14, 3, 1, 1), {1: "Ana", 2: "Boris", 3: "Cy"})
    assert text.splitlines() == [
        "🏆 <b>This season</b>: 2026-12-01 – 2026-12-31",
        "It ends 2027-01-01 00:00 UTC.",
        "",
        "1. Ana: <b>5 points</b> · 4 won",
        "2. Boris: <b>1 point</b> · 1 won",
        "",
        "Your place: 14, with 1 point.",
        "",
        "Points: 1 for each hand won, 1 more for each svara won; a tournament's 1st, 2nd "
        "and 3rd place: 10, 6 and 3.",
    ]


def test_the_asker_in_the_top_reads_no_line_of_his_own_and_one_without_points_is_told() -> None:
    top = [line(1, 1, 5, 4)]
    assert "Your place" not in season_text(EN, DECEMBER, top, top[0], {1: "Ana"})
    assert "You have no points this season yet." in season_text(EN, DECEMBER, top, None,
                                                                 {1: "Ana"})
    empty = season_text(EN, DECEMBER, [], None, {})
    assert "Nobody has points yet this season: win a hand here to score." in empty
    assert "You have no points" not in empty


def test_a_champion_reads_with_his_season_his_points_and_hands_won() -> None:
    season = ClosedSeason(-5, DECEMBER, SeasonLength.MONTH, 1, "<Ana>", 5, 4, 0, True)
    assert champion_text(EN, season).splitlines() == [
        "🏆 The season 2026-12-01 – 2026-12-31 is over. Its champion: <b>&lt;Ana&gt;</b>, "
        "5 points, hands won: 4.",
        "A new season begins now: /season shows the standings."]
    assert champions_text(EN, [season]).splitlines() == [
        "🏆 <b>Champions of the past seasons</b>",
        "2026-12-01 – 2026-12-31: <b>&lt;Ana&gt;</b>, 5 points"]
