"""Side pots as a card-room dealer builds them (RULES.md §3.8): who may win which chips.

Every expected pot below is counted by hand from the chips each seat put in.
"""

from engine.pots import Pot, build_pots


def test_one_pot_when_everyone_matched() -> None:
    assert build_pots([20, 20, 20], [0, 1, 2]) == [Pot(60, (0, 1, 2))]


def test_a_short_all_in_makes_a_main_pot_and_a_side_pot_he_cannot_win() -> None:
    # Seat 0 is all-in for 10; seats 1 and 2 go on to 30 each.
    assert build_pots([10, 30, 30], [0, 1, 2]) == [
        Pot(30, (0, 1, 2)),
        Pot(40, (1, 2)),
    ]


def test_three_all_in_levels_make_three_pots() -> None:
    assert build_pots([5, 15, 40, 40], [0, 1, 2, 3]) == [
        Pot(20, (0, 1, 2, 3)),
        Pot(30, (1, 2, 3)),
        Pot(50, (2, 3)),
    ]


def test_chips_nobody_called_go_back_to_their_owner() -> None:
    # Seat 1 bet 50, seat 0 could only call 10: 40 of seat 1's chips were never called.
    assert build_pots([10, 50], [0, 1]) == [
        Pot(20, (0, 1)),
        Pot(40, (1,), uncalled=True),
    ]


def test_a_folded_players_chips_above_the_caller_are_won_not_returned() -> None:
    # Seat 0 put in 20 and folded; seat 1 is all-in for 10; seat 2 put in 30.
    # Seat 2 alone may win the top pot, but seat 0's 10 in it make it a real pot.
    assert build_pots([20, 10, 30], [1, 2]) == [
        Pot(30, (1, 2)),
        Pot(30, (2,)),
    ]


def test_a_folded_players_chips_count_in_every_layer_they_reach() -> None:
    # Seat 0 folded after 15; seat 1 all-in for 10; seat 2 bet 40.
    assert build_pots([15, 10, 40], [1, 2]) == [
        Pot(30, (1, 2)),
        Pot(35, (2,)),
    ]


def test_chips_folded_above_every_live_seat_go_to_the_last_pot() -> None:
    # Seat 0 put in 50 and then left; the two players still in put in 20 each.
    assert build_pots([50, 20, 20], [1, 2]) == [Pot(90, (1, 2))]


def test_chips_folded_above_a_side_pot_go_to_the_side_pot() -> None:
    assert build_pots([60, 10, 30], [1, 2]) == [
        Pot(30, (1, 2)),
        Pot(70, (2,)),
    ]


def test_dead_chips_go_to_the_main_pot() -> None:
    # Antes of 5 from three players (15) lie in the pot; seat 0 is all-in for 10.
    assert build_pots([10, 30, 30], [0, 1, 2], dead=15) == [
        Pot(45, (0, 1, 2)),
        Pot(40, (1, 2)),
    ]


def test_dead_chips_alone_make_a_pot_for_everyone_still_in() -> None:
    # A svara with no bet: only the tied pot lies on the table.
    assert build_pots([0, 0], [0, 1], dead=40) == [Pot(40, (0, 1))]


def test_a_lone_player_with_dead_chips_wins_them_rather_than_taking_them_back() -> None:
    assert build_pots([10, 0], [0], dead=30) == [Pot(40, (0,))]


def test_a_seat_that_put_nothing_in_wins_only_the_dead_chips() -> None:
    assert build_pots([0, 10, 10], [0, 1, 2], dead=15) == [
        Pot(15, (0, 1, 2)),
        Pot(20, (1, 2)),
    ]


def test_no_empty_pot_is_made() -> None:
    assert build_pots([0, 10, 10], [0, 1, 2]) == [Pot(20, (1, 2))]


def test_no_chips_no_pot() -> None:
    assert build_pots([0, 0], [0, 1]) == []


def test_eligible_seats_keep_the_showing_order() -> None:
    assert build_pots([30, 10, 30], [2, 0, 1]) == [
        Pot(30, (2, 0, 1)),
        Pot(40, (2, 0)),
    ]


def test_two_players_above_an_all_in_share_a_side_pot_they_both_called() -> None:
    pots = build_pots([10, 30, 30], [0, 1, 2])
    assert [p.uncalled for p in pots] == [False, False]


def test_every_chip_put_in_lies_in_some_pot() -> None:
    committed = [7, 0, 23, 23, 50, 3]
    pots = build_pots(committed, [0, 2, 3, 4], dead=12)
    assert sum(p.amount for p in pots) == sum(committed) + 12
    assert [p.amount for p in pots] == [7 * 4 + 3 + 12, 16 * 3, 27]
    assert [p.eligible for p in pots] == [(0, 2, 3, 4), (2, 3, 4), (4,)]
    assert [p.uncalled for p in pots] == [False, False, True]


def test_a_single_uncalled_chip_goes_back_rather_than_into_the_pot() -> None:
    assert build_pots([1, 2], [0, 1]) == [Pot(2, (0, 1)), Pot(1, (1,), uncalled=True)]


def test_a_bet_nobody_matched_goes_back_even_as_the_only_pot() -> None:
    # Seat 0 is in for nothing (all-in at zero); seat 1's 10 were never called.
    assert build_pots([0, 10], [0, 1]) == [Pot(10, (1,), uncalled=True)]
    assert build_pots([10, 0], [0]) == [Pot(10, (0,), uncalled=True)]


def test_one_dead_chip_makes_the_lone_players_pot_a_win() -> None:
    assert build_pots([10, 0], [0], dead=1) == [Pot(11, (0,))]
