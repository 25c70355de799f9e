"""What a computer player is, the simplest one, and a hand played out by computer players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine.actions import Act, Action
from engine.errors import NotYourTurn
from engine.hand import Hand
from engine.state import Legal, Phase

MAX_ACTIONS = 10_000
"""A hand that needs more actions than this is a bug, not a long hand."""


class Player(Protocol):
    """Chooses one action for ``seat``, among those ``hand.legal(seat)`` offers."""

    def decide(self, hand: Hand, seat: int) -> Action: ...


def legal_for(hand: Hand, seat: int) -> Legal:
    """What ``seat`` may do now; `NotYourTurn` when he has nothing to decide."""
    legal = hand.legal(seat)
    if legal is None or hand.is_over:
        raise NotYourTurn(seat)
    return legal


class CallingStation:
    """Calls everything and never raises: the benchmark's punching bag.

    No blind; joins every svara he may; calls any bet; when nobody has bet yet he bets
    the least he may (there is no check in Svara), or all-in when that is all he can do.
    """

    def decide(self, hand: Hand, seat: int) -> Action:
        legal = legal_for(hand, seat)
        if legal.svara_stake is not None:
            return Action(Act.JOIN_SVARA, seat)
        if legal.blind is not None:
            return Action(Act.NO_BLIND, seat)
        if legal.call is not None:
            return Action(Act.CALL, seat)
        if legal.raise_to is not None:
            return Action(Act.RAISE, seat, legal.raise_to[0])
        if legal.all_in is not None:
            return Action(Act.ALL_IN, seat)
        return Action(Act.FOLD, seat)


def next_to_decide(hand: Hand) -> int | None:
    """The seat whose decision the hand waits for (the first undecided one in a svara)."""
    if hand.is_over:
        return None
    if hand.phase is Phase.SVARA_JOIN:
        return min(hand.pending) if hand.pending else None
    return hand.to_act


def play_hand(hand: Hand, players: Mapping[int, Player]) -> Hand:
    """Let ``players`` (by seat) play ``hand`` to its end; returns it."""
    for _ in range(MAX_ACTIONS):
        if hand.is_over:
            return hand
        seat = next_to_decide(hand)
        if seat is None:
            raise RuntimeError("a live hand waits for nobody")
        hand.apply(players[seat].decide(hand, seat))
    raise RuntimeError(f"the hand did not end within {MAX_ACTIONS} actions")
