"""Benchmark the Svara engine, and the same measure for pokerkit's no-limit hold'em.

Run with ``python -m engine.bench``. pokerkit (the optional ``bench`` extra) is only
needed for the comparison; without it the engine figures are printed alone.

Method, the same for both libraries:

* The hands are first played once to record their actions (for Svara: random legal
  play via `engine.simulate.random_action`; for hold'em: a fixed script of checks,
  calls, bets and folds). Choosing the actions is therefore not timed.
* The timed work replays the recorded hands: create the hand (``Hand.start`` /
  ``create_state``) and apply every action, in a tight loop, with the garbage
  collector off (as `timeit` does). The work is cut into chunks of a few tens of
  milliseconds; each chunk runs repeatedly (about 1.5 s per configuration in
  all) and keeps its fastest time. The sum of those times is the figure.
* µs/action is that time divided by the actions, counting the creation of each hand as
  one action. The creation alone is also timed and shown as µs/start.
* The ratio line divides the mean of the engine's µs/action over 2, 4 and 8 players
  by the same mean for pokerkit.
"""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.errors import GameError
from engine.hand import Hand
from engine.rules import Rules
from engine.simulate import random_action
from engine.state import SeatIn

PLAYER_COUNTS = (2, 4, 8)
SEED = 20_240_601
ANTE = 10
STACK_RANGE = (200, 2000)
ENGINE_HANDS = 1000
"""Hands recorded per player count; every timing round replays all of them."""
CHUNK_HANDS = 25
"""Recorded hands per timed chunk (a few tens of milliseconds)."""
BUDGET = 1.5
"""Seconds of timed replays per configuration."""
START_BUDGET = 0.25
"""Seconds of timed hand creations alone per configuration."""
MIN_ROUNDS = 3
MAX_REFUSED = 1000
"""More random actions refused by the engine than this is a failure, not noise."""
HOLDEM_ANTE = 10
HOLDEM_BLINDS = (10, 20)
HOLDEM_STACK_RANGE = (1000, 2000)
"""Deep enough that the scripted bets never put anyone all-in."""
POKERKIT_CHUNK = 0.03
"""Target length of one timed pokerkit chunk, in seconds."""


# --------------------------------------------------------------------- timing


def best_total(chunks: Sequence[Callable[[], None]], budget: float = BUDGET) -> float:
    """Seconds the whole work of `chunks` takes, summing each chunk's fastest run.

    Rounds over all chunks repeat for about `budget` seconds (at least `MIN_ROUNDS`),
    with the garbage collector off during a round, as `timeit` does. Keeping each short
    chunk's fastest time drops the moments another process had the CPU.
    """
    best = [float("inf")] * len(chunks)
    spent = 0.0
    rounds = 0
    clock = time.perf_counter
    while rounds < MIN_ROUNDS or spent < budget:
        gc.collect()
        enabled = gc.isenabled()
        gc.disable()
        try:
            for i, chunk in enumerate(chunks):
                begin = clock()
                chunk()
                elapsed = clock() - begin
                best[i] = min(best[i], elapsed)
                spent += elapsed
        finally:
            if enabled:
                gc.enable()
        rounds += 1
    return sum(best)


@dataclass(frozen=True, slots=True)
class Figures:
    players: int
    hands: int
    """Hands in the timed work."""
    actions: int
    """Actions in the timed work, not counting the hand creations."""
    best: float
    """Seconds the timed work takes (see `best_total`)."""
    start_best: float
    """Seconds creating the same hands takes, with no actions."""

    @property
    def actions_per_hand(self) -> float:
        return self.actions / self.hands

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.best

    @property
    def us_per_action(self) -> float:
        """Creation counted as one action of each hand."""
        return self.best / (self.actions + self.hands) * 1e6

    @property
    def us_per_start(self) -> float:
        return self.start_best / self.hands * 1e6


# --------------------------------------------------------------------- engine


@dataclass(frozen=True, slots=True)
class RecordedHand:
    seats: tuple[SeatIn, ...]
    dealer: int
    seed: bytes
    actions: tuple[Action, ...]


def record_hands(
    rules: Rules, players: int, count: int, rng: random.Random
) -> tuple[list[RecordedHand], int]:
    """Play `count` random legal hands and keep what is needed to replay them.

    Also returns how many random actions the hand refused (they are drawn again).
    """
    out = []
    refused = 0
    for _ in range(count):
        seats = tuple(SeatIn(p, rng.randint(*STACK_RANGE)) for p in range(players))
        dealer = rng.randrange(players)
        seed = rng.randbytes(32)
        hand = Hand.start(rules, seats, dealer, seed)
        while not hand.is_over:
            try:
                hand.apply(random_action(hand, rng))
            except GameError:
                # `apply` changes nothing when it raises.
                refused += 1
                if refused > MAX_REFUSED:
                    raise
        out.append(RecordedHand(seats, dealer, seed, tuple(hand.actions)))
    return out, refused


def _replayer(rules: Rules, hands: Sequence[RecordedHand]) -> Callable[[], None]:
    """Start every hand of `hands` and apply its recorded actions."""
    start = Hand.start

    def run() -> None:
        for h in hands:
            apply = start(rules, h.seats, h.dealer, h.seed).apply
            for action in h.actions:
                apply(action)

    return run


def _starter(rules: Rules, hands: Sequence[RecordedHand]) -> Callable[[], None]:
    """Only start every hand of `hands`."""
    start = Hand.start

    def run() -> None:
        for h in hands:
            start(rules, h.seats, h.dealer, h.seed)

    return run


def bench_engine(players: int) -> tuple[Figures, float, int]:
    """Engine figures for `players`, hands per second when the random choice is timed
    too, and how many random actions the engine refused while recording."""
    rules = Rules(ante=ANTE)
    rng = random.Random(SEED * 10 + players)
    begin = time.perf_counter()
    hands, refused = record_hands(rules, players, ENGINE_HANDS, rng)
    with_policy = len(hands) / (time.perf_counter() - begin)

    # The replay must reach the same end as the recorded play.
    for h in hands:
        hand = Hand.start(rules, h.seats, h.dealer, h.seed)
        for action in h.actions:
            hand.apply(action)
        assert hand.is_over

    groups = [hands[i:i + CHUNK_HANDS] for i in range(0, len(hands), CHUNK_HANDS)]
    figures = Figures(
        players=players,
        hands=len(hands),
        actions=sum(len(h.actions) for h in hands),
        best=best_total([_replayer(rules, g) for g in groups]),
        start_best=best_total([_starter(rules, g) for g in groups], START_BUDGET),
    )
    return figures, with_policy, refused


# --------------------------------------------------------------------- pokerkit

RAISE, CALL, FOLD = "raise", "call", "fold"
Step = tuple[str, int]
"""One scripted hold'em action: its kind and, for a raise, the total to raise to."""


class Holdem:
    """No-limit hold'em through pokerkit, with every non-player step automated."""

    def __init__(self, pokerkit: Any, players: int, rng: random.Random) -> None:
        names = ("ANTE_POSTING", "BET_COLLECTION", "BLIND_OR_STRADDLE_POSTING", "CARD_BURNING",
                 "HOLE_DEALING", "BOARD_DEALING", "HOLE_CARDS_SHOWING_OR_MUCKING",
                 "HAND_KILLING", "CHIPS_PUSHING", "CHIPS_PULLING")
        automation: Any = pokerkit.Automation
        self._automations = tuple(getattr(automation, name) for name in names)
        self._create: Any = pokerkit.NoLimitTexasHoldem.create_state
        self.players = players
        self._stacks = tuple(rng.randint(*HOLDEM_STACK_RANGE) for _ in range(players))

    def new(self) -> Any:
        """A fresh hand: antes and blinds posted, hole cards dealt."""
        return self._create(self._automations, True, HOLDEM_ANTE, HOLDEM_BLINDS,
                            HOLDEM_BLINDS[1], self._stacks, self.players)

    def record(self) -> list[Step]:
        """Play the scripted hand once and return its actions.

        Preflop the first player raises to 60 and every third one folds; on the flop a
        check, a bet of 80, calls and some folds; the turn is checked around; on the
        river a bet of 100, one call and the rest fold.
        """
        state = self.new()
        script: list[Step] = []
        street: int | None = None
        k = 0
        while state.status:
            if state.street_index != street:
                street, k = state.street_index, 0
            alive = sum(state.statuses)
            if street == 0:
                step = (RAISE, 60) if k == 0 else (FOLD if k % 3 == 2 and alive > 2 else CALL, 0)
            elif street == 1:
                step = (RAISE, 80) if k == 1 else (FOLD if k % 4 == 3 and alive > 2 else CALL, 0)
            elif street == 2:
                step = (CALL, 0)
            else:
                step = (RAISE, 100) if k == 0 else (CALL if k == 1 else FOLD, 0)
            if step[0] == FOLD and not state.can_fold():
                step = (CALL, 0)
            self._do(state, step)
            script.append(step)
            k += 1
        return script

    @staticmethod
    def _do(state: Any, step: Step) -> None:
        kind, amount = step
        if kind == RAISE:
            state.complete_bet_or_raise_to(amount)
        elif kind == CALL:
            state.check_or_call()
        else:
            state.fold()


def bench_pokerkit(pokerkit: Any, players: int) -> Figures:
    rng = random.Random(SEED * 10 + players)
    random.seed(SEED + players)  # pokerkit shuffles with the global generator
    game = Holdem(pokerkit, players, rng)
    script = game.record()
    new = game.new

    def play() -> Any:
        state = new()
        raise_to = state.complete_bet_or_raise_to
        check_or_call = state.check_or_call
        fold = state.fold
        for kind, amount in script:
            if kind == RAISE:
                raise_to(amount)
            elif kind == CALL:
                check_or_call()
            else:
                fold()
        return state

    assert not play().status, "the scripted hand must end"
    begin = time.perf_counter()
    play()
    # Enough repetitions for a chunk of about POKERKIT_CHUNK seconds.
    reps = max(1, round(POKERKIT_CHUNK / (time.perf_counter() - begin)))
    chunks = round(BUDGET / POKERKIT_CHUNK / MIN_ROUNDS)

    def replay() -> None:
        for _ in range(reps):
            play()

    def starts_only() -> None:
        for _ in range(reps):
            new()

    return Figures(
        players=players,
        hands=reps * chunks,
        actions=reps * chunks * len(script),
        best=best_total([replay] * chunks),
        start_best=best_total([starts_only] * chunks, START_BUDGET),
    )


# --------------------------------------------------------------------- report


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def main() -> int:
    print("Svara engine: random legal hands (engine.simulate.random_action), "
          f"ante {ANTE}, stacks {STACK_RANGE[0]}-{STACK_RANGE[1]}, {ENGINE_HANDS} hands each")
    print("Timed: replay of the recorded actions (Hand.start + apply); the start counts as "
          "one action.")
    print("hands/s+policy: the recording run, random_action's choices included.")
    print(f"{'players':>7} {'act/hand':>9} {'hands/s':>9} {'hands/s+policy':>15} "
          f"{'µs/action':>10} {'µs/start':>9}")
    engine: list[Figures] = []
    refused = 0
    for players in PLAYER_COUNTS:
        fig, with_policy, refused_here = bench_engine(players)
        engine.append(fig)
        refused += refused_here
        print(f"{players:>7} {fig.actions_per_hand:>9.2f} {fig.hands_per_second:>9.0f} "
              f"{with_policy:>15.0f} {fig.us_per_action:>10.1f} {fig.us_per_start:>9.1f}")
    engine_us = _mean([f.us_per_action for f in engine])
    if refused:
        print(f"note: the engine refused {refused} action(s) drawn by random_action; "
              "they were drawn again")
    print(f"engine mean µs/action over {len(PLAYER_COUNTS)} player counts: {engine_us:.1f}")
    print()

    try:
        pokerkit: Any = importlib.import_module("pokerkit")
    except ImportError:
        print("pokerkit is not installed (pip install '.[bench]'): no comparison")
        return 0

    version = importlib.metadata.version("pokerkit")
    print(f"pokerkit {version}: scripted no-limit hold'em hand, antes {HOLDEM_ANTE}, "
          f"blinds {HOLDEM_BLINDS[0]}/{HOLDEM_BLINDS[1]}, all dealing automated")
    print("Timed: create_state + the scripted actions; the creation counts as one action.")
    print(f"{'players':>7} {'act/hand':>9} {'hands/s':>9} {'µs/action':>10} {'µs/start':>9}")
    holdem: list[Figures] = []
    for players in PLAYER_COUNTS:
        fig = bench_pokerkit(pokerkit, players)
        holdem.append(fig)
        print(f"{players:>7} {fig.actions_per_hand:>9.2f} {fig.hands_per_second:>9.0f} "
              f"{fig.us_per_action:>10.1f} {fig.us_per_start:>9.1f}")
    pokerkit_us = _mean([f.us_per_action for f in holdem])
    print(f"pokerkit mean µs/action over {len(PLAYER_COUNTS)} player counts: {pokerkit_us:.1f}")
    print()
    print(f"per-action time ratio engine/pokerkit: {engine_us / pokerkit_us:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
