"""The refusal of a seat to a player short of chips names the ways back and still fits
in the popup a Join button answers with, in every language."""

from __future__ import annotations

import pytest

from bot import errors
from bot.handling import POPUP_LIMIT
from bot.i18n import Translations
from bot.i18n.catalogs import LANGUAGES
from bot.sandbox.text import parse_html

TRANSLATIONS = Translations.load()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("daily_in", [0, 23 * 3600 + 59 * 60])
def test_a_seat_refused_for_want_of_chips_fits_in_a_popup(language: str, daily_in: int) -> None:
    tr = TRANSLATIONS.get(language)
    refusal = errors.NotEnoughChips(ante=100_000, balance=99_999, daily_in=daily_in)
    text = parse_html(refusal.text(tr)).text
    assert len(text) <= POPUP_LIMIT, (language, len(text), text)
    assert "/give" in text and "/daily" in text
