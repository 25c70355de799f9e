"""Seats and the dealer button across hands (RULES.md §3.1, §3.2, §6)."""

from __future__ import annotations

import pytest

from engine import Act, Action, Hand, Rules
from engine.table import AlreadySeated, BadBuyIn, HandRunning, Table, TableFull


def table_of(*stacks: int, rules: Rules | None = None) -> Table:
    table = Table(rules or Rules(blind=False))
    for i, stack in enumerate(stacks):
        table.sit(100 + i, stack)
    return table


def play_out(hand: Hand, *, call: bool) -> None:
    """Finish a hand: everyone calls what he can (or folds, with call=False)."""
    while not hand.is_over:
        legal = hand.legal()
        assert legal is not None
        act = Act.CALL if call and legal.call else Act.FOLD
        hand.apply(Action(act, legal.seat))


def fold_round(table: Table, seed: bytes) -> int:
    """Deal a hand where everybody folds to the dealer; returns the dealer's seat."""
    hand = table.deal(seed)
    play_out(hand, call=False)
    table.settle(hand)
    return hand.dealer


def test_first_dealer_is_drawn_then_a_dealer_who_wins_unopposed_deals_again() -> None:
    table = table_of(1000, 1000, 1000)
    first = fold_round(table, b"one")
    assert fold_round(table, b"two") == first


def test_the_deal_passes_clockwise() -> None:
    table = table_of(1000, 1000, 1000)
    hand = table.deal(b"seed")
    first = hand.dealer
    hand.apply(Action(Act.RAISE, hand.to_act, 10))
    play_out(hand, call=True)
    table.settle(hand)
    assert table.deal(b"next").dealer == (first + 1) % 3


def test_turn_timeouts_in_two_hands_in_a_row_sit_a_player_out() -> None:
    table = table_of(1000, 1000, 1000, rules=Rules())
    for n in range(2):
        table.dealer_pos, table.keep_deal = 1, False  # the first seat acts first
        hand = table.deal(bytes([n]))
        assert hand.to_act == 0
        hand.apply(Action(Act.TIMEOUT, 0))  # no blind
        hand.apply(Action(Act.TIMEOUT, 0))  # folds
        play_out(hand, call=False)
        table.settle(hand)
        assert table.seats[0].timeouts == n + 1
        assert table.seats[0].sitting_out == (n == 1)
    nxt = table.deal(b"y")
    assert not nxt.in_play(0)
    table.set_away(table.seats[0].player, False)
    assert not table.seats[0].sitting_out


def test_a_leaver_is_removed_after_the_hand_with_his_stack() -> None:
    table = table_of(1000, 1000, 1000)
    hand = table.deal(b"z")
    leaver = (hand.dealer + 2) % 3
    hand.apply(Action(Act.LEAVE, leaver))
    with pytest.raises(HandRunning):
        table.stand(100)
    play_out(hand, call=False)
    gone = table.settle(hand)
    assert gone == [(100 + leaver, 990)]
    assert len(table.seats) == 2


def test_seating_rules() -> None:
    table = table_of(1000, 1000, rules=Rules(max_seats=2))
    with pytest.raises(AlreadySeated):
        table.sit(100, 10)
    with pytest.raises(TableFull):
        table.sit(200, 10)
    assert table.top_up(100, 500, max_stack=2000) == 1500
    with pytest.raises(BadBuyIn):
        table.top_up(100, 600, max_stack=2000)
    assert table.stand(101) == 1000


def test_only_players_who_can_pay_the_ante_are_ready() -> None:
    table = table_of(1000, 5)
    assert not table.can_deal()


def test_table_json_round_trip() -> None:
    table = table_of(1000, 1000, 1000)
    fold_round(table, b"j")
    again = Table.from_json(table.to_json())
    assert again.to_json() == table.to_json()


def test_resume_passes_the_deal_on_from_the_last_hand() -> None:
    table = table_of(1000, 1000, 1000)
    hand = table.deal(b"r")
    hand.apply(Action(Act.RAISE, hand.to_act, 10))
    play_out(hand, call=True)
    table.settle(hand)
    expected = table.next_dealer(b"n")
    again = Table.resume(table.rules, table.seats, hand.start_json(), keep_deal=False)
    assert again.next_dealer(b"n") == expected
    # The last dealer has left: the player after him deals.
    seats = [s for i, s in enumerate(table.seats) if i != hand.dealer]
    gone = Table.resume(table.rules, seats, hand.start_json())
    after = table.seats[(hand.dealer + 1) % 3].player
    assert gone.seats[gone.next_dealer(b"n")].player == after


def test_a_resumed_hand_holds_its_players_until_it_is_settled() -> None:
    """After a restart the table is rebuilt between hands, then told of the open hand."""
    table = table_of(1000, 1000)
    hand = table.deal(b"q")
    again = Table.resume(table.rules, list(table.seats))
    again.sit(300, 500)  # sat down during the hand: not dealt in
    assert not again.in_hand
    again.resume_hand(hand)
    assert again.in_hand and again.dealt == {100, 101}
    with pytest.raises(HandRunning):
        again.top_up(100, 10, max_stack=2000)
    with pytest.raises(HandRunning):
        again.resume_hand(hand)
    assert again.top_up(300, 10, max_stack=2000) == 510
    play_out(hand, call=False)
    again.settle(hand)
    assert not again.in_hand and again.dealt == set()
    again.stand(100)
    assert [s.player for s in again.seats] == [101, 300]


def test_a_player_sitting_out_pays_the_ante_where_the_rules_take_it_from_the_absent() -> None:
    table = table_of(100, 100, 100, rules=Rules(blind=False, ante=10, away_antes=True))
    table.set_away(102, True)
    hand = table.deal(b"away")
    # Three antes in the pot, two players dealt in; the absent one is not.
    assert hand.pot == 30
    assert [s.in_round for s in hand.seats] == [True, True, False]
    assert hand.seats[2].stack == 90
    play_out(hand, call=False)
    assert sum(hand.stacks.values()) == 300
    replayed = Hand.replay(hand.start_json(), [a.to_json() for a in hand.actions])
    assert replayed.stacks == hand.stacks


def test_a_player_sitting_out_pays_no_ante_at_a_table() -> None:
    table = table_of(100, 100, 100, rules=Rules(blind=False, ante=10))
    table.set_away(102, True)
    hand = table.deal(b"away")
    assert hand.pot == 20 and hand.seats[2].stack == 100
