"""What the table message and the private messages say in words: actions, deadlines,
hands that need a word of explanation, reminders, links and results (pure rendering)."""

from __future__ import annotations

from bot.i18n import Translations
from bot.practice import computer_name
from bot.records import TableStatus
from bot.render.cards import explain, nudge_text
from bot.render.messages import results_text, table_link
from bot.render.table import render_table
from bot.render.views import Results, SeatView, TableView
from bot.table_settings import TableSettings
from engine import Act, Action, Hand, Rules, ScoringRules, SeatIn
from engine.cards import parse_hand

TR = Translations.load().get("en")
ON = ScoringRules()


def view(hand: Hand, left: int | None = 45) -> TableView:
    names = {1: "Maria", 2: "Georgi", 3: "Ivan"}
    seats = tuple(SeatView(p, n, 1000) for p, n in names.items())
    return TableView(table_id=5, status=TableStatus.PLAYING, settings=TableSettings(),
                     seats=seats,
                     names=names, hand=hand, hand_id=9, hand_no=7, wait_seconds=left)


def test_hands_that_need_a_word_are_explained_and_plain_suits_are_not() -> None:
    def why(text: str, points: int) -> str | None:
        return explain(TR, parse_hand(text), points, ON)

    assert why("7c Kh Kd", 31) == "7♣ counts 11 and joins K♥ K♦ (a pair): K♥ K♦ 7♣ = 31"
    assert why("7c Ah Kh", 32) == "7♣ counts 11 and joins A♥ K♥ (the same suit): A♥ K♥ 7♣ = 32"
    assert why("7c 9d Kh", 21) == "7♣ counts 11 and joins the highest card: K♥ 7♣ = 21"
    assert why("Ah As 9d", 22) == "2 aces = 22"
    assert why("7h 7d 7s", 34) == "three sevens = 34, the best hand"
    assert why("7h 7d Ks", 23) == "two sevens = 23"
    assert why("Kh Kd Ks", 30) == "three of a kind: 3 × 10 = 30"
    assert why("Ah Kh 10h", 31) is None
    assert why("Ah Kh 9d", 21) is None


def test_the_last_actions_are_told_in_words_and_the_deadline_once_as_time_left() -> None:
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 500), SeatIn(2, 500), SeatIn(3, 500)],
                      0, b"words")
    order = [hand.seats[i].player for i in hand.order_after(0)]
    first, second, _ = order
    hand.apply(Action(Act.RAISE, hand.seat_of(first) or 0, 20))
    second_seat = hand.seat_of(second)
    assert second_seat is not None
    hand.apply(Action(Act.TIMEOUT, second_seat))
    text = render_table(view(hand, 37), TR).text
    names = {1: "Maria", 2: "Georgi", 3: "Ivan"}
    assert f"{names[first]} bets 20 · {names[second]} folds (time)" in text.splitlines()
    assert text.count("⏳") == 1 and "⏳ 37 seconds" in text
    assert "⌛" not in text and "until" not in text
    assert "⏳" not in render_table(view(hand, None), TR).text


def test_the_reminder_names_the_group_the_choices_and_the_time_left() -> None:
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 500), SeatIn(2, 500)], 0, b"nudge")
    seat = hand.to_act
    assert seat is not None
    hand.apply(Action(Act.RAISE, seat, 30))
    assert nudge_text(TR, "Svara night", hand, 35) == \
        "Your turn at Svara night: call 30, raise or fold · 35 s left"


def test_a_reminder_does_not_offer_the_all_in_a_call_already_is() -> None:
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 1000), SeatIn(2, 300)], 1, b"all")
    if hand.seats[hand.to_act or 0].player == 2:
        hand.apply(Action(Act.RAISE, hand.to_act or 0, 10))
    hand.apply(Action(Act.RAISE, hand.to_act or 0, 500))
    short = hand.to_act or 0
    assert hand.seats[short].player == 2
    assert nudge_text(TR, "Svara night", hand, 30) == (
        f"Your turn at Svara night: call {hand.seats[short].stack} or fold · 30 s left")


def test_a_practice_reminder_names_the_practice_table() -> None:
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 500), SeatIn(-2, 500)], 0, b"nudge")
    hand.apply(Action(Act.RAISE, hand.to_act or 0, 30))
    assert nudge_text(TR, "", hand, 35).startswith("Your turn at your practice table: ")


def test_practice_opponents_and_chips_speak_the_players_language() -> None:
    bulgarian = Translations.load().get("bg")
    assert computer_name(TR, 1) == "Bot Ana (normal)"
    assert computer_name(bulgarian, 1) != "Bot Ana (normal)"
    assert "Ana" in computer_name(bulgarian, 1)
    assert bulgarian.gettext("{name} (practice chips)") != "{name} (practice chips)"
    # The name is stored and escaped where shown: it is plain text here.
    assert computer_name(bulgarian, 2).count("<") == 0


def test_links_open_the_table_message_in_supergroups_and_public_groups_only() -> None:
    assert table_link("supergroup", -1001234567890, None, 42) == "https://t.me/c/1234567890/42"
    assert table_link("group", -4100000001, "svaranight", 42) == "https://t.me/svaranight/42"
    assert table_link("group", -4100000001, None, 42) is None


def test_results_list_every_net_and_the_biggest_pot() -> None:
    names = {1: "Maria", 2: "Georgi", 3: "Ivan"}
    text = results_text(TR, names, Results(3, ((1, -40), (2, 0), (3, 40)), (2, 3, 250)))
    assert text.splitlines() == [
        "🏁 <b>Svara</b>: results after 3 hands", "",
        "Ivan: +40", "Georgi: 0", "Maria: -40", "",
        "Biggest pot: 250, taken by Ivan in hand 2.",
    ]
