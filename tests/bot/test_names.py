"""Display names: what a Telegram name becomes at a table."""

from __future__ import annotations

import pytest

from bot.names import MAX_NAME, display_name, distinct, group_title, skeleton, told_apart


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Maria", "Maria"),
        ("  Maria   Ivanova ", "Maria Ivanova"),
        ("Iv\u200ban", "Ivan"),  # zero-width space
        ("abc\u202edef", "abcdef"),  # right-to-left override
        ("a\u2066b\u2069c", "abc"),  # bidi isolates
        ("tab\there", "tab here"),
        ("line\u2028break", "line break"),
        ("Жоро 🃏", "Жоро 🃏"),
    ],
)
def test_visible_characters_stay_and_invisible_ones_go(raw: str, shown: str) -> None:
    assert display_name(raw, 42) == shown


@pytest.mark.parametrize("raw", ["", "   ", "\u3000\u3000", "\u200b\u200d", "\u202e"])
def test_a_name_with_nothing_visible_becomes_player_and_id_digits(raw: str) -> None:
    assert display_name(raw, 123_456_789) == "Player 6789"


def test_long_names_are_cut() -> None:
    assert display_name("x" * 200, 1) == "x" * MAX_NAME


def test_identical_names_at_one_table_get_numbers() -> None:
    assert distinct("Ivan", []) == "Ivan"
    assert distinct("Ivan", ["Maria"]) == "Ivan"
    assert distinct("Ivan", ["ivan"]) == "Ivan 2"
    assert distinct("Ivan", ["Ivan", "Ivan 2"]) == "Ivan 3"


def test_b_look_alikes_of_other_scripts_read_as_taken() -> None:
    assert distinct("\u0410na", ["Ana"]) == "\u0410na 2"  # Cyrillic А
    assert distinct("\u0391NA", ["ana"]) == "\u0391NA 2"  # Greek Α, Ν
    assert distinct("\uff21na", ["Ana"]) == "\uff21na 2"  # fullwidth Ａ
    assert distinct("Ана", ["Aha"]) == "Ана"  # small н is drawn unlike h
    assert distinct("Ann", ["Ana"]) == "Ann"
    assert skeleton("\u0421\u0430\u0440") == skeleton("Cap")


def test_b_names_alike_in_a_list_get_the_last_digits_of_their_ids() -> None:
    assert told_apart({1: "Ana", 2: "Boris"}) == {1: "Ana", 2: "Boris"}
    assert told_apart({123_4567: "Ana", 99: "\u0410na", 5: "Boris"}) == {
        123_4567: "Ana (4567)", 99: "\u0410na (0099)", 5: "Boris"}
    # Same last four digits: as many more as tell them apart.
    assert told_apart({11_234: "Ana", 21_234: "Ana"}) == {11_234: "Ana (11234)",
                                                          21_234: "Ana (21234)"}


def test_b_group_titles_lose_invisible_characters() -> None:
    assert group_title("Svara\u202e night\u200b") == "Svara night"
    assert group_title("\u200b") == "" and group_title(None) == ""
    assert group_title("x" * 300) == "x" * 128


def test_b_reminders_show_the_group_title_cleaned() -> None:
    from bot.i18n import Translations
    from bot.render.cards import nudge_text
    from engine import Hand, Rules, SeatIn

    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"nudge")
    text = nudge_text(Translations.load().get("en"), "Svara\u202e night\u2067", hand, 30)
    assert text.startswith("Your turn at Svara night: "), text
