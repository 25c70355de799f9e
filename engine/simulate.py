"""Random legal play, for property tests, benchmarks and crash tests."""

from __future__ import annotations

import random

from engine.actions import Act, Action
from engine.hand import Hand
from engine.state import Phase


def random_action(hand: Hand, rng: random.Random) -> Action:
    """A random action among those `hand` allows now (never raises on a live hand)."""
    if hand.phase is Phase.SVARA_JOIN:
        if rng.random() < 0.15:
            return Action(Act.CLOSE_SVARA)
        seat = rng.choice(sorted(hand.pending))
        return Action(rng.choice((Act.JOIN_SVARA, Act.SKIP_SVARA)), seat)
    legal = hand.legal()
    assert legal is not None, "a live hand always has someone to act"
    seat = legal.seat
    roll = rng.random()
    if roll < 0.03:
        return Action(Act.TIMEOUT, seat)
    if roll < 0.05 and not hand.seats[seat].leaving:
        return Action(Act.LEAVE, seat)
    if legal.blind is not None:
        if rng.random() < 0.4:
            return Action(Act.NO_BLIND, seat)
        return Action(Act.BLIND, seat, rng.randint(*legal.blind))
    choices: list[Action] = [Action(Act.FOLD, seat)]
    if legal.call is not None:
        choices += [Action(Act.CALL, seat)] * 3
    if legal.raise_to is not None:
        low, high = legal.raise_to
        choices += [Action(Act.RAISE, seat, low), Action(Act.RAISE, seat, rng.randint(low, high))]
    if legal.all_in is not None and rng.random() < 0.2:
        choices.append(Action(Act.ALL_IN, seat))
    return rng.choice(choices)
