"""Wording the translation review found wrong, checked in the rendered text: each test is
named after its point and reads what a player reads."""

from __future__ import annotations

from bot import replies
from bot.i18n import Translations
from bot.i18n.catalogs import LANGUAGES, native_name
from bot.inline import offer_for
from bot.render.cards import explain
from bot.render.table import render_table
from bot.table_settings import TableSettings, rules_lines
from bot.texts import rules_text
from engine import Act, Action, Hand, Rules, ScoringRules, SeatIn, parse_hand, score
from tests.bot.test_render import view_of

ALL = Translations.load()
NAMES = {1: "Ana", 2: "Boris", 3: "Vera"}


def labels(hand: Hand, language: str) -> list[str]:
    screen = render_table(view_of(hand, NAMES), ALL.get(language))
    return [label for row in screen.buttons for label, _ in row]


def test_g_bulgarian_lobby_keeps_vhod_off_the_buy_in() -> None:
    lines = "\n".join(rules_lines(ALL.get("bg"), TableSettings()))
    # The published rules call the ante "вход": so is the ante here, and the buy-in is not.
    assert lines.startswith("Вход 10 · ") and lines.lower().count("вход") == 1, lines
    assert "до 1000 чипа на масата" in lines, lines


def test_g_hindi_history_says_points_once() -> None:
    tr = ALL.get("hi")
    line = tr.format("#{id} · {who} wins {pot} with {points}", id=42, who="Ana", pot=120,
                     points=tr.points(30))
    assert line == "#42 · Ana ने 30 पॉइंट से 120 का पॉट जीता"


def test_g_zulu_scoring_names_the_suit_not_a_kind() -> None:
    tr = ALL.get("zu")
    # Inline mode explains a hand where a pair does not count: no suit in common.
    why = offer_for(tr, "9d Qc Qh").text
    assert "esudi elifanayo" in why and "ikhadi eliphezulu" in why and "hlobo" not in why, why
    cards = parse_hand("7c 9c 8c")
    club = explain(tr, cards, score(cards, ScoringRules()), ScoringRules())
    assert club is not None and "(isudi elifanayo)" in club, club
    rules = rules_text(tr, TableSettings())
    assert "hlobo" not in rules and "hlotsh" not in rules, rules
    assert "amakhadi esudi elilodwa ahlanganiswe" in rules


def test_g_indonesian_table_says_fold_and_no_calqued_blind() -> None:
    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500), SeatIn(3, 500)], 0, b"id")
    assert labels(hand, "id")[:4] == ["Pasang buta 10", "Pasang buta 20", "Pasang buta 100",
                                      "Tanpa buta"]
    hand.apply(Action(Act.NO_BLIND, hand.to_act))
    assert labels(hand, "id")[0] == "Fold"
    hand.apply(Action(Act.FOLD, hand.to_act))
    text = render_table(view_of(hand, NAMES), ALL.get("id")).text
    assert "lipat" not in text.lower() and "tidak pasang buta" in text, text
    assert "tiga kartu 7 34" in rules_text(ALL.get("id"), TableSettings())


def test_g_czech_hand_is_rozdani_and_the_game_stays_hra() -> None:
    tr = ALL.get("cs")
    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"cs")
    text = render_table(view_of(hand, NAMES), tr).text
    assert text.splitlines()[0].startswith("🃏 <b>Svara</b> · rozdání "), text
    assert tr.gettext("Wait for the hand to end.") == "Počkej, až skončí rozdání."
    assert tr.gettext("The game has already started.") == "Hra už začala."


def test_g_language_names_follow_a_colon_not_a_preposition() -> None:
    for language in LANGUAGES:
        tr = ALL.get(language)
        for msgid in (replies.GROUP_LANGUAGE_SAVED, replies.USER_LANGUAGE_SAVED):
            said = tr.format(msgid, language=native_name(language))
            assert said.rstrip(".।").endswith(": " + native_name(language)), said
    assert ALL.get("bg").format(replies.USER_LANGUAGE_SAVED, language=native_name("bg")) == \
        "Запазено. Твоят език: Български."


def test_g_the_first_bet_after_a_blind_is_at_least_double() -> None:
    at_least = {"en": "is at least double the last blind", "bg": "е поне двойно",
                "cs": "je aspoň dvojnásobek", "id": "minimal dua kali",
                "hi": "कम से कम दोगुना", "zu": "okungenani liphinda kabili",
                "ru": "не меньше удвоенной"}
    for language, words in at_least.items():
        assert words in rules_text(ALL.get(language), TableSettings()), language


def test_g_russian_counts_in_three_forms_and_names_seka() -> None:
    tr = ALL.get("ru")
    said = [tr.chips(n) for n in (1, 3, 5, 11, 21, 22, 25)]
    assert said == ["1 фишка", "3 фишки", "5 фишек", "11 фишек", "21 фишка", "22 фишки",
                    "25 фишек"], said
    assert tr.points(31) == "31 очко" and tr.points(33) == "33 очка"
    rules = rules_text(tr, TableSettings())
    assert "Свары (Секи)" in rules and "казн" not in rules, rules
    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"ru")
    assert labels(hand, "ru")[:2] == ["Втёмную 10", "Втёмную 20"]
