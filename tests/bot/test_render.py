"""Rendering is pure and always within Telegram's limits, whatever the names."""

from __future__ import annotations

import dataclasses
import html
import random

from bot.callback_data import Press
from bot.i18n import Translations
from bot.render import (
    SeatView,
    TableView,
    outcome_of,
    private_hands,
    render_cards,
    render_table,
)
from bot.store import TableStatus
from bot.table_settings import TableSettings
from engine import Act, Action, Hand, Rules, SeatIn
from engine.simulate import random_action

TR = Translations.load().get("en")
NASTY = "<b>&amp;\"Ω🂡" * 8


def view_of(hand: Hand | None, names: dict[int, str],
            status: TableStatus = TableStatus.PLAYING) -> TableView:
    seats = tuple(SeatView(p, n, 1000) for p, n in names.items())
    return TableView(table_id=2**62, status=status, settings=TableSettings(), seats=seats,
                     names=names, hand=hand, hand_id=2**62, hand_no=10**6, wait_seconds=45)


def check(text: str, buttons: tuple[tuple[tuple[str, str], ...], ...]) -> None:
    assert 0 < len(text) <= 4096
    assert "<b>&amp;" not in text.replace("&lt;b&gt;&amp;amp;", "")
    for row in buttons:
        assert len(row) <= 8
        for label, data in row:
            assert label and len(data.encode()) <= 64
            Press.decode(data)


def test_ten_long_hostile_names_fit_and_are_escaped() -> None:
    names = {1000 + i: f"{NASTY}{i}" for i in range(10)}
    seats = [SeatIn(p, 1000) for p in names]
    rng = random.Random(7)
    hand = Hand.start(Rules(), seats, 3, b"render")
    screen = render_table(view_of(None, names, TableStatus.LOBBY), TR)
    check(screen.text, screen.buttons)
    assert "<b>&amp;" not in screen.text
    assert html.escape("<b>") in screen.text
    closed = render_table(view_of(None, names, TableStatus.CLOSED), TR)
    check(closed.text, closed.buttons)
    while not hand.is_over:
        screen = render_table(view_of(hand, names), TR)
        check(screen.text, screen.buttons)
        assert "<b>&amp;\"" not in screen.text
        hand.apply(random_action(hand, rng))
    finished = TableView(table_id=1, status=TableStatus.PLAYING, settings=TableSettings(),
                         seats=tuple(SeatView(p, n, 1000) for p, n in names.items()),
                         names=names, hand_no=3, outcome=outcome_of(hand))
    screen = render_table(finished, TR)
    check(screen.text, screen.buttons)


def test_the_same_view_renders_the_same_screen() -> None:
    names = {1: "Ana", 2: "Boris"}
    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"same")
    assert render_table(view_of(hand, names), TR) == render_table(view_of(hand, names), TR)


def test_only_the_legal_buttons_are_offered() -> None:
    names = {1: "Ana", 2: "Boris"}
    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"legal")
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    assert labels == ["Blind 10", "Blind 20", "Blind 100", "No blind", "My cards"]
    hand.apply(Action(Act.NO_BLIND, 1))
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    assert labels == ["Fold", "Bet 10", "Bet 20", "All-in (490)", "My cards"]
    hand.apply(Action(Act.RAISE, 1, 20))
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    assert labels[:2] == ["Fold", "Call 20"] and labels[2].startswith("Raise to")


def test_the_group_never_sees_cards_before_the_showdown_but_the_player_does() -> None:
    names = {1: "Ana", 2: "Boris"}
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"cards")
    text = render_table(view_of(hand, names), TR).text
    for seat in range(2):
        for card in hand.cards(seat):
            assert str(card) not in text
    private = render_cards(TR, private_hands(hand, (0,), 1)[0])
    assert all(str(c) in private for c in hand.cards(0))
    # The deck's whole commitment, on the table message (before the first decision) too.
    assert len(hand.commitment) == 64
    assert hand.commitment in private and hand.commitment in text
    # His openings, and only his: each position|card|salt of his three cards.
    openings = [f"{p}|{c}|{salt}" for p, c, salt in hand.openings(0)]
    assert len(openings) == 3 and all(o in private for o in openings)
    assert not any(f"|{c.ascii}|" in private for c in hand.cards(1))


def test_a_closed_table_points_to_where_a_new_one_opens() -> None:
    names = {1: "Ana", 2: "Boris"}
    group = render_table(view_of(None, names, TableStatus.CLOSED), TR)
    assert group.text.endswith("Start a new one with /newgame."), group.text
    practice = dataclasses.replace(view_of(None, names, TableStatus.CLOSED), private=True)
    assert render_table(practice, TR).text.endswith("Start a new one with /practice.")
