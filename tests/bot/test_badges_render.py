"""How badges read: one line per award on the table message, the list in /stats, the count
on a seat of the Mini App."""

from __future__ import annotations

from bot.achievements import BADGES
from bot.i18n import Translations
from bot.miniapp.state import Snapshot, view_for
from bot.records import PlayerStats, TableStatus
from bot.render.history import stats_text
from bot.render.table import render_table
from bot.render.views import Outcome, SeatView, TableView
from bot.table_settings import TableSettings
from engine import Hand, Rules, SeatIn, parse_hand

EN = Translations.load().get("en")
BG = Translations.load().get("bg")
NAMES = {1: "Ana", 2: "Boris"}


def between_hands(outcome: Outcome, badges: dict[int, tuple[str, ...]] | None = None,
                  ) -> TableView:
    held = badges or {}
    seats = tuple(SeatView(p, n, 1000, badges=held.get(p, ())) for p, n in NAMES.items())
    return TableView(table_id=5, status=TableStatus.PLAYING, settings=TableSettings(),
                     seats=seats, names=NAMES, hand_no=12, outcome=outcome)


SHOWDOWN = Outcome(((1, parse_hand("7♥ 7♦ 7♠"), 34), (2, parse_hand("K♥ 9♥ Q♣"), 19)),
                   (((1,), 60, 34),), proof=True,
                   badges=((1, "three_sevens"), (1, "first_pot"), (2, "no_such_badge")))


def test_each_award_is_one_line_of_the_hands_result_before_its_proof() -> None:
    lines = render_table(between_hands(SHOWDOWN), EN).text.splitlines()
    won = lines.index("🏆 Ana wins 60 with 34 points")
    assert lines[won + 1:won + 4] == ["🏅 Ana earns 🎰 <b>Three sevens</b>",
                                      "🏅 Ana earns 🥇 <b>First pot</b>",
                                      "🔐 fairness: /hand 12"]
    # A badge the code no longer knows is never shown.
    assert sum(line.startswith("🏅") for line in lines) == 2


def test_the_next_hand_keeps_the_awards_with_the_last_hands_line() -> None:
    hand = Hand.start(Rules(), [SeatIn(1, 1000), SeatIn(2, 1000)], 0, b"next")
    view = TableView(table_id=5, status=TableStatus.PLAYING, settings=TableSettings(),
                     seats=between_hands(SHOWDOWN).seats, names=NAMES, hand=hand, hand_no=13,
                     last=SHOWDOWN, last_id=12)
    lines = render_table(view, EN).text.splitlines()
    last = next(i for i, line in enumerate(lines) if line.startswith("Last hand: "))
    assert lines[last + 1:last + 3] == ["🏅 Ana earns 🎰 <b>Three sevens</b>",
                                        "🏅 Ana earns 🥇 <b>First pot</b>"]


def test_the_award_reads_in_the_groups_language() -> None:
    text = render_table(between_hands(SHOWDOWN), BG).text
    assert "🏅 Ana печели значка 🎰 <b>Три седмици</b>" in text.splitlines()


def test_no_award_no_badge_line() -> None:
    plain = Outcome(SHOWDOWN.shown, SHOWDOWN.won, proof=True)
    assert "🏅" not in render_table(between_hands(plain), EN).text


STATS = PlayerStats(played=12, won=5, net=140, biggest=300, svaras=1, svaras_won=1, best=34,
                    streak=5)


def test_stats_list_the_badges_held_with_their_rules() -> None:
    lines = stats_text(EN, "Ana", STATS, ["five_in_row", "three_sevens", "gone"]).splitlines()
    assert lines[-3:] == [
        "🏅 Badges: 2 of 16",
        "🔥 <b>Five in a row</b>: win five hands in a row at one table",
        "🎰 <b>Three sevens</b>: show three sevens for 34 points at a showdown"]
    assert not any("🏅" in line for line in stats_text(EN, "Ana", STATS).splitlines())


def test_every_badge_reads_in_every_language_within_a_line() -> None:
    for language in ("en", "bg", "cs", "hi", "id", "ru", "zu"):
        tr = Translations.load().get(language)
        text = stats_text(tr, "Ana", STATS, [b.code for b in BADGES])
        assert len(text) < 4096 and text.count("\n") == 5 + 1 + len(BADGES)


def test_a_seat_in_the_mini_app_carries_its_players_badges() -> None:
    view = between_hands(SHOWDOWN, {1: ("first_pot", "three_sevens")})
    seen = view_for(Snapshot(1, view, -100, 1), 2, EN, 0.0)
    assert [s["badges"] for s in seen["seats"]] == [
        [{"emoji": "🥇", "name": "First pot"}, {"emoji": "🎰", "name": "Three sevens"}], []]


def test_a_seat_in_a_hand_in_play_carries_them_too() -> None:
    hand = Hand.start(Rules(), [SeatIn(1, 1000), SeatIn(2, 1000)], 0, b"seat")
    seats = tuple(SeatView(p, n, 1000, badges=("comeback",) if p == 2 else ())
                  for p, n in NAMES.items())
    view = TableView(table_id=5, status=TableStatus.PLAYING, settings=TableSettings(),
                     seats=seats, names=NAMES, hand=hand, hand_no=13)
    seen = view_for(Snapshot(1, view, -100, 1), 1, EN, 0.0)
    assert [s["badges"] for s in seen["seats"]] == [[], [{"emoji": "🦅", "name": "Comeback"}]]
