"""Invariants over random legal play: chips, termination, legality, JSON and replay."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Act, Action, GameError, Hand, Legal, Limit, Phase, Rules, SeatIn, TieRule
from engine.simulate import random_action

MAX_STEPS = 2000


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    n = draw(st.integers(2, 10))
    ante = draw(st.sampled_from([1, 5, 10]))
    stacks = draw(st.lists(st.integers(ante, 80 * ante), min_size=n, max_size=n))
    rules = Rules(
        ante=ante,
        blind=draw(st.booleans()),
        limit=draw(st.sampled_from(list(Limit))),
        tie=draw(st.sampled_from(list(TieRule))),
    )
    seats = [SeatIn(7000 + i, s) for i, s in enumerate(stacks)]
    dealer = draw(st.integers(0, n - 1))
    seed = draw(st.binary(min_size=1, max_size=16))
    return Hand.start(rules, seats, dealer, seed)


def offered(hand: Hand) -> list[Action]:
    """Every action the legal-moves query offers right now."""
    if hand.phase is Phase.SVARA_JOIN:
        out = [Action(Act.CLOSE_SVARA)]
        for seat in sorted(hand.pending):
            out += [Action(Act.JOIN_SVARA, seat), Action(Act.SKIP_SVARA, seat)]
        return out
    legal = hand.legal()
    assert isinstance(legal, Legal)
    seat = legal.seat
    out = [Action(Act.TIMEOUT, seat)]
    if legal.blind is not None:
        out += [Action(Act.NO_BLIND, seat)]
        out += [Action(Act.BLIND, seat, a) for a in set(legal.blind)]
        return out
    out.append(Action(Act.FOLD, seat))
    if legal.call is not None:
        out.append(Action(Act.CALL, seat))
    if legal.raise_to is not None:
        out += [Action(Act.RAISE, seat, a) for a in set(legal.raise_to)]
    if legal.all_in is not None:
        out += [Action(Act.ALL_IN, seat), Action(Act.RAISE, seat, legal.all_in)]
    return out


def total(hand: Hand) -> int:
    return sum(hand.stacks.values()) + hand.pot


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(), seed=st.integers(0, 2**32))
def test_random_legal_play(hand: Hand, seed: int) -> None:
    rng = random.Random(seed)
    chips = sum(s.stack for s in hand.seats) + hand.pot
    start = hand.start_json()
    steps = 0
    while not hand.is_over:
        # Every offered action applies (on a copy), and the chosen one is among them.
        for action in offered(hand):
            copy = Hand.from_json(hand.to_json())
            copy.apply(action)
            assert total(copy) == chips
        before = hand.to_json()
        # A random, probably illegal, action raises and changes nothing.
        junk = _junk(rng, len(hand.seats))
        if junk not in offered(hand) and junk.act is not Act.LEAVE:
            try:
                hand.apply(junk)
            except GameError:
                assert hand.to_json() == before
            else:
                hand = Hand.from_json(before)  # it was legal after all; undo it
        hand.apply(random_action(hand, rng))
        assert total(hand) == chips
        assert all(s.stack >= 0 for s in hand.seats)
        # The state survives JSON, and replays from its start and actions.
        snapshot = hand.to_json()
        assert Hand.from_json(snapshot).to_json() == snapshot
        replayed = Hand.replay(start, [a.to_json() for a in hand.actions])
        assert replayed.to_json() == snapshot
        steps += 1
        assert steps < MAX_STEPS, "the hand must end"
    assert hand.pot == 0
    assert sum(hand.result()["net"].values()) == 0


def _junk(rng: random.Random, seats: int) -> Action:
    act = rng.choice(list(Act))
    seat = None if act is Act.CLOSE_SVARA else rng.randrange(seats)
    amount = rng.choice([1, 5, 10, 33, 10**6]) if act in (Act.BLIND, Act.RAISE) else None
    return Action(act, seat, amount)


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
