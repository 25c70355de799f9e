"""The table message reads as a table: a clock that ticks in the reader's app, the last
showdown face up until the next hand's first action, the commitments folded away."""

from __future__ import annotations

import dataclasses

from bot.i18n import Translations
from bot.records import TableStatus
from bot.render.table import render_table
from bot.render.views import Outcome, SeatView, TableView
from bot.sandbox.text import parse_html
from bot.table_settings import TableSettings
from engine import Act, Action, Hand, Rules, SeatIn, parse_hand

TR = Translations.load().get("en")
NAMES = {1: "Ana", 2: "Boris"}


def _view(hand: Hand | None, **changes: object) -> TableView:
    seats = tuple(SeatView(p, n, 500) for p, n in NAMES.items())
    view = TableView(table_id=7, status=TableStatus.PLAYING, settings=TableSettings(),
                     seats=seats, names=NAMES, hand=hand, hand_id=40, hand_no=13,
                     wait_seconds=25)
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def _covered(text: str, entity: dict[str, object]) -> str:
    """The text an entity covers (its offset and length count UTF-16 units)."""
    units = text.encode("utf-16-le")
    start, length = int(entity["offset"]), int(entity["length"])  # type: ignore[call-overload]
    return units[2 * start:2 * (start + length)].decode("utf-16-le")


def _hand() -> Hand:
    return Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"face")


def test_the_turns_deadline_is_a_clock_the_readers_app_counts_down() -> None:
    text = render_table(_view(_hand(), deadline=1_700_000_024.2), TR).text
    parsed = parse_html(text)
    clocks = [e for e in parsed.entities if e["type"] == "date_time"]
    assert [(c["unix_time"], c["date_time_format"]) for c in clocks] == [(1_700_000_025, "r")]
    # What an app without the entity shows, as before:
    assert _covered(parsed.text, clocks[0]) == "25 seconds"
    assert "⏳ 25 seconds" in parsed.text


def test_without_a_deadline_the_time_left_is_plain_text() -> None:
    text = render_table(_view(_hand(), deadline=None), TR).text
    assert "⏳ 25 seconds" in text and "tg-time" not in text


def test_the_next_hand_in_between_hands_ticks_too() -> None:
    over = _view(None, deadline=1_700_000_100.0, wait_seconds=9,
                 outcome=Outcome(shown=(), won=(((1,), 20, None),)))
    parsed = parse_html(render_table(over, TR).text)
    clocks = [e for e in parsed.entities if e["type"] == "date_time"]
    assert [c["unix_time"] for c in clocks] == [1_700_000_100]
    assert "Next hand in 9 seconds." in parsed.text


def test_the_last_showdown_stays_face_up_until_the_next_hands_first_action() -> None:
    hand = _hand()
    last = Outcome(shown=((1, tuple(parse_hand("7c As Ad")), 34),
                          (2, tuple(parse_hand("Kh Kd 9s")), 20)),
                   won=(((1,), 250, 34),))
    view = _view(hand, last=last, last_id=12)
    text = parse_html(render_table(view, TR).text).text
    assert "Ana: 7♣ A♠ A♦ (34)" in text
    assert "Boris: K♥ K♦ 9♠ (20)" in text
    assert "Last hand: Ana won 250 with 34 points · /hand 12" in text
    hand.apply(Action(Act.NO_BLIND, hand.to_act or 0))
    text = parse_html(render_table(view, TR).text).text
    assert "A♠" not in text and "K♦" not in text and "Last hand" not in text


def test_the_commitments_are_folded_but_still_on_the_table_message() -> None:
    hand = _hand()
    lobby = _view(None, status=TableStatus.LOBBY, table_commitment="ab" * 32)
    playing = _view(hand, table_commitment="ab" * 32)
    for view, digest in ((lobby, "ab" * 32), (playing, hand.commitment)):
        parsed = parse_html(render_table(view, TR).text)
        folded = [_covered(parsed.text, e) for e in parsed.entities
                  if e["type"] == "expandable_blockquote"]
        assert any(digest in quote for quote in folded), (folded, parsed.text)
        assert all(digest not in line for line in parsed.text.splitlines()
                   if not any(line in quote for quote in folded))
