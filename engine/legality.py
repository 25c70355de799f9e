"""What a player may do now, and why an action is refused (the queries behind `Hand`).

They read a `HandState` and change nothing; `engine.hand` asks them before every action.
"""

from __future__ import annotations

from engine.actions import Act, Action
from engine.errors import (
    BadAmount,
    CannotCall,
    CannotJoinSvara,
    HandOver,
    NoRaise,
    NotInHand,
    NotYourTurn,
    WrongPhase,
)
from engine.hand_state import HandState
from engine.rules import MAX_CHIPS, Limit
from engine.state import Legal, Phase, SeatState


def legal_moves(hand: HandState, seat: int | None = None) -> Legal | None:
    """What `seat` (default: the player to act) may do now, or None."""
    if seat is None:
        seat = hand.to_act
    if seat is None or not 0 <= seat < len(hand.seats):
        return None
    if hand.phase is Phase.SVARA_JOIN:
        if seat in hand.pending:
            return Legal(seat, hand.phase, svara_stake=hand.stake)
        return None
    if seat != hand.to_act:
        return None
    me = hand.seats[seat]
    if hand.phase is Phase.BLIND:
        low, high = blind_range(hand, me)
        return Legal(seat, hand.phase, blind=(low, high))
    level = hand.level
    total = me.committed + me.stack
    call = min(level - me.committed, me.stack) if hand.opened else None
    if hand.opened:
        low = level + hand.rules.ante
    else:
        low = 2 * hand.last_blind if hand.last_blind else hand.rules.ante
    cap = raise_cap(hand, me)
    high = min(cap, total)
    return Legal(
        seat,
        hand.phase,
        fold=True,
        call=call,
        raise_to=(low, high) if low <= high else None,
        all_in=total if me.stack > 0 and total <= cap else None,
        opening=not hand.opened,
    )


def raise_cap(hand: HandState, me: SeatState) -> int:
    level = hand.level
    if hand.rules.limit is Limit.POT_LIMIT:
        return level + hand.round_pot + (level - me.committed)
    step = hand.rules.max_bet_step
    if step is not None:
        return level + step
    return MAX_CHIPS


def blind_range(hand: HandState, me: SeatState) -> tuple[int, int]:
    if hand.last_blind:
        return 2 * hand.last_blind, 2 * hand.last_blind
    high = min(hand.rules.max_blind, me.stack)
    step = hand.rules.max_bet_step
    if step is not None:
        high = min(high, step)
    return hand.rules.ante, high


def can_blind(hand: HandState, seat: int) -> bool:
    me = hand.seats[seat]
    if not hand.in_play(seat) or me.stack <= 0:
        return False
    low, high = blind_range(hand, me)
    step = hand.rules.max_bet_step
    return low <= high and low <= me.stack and (step is None or low <= step)




def verify_action(hand: HandState, action: Action) -> None:
    """Raise the `GameError` that `action` would meet; return if it would apply."""
    if hand.is_over:
        raise HandOver()
    act, seat = action.act, action.seat
    if seat is not None and not 0 <= seat < len(hand.seats):
        raise NotInHand(seat)
    if act is Act.LEAVE:
        assert seat is not None
        if hand.seats[seat].leaving:
            raise NotInHand(seat)
        return
    if hand.phase is Phase.SVARA_JOIN:
        # The join window takes Join and Skip from those who may join, and its own timer.
        if act is Act.CLOSE_SVARA:
            return
        if act not in (Act.JOIN_SVARA, Act.SKIP_SVARA):
            raise WrongPhase(act.value)
        if seat not in hand.pending:
            raise CannotJoinSvara()
        return
    if act in (Act.JOIN_SVARA, Act.SKIP_SVARA, Act.CLOSE_SVARA):
        raise WrongPhase(act.value)
    legal = legal_moves(hand, seat)
    if legal is None:
        if seat is not None and not hand.in_play(seat):
            raise NotInHand(seat)
        raise NotYourTurn(seat)
    if act is Act.TIMEOUT:
        return
    if hand.phase is Phase.BLIND:
        if act is Act.BLIND:
            assert legal.blind is not None and action.amount is not None
            low, high = legal.blind
            if not low <= action.amount <= high:
                raise BadAmount(action.amount, low, high)
        elif act is not Act.NO_BLIND:
            raise WrongPhase(act.value)
        return
    if act is Act.CALL and legal.call is None:
        raise CannotCall()
    if act is Act.RAISE and action.amount != legal.all_in:
        assert action.amount is not None
        if legal.raise_to is None:
            raise NoRaise()
        if not legal.raise_to[0] <= action.amount <= legal.raise_to[1]:
            raise BadAmount(action.amount, *legal.raise_to)
    if act is Act.ALL_IN and legal.all_in is None:
        raise NoRaise()
    if act in (Act.BLIND, Act.NO_BLIND):
        raise WrongPhase(act.value)
