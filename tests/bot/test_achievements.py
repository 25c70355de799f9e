"""The badges' rules, each read as an example: earned for its event, not for a near miss;
and the facts they read, taken from real engine hands."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.achievements import (
    BADGES,
    BY_CODE,
    RULES,
    Award,
    HandFacts,
    Past,
    PotPaid,
    RoundFacts,
    Showing,
    TablePast,
    earned,
    facts_of,
    names,
)
from engine import Act, Action, Hand, Phase, Rules, SeatIn, parse_hand
from engine.events import Blind, Call, Dealt, PotWon, Raise, Shown, SvaraJoined

ANA, BO, CY = 1, 2, 3


def show(player: int, cards: str, points: int) -> Showing:
    return Showing(player, parse_hand(cards), points)


def showdown(winner: int, win: tuple[str, int], loser: int, lose: tuple[str, int], *,
             amount: int = 60, number: int = 1, **extra: frozenset[int]) -> RoundFacts:
    """A round whose pot `winner` took on shown points against `loser`."""
    return RoundFacts(number, (show(winner, *win), show(loser, *lose)),
                      (PotPaid((winner,), amount, win[1]),), **extra)


def hand(*rounds: RoundFacts, ante: int = 10, stacks: dict[int, int] | None = None) -> HandFacts:
    return HandFacts(ante, (ANA, BO, CY), rounds, stacks or {})


def codes(f: HandFacts, past: dict[int, Past] | None = None,
          table: TablePast | None = None) -> set[tuple[int, str]]:
    # Everyone has won before, so "First pot" stays out of the examples it does not name.
    veterans = {p: Past(wins=3) for p in (ANA, BO, CY)}
    return {(a.player, a.badge)
            for a in earned(f, {**veterans, **(past or {})}, table or TablePast())}


PLAIN = ("K♥ 9♥ Q♣", 19)
LOW = ("8♣ K♥ 9♦", 10)


def test_every_badge_has_a_rule_a_name_and_an_emoji() -> None:
    assert len(BADGES) == 16
    assert list(RULES) == [b.code for b in BADGES]
    assert len(BY_CODE) == 16 and all(b.emoji and b.name and b.rule for b in BADGES)


def test_first_pot_is_the_first_win_only() -> None:
    f = hand(showdown(ANA, PLAIN, BO, LOW))
    assert (ANA, "first_pot") in codes(f, {ANA: Past(wins=0)})
    assert (ANA, "first_pot") not in codes(f, {ANA: Past(wins=1)})
    # The loser has never won either: losing is not a first pot.
    assert (BO, "first_pot") not in codes(f, {BO: Past(wins=0)})
    unseen = hand(RoundFacts(1, paid=(PotPaid((BO,), 30, None),)))
    assert (BO, "first_pot") in codes(unseen, {BO: Past(wins=0)})


def test_three_sevens_for_34_not_as_plain_trips_nor_two_sevens() -> None:
    assert codes(hand(showdown(ANA, ("7♥ 7♦ 7♠", 34), BO, LOW))) == {(ANA, "three_sevens")}
    # The table scores three sevens as trips (21): not the hand of the badge.
    assert codes(hand(showdown(BO, ("A♥ K♥ 9♦", 21), ANA, ("7♥ 7♦ 7♠", 21)))) == set()
    assert codes(hand(showdown(ANA, ("7♥ 7♦ A♠", 23), BO, LOW))) == set()


def test_three_aces_shown_even_when_beaten() -> None:
    f = hand(showdown(BO, ("7♥ 7♦ 7♠", 34), ANA, ("A♥ A♦ A♠", 33)))
    assert (ANA, "three_aces") in codes(f)
    assert codes(hand(showdown(ANA, ("A♥ A♦ K♠", 22), BO, LOW))) == set()


def test_one_suit_31_or_more_not_30_nor_31_across_suits() -> None:
    assert codes(hand(showdown(ANA, ("A♥ K♥ Q♥", 31), BO, LOW))) == {(ANA, "suited_31")}
    assert codes(hand(showdown(ANA, ("7♣ A♣ K♣", 32), BO, LOW))) == {(ANA, "suited_31")}
    assert codes(hand(showdown(ANA, ("K♥ Q♥ J♥", 30), BO, LOW))) == set()
    # 31 with the Chechak, but across suits.
    assert codes(hand(showdown(ANA, ("7♣ K♥ K♦", 31), BO, LOW))) == set()


def test_small_but_enough_wins_with_11_or_fewer() -> None:
    f = hand(showdown(ANA, ("A♥ 9♦ 8♠", 11), BO, ("7♠ 8♣ 8♦", 8)))
    assert codes(f) == {(ANA, "small_win")}
    assert codes(hand(showdown(ANA, ("8♥ 7♥ 9♦", 15), BO, LOW))) == set()
    # 11 points shown, but the pot was lost.
    assert codes(hand(showdown(BO, PLAIN, ANA, ("A♥ 9♦ 8♠", 11)))) == set()


def test_giant_slayer_beats_30_or_more_not_29() -> None:
    f = hand(showdown(ANA, ("7♣ A♥ K♥", 32), BO, ("K♥ Q♥ J♥", 30)))
    assert (ANA, "giant_slayer") in codes(f)
    f = hand(showdown(ANA, ("7♣ A♥ K♥", 32), BO, ("10♦ 9♦ J♦", 29)))
    assert (ANA, "giant_slayer") not in codes(f)


def test_in_the_dark_is_a_blind_bettor_winning_that_round_at_a_showdown() -> None:
    blind = frozenset({ANA})
    assert codes(hand(showdown(ANA, PLAIN, BO, LOW, blind=blind))) == {(ANA, "blind_win")}
    # The blind bettor lost; or won because everyone else folded.
    assert codes(hand(showdown(BO, PLAIN, ANA, LOW, blind=blind))) == set()
    unseen = RoundFacts(1, paid=(PotPaid((ANA,), 30, None),), blind=blind)
    assert codes(hand(unseen)) == set()


def test_all_or_nothing_is_an_all_in_player_winning_that_round_at_a_showdown() -> None:
    all_in = frozenset({ANA})
    assert codes(hand(showdown(ANA, PLAIN, BO, LOW, all_in=all_in))) == {(ANA, "all_in_win")}
    assert codes(hand(showdown(BO, PLAIN, ANA, LOW, all_in=all_in))) == set()
    # He went all-in in the hand, but won the svara that followed, a round he did not.
    tie = RoundFacts(1, (show(ANA, *PLAIN), show(BO, *PLAIN)), all_in=all_in)
    assert (ANA, "all_in_win") not in codes(hand(tie, showdown(ANA, PLAIN, BO, LOW, number=2)))


def test_svaras_won_bought_into_and_on_a_second_svara() -> None:
    tie = RoundFacts(1, (show(ANA, *PLAIN), show(BO, *PLAIN)))
    won = hand(tie, showdown(ANA, PLAIN, BO, LOW, number=2))
    assert codes(won) == {(ANA, "svara_win")}
    # Cy paid to join the svara and took it.
    bought = hand(tie, showdown(CY, PLAIN, ANA, LOW, number=2, joined=frozenset({CY})))
    assert codes(bought) == {(CY, "svara_win"), (CY, "svara_bought")}
    # Cy paid to join, Ana took it: nothing for Cy.
    lost = hand(tie, showdown(ANA, PLAIN, CY, LOW, number=2, joined=frozenset({CY})))
    assert codes(lost) == {(ANA, "svara_win")}
    again = RoundFacts(2, (show(ANA, *PLAIN), show(BO, *PLAIN)))
    twice = hand(tie, again, showdown(BO, PLAIN, ANA, LOW, number=3))
    assert codes(twice) == {(BO, "svara_win"), (BO, "svara_twice")}


def test_hundred_antes_is_one_pot_of_100_antes_not_99() -> None:
    assert codes(hand(showdown(ANA, PLAIN, BO, LOW, amount=1000))) == {(ANA, "big_pot")}
    assert codes(hand(showdown(ANA, PLAIN, BO, LOW, amount=990))) == set()
    assert codes(hand(showdown(ANA, PLAIN, BO, LOW, amount=500), ante=5)) == {(ANA, "big_pot")}


def test_five_in_a_row_is_the_fifth_win_after_four() -> None:
    f = hand(showdown(ANA, PLAIN, BO, LOW))
    assert (ANA, "five_in_row") in codes(f, {ANA: Past(wins=4, streak=4)})
    assert (ANA, "five_in_row") not in codes(f, {ANA: Past(wins=3, streak=3)})
    # Four in a row, then a loss.
    assert (BO, "five_in_row") not in codes(f, {BO: Past(wins=4, streak=4)})


def test_comeback_is_a_rebuyer_back_above_what_he_brought() -> None:
    f = hand(showdown(ANA, PLAIN, BO, LOW), stacks={ANA: 1201, BO: 0})
    assert (ANA, "comeback") in codes(f, {ANA: Past(wins=1, rebuys=1, brought=1200)})
    # Exactly even is not above.
    assert (ANA, "comeback") not in codes(f, {ANA: Past(wins=1, rebuys=1, brought=1201)})
    # Above what he brought, but he never needed a rebuy.
    assert (ANA, "comeback") not in codes(f, {ANA: Past(wins=1, brought=1000)})


def test_pot_of_the_night_from_the_tenth_hand_when_bigger_than_every_earlier_one() -> None:
    f = hand(showdown(ANA, PLAIN, BO, LOW, amount=400))
    assert (ANA, "pot_of_the_night") in codes(f, table=TablePast(hands=9, biggest=399))
    assert (ANA, "pot_of_the_night") not in codes(f, table=TablePast(hands=8, biggest=10))
    assert (ANA, "pot_of_the_night") not in codes(f, table=TablePast(hands=20, biggest=400))
    # The biggest pot of the hand went to Bo: Ana's side pot does not make it hers.
    split = hand(RoundFacts(1, paid=(PotPaid((ANA,), 100, 19), PotPaid((BO,), 300, 19))))
    assert codes(split, table=TablePast(hands=9, biggest=399)) == {(BO, "pot_of_the_night")}


def test_a_badge_held_is_never_earned_again_and_computers_earn_nothing() -> None:
    f = HandFacts(10, (ANA, -9), (showdown(ANA, ("7♥ 7♦ 7♠", 34), -9, ("A♥ A♦ A♠", 33)),))
    # The computer showed three aces: nothing for him.
    assert earned(f, {ANA: Past(wins=1)}) == [Award(ANA, "three_sevens"),
                                             Award(ANA, "giant_slayer")]
    held = frozenset({"three_sevens"})
    assert earned(f, {ANA: Past(held=held, wins=1)}) == [Award(ANA, "giant_slayer")]


# ------------------------------------------------------------------ facts from the engine

def play(seed: bytes, choose: Callable[[Hand, int], Action], seats: int = 3) -> Hand:
    """A hand at a fresh table, every decision taken by `choose`."""
    h = Hand.start(Rules(ante=10), [SeatIn(p, 500) for p in range(1, seats + 1)], 0, seed)
    while not h.is_over:
        if h.phase is Phase.SVARA_JOIN:
            seat = min(h.pending) if h.pending else None
            h.apply(Action(Act.CLOSE_SVARA) if seat is None else choose(h, seat))
            continue
        assert h.to_act is not None
        h.apply(choose(h, h.to_act))
    return h


def calls(h: Hand, seat: int) -> Action:
    """Blind at the ante first, then call every bet, open with the ante, join svaras."""
    legal = h.legal(seat)
    assert legal is not None
    if legal.phase is Phase.BLIND:
        return Action(Act.BLIND if legal.blind and not h.actions else Act.NO_BLIND, seat,
                      legal.blind[0] if legal.blind and not h.actions else None)
    if legal.phase is Phase.SVARA_JOIN:
        return Action(Act.JOIN_SVARA, seat)
    if legal.call is not None:
        return Action(Act.CALL, seat)
    assert legal.raise_to is not None
    return Action(Act.RAISE, seat, legal.raise_to[0])


def test_facts_of_a_hand_read_its_showdown_blind_and_pot() -> None:
    h = play(b"facts-1", calls)
    f = facts_of(h)
    assert f.ante == 10 and f.players == (1, 2, 3)
    assert f.stacks == h.stacks
    first = f.rounds[0]
    assert first.number == 1
    blinded = [h.seats[e.seat].player for e in h.events if isinstance(e, Blind)]
    assert len(blinded) == 1 and first.blind == frozenset(blinded)
    shown = [(h.seats[e.seat].player, e.points) for e in h.events if isinstance(e, Shown)]
    assert [(s.player, s.points) for r in f.rounds for s in r.shown] == shown
    paid = [(tuple(h.seats[w].player for w in e.winners), e.amount, e.points)
            for e in h.events if isinstance(e, PotWon)]
    assert [(p.winners, p.amount, p.points) for r in f.rounds for p in r.paid] == paid
    assert paid and all(points is not None for _, _, points in paid)


def _svara_seed() -> bytes:
    for i in range(5000):
        seed = b"svara-" + i.to_bytes(4, "big")
        h = play(seed, calls)
        if any(isinstance(e, SvaraJoined) for e in h.events):
            return seed
    raise AssertionError("no svara in 5000 deals")


def test_facts_of_a_svara_put_who_joined_in_the_round_dealt_after() -> None:
    h = play(_svara_seed(), calls)
    f = facts_of(h)
    joined = {h.seats[e.seat].player for e in h.events if isinstance(e, SvaraJoined)}
    assert len(f.rounds) >= 2 and f.rounds[0].joined == frozenset()
    assert f.rounds[1].number == 2 and f.rounds[1].joined == frozenset(joined)
    # The tie pays nothing in the first round; the svara's pot is paid in its own round.
    assert f.rounds[0].paid == () and len(f.rounds[0].shown) == 3
    winners = [e.winners for e in h.events if isinstance(e, PotWon)]
    assert [p.winners for p in f.rounds[-1].paid] == [
        tuple(h.seats[w].player for w in ws) for ws in winners]


@pytest.mark.parametrize("badge", [b.code for b in BADGES])
def test_every_rule_earns_nothing_in_an_empty_hand(badge: str) -> None:
    assert not RULES[badge](hand(RoundFacts(1)), ANA, Past(), TablePast(hands=50))


def test_facts_of_a_hand_read_who_went_all_in_by_a_raise_or_by_a_call() -> None:
    def shove(h: Hand, seat: int) -> Action:
        legal = h.legal(seat)
        assert legal is not None
        if legal.phase is Phase.BLIND:
            return Action(Act.NO_BLIND, seat)
        return Action(Act.ALL_IN, seat) if legal.all_in is not None else calls(h, seat)

    h = Hand.start(Rules(ante=10), [SeatIn(1, 500), SeatIn(2, 40)], 0, b"all-in")
    while not h.is_over:
        assert h.to_act is not None
        h.apply(shove(h, h.to_act))
    # Bo (40 chips) opens all-in, Ana raises all-in over him.
    moves = [(e.kind, h.seats[e.seat].player) for e in h.events
             if isinstance(e, Call | Raise) and e.all_in]
    assert moves == [("raise", 2), ("raise", 1)]
    assert facts_of(h).rounds[0].all_in == frozenset({1, 2})


def test_facts_of_a_hand_read_an_all_in_call() -> None:
    def calls_all(h: Hand, seat: int) -> Action:
        legal = h.legal(seat)
        assert legal is not None
        if legal.phase is Phase.BLIND:
            return Action(Act.NO_BLIND, seat)
        if legal.raise_to is not None and legal.call is None:
            return Action(Act.RAISE, seat, 100)
        return Action(Act.CALL, seat)

    h = Hand.start(Rules(ante=10), [SeatIn(2, 40), SeatIn(1, 500)], 0, b"all-in")
    while not h.is_over:
        assert h.to_act is not None
        h.apply(calls_all(h, h.to_act))
    # Ana (left of the dealer) bets, Bo calls with his last 30.
    assert [(e.kind, e.all_in) for e in h.events
            if isinstance(e, Call | Raise)] == [("raise", False), ("call", True)]
    assert facts_of(h).rounds[0].all_in == frozenset({2})


def test_giant_slayer_is_not_a_split_between_two_giants() -> None:
    # Ana and Bo shared the pot on 30 points each: neither beat the other.
    split = RoundFacts(1, (show(ANA, "K♥ Q♥ J♥", 30), show(BO, "K♦ Q♦ J♦", 30)),
                       (PotPaid((ANA, BO), 60, 30),))
    assert codes(hand(split)) == set()


def test_a_computer_seated_first_does_not_keep_the_players_after_him_from_badges() -> None:
    f = HandFacts(10, (-9, ANA), (showdown(ANA, ("7♥ 7♦ 7♠", 34), -9, LOW),))
    assert earned(f, {ANA: Past(wins=1)}) == [Award(ANA, "three_sevens")]


def test_a_player_the_record_knows_nothing_of_earns_his_first_pot() -> None:
    f = hand(showdown(ANA, PLAIN, BO, LOW))
    assert earned(f, {}) == [Award(ANA, "first_pot")]


def test_names_keep_the_order_of_the_badges_and_leave_unknown_codes_out() -> None:
    assert [b.code for b in names(["big_pot", "nope", "first_pot", "big_pot"])] == [
        "first_pot", "big_pot"]
    assert names([]) == []


def test_facts_of_a_hand_keep_the_cards_each_player_showed() -> None:
    h = play(b"facts-1", calls)
    shown = [(h.seats[e.seat].player, e.cards) for e in h.events if isinstance(e, Shown)]
    assert shown and all(len(cards) == 3 for _, cards in shown)
    assert [(s.player, s.cards) for r in facts_of(h).rounds for s in r.shown] == shown


def skips(h: Hand, seat: int) -> Action:
    """As `calls`, but never pays to join a svara."""
    legal = h.legal(seat)
    assert legal is not None
    if legal.phase is Phase.SVARA_JOIN:
        return Action(Act.SKIP_SVARA, seat)
    return calls(h, seat)


def test_facts_of_a_svara_keep_the_player_who_sat_it_out_among_those_dealt() -> None:
    for i in range(5000):
        h = play(b"skip-" + i.to_bytes(4, "big"), skips)
        deals = [e for e in h.events if isinstance(e, Dealt)]
        if len(deals) > 1 and len(deals[-1].seats) < 3:
            break
    else:
        raise AssertionError("no svara sat out in 5000 deals")
    # Everyone was dealt the first round; only the tied players the svara.
    assert len(deals[0].seats) == 3
    assert facts_of(h).players == (1, 2, 3)
