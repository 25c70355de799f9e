"""A hand's state and the questions it answers, apart from the actions that change it.

`HandState` holds everything a hand is at one moment: seats, phase, pots, the deck of the
round, the commitments, the action log and its events. Its queries only read; the rules
that decide what may happen next live in `engine.legality`, and the actions that change
the state live in `engine.hand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.cards import Card
from engine.deck import dealt_positions, opening, position_hashes
from engine.errors import BadAction, NotEnoughPlayers
from engine.events import Dealt, Event, RoundStarted, Shown
from engine.rules import MAX_CHIPS, Rules
from engine.scoring import score
from engine.state import Phase, SeatIn, SeatState


class HandState:
    """A hand's state at one moment, and what can be read from it without changing it."""

    rules: Rules
    seed: bytes
    dealer: int

    def __init__(self, rules: Rules, seats: Sequence[SeatIn], dealer: int, seed: bytes) -> None:
        if not 2 <= len(seats) <= rules.max_seats:
            raise NotEnoughPlayers(len(seats)) if len(seats) < 2 else BadAction("too many seats")
        if not 0 <= dealer < len(seats):
            raise BadAction(f"dealer seat {dealer} does not exist")
        if len({s.player for s in seats}) != len(seats):
            raise BadAction("a player is seated twice")
        if any(not 0 <= s.stack <= MAX_CHIPS for s in seats):
            raise BadAction("a stack is out of range")
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self._start = [SeatIn(s.player, s.stack, s.sitting_out, s.timeouts) for s in seats]
        self.seats = [SeatState(s.player, s.stack, s.sitting_out, s.timeouts) for s in seats]
        self.phase = Phase.BLIND
        self.round_no = 0
        self.deck: tuple[Card, ...] = ()
        self.commitments: list[str] = []
        self.dead = 0
        """Chips of this round every player still in may win: antes, svara pot and stakes."""
        self.queued: list[tuple[int, tuple[int, ...]]] = []
        """Tied pots waiting for their svara, main pot first: (amount, tied seats)."""
        self.to_act: int | None = None
        self.need: set[int] = set()
        self.opened = False
        self.last_blind = 0
        self.blind_seat: int | None = None
        self.stake = 0
        self.tied: tuple[int, ...] = ()
        self.pending: set[int] = set()
        self.dealer_keeps = False
        self.actions: list[Action] = []
        self.events: list[Event] = []

    def start_json(self) -> dict[str, Any]:
        """What `replay` needs, besides the actions: rules, seats, dealer and seed."""
        return {
            "rules": self.rules.to_json(),
            "seats": [
                {"player": s.player, "stack": s.stack, "sitting_out": s.sitting_out,
                 "timeouts": s.timeouts}
                for s in self._start
            ],
            "dealer": self.dealer,
            "seed": self.seed.hex(),
        }

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def pot(self) -> int:
        """All chips now in the middle: this round's and any svara still waiting."""
        return self.dead + sum(s.committed for s in self.seats) + sum(a for a, _ in self.queued)

    @property
    def round_pot(self) -> int:
        """The pot of this round alone: in a svara, that svara's pot, not the ones waiting."""
        return self.dead + sum(s.committed for s in self.seats)

    @property
    def stacks(self) -> dict[int, int]:
        return {s.player: s.stack for s in self.seats}

    @property
    def level(self) -> int:
        """The highest total anyone has put in this round."""
        return max(s.committed for s in self.seats)

    @property
    def commitment(self) -> str:
        return self.commitments[-1] if self.commitments else ""

    def seat_of(self, player: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player == player:
                return i
        return None

    def cards(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards in the current round (empty before the deal)."""
        return self.seats[seat].cards

    def points(self, seat: int) -> int | None:
        cards = self.seats[seat].cards
        return score(cards, self.rules.scoring) if cards else None

    def in_play(self, seat: int) -> bool:
        """Dealt into this round and not folded."""
        s = self.seats[seat]
        return s.in_round and not s.folded

    def order_after(self, seat: int) -> list[int]:
        """All seats clockwise, starting left of `seat` and ending with it."""
        n = len(self.seats)
        return [(seat + k) % n for k in range(1, n + 1)]

    def reveal(self) -> list[dict[str, Any]] | None:
        """After the hand, per round: the commitment (root), every position hash, and the
        opening (position, card, salt) of each card shown at the showdown; nothing else."""
        if not self.is_over:
            return None
        dealt: dict[int, tuple[int, ...]] = {}
        shown: dict[int, list[int]] = {}
        round_no = 0
        for e in self.events:
            if isinstance(e, RoundStarted):
                round_no = e.round_no
            elif isinstance(e, Dealt):
                dealt[e.round_no] = e.seats
            elif isinstance(e, Shown):
                shown.setdefault(round_no, []).extend(dealt_positions(dealt[round_no], e.seat))
        out: list[dict[str, Any]] = []
        for r, c in enumerate(self.commitments, start=1):
            opened = [list(opening(self.seed, r, p)) for p in sorted(shown.get(r, ()))]
            out.append({"round": r, "commitment": c, "hashes": position_hashes(self.seed, r),
                        "open": opened})
        return out

    def openings(self, seat: int) -> tuple[tuple[int, str, str], ...]:
        """(position, card, salt) of a seat's cards in this round: his proof that they were
        fixed before the deal (empty before the deal or if he was not dealt in)."""
        dealt = next((e for e in reversed(self.events)
                      if isinstance(e, Dealt) and e.round_no == self.round_no), None)
        if dealt is None or seat not in dealt.seats:
            return ()
        return tuple(opening(self.seed, self.round_no, p)
                     for p in dealt_positions(dealt.seats, seat))

    def result(self) -> dict[str, Any]:
        """After the hand: final stacks, who leaves, who deals next, and the timeouts in a
        row of the players whose count this hand changed (the others keep theirs: one who
        came back during the hand keeps his fresh start)."""
        return {
            "stacks": self.stacks,
            "timeouts": {s.player: s.timeouts for s, st in zip(self.seats, self._start, strict=True)
                         if s.timeouts != st.timeouts},
            "leaving": [s.player for s in self.seats if s.leaving],
            "dealer_keeps_deal": self.dealer_keeps,
            "net": {
                s.player: s.stack - st.stack
                for s, st in zip(self.seats, self._start, strict=True)
            },
        }
