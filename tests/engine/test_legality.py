"""What a player is offered and why an action is refused (RULES.md §3), as he meets them."""

from __future__ import annotations

import pytest

from engine import Act, Action, GameError, Limit, Phase, Rules
from engine.errors import BadAmount, NotInHand, NotYourTurn, WrongPhase
from tests.engine.story import Story, seed_where
from tests.engine.test_stories import tie_between


def refusal(story: Story, name: str | None, act: Act, amount: int | None = None) -> GameError:
    with pytest.raises(GameError) as caught:
        story.do(name, act, amount)
    return caught.value


def test_the_player_to_act_is_told_it_is_his_move_in_the_blind_and_after_the_deal() -> None:
    story = Story([1000, 1000, 1000])  # ana deals; boris may blind first
    legal = story.hand.legal()
    assert legal is not None
    assert (legal.seat, legal.phase, legal.blind) == (1, Phase.BLIND, (10, 100))
    story.do("boris", Act.NO_BLIND)
    legal = story.hand.legal()
    assert legal is not None and (legal.seat, legal.phase) == (1, Phase.BETTING)
    assert legal.raise_to == (10, 990) and legal.call is None


def test_a_seat_beyond_the_table_is_offered_nothing_and_refused_as_not_playing() -> None:
    story = Story([1000, 1000, 1000])
    assert story.hand.legal(3) is None
    assert story.hand.legal(-1) is None
    with pytest.raises(NotInHand) as caught:
        story.hand.apply(Action(Act.FOLD, 3))
    assert caught.value.params == {"seat": 3}


def test_acting_out_of_turn_is_refused_as_not_your_turn_naming_the_seat() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    with pytest.raises(NotYourTurn) as caught:
        story.do("vera", Act.FOLD)
    assert str(caught.value) == "It is not your turn." and caught.value.params == {"seat": 2}


def test_a_player_who_folded_is_told_he_is_no_longer_in_the_hand() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    story.do("boris", Act.FOLD)
    with pytest.raises(NotInHand) as caught:
        story.do("boris", Act.RAISE, 20)
    assert str(caught.value) == "You are not playing this hand."
    assert caught.value.params == {"seat": 1}


def test_leaving_twice_is_refused_naming_the_seat() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    story.do("vera", Act.LEAVE)
    with pytest.raises(NotInHand) as caught:
        story.do("vera", Act.LEAVE)
    assert caught.value.params == {"seat": 2}


def test_a_blind_outside_its_range_is_refused_with_the_range_and_the_amount() -> None:
    story = Story([1000, 1000, 1000])
    err = refusal(story, "boris", Act.BLIND, 101)
    assert isinstance(err, BadAmount)
    assert str(err) == "The amount must be between 10 and 100 (got 101)."


def test_a_raise_outside_its_range_is_refused_with_the_range_and_the_amount() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    story.do("boris", Act.RAISE, 20)
    err = refusal(story, "vera", Act.RAISE, 25)
    assert isinstance(err, BadAmount)
    assert str(err) == "The amount must be between 30 and 990 (got 25)."


@pytest.mark.parametrize(("act", "amount", "word"), [(Act.CALL, None, "call"),
                                                     (Act.FOLD, None, "fold"),
                                                     (Act.RAISE, 20, "raise")])
def test_betting_in_the_blind_phase_is_refused_by_name(act: Act, amount: int | None,
                                                       word: str) -> None:
    story = Story([1000, 1000, 1000])
    err = refusal(story, "boris", act, amount)
    assert isinstance(err, WrongPhase) and err.params == {"action": act.value}
    assert str(err) == f"You cannot {act.value} now."
    assert word in str(err)


@pytest.mark.parametrize("act", [Act.BLIND, Act.NO_BLIND])
def test_a_blind_after_the_deal_is_refused_by_name(act: Act) -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    err = refusal(story, "boris", act, 10 if act is Act.BLIND else None)
    assert isinstance(err, WrongPhase) and str(err) == f"You cannot {act.value} now."


@pytest.mark.parametrize("act", [Act.JOIN_SVARA, Act.SKIP_SVARA])
def test_joining_a_svara_when_there_is_none_is_refused_by_name(act: Act) -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    err = refusal(story, "boris", act)
    assert isinstance(err, WrongPhase) and str(err) == f"You cannot {act.value} now."


def svara_join_window() -> Story:
    """ana deals; boris and vera tie after georgi and ana fold: both may pay to join."""
    seed = seed_where([1, 2, 3, 0], tie_between(1, 2))
    story = Story([1000, 1000, 1000, 1000], rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("vera", Act.CALL)
    story.do("georgi", Act.FOLD)
    story.do("ana", Act.FOLD)
    assert story.hand.phase is Phase.SVARA_JOIN
    return story


def test_a_player_who_may_join_a_svara_is_offered_its_stake_in_the_join_window() -> None:
    story = svara_join_window()
    legal = story.hand.legal(3)
    # The tied pot: four antes and two bets of 10, 60, halved between the two tied players.
    assert legal is not None
    assert (legal.seat, legal.phase, legal.svara_stake) == (3, Phase.SVARA_JOIN, 30)
    assert story.hand.legal(1) is None


def test_betting_in_the_svara_join_window_is_refused_by_name() -> None:
    story = svara_join_window()
    err = refusal(story, "georgi", Act.RAISE, 20)
    assert isinstance(err, WrongPhase) and str(err) == "You cannot raise now."


def test_a_player_who_holds_exactly_the_smallest_blind_may_still_blind_it() -> None:
    # Ante 1: boris keeps one chip after it and may put it in blind.
    story = Story([1000, 2, 1000], rules=Rules(ante=1))
    legal = story.hand.legal()
    assert legal is not None and legal.phase is Phase.BLIND and legal.seat == 1
    assert legal.blind == (1, 1)
    story2 = Story([1000, 20, 1000])  # ante 10: boris keeps exactly 10
    legal2 = story2.hand.legal()
    assert legal2 is not None and legal2.phase is Phase.BLIND and legal2.blind == (10, 10)


def test_with_a_fixed_cap_equal_to_the_ante_the_first_blind_is_the_ante() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(limit=Limit.FIXED_CAP, bet_cap=10))
    legal = story.hand.legal()
    assert legal is not None and legal.phase is Phase.BLIND and legal.blind == (10, 10)
    story.do("boris", Act.BLIND, 10)
    # Doubling it would pass the cap: the chain ends and the cards are dealt.
    assert story.hand.phase is Phase.BETTING


def test_with_a_fixed_cap_equal_to_the_ante_each_bet_is_exactly_the_ante() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False, limit=Limit.FIXED_CAP,
                                                  bet_cap=10))
    legal = story.hand.legal()
    assert legal is not None and legal.raise_to == (10, 10) and legal.all_in is None
    story.do("boris", Act.RAISE, 10)
    legal = story.hand.legal()
    assert legal is not None and legal.call == 10 and legal.raise_to == (20, 20)
    story.do("vera", Act.RAISE, 20)
    assert story.hand.level == 20


def test_a_stack_exactly_at_the_fixed_cap_may_go_all_in() -> None:
    # boris keeps 100 after the ante; one bet may add at most 100.
    story = Story([1000, 110, 1000], rules=Rules(blind=False, limit=Limit.FIXED_CAP,
                                                 bet_cap=100))
    legal = story.hand.legal()
    assert legal is not None and legal.all_in == 100 and legal.raise_to == (10, 100)
    story.do("boris", Act.ALL_IN)
    assert story.stack("boris") == 0 and story.hand.level == 100
