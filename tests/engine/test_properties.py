"""Invariants over random play: chips, termination, legality, JSON and replay.

Legality is judged by an independent referee (`tests.engine.referee`): the engine must
refuse exactly what the rules forbid, and `can` must agree with `legal` everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Act, Action, GameError, Hand, Limit, Phase, Rules, SeatIn, TieRule
from engine.simulate import random_action
from tests.engine.referee import Referee

MAX_STEPS = 2000


@st.composite
def hands(draw: st.DrawFn, blind: bool | None = None, limit: Limit | None = None) -> Hand:
    n = draw(st.integers(2, 10))
    ante = draw(st.sampled_from([1, 5, 10]))
    stacks = draw(st.lists(st.integers(ante, 80 * ante), min_size=n, max_size=n))
    rules = Rules(
        ante=ante,
        blind=draw(st.booleans()) if blind is None else blind,
        limit=draw(st.sampled_from(list(Limit))) if limit is None else limit,
        tie=draw(st.sampled_from(list(TieRule))),
    )
    seats = [SeatIn(7000 + i, s) for i, s in enumerate(stacks)]
    dealer = draw(st.integers(0, n - 1))
    seed = draw(st.binary(min_size=1, max_size=16))
    return Hand.start(rules, seats, dealer, seed)


def offered(hand: Hand, action: Action) -> bool:
    """Whether the legal-moves query offers `action` now (plus timers and leaving)."""
    act, seat, amount = action.act, action.seat, action.amount
    if act is Act.CLOSE_SVARA:
        return hand.phase is Phase.SVARA_JOIN and not hand.is_over
    assert seat is not None
    if not 0 <= seat < len(hand.seats) or hand.is_over:
        return False
    if act is Act.LEAVE:
        return not hand.seats[seat].leaving
    legal = hand.legal(seat)
    if legal is None:
        return False
    if act is Act.TIMEOUT:
        return legal.phase is not Phase.SVARA_JOIN and seat == hand.to_act
    if act in (Act.JOIN_SVARA, Act.SKIP_SVARA):
        return legal.svara_stake is not None
    if act is Act.NO_BLIND:
        return legal.blind is not None
    if act is Act.BLIND:
        assert amount is not None
        return legal.blind is not None and legal.blind[0] <= amount <= legal.blind[1]
    if act is Act.FOLD:
        return legal.fold
    if act is Act.CALL:
        return legal.call is not None
    if act is Act.ALL_IN:
        return legal.all_in is not None
    assert act is Act.RAISE and amount is not None
    in_range = legal.raise_to is not None and legal.raise_to[0] <= amount <= legal.raise_to[1]
    return in_range or amount == legal.all_in


def total(hand: Hand) -> int:
    return sum(hand.stacks.values()) + hand.pot


def check_state(hand: Hand) -> None:
    """What must hold in every state, whoever acts next."""
    referee = Referee(hand)
    if hand.phase is Phase.BLIND:
        # Never asked twice in one chain; asked only if he can cover a blind.
        assert hand.to_act not in {seat for seat, _ in referee.blinds()}
        low, high = referee.blind_range()
        assert low <= high
    if hand.phase is Phase.SVARA_JOIN:
        assert hand.pending == referee.may_join() and hand.stake == referee.svara_stake()


def walk(hand: Hand, rng: random.Random) -> Iterator[Hand]:
    """Random legal play to the end of the hand, yielding every state on the way (and
    checking chips, JSON and replay after each step)."""
    chips = total(hand)
    start = hand.start_json()
    for _ in range(MAX_STEPS):
        if hand.is_over:
            break
        check_state(hand)
        yield hand
        action = random_action(hand, rng)
        assert Referee(hand).allows(action), action
        hand.apply(action)
        assert total(hand) == chips
        assert all(s.stack >= 0 for s in hand.seats)
        snapshot = hand.to_json()
        assert Hand.from_json(snapshot).to_json() == snapshot
        replayed = Hand.replay(start, [a.to_json() for a in hand.actions])
        assert replayed.to_json() == snapshot
    assert hand.is_over, "the hand must end"
    assert hand.pot == 0
    assert sum(hand.result()["net"].values()) == 0


EVERY_TABLE = pytest.mark.parametrize(
    ("blind", "limit"), [(b, lim) for b in (True, False) for lim in Limit])
"""Each property runs for every blind and limit setting (random draws favour a few)."""


@EVERY_TABLE
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_random_play_apply_refuses_exactly_the_illegal_actions(
    blind: bool, limit: Limit, data: st.DataObject, seed: int
) -> None:
    hand = data.draw(hands(blind, limit))
    rng = random.Random(seed)
    chips = total(hand)
    for state in walk(hand, rng):
        referee = Referee(state)
        before = state.to_json()
        allowed = []
        for action in referee.candidates(rng):
            if referee.allows(action):
                allowed.append(action)
            else:
                with pytest.raises(GameError):
                    state.apply(action)
        assert state.to_json() == before, "a refused action changed the hand"
        assert allowed, "somebody can always do something"
        for action in rng.sample(allowed, min(8, len(allowed))):
            copy = Hand.from_json(before)
            copy.apply(action)  # allowed by the rules: must go through
            assert total(copy) == chips


@EVERY_TABLE
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_item3_can_is_true_exactly_for_what_legal_offers(
    blind: bool, limit: Limit, data: st.DataObject, seed: int
) -> None:
    hand = data.draw(hands(blind, limit))
    rng = random.Random(seed)
    for state in walk(hand, rng):
        for action in Referee(state).candidates(rng):
            assert state.can(action) is offered(state, action), action


@settings(max_examples=300, deadline=None)
@given(hand=hands(), seed=st.integers(0, 2**32))
def test_every_hand_ends_and_conserves_chips(hand: Hand, seed: int) -> None:
    rng = random.Random(seed)
    chips = total(hand)
    for _ in range(MAX_STEPS):
        if hand.is_over:
            break
        hand.apply(random_action(hand, rng))
    assert hand.is_over
    assert total(hand) == chips and hand.pot == 0
