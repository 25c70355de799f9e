"""Charts: PNG pictures that write every language's labels and names, Hindi included."""

from __future__ import annotations

import warnings

import pytest
from matplotlib import font_manager

from bot import charts

SERIES = [(1_764_000_000 + 3600 * i, v) for i, v in enumerate((0, 40, -20, 90))]
HINDI = "नेट चिप्स, पिछले 30 दिन"


def _png(label: str, place: str) -> tuple[bytes, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = charts.group_chart([("रवि", SERIES), ("Иван", SERIES)], place, label)
    return png, [str(w.message) for w in caught]


def test_a_chart_is_a_png() -> None:
    png, _ = _png("Net chips", "Svara night")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and 5_000 < len(png) < 500_000


def test_hindi_labels_are_drawn_with_a_font_that_has_them() -> None:
    if not any("devanagari" in path.lower() for path in font_manager.findSystemFonts()):
        pytest.skip("no Devanagari font installed (Debian: apt-get install fonts-lohit-deva)")
    assert charts.FALLBACK_FAMILIES[0] in charts._families()
    _, missing = _png(HINDI, "स्वारा")
    assert not [m for m in missing if "missing from font" in m], missing
