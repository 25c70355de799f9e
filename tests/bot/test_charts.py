"""Charts: PNG pictures that write every language's labels and names, Hindi included."""

from __future__ import annotations

import datetime as dt
import re
import warnings

import matplotlib.pyplot as plt
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


# --------------------------------------------------------------------- the time axis

DEC_1 = int(dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC).timestamp())


def _ticks(series: list[tuple[int, int]], language: str = "en") -> list[str]:
    """The x axis labels of a /stats chart of `series`, as drawn."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # glyphs a test machine's fonts may lack
        fig = charts.chips_figure(series, "Ana", "Svara night", "Net chips",
                                  language=language, tz=dt.UTC)
        try:
            fig.canvas.draw()
            return [t.get_text() for t in fig.axes[0].get_xticklabels() if t.get_text()]
        finally:
            plt.close(fig)


def test_e_hands_of_one_day_show_times_not_one_date_again() -> None:
    evening = [(DEC_1 + 600 * i, 10 * i) for i in range(7)]
    ticks = _ticks(evening)
    assert len(ticks) >= 3 and len(set(ticks)) == len(ticks), ticks
    assert all(re.fullmatch(r"1[789]:[0-5]\d", t) for t in ticks), ticks
    fast = [(DEC_1 + 5 * i, 10 * i) for i in range(7)]
    assert all(re.fullmatch(r"18:00:[0-5]\d", t) for t in _ticks(fast)), _ticks(fast)
    # One hand alone: an hour around it, not years.
    assert all(re.fullmatch(r"1[78]:[0-5]\d", t) for t in _ticks([(DEC_1, 10)]))


def test_e_month_names_come_from_the_readers_language() -> None:
    month = [(DEC_1 + 3 * 86_400 * i, 10 * i) for i in range(10)]
    assert _ticks(month, "en")[0] == "1 Dec"
    expected = {"bg": "дек", "cs": "pro", "id": "Des", "hi": "दिस॰", "zu": "Dis"}
    for language, december in expected.items():
        ticks = _ticks(month, language)
        assert ticks and all(t.endswith(f" {december}") for t in ticks), (language, ticks)
    # Hours apart over several days: the day and the time.
    days = [(DEC_1 + 5 * 3600 * i, 10 * i) for i in range(10)]
    assert all(re.fullmatch(r"\d+ Dec \d\d:\d\d", t) for t in _ticks(days)), _ticks(days)
