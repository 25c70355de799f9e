"""A hand's whole state as JSON and back, losslessly (storage and recovery rely on it)."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.actions import Action
from engine.cards import format_hand, parse_hand
from engine.deck import shuffled_deck
from engine.events import EVENT_TYPES, Event
from engine.hand_state import HandState
from engine.rules import Rules
from engine.state import SEAT_FIELDS, Phase, SeatIn

_SCALARS = ("round_no", "dead", "to_act", "opened", "last_blind", "blind_seat", "stake",
            "dealer_keeps")

H = TypeVar("H", bound=HandState)


def hand_to_json(hand: HandState) -> dict[str, Any]:
    data: dict[str, Any] = {"start": hand.start_json(), "phase": hand.phase.value}
    data.update({k: getattr(hand, k) for k in _SCALARS})
    data.update(
        commitments=list(hand.commitments),
        queued=[[a, list(t)] for a, t in hand.queued],
        need=sorted(hand.need),
        tied=list(hand.tied),
        pending=sorted(hand.pending),
        seats=[
            {**{f: getattr(s, f) for f in SEAT_FIELDS}, "cards": format_hand(s.cards, ascii=True)}
            for s in hand.seats
        ],
        actions=[a.to_json() for a in hand.actions],
        events=[e.to_json() for e in hand.events],
    )
    return data


def hand_from_json(data: dict[str, Any], make: type[H]) -> H:
    """Restore a hand written by `hand_to_json` as a `make` (the class `Hand.from_json` is
    called on), built from its start and then given every field of the saved state."""
    start = data["start"]
    hand = make(Rules.from_json(start["rules"]), [SeatIn(**s) for s in start["seats"]],
                start["dealer"], bytes.fromhex(start["seed"]))
    hand.phase = Phase(data["phase"])
    for k in _SCALARS:
        setattr(hand, k, data[k])
    hand.deck = shuffled_deck(hand.seed, hand.round_no) if hand.round_no else ()
    hand.commitments = list(data["commitments"])
    hand.queued = [(a, tuple(t)) for a, t in data["queued"]]
    hand.need = set(data["need"])
    hand.tied = tuple(data["tied"])
    hand.pending = set(data["pending"])
    for s, d in zip(hand.seats, data["seats"], strict=True):
        for f in SEAT_FIELDS:
            setattr(s, f, d[f])
        s.cards = parse_hand(d["cards"]) if d["cards"] else ()
    hand.actions = [Action.from_json(a) for a in data["actions"]]
    hand.events = [event_from_json(e) for e in data["events"]]
    return hand


def event_from_json(data: dict[str, Any]) -> Event:
    """Read back one event written by `Event.to_json`."""
    d = dict(data)
    cls = EVENT_TYPES[d.pop("kind")]
    for key, value in d.items():
        if isinstance(value, list):
            d[key] = tuple(value)
        elif key == "cards" and isinstance(value, str):
            d[key] = parse_hand(value)
    return cls(**d)
