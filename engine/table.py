"""The table between hands: seats in join order, stacks, sitting out, who deals next."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any

from engine.errors import GameError
from engine.hand import Hand
from engine.rules import MAX_CHIPS, Rules
from engine.state import SeatIn

TIMEOUTS_TO_SIT_OUT = 2


class TableFull(GameError):
    code = "table_full"
    template = "The table is full ({seats} seats)."

    def __init__(self, seats: int) -> None:
        super().__init__(seats=seats)


class AlreadySeated(GameError):
    code = "already_seated"
    template = "You are already at this table."


class NotSeated(GameError):
    code = "not_seated"
    template = "You are not at this table."


class HandRunning(GameError):
    code = "hand_running"
    template = "Wait for the hand to end."


class BadBuyIn(GameError):
    code = "bad_buy_in"
    template = "You can bring {low} to {high} chips to this table (asked {amount})."

    def __init__(self, amount: int, low: int, high: int) -> None:
        super().__init__(amount=amount, low=low, high=high)


@dataclass(slots=True)
class TableSeat:
    player: int
    stack: int
    sitting_out: bool = False
    timeouts: int = 0
    """Hands in a row with a turn timeout; at two the player sits out until he comes back."""


class Table:
    """Seats and the dealer button across hands. Hands themselves are `Hand` objects."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seats: list[TableSeat] = []
        self.dealer_pos: int | None = None
        """Index of the last dealer (or of the seat after him, if he left)."""
        self.dealer_gone = False
        self.keep_deal = False
        self._dealt: frozenset[int] = frozenset()
        self._in_hand = False

    @property
    def in_hand(self) -> bool:
        """A hand dealt at this table is in progress (`deal` until `settle`)."""
        return self._in_hand

    @property
    def dealt(self) -> frozenset[int]:
        """Players dealt into the hand in progress (others may stand up or top up)."""
        return self._dealt

    # ----------------------------------------------------------------- seats

    def seat(self, player: int) -> TableSeat | None:
        return next((s for s in self.seats if s.player == player), None)

    def sit(self, player: int, stack: int) -> TableSeat:
        """Take a seat with `stack` chips (the buy-in); joins the next hand."""
        if self.seat(player) is not None:
            raise AlreadySeated()
        if len(self.seats) >= self.rules.max_seats:
            raise TableFull(self.rules.max_seats)
        if not 0 <= stack <= MAX_CHIPS:
            raise BadBuyIn(stack, 0, MAX_CHIPS)
        seat = TableSeat(player, stack)
        self.seats.append(seat)
        return seat

    def stand(self, player: int) -> int:
        """Leave the table (between his hands); returns the stack to cash out."""
        seat = self.seat(player)
        if seat is None:
            raise NotSeated()
        if self.in_hand and player in self.dealt:
            raise HandRunning()
        self._remove(self.seats.index(seat))
        return seat.stack

    def top_up(self, player: int, amount: int, max_stack: int) -> int:
        """Add chips to a stack between hands, up to `max_stack`; returns the new stack."""
        seat = self.seat(player)
        if seat is None:
            raise NotSeated()
        if self.in_hand and player in self.dealt:
            raise HandRunning()
        room = max(0, max_stack - seat.stack)
        if not 1 <= amount <= room:
            raise BadBuyIn(amount, 1 if room else 0, room)
        seat.stack += amount
        return seat.stack

    def set_away(self, player: int, away: bool) -> None:
        """Sit out (away) or come back ("I'm back"); takes effect from the next hand."""
        seat = self.seat(player)
        if seat is None:
            raise NotSeated()
        seat.sitting_out = away
        seat.timeouts = 0

    def _remove(self, index: int) -> None:
        del self.seats[index]
        if self.dealer_pos is None:
            return
        if index < self.dealer_pos:
            self.dealer_pos -= 1
        elif index == self.dealer_pos:
            # The seat after the leaving dealer now has his index.
            self.dealer_gone = True
            self.keep_deal = False

    # ----------------------------------------------------------------- hands

    def players_ready(self) -> list[TableSeat]:
        """Seats that would be dealt in: present and able to pay the ante."""
        return [s for s in self.seats if not s.sitting_out and s.stack >= self.rules.ante]

    def can_deal(self) -> bool:
        return len(self.players_ready()) >= 2

    def next_dealer(self, seed: bytes) -> int:
        """The dealer of the next hand: drawn at random first, then clockwise."""
        n = len(self.seats)
        ready = {i for i, s in enumerate(self.seats)
                 if not s.sitting_out and s.stack >= self.rules.ante}
        if self.dealer_pos is None:
            draw = int.from_bytes(hashlib.sha256(b"svara-dealer|" + seed).digest()[:8], "big")
            candidates = sorted(ready) or list(range(n))
            return candidates[draw % len(candidates)]
        if self.keep_deal and not self.dealer_gone and self.dealer_pos in ready:
            return self.dealer_pos
        start = self.dealer_pos - 1 if self.dealer_gone else self.dealer_pos
        for k in range(1, n + 1):
            i = (start + k) % n
            if i in ready:
                return i
        return (start + 1) % n

    def deal(self, seed: bytes) -> Hand:
        """Start the next hand: antes are taken from the seats' stacks by the hand."""
        if self.in_hand:
            raise HandRunning()
        dealer = self.next_dealer(seed)
        seats = [SeatIn(s.player, s.stack, s.sitting_out, s.timeouts) for s in self.seats]
        hand = Hand.start(self.rules, seats, dealer, seed)
        self.dealer_pos = dealer
        self.dealer_gone = False
        self.keep_deal = False
        self._begin(hand)
        return hand

    def resume_hand(self, hand: Hand) -> None:
        """The hand in progress, rebuilt after a restart: the table is in it again."""
        if self._in_hand:
            raise HandRunning()
        self._begin(hand)

    def _begin(self, hand: Hand) -> None:
        self._in_hand = True
        self._dealt = frozenset(s.player for s in hand.seats)

    def settle(self, hand: Hand) -> list[tuple[int, int]]:
        """Take a finished hand's stacks back; returns (player, stack) of those who left."""
        if not hand.is_over:
            raise HandRunning()
        result = hand.result()
        stacks: dict[int, int] = result["stacks"]
        timeouts: dict[int, int] = result["timeouts"]
        for s in self.seats:
            if s.player in stacks:
                s.stack = stacks[s.player]
            # Only counts the hand changed: "I'm back" pressed during it is not undone.
            if s.player in timeouts:
                s.timeouts = timeouts[s.player]
                if s.timeouts >= TIMEOUTS_TO_SIT_OUT:
                    s.sitting_out = True
        self._in_hand = False
        self._dealt = frozenset()
        self.keep_deal = bool(result["dealer_keeps_deal"])
        gone = []
        for player in result["leaving"]:
            seat = self.seat(player)
            if seat is not None:
                gone.append((player, seat.stack))
                self._remove(self.seats.index(seat))
        return gone

    @classmethod
    def resume(
        cls,
        rules: Rules,
        seats: list[TableSeat],
        last_start: dict[str, Any] | None = None,
        keep_deal: bool = False,
    ) -> Table:
        """Rebuild a table between hands from its seats and the start of its last hand.

        The button goes on from the last dealer; if he has left, the first player after
        him (in the last hand's order) who is still seated takes his place in turn.
        """
        table = cls(rules)
        table.seats = seats
        if not last_start or not seats:
            return table
        order = [s["player"] for s in last_start["seats"]]
        dealer = int(last_start["dealer"])
        index = {s.player: i for i, s in enumerate(seats)}
        if order[dealer] in index:
            table.dealer_pos = index[order[dealer]]
            table.keep_deal = keep_deal
            return table
        for k in range(1, len(order)):
            player = order[(dealer + k) % len(order)]
            if player in index:
                table.dealer_pos = index[player]
                table.dealer_gone = True
                break
        return table

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "seats": [asdict(s) for s in self.seats],
            "dealer_pos": self.dealer_pos,
            "dealer_gone": self.dealer_gone,
            "keep_deal": self.keep_deal,
            "in_hand": self.in_hand,
            "dealt": sorted(self.dealt),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        table = cls(Rules.from_json(data["rules"]))
        table.seats = [TableSeat(**s) for s in data["seats"]]
        table.dealer_pos = data["dealer_pos"]
        table.dealer_gone = data["dealer_gone"]
        table.keep_deal = data["keep_deal"]
        table._in_hand = data["in_hand"]
        table._dealt = frozenset(data.get("dealt", ()))
        return table
