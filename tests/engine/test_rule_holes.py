"""Rules the engine once got wrong, each told as the smallest hand that shows it."""

from __future__ import annotations

import pytest

from engine import Act, Action, GameError, Hand, Limit, Phase, Rules
from engine.events import Dealt, RoundStarted, SvaraOpened
from engine.table import Table
from tests.engine.story import Story, seed_where
from tests.engine.test_stories import tie_between

# --------------------------------------------------------------------- item 1


def test_item1_blind_chain_ends_after_one_round_even_if_first_blinder_left() -> None:
    story = Story([1000, 1000, 1000])  # ana deals: boris, vera, then ana
    story.do("boris", Act.BLIND, 10)
    story.do("boris", Act.LEAVE)
    assert story.to_act == "vera"
    story.do("vera", Act.BLIND, 20)
    events = story.do("ana", Act.BLIND, 40)
    # Back round at vera, who has blinded already: the chain is over and the cards are out.
    assert [e for e in events if isinstance(e, Dealt)] == [Dealt(1, (2, 0))]
    assert story.hand.phase is Phase.BETTING
    assert story.to_act == "vera"
    legal = story.hand.legal()
    assert legal is not None and legal.blind is None and legal.raise_to == (80, 990)


def test_item1_a_chain_that_goes_round_with_everyone_in_ends_at_the_first_blinder() -> None:
    story = Story([1000, 1000, 1000])
    story.do("boris", Act.BLIND, 10)
    story.do("vera", Act.BLIND, 20)
    events = story.do("ana", Act.BLIND, 40)
    assert [e for e in events if isinstance(e, Dealt)] == [Dealt(1, (1, 2, 0))]
    assert story.to_act == "boris"


# --------------------------------------------------------------------- item 2


def three_way_tie_with_a_side_pot() -> Story:
    """ana 1000, boris 1000, vera 50: all three tie; the main pot (150) is a three-way
    svara and the side pot (120, ana and boris) waits for its own."""
    order = [1, 2, 0]
    seed = seed_where(order, lambda p: p[0] == p[1] == p[2])
    story = Story([1000, 1000, 50], rules=Rules(blind=False, limit=Limit.POT_LIMIT), seed=seed)
    story.do("boris", Act.RAISE, 30)
    story.do("vera", Act.ALL_IN)  # 40
    story.do("ana", Act.RAISE, 100)
    story.do("boris", Act.CALL)
    return story


def test_item2_pot_limit_inside_a_svara_counts_only_that_svaras_pot() -> None:
    story = three_way_tie_with_a_side_pot()
    hand = story.hand
    assert hand.round_no == 2 and hand.phase is Phase.BETTING
    assert story.to_act == "boris"
    assert hand.pot == 150 + 120  # every chip in the middle, the waiting pot too
    legal = hand.legal()
    # Nothing bet yet in this svara: a bet may be as large as this svara's pot, 150.
    assert legal is not None and legal.raise_to == (10, 150)
    with pytest.raises(GameError):
        story.do("boris", Act.RAISE, 151)
    story.do("boris", Act.RAISE, 150)
    legal = hand.legal()
    # Ana calls 150 and raises by the pot then (150 + 150 + 150): to 600.
    assert legal is not None and legal.raise_to == (160, 600)


def test_item2_the_round_start_shows_the_svaras_own_pot() -> None:
    story = three_way_tie_with_a_side_pot()
    rounds = [e for e in story.log if isinstance(e, RoundStarted)]
    assert [(r.round_no, r.pot) for r in rounds] == [(1, 30), (2, 150)]


# --------------------------------------------------------------------- item 3


def svara_window() -> Story:
    order = [1, 2, 0]
    seed = seed_where(order, tie_between(1, 2))
    story = Story([1000, 1000, 1000], rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("vera", Act.CALL)
    story.do("ana", Act.FOLD)
    assert story.hand.phase is Phase.SVARA_JOIN and story.hand.pending == {0}
    return story


@pytest.mark.parametrize(
    "action",
    [
        Action(Act.FOLD, 0), Action(Act.TIMEOUT, 0), Action(Act.CALL, 0),
        Action(Act.RAISE, 0, 20), Action(Act.ALL_IN, 0), Action(Act.BLIND, 0, 10),
        Action(Act.NO_BLIND, 0), Action(Act.FOLD, 1), Action(Act.TIMEOUT, 1),
    ],
    ids=lambda a: f"{a.act}-{a.seat}",
)
def test_item3_svara_join_window_takes_only_join_and_skip(action: Action) -> None:
    story = svara_window()
    hand = story.hand
    legal = hand.legal(0)
    assert legal is not None and legal.svara_stake == 25 and not legal.fold
    before = hand.to_json()
    assert not hand.can(action)
    with pytest.raises(GameError):
        hand.apply(action)
    assert hand.to_json() == before
    # What the window does take still works.
    assert hand.can(Action(Act.SKIP_SVARA, 0)) and hand.can(Action(Act.JOIN_SVARA, 0))
    assert hand.can(Action(Act.CLOSE_SVARA)) and hand.can(Action(Act.LEAVE, 0))


# --------------------------------------------------------------------- item 4


def test_item4_a_seated_player_sitting_out_with_chips_may_join_a_svara() -> None:
    # ana deals; vera sits out; boris and georgi tie, ana folded.
    order = [1, 3, 0]
    seed = seed_where(order, tie_between(1, 3))
    story = Story([1000, 1000, 1000, 1000], rules=Rules(blind=False), seed=seed, away=[2])
    assert not story.hand.in_play(2)
    story.do("boris", Act.RAISE, 10)
    story.do("georgi", Act.CALL)
    events = story.do("ana", Act.FOLD)
    opened = next(e for e in events if isinstance(e, SvaraOpened))
    assert opened.tied == (1, 3) and opened.stake == 25
    assert opened.can_join == (2, 0)
    legal = story.hand.legal(2)
    assert legal is not None and legal.svara_stake == 25
    story.do("vera", Act.JOIN_SVARA)
    story.do("ana", Act.SKIP_SVARA)
    assert story.hand.round_no == 2 and story.hand.in_play(2)
    assert story.stack("vera") == 975 and story.hand.pot == 75


def test_item4_a_player_who_leaves_or_cannot_pay_the_stake_may_not_join() -> None:
    order = [1, 3, 0]
    seed = seed_where(order, tie_between(1, 3))
    story = Story([1000, 1000, 20, 1000, 1000], rules=Rules(blind=False), seed=seed,
                  away=[2, 4])
    story.do("dora", Act.LEAVE)
    story.do("boris", Act.RAISE, 10)
    story.do("georgi", Act.CALL)
    events = story.do("ana", Act.FOLD)
    opened = next(e for e in events if isinstance(e, SvaraOpened))
    assert opened.can_join == (0,)  # vera's 20 cannot pay 25; dora is leaving


# --------------------------------------------------------------------- item 5


def play_out(hand: Hand) -> None:
    """Everyone left folds (the last one standing takes the pot)."""
    while not hand.is_over:
        legal = hand.legal()
        assert legal is not None
        hand.apply(Action(Act.NO_BLIND if legal.blind else Act.FOLD, legal.seat))


def three_at_a_table() -> Table:
    table = Table(Rules())
    for i in range(3):
        table.sit(100 + i, 1000)
    return table


def test_item5_a_blind_timeout_is_no_blind_and_one_slow_hand_counts_once() -> None:
    table = three_at_a_table()
    hand = table.deal(b"x")
    slow = hand.to_act
    assert slow is not None
    hand.apply(Action(Act.TIMEOUT, slow))  # the blind question: simply no blind
    assert hand.seats[slow].timeouts == 0
    assert hand.phase is Phase.BETTING and hand.to_act == slow
    hand.apply(Action(Act.TIMEOUT, slow))  # his turn: folded, one timeout
    play_out(hand)
    table.settle(hand)
    seat = table.seats[slow]
    assert seat.timeouts == 1 and not seat.sitting_out
    assert table.deal(b"y").in_play(slow)


def first_to_act_is_ana(table: Table, seed: bytes) -> Hand:
    """Deal with the button on the last seat, so that the first seat (ana) acts first."""
    table.dealer_pos, table.keep_deal, table.dealer_gone = 1, False, False
    hand = table.deal(seed)
    assert hand.dealer == 2 and hand.to_act == 0
    return hand


def play(hand: Hand, *, ana_times_out: bool) -> None:
    """Everyone folds; ana times out on her turn (never on the blind question) if told so."""
    while not hand.is_over:
        legal = hand.legal()
        assert legal is not None
        if legal.seat == 0 and legal.blind is None and ana_times_out:
            hand.apply(Action(Act.TIMEOUT, 0))
        else:
            hand.apply(Action(Act.NO_BLIND if legal.blind else Act.FOLD, legal.seat))


def test_item5_turn_timeouts_in_two_hands_in_a_row_sit_a_player_out() -> None:
    table = three_at_a_table()
    for n, seed in enumerate((b"a", b"b")):
        hand = first_to_act_is_ana(table, seed)
        play(hand, ana_times_out=True)
        table.settle(hand)
        assert table.seats[0].timeouts == n + 1
        assert table.seats[0].sitting_out == (n == 1)
    assert not table.deal(b"c").in_play(0)


def test_item5_a_hand_without_a_timeout_breaks_the_streak() -> None:
    table = three_at_a_table()
    for n, seed in enumerate((b"a", b"b", b"c")):
        hand = first_to_act_is_ana(table, seed)
        play(hand, ana_times_out=n != 1)
        table.settle(hand)
        assert table.seats[0].timeouts == [1, 0, 1][n]
    assert not table.seats[0].sitting_out


# --------------------------------------------------------------------- item 18


def test_item18_im_back_during_a_hand_is_not_undone_when_the_hand_ends() -> None:
    table = three_at_a_table()
    for seed in (b"a", b"b"):
        hand = first_to_act_is_ana(table, seed)
        play(hand, ana_times_out=True)
        table.settle(hand)
    assert table.seats[0].sitting_out and table.seats[0].timeouts == 2
    hand = table.deal(b"c")
    assert not hand.in_play(0)
    table.set_away(100, False)  # "I'm back", pressed while the hand runs
    play(hand, ana_times_out=False)
    assert 100 not in hand.result()["timeouts"]
    table.settle(hand)
    assert not table.seats[0].sitting_out and table.seats[0].timeouts == 0
    assert table.deal(b"d").in_play(0)
