"""Display names: what a Telegram name becomes at a table."""

from __future__ import annotations

import pytest

from bot.names import MAX_NAME, display_name, distinct


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
