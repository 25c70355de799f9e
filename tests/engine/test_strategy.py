"""The computer players: only legal moves, every hand ends, and the play each level shows."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    Act,
    Action,
    Hand,
    Limit,
    NotYourTurn,
    Phase,
    Rules,
    ScoringRules,
    SeatIn,
    TieRule,
)
from engine.events import Raise
from engine.players import CallingStation, Computer, Level, Player, next_to_decide, play_hand
from engine.table import Table

MAX_STEPS = 2000
KINDS = ["cautious", "normal", "bold", "station"]


def make(kind: str, rng: random.Random) -> Player:
    return CallingStation() if kind == "station" else Computer(Level(kind), rng)


def assert_offered(hand: Hand, action: Action) -> None:
    """``action`` is one of those ``hand.legal`` offers, and the engine takes it."""
    assert action.seat is not None
    legal = hand.legal(action.seat)
    assert legal is not None
    act, amount = action.act, action.amount
    if legal.svara_stake is not None:
        assert act in (Act.JOIN_SVARA, Act.SKIP_SVARA)
    elif legal.blind is not None:
        assert act is Act.NO_BLIND or (
            act is Act.BLIND and amount is not None and legal.blind[0] <= amount <= legal.blind[1]
        )
    elif act is Act.RAISE:
        assert legal.raise_to is not None and amount is not None
        assert legal.raise_to[0] <= amount <= legal.raise_to[1]
    else:
        assert (act is Act.FOLD and legal.fold) or (act is Act.CALL and legal.call is not None) or (
            act is Act.ALL_IN and legal.all_in is not None
        ), (action, legal)
    hand.verify(action)


def same_view_other_cards(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """A copy of ``hand`` where every other player holds other cards."""
    copy = Hand.from_json(hand.to_json())
    unseen = [c for c in CARDS if c not in hand.cards(seat)]
    rng.shuffle(unseen)
    for i, s in enumerate(copy.seats):
        if i != seat and s.cards:
            s.cards = (unseen.pop(), unseen.pop(), unseen.pop())
    return copy


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, list[int], list[str]]:
    n = draw(st.integers(2, 10))
    ante = draw(st.sampled_from([1, 2, 5, 10, 25]))
    caps = st.none() | st.integers(ante, 20 * ante)
    rules = Rules(
        ante=ante,
        blind=draw(st.booleans()),
        blind_cap=draw(caps),
        limit=draw(st.sampled_from(list(Limit))),
        bet_cap=draw(caps),
        tie=draw(st.sampled_from(list(TieRule))),
        scoring=ScoringRules(draw(st.booleans()), draw(st.booleans()), draw(st.booleans())),
    )
    # Short stacks too: a few antes make all-ins and unaffordable svaras common.
    stacks = draw(st.lists(
        st.integers(0, 3 * ante) | st.integers(ante, 150 * ante), min_size=n, max_size=n
    ))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=n, max_size=n))
    return rules, stacks, kinds


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32), hands=st.integers(1, 6))
def test_computers_play_only_legal_moves_and_every_hand_ends(
    table: tuple[Rules, list[int], list[str]], seed: int, hands: int
) -> None:
    rules, stacks, kinds = table
    rng = random.Random(seed)
    players = {1000 + i: make(kind, random.Random(seed + i)) for i, kind in enumerate(kinds)}
    game = Table(rules)
    for i, stack in enumerate(stacks):
        game.sit(1000 + i, stack)
    chips = sum(stacks)
    for number in range(hands):
        if not game.can_deal():
            break
        hand = game.deal(f"{seed}|{number}".encode())
        for _ in range(MAX_STEPS):
            if hand.is_over:
                break
            if hand.phase is Phase.SVARA_JOIN and rng.random() < 0.1:
                hand.apply(Action(Act.CLOSE_SVARA))  # the join window's clock ran out
                continue
            seat = next_to_decide(hand)
            assert seat is not None
            kind = kinds[hand.seats[seat].player - 1000]
            action = players[hand.seats[seat].player].decide(hand, seat)
            assert_offered(hand, action)
            if kind != "station" and hand.phase is Phase.BETTING:
                # What a computer does depends only on what it may see.
                check = random.Random(rng.random())
                mine = Computer(Level(kind), random.Random(7)).decide(hand, seat)
                other = same_view_other_cards(hand, seat, check)
                assert Computer(Level(kind), random.Random(7)).decide(other, seat) == mine
            hand.apply(action)
            assert sum(s.stack for s in hand.seats) + hand.pot + sum(
                s.stack for s in game.seats if s.player not in hand.stacks
            ) == chips
        assert hand.is_over, "the hand must end"
        game.settle(hand)
        assert sum(s.stack for s in game.seats) == chips


# ----------------------------------------------------------------- situations


def heads_up(
    want: Callable[[Hand], bool], rules: Rules | None = None, stacks: tuple[int, int] = (1000, 1000)
) -> Iterator[Hand]:
    """Hands of two players, seat 0 first to act after the deal, that ``want`` accepts."""
    rules = rules or Rules(blind=False)
    for n in range(5000):
        hand = Hand.start(rules, [SeatIn(1, stacks[0]), SeatIn(2, stacks[1])], 1,
                          f"situation|{n}".encode())
        if want(hand):
            yield hand


def strong(seat: int) -> Callable[[Hand], bool]:
    return lambda hand: (hand.points(seat) or 0) >= 31


def weak(seat: int) -> Callable[[Hand], bool]:
    return lambda hand: (hand.points(seat) or 99) <= 11


@pytest.mark.parametrize("level", [Level.NORMAL, Level.BOLD])
def test_a_strong_hand_bets_more_than_the_least(level: Level) -> None:
    found = 0
    for hand in heads_up(strong(0)):
        action = Computer(level, random.Random(found)).decide(hand, 0)
        legal = hand.legal(0)
        assert legal is not None and legal.raise_to is not None
        assert action.act is Act.RAISE and action.amount is not None
        assert action.amount > legal.raise_to[0]
        found += 1
        if found == 20:
            break
    assert found == 20


@pytest.mark.parametrize("level", list(Level))
def test_a_weak_hand_folds_to_a_big_bet_and_a_strong_one_does_not(level: Level) -> None:
    for want, folds in ((weak(1), True), (strong(1), False)):
        for n, hand in zip(range(20), heads_up(want), strict=False):
            hand.apply(Action(Act.RAISE, 0, 200))  # 200 into a pot of 20
            action = Computer(level, random.Random(n)).decide(hand, 1)
            assert (action.act is Act.FOLD) is folds, (hand.cards(1), action)


def test_a_short_stack_with_a_strong_hand_goes_all_in() -> None:
    for n, hand in zip(range(20), heads_up(strong(1), stacks=(1000, 60)), strict=False):
        hand.apply(Action(Act.RAISE, 0, 20))
        action = Computer(Level.NORMAL, random.Random(n)).decide(hand, 1)
        assert action.act is Act.ALL_IN


def test_blinds_by_level() -> None:
    rules = Rules(ante=10)
    def blinds(level: Level, stack: int) -> int:
        count = 0
        for n in range(200):
            hand = Hand.start(rules, [SeatIn(1, stack), SeatIn(2, stack)], 1, b"blind")
            action = Computer(level, random.Random(n)).decide(hand, 0)
            assert action.act in (Act.BLIND, Act.NO_BLIND)
            count += action.act is Act.BLIND
        return count

    assert blinds(Level.CAUTIOUS, 5000) == 0
    assert 0 < blinds(Level.NORMAL, 5000) < blinds(Level.BOLD, 5000) < 200
    # A blind of the ante is too much of a short stack's chips for anyone.
    assert blinds(Level.BOLD, 60) == 0


def svara_open(join_stack: int) -> Hand:
    """A svara of seats 0 and 1 (pot 50, stake 25) that seat 2 may join."""
    rules = Rules(blind=False)
    for n in range(2000):
        hand = Hand.start(
            rules, [SeatIn(1, 1000), SeatIn(2, 1000), SeatIn(3, join_stack)], 2,
            f"svara|{n}".encode(),
        )
        if hand.points(0) != hand.points(1):
            continue
        hand.apply(Action(Act.RAISE, 0, 10))
        hand.apply(Action(Act.CALL, 1))
        hand.apply(Action(Act.FOLD, 2))
        assert hand.phase is Phase.SVARA_JOIN and hand.stake == 25
        return hand
    raise AssertionError("no tie found")


def test_svara_joins_by_level() -> None:
    hand = svara_open(1000)
    decisions = {
        level: Computer(level, random.Random(1)).decide(hand, 2).act for level in Level
    }
    assert decisions[Level.CAUTIOUS] is Act.SKIP_SVARA
    assert decisions[Level.BOLD] is Act.JOIN_SVARA
    # 25 is more than a quarter of what is left of 100 after the ante.
    assert Computer(Level.BOLD, random.Random(1)).decide(svara_open(100), 2).act is Act.SKIP_SVARA
    assert CallingStation().decide(svara_open(100), 2).act is Act.JOIN_SVARA


def test_the_calling_station_never_folds_or_raises() -> None:
    for n in range(100):
        hand = Hand.start(Rules(), [SeatIn(p, 500) for p in range(4)], n % 4, bytes([n]))
        play_hand(hand, {i: CallingStation() for i in range(4)})
        acts = {a.act for a in hand.actions}
        assert acts <= {Act.NO_BLIND, Act.CALL, Act.RAISE, Act.JOIN_SVARA}
        raises = [a for a in hand.actions if a.act is Act.RAISE]
        # Only the first bet after each deal, at the least: the ante.
        assert all(a.amount == hand.rules.ante for a in raises)
        assert len(raises) == hand.round_no


def test_deciding_out_of_turn_is_refused_and_changes_nothing() -> None:
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 100), SeatIn(2, 100)], 1, b"turn")
    before = hand.to_json()
    for player in (Computer(Level.NORMAL, random.Random(1)), CallingStation()):
        with pytest.raises(NotYourTurn):
            player.decide(hand, 1)
    assert hand.to_json() == before


def test_same_seeds_same_play() -> None:
    def actions() -> list[Action]:
        out: list[Action] = []
        for n in range(30):
            hand = Hand.start(Rules(), [SeatIn(p, 800) for p in range(5)], n % 5, bytes([n]))
            players = {i: make(KINDS[i % 4], random.Random(f"{n}|{i}")) for i in range(5)}
            out += play_hand(hand, players).actions
        return out

    assert actions() == actions()


def test_the_computers_play_every_phase() -> None:
    acts: set[Act] = set()
    bets: set[bool] = set()
    for n in range(300):
        rng = random.Random(f"phases|{n}")
        seats = [SeatIn(p, rng.randint(40, 1500)) for p in range(4)]
        hand = Hand.start(Rules(), seats, n % 4, f"phases|{n}".encode())
        players = {i: make(KINDS[(i + n) % 4], random.Random(f"{n}|{i}")) for i in range(4)}
        computers = {i for i, p in players.items() if isinstance(p, Computer)}
        play_hand(hand, players)
        acts |= {a.act for a in hand.actions if a.seat in computers}
        bets |= {e.opening for e in hand.events if isinstance(e, Raise) and e.seat in computers}
    assert acts == {
        Act.BLIND, Act.NO_BLIND, Act.FOLD, Act.CALL, Act.RAISE, Act.ALL_IN, Act.JOIN_SVARA,
        Act.SKIP_SVARA,
    }
    assert bets == {True, False}  # the first bet after a deal, and raises
