"""The rules of RULES.md §3-§5 told as hands, one story per rule."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    Act,
    BadAmount,
    CannotCall,
    Limit,
    NotYourTurn,
    Phase,
    Rules,
    TieRule,
    WrongPhase,
)
from engine.events import ChipMove, PotWon, SvaraOpened
from tests.engine.story import Story, seed_where

FOUR = [1000, 1000, 1000, 1000]


def test_antes_go_in_and_a_short_stack_sits_the_hand_out() -> None:
    story = Story([1000, 1000, 5, 1000])
    assert story.hand.pot == 30
    assert story.stack("vera") == 5
    assert not story.hand.in_play(2)
    assert [e.reason for e in story.log if isinstance(e, ChipMove)] == ["ante"] * 3


def test_blind_chain_of_three() -> None:
    story = Story(FOUR)  # ana deals: boris, vera, georgi, then ana
    assert story.to_act == "boris"
    legal = story.hand.legal()
    assert legal is not None and legal.blind == (10, 100)  # ante .. ten antes
    story.do("boris", Act.BLIND, 15)
    legal = story.hand.legal()
    assert legal is not None and legal.blind == (30, 30)  # exactly double
    with pytest.raises(BadAmount):
        story.do("vera", Act.BLIND, 40)
    story.do("vera", Act.BLIND, 30)
    story.do("georgi", Act.BLIND, 60)
    events = story.do("ana", Act.NO_BLIND)
    assert "dealt" in story.kinds(events)
    # The first to act is after the last blind; the first bet doubles the last blind.
    assert story.to_act == "ana"
    legal = story.hand.legal()
    assert legal is not None and legal.call is None and legal.raise_to is not None
    assert legal.raise_to[0] == 120 and legal.opening
    with pytest.raises(CannotCall):
        story.do("ana", Act.CALL)
    story.do("ana", Act.RAISE, 120)
    # A blind bettor pays the difference to stay in.
    legal = story.hand.legal()
    assert story.to_act == "boris" and legal is not None and legal.call == 105
    story.do("boris", Act.CALL)
    story.do("vera", Act.FOLD)
    story.do("georgi", Act.CALL)
    assert story.hand.is_over
    assert sum(e.amount for e in story.log if isinstance(e, PotWon)) == 40 + 120 * 3 + 30


def test_dealer_wins_when_nobody_bets_and_deals_again() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    assert story.to_act == "boris"
    story.do("boris", Act.FOLD)
    story.do("vera", Act.FOLD)
    assert story.hand.is_over
    assert story.stack("ana") == 1020
    assert story.hand.result()["dealer_keeps_deal"] is True


def test_the_last_blind_wins_when_nobody_bets_after_the_deal() -> None:
    story = Story([1000, 1000, 1000])
    story.do("boris", Act.BLIND, 10)
    story.do("vera", Act.NO_BLIND)
    assert story.to_act == "vera"
    story.do("vera", Act.FOLD)
    story.do("ana", Act.FOLD)
    assert story.hand.is_over
    assert story.stack("boris") == 1020  # his blind comes back, the antes are his
    assert story.hand.result()["dealer_keeps_deal"] is False


def test_a_bet_must_be_at_least_the_ante_and_a_raise_goes_up_by_the_ante() -> None:
    story = Story([1000, 1000], rules=Rules(blind=False))
    with pytest.raises(BadAmount):
        story.do("boris", Act.RAISE, 5)
    story.do("boris", Act.RAISE, 10)
    legal = story.hand.legal()
    assert legal is not None and legal.call == 10 and legal.raise_to == (20, 990)


def test_nothing_changes_when_an_action_is_refused() -> None:
    story = Story(FOUR)
    before = story.hand.to_json()
    for act, name, amount in [
        (Act.BLIND, "vera", 10),
        (Act.FOLD, "boris", None),
        (Act.BLIND, "boris", 5000),
        (Act.JOIN_SVARA, "boris", None),
    ]:
        with pytest.raises((NotYourTurn, WrongPhase, BadAmount)):
            story.do(name, act, amount)
    assert story.hand.to_json() == before


def tie_between(a: int, b: int, others: tuple[int, ...] = ()) -> Callable[[dict[int, int]], bool]:
    def wanted(points: dict[int, int]) -> bool:
        return points[a] == points[b] > max(
            [p for s, p in points.items() if s not in (a, b)], default=0
        ) and all(points[o] < points[a] for o in others)

    return wanted


def test_svara_with_two_joiners() -> None:
    # ana deals; boris and vera tie; georgi and ana fold, then both pay to join the svara.
    order = [1, 2, 3, 0]
    seed = seed_where(order, tie_between(1, 2))
    story = Story(FOUR, rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("vera", Act.CALL)
    story.do("georgi", Act.FOLD)
    events = story.do("ana", Act.FOLD)
    opened = next(e for e in events if isinstance(e, SvaraOpened))
    assert opened.pot == 60 and opened.tied == (1, 2) and opened.stake == 30
    assert opened.can_join == (3, 0)
    assert story.hand.phase is Phase.SVARA_JOIN
    legal = story.hand.legal(3)
    assert legal is not None and legal.svara_stake == 30
    story.do("georgi", Act.JOIN_SVARA)
    story.do("ana", Act.JOIN_SVARA)
    # Same dealer, no ante: the svara is played by four for a pot of 120.
    assert story.hand.phase in (Phase.BLIND, Phase.BETTING)
    assert story.hand.pot == 120 and story.hand.round_no == 2
    assert story.stack("boris") == 980 and story.stack("georgi") == 960


def test_svara_that_ties_again() -> None:
    order = [1, 0]
    seed = seed_where(order, tie_between(0, 1), then=(order, tie_between(0, 1)))
    story = Story([100, 100], rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("ana", Act.CALL)
    assert story.hand.round_no == 2 and story.hand.pot == 40
    story.do("boris", Act.RAISE, 20)
    events = story.do("ana", Act.CALL)
    opened = [e for e in events if isinstance(e, SvaraOpened)]
    assert opened and opened[0].pot == 80
    assert story.hand.round_no == 3 and not story.hand.is_over


def test_all_in_side_pots_where_only_the_main_pot_ties() -> None:
    # boris (short) and vera tie for the best hand; ana is worse. vera beats ana for the
    # side pot outright; the main pot becomes a svara of boris and vera.
    order = [1, 2, 0]

    def wanted(points: dict[int, int]) -> bool:
        return points[1] == points[2] > points[0]

    seed = seed_where(order, wanted)
    story = Story([1000, 60, 1000], rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.ALL_IN)  # 50 after the ante
    story.do("vera", Act.RAISE, 200)
    events = story.do("ana", Act.CALL)
    won = [e for e in events if isinstance(e, PotWon)]
    assert [(w.amount, w.winners) for w in won] == [(300, (2,))]  # side pot: 150 + 150
    opened = next(e for e in events if isinstance(e, SvaraOpened))
    assert opened.pot == 30 + 3 * 50 and opened.tied == (1, 2)
    assert story.stack("boris") == 0 and story.stack("vera") == 1090


def test_uncalled_chips_go_back() -> None:
    story = Story([1000, 100, 1000], rules=Rules(blind=False))
    story.do("boris", Act.ALL_IN)  # 90
    story.do("vera", Act.RAISE, 400)
    events = story.do("ana", Act.FOLD)
    returned = [e for e in events if isinstance(e, ChipMove) and e.reason == "return"]
    assert [(r.seat, r.delta) for r in returned] == [(2, 310)]


def test_split_variant_shares_a_tie_and_the_odd_chip_goes_left_of_the_dealer() -> None:
    order = [1, 2, 0]
    seed = seed_where(order, tie_between(1, 2))
    story = Story([1000, 1000, 1000], rules=Rules(blind=False, tie=TieRule.SPLIT), seed=seed)
    story.do("boris", Act.RAISE, 15)
    story.do("vera", Act.CALL)
    story.do("ana", Act.FOLD)
    assert story.hand.is_over  # pot 60 + ... = 30 antes + 30 = 60: even
    assert story.stack("boris") == story.stack("vera") == 1000 - 10 - 15 + 30


def test_split_odd_chip() -> None:
    order = [1, 2, 0]
    seed = seed_where(order, tie_between(1, 2))
    story = Story([1000, 1000, 1000], rules=Rules(ante=5, blind=False, tie=TieRule.SPLIT),
                  seed=seed)
    story.do("boris", Act.RAISE, 5)
    story.do("vera", Act.CALL)
    story.do("ana", Act.FOLD)  # pot 15 + 10 = 25: boris sits left of the dealer
    assert story.stack("boris") == 1000 - 10 + 13
    assert story.stack("vera") == 1000 - 10 + 12


def test_pot_limit_caps_a_raise_at_the_pot() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False, limit=Limit.POT_LIMIT))
    legal = story.hand.legal()
    assert legal is not None and legal.raise_to == (10, 30)  # the pot is three antes
    story.do("boris", Act.RAISE, 30)
    legal = story.hand.legal()
    # Vera may call 30 and raise by the pot then (30 + 30 + 30 = 90): to 120.
    assert legal is not None and legal.raise_to == (40, 120)
    assert legal.all_in is None  # her whole stack is more than the pot allows


def test_fixed_cap_limits_each_bet() -> None:
    story = Story([1000, 1000], rules=Rules(limit=Limit.FIXED_CAP, bet_cap=50))
    legal = story.hand.legal()
    assert legal is not None and legal.blind == (10, 50)
    story.do("boris", Act.NO_BLIND)
    story.do("boris", Act.RAISE, 50)
    legal = story.hand.legal()
    assert legal is not None and legal.raise_to == (60, 100)


def test_a_timeout_folds_and_a_blind_timeout_declines() -> None:
    story = Story([1000, 1000, 1000])
    story.do("boris", Act.TIMEOUT)
    assert story.hand.phase is Phase.BETTING and story.to_act == "boris"
    story.do("boris", Act.TIMEOUT)
    assert not story.hand.in_play(1)
    assert story.hand.seats[1].timeouts == 1  # the blind question does not count


def test_leaving_folds_at_once_even_out_of_turn() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))
    story.do("vera", Act.LEAVE)
    assert not story.hand.in_play(2) and story.to_act == "boris"
    story.do("boris", Act.FOLD)
    assert story.hand.is_over and story.hand.result()["leaving"] == [102]

