"""Rendering is pure and always within Telegram's limits, whatever the names."""

from __future__ import annotations

import dataclasses
import html
import random

from bot.callback_data import Press
from bot.i18n import Translations
from bot.records import HandRow, PlayedHand, TableStatus
from bot.render.cards import outcome_of, private_hands, render_cards
from bot.render.history import hand_text
from bot.render.table import render_table
from bot.render.views import Outcome, SeatView, TableView
from bot.table_settings import TableSettings
from engine import Act, Action, Hand, Phase, Rules, SeatIn
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


SIT_IN = "Sit in next hand"
"""During a hand at a group's table with a free seat: a latecomer sits in for the next."""


def test_only_the_legal_buttons_are_offered() -> None:
    names = {1: "Ana", 2: "Boris"}
    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"legal")
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    assert labels == ["Blind 10", "Blind 20", "Blind 100", "No blind", "My cards", SIT_IN]
    hand.apply(Action(Act.NO_BLIND, 1))
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    assert labels == ["Fold", "Bet 10", "Bet 20", "All-in (490)", "My cards", SIT_IN]
    hand.apply(Action(Act.RAISE, 1, 20))
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    assert labels[:2] == ["Fold", "Call 20"] and labels[2].startswith("Raise to")


def test_a_call_of_the_whole_stack_is_not_offered_again_as_all_in() -> None:
    names = {1: "Ana", 2: "Boris"}
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 1000), SeatIn(2, 300)], 1, b"all")
    first = hand.to_act
    assert first is not None
    shorter = 1 - first if hand.seats[first].player == 1 else first
    if hand.seats[first].player == 2:  # Boris first: he bets, Ana raises past his stack
        hand.apply(Action(Act.RAISE, first, 10))
    big = next(i for i in range(2) if hand.seats[i].player == 1)
    hand.apply(Action(Act.RAISE, big, 500))
    assert hand.to_act == shorter != big
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    stack = hand.seats[shorter].stack
    assert labels == ["Fold", f"Call {stack}", "My cards", SIT_IN]
    # With more chips than the call, the all-in is a move of its own and is offered.
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 1000), SeatIn(2, 1000)], 1, b"all")
    hand.apply(Action(Act.RAISE, hand.to_act or 0, 100))
    labels = [label for row in render_table(view_of(hand, names), TR).buttons for label, _ in row]
    assert labels[:2] == ["Fold", "Call 100"] and "All-in (990)" in labels


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


def _played(hand: Hand) -> PlayedHand:
    row = HandRow(id=7, table_id=1, number=1, start=hand.start_json(),
                  commitment=hand.commitment, reveal=[], started_at=0, ended_at=0,
                  pot=0, status="settled", result=None, abort_reason=None)
    return PlayedHand(row, -1, hand)


def test_each_action_reads_the_same_on_the_table_and_in_hand_n() -> None:
    names = {1: "Ana", 2: "Boris", 3: "Georgi"}
    hand = Hand.start(Rules(), [SeatIn(p, 500) for p in names], 2, b"words")
    blind = hand.to_act
    assert blind is not None and hand.phase is Phase.BLIND
    hand.apply(Action(Act.TIMEOUT, blind))  # the blind ran out
    opener = hand.to_act
    assert opener is not None
    hand.apply(Action(Act.RAISE, opener, 20))  # the first bet
    leaver = hand.to_act
    assert leaver is not None
    hand.apply(Action(Act.LEAVE, leaver))  # he leaves on his turn
    table = render_table(view_of(hand, names), TR).text
    blind_name, opener_name = names[hand.seats[blind].player], names[hand.seats[opener].player]
    leaver_name = names[hand.seats[leaver].player]
    for line in (f"{blind_name}: no blind (time)", f"{opener_name} bets 20",
                 f"{leaver_name} folds and leaves"):
        assert line in table, table
    assert f"{leaver_name} leaves" not in table
    while not hand.is_over:
        hand.apply(Action(Act.FOLD, hand.to_act or 0))
    told = hand_text(TR, names, _played(hand))
    assert f"1. {blind_name}: no blind (time)" in told, told
    assert f"2. {opener_name} bets 20" in told, told
    assert f"3. {leaver_name} folds and leaves" in told, told
    assert "runs out of time" not in told and "raises to" not in told


def test_a_svaras_action_line_tells_only_the_svara() -> None:
    names = {1: "Ana", 2: "Boris", 3: "Vera"}
    # Seed 17: everyone calls the first bet and all three tie: a svara, nobody else to join.
    hand = Hand.start(Rules(blind=False), [SeatIn(p, 500) for p in names], 0,
                      (17).to_bytes(4, "big"))
    hand.apply(Action(Act.RAISE, hand.to_act or 0, 10))
    while hand.round_no == 1:
        hand.apply(Action(Act.CALL, hand.to_act or 0))
    assert hand.round_no == 2 and hand.phase is Phase.BETTING
    text = render_table(view_of(hand, names), TR).text
    assert "calls 10" not in text and "bets 10" not in text, text
    hand.apply(Action(Act.RAISE, hand.to_act or 0, 30))
    text = render_table(view_of(hand, names), TR).text
    assert "bets 30" in text and "calls 10" not in text, text


def test_the_last_hand_stays_in_a_line_until_the_next_hands_first_action() -> None:
    names = {1: "Ana", 2: "Boris"}
    hand = Hand.start(Rules(), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"last")
    last = Outcome(shown=(), won=(((1,), 250, 31),))
    view = dataclasses.replace(view_of(hand, names), last=last, last_id=12)
    assert "Last hand: Ana won 250 with 31 points · /hand 12" in render_table(view, TR).text
    took = dataclasses.replace(view, last=Outcome(shown=(), won=(((2,), 40, None),)))
    assert "Last hand: Boris took 40 · /hand 12" in render_table(took, TR).text
    hand.apply(Action(Act.NO_BLIND, hand.to_act or 0))
    assert "Last hand" not in render_table(view, TR).text
