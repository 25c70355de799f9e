"""Badges in the store: written with the hand that earns them, once per player, never at a
practice table, and read from the record as it stood before the hand."""

from __future__ import annotations

import pytest

from bot.achievements import Award
from bot.store import Store, Table
from bot.store.practice import computer_of
from bot.store.sql import execute
from bot.tournament import Schedule
from engine import Act, Action, Hand, Phase, SeatIn
from engine.events import PotWon
from tests.store.conftest import RULES, seated_table

ANA, BO = 1, 2


async def win(store: Store, table: Table, winner: int, *, dealer: int = 0,
              seed: bytes = b"badges") -> tuple[int, Hand, tuple[Award, ...]]:
    """A hand that `winner` takes unseen: nobody blinds, everyone else folds (he bets the
    minimum if he must act first). Its id, the hand and the badges it earned."""
    seats = await store.tables.seats(table.id)
    hand = Hand.start(RULES, [SeatIn(s.user_id, s.stack) for s in seats], dealer, seed)
    hand_id = await store.hands.open(table.id, hand)
    while True:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal(seat)
        assert legal is not None
        if legal.phase is Phase.BLIND:
            action = Action(Act.NO_BLIND, seat)
        elif hand.seats[seat].player != winner:
            action = Action(Act.FOLD, seat)
        else:
            assert legal.raise_to is not None
            action = Action(Act.RAISE, seat, legal.raise_to[0])
        events = hand.apply(action)
        if hand.is_over:
            settled = await store.hands.settle(hand_id, hand, action=action, events=events)
            return hand_id, hand, settled.awards
        await store.hands.record(hand_id, action, events)


async def rows(store: Store) -> list[tuple[int, str, int, int]]:
    return [(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in await store.db.fetchall(
        "SELECT user_id, badge, chat_id, hand_id FROM achievements ORDER BY rowid")]


async def test_first_pot_then_five_in_a_row_each_once_with_the_chat_and_hand(
        store: Store) -> None:
    table = await seated_table(store, 2)
    earned = []
    for n in range(7):
        hand_id, _, awards = await win(store, table, ANA, dealer=n % 2)
        earned.append((hand_id, awards))
    assert [a for _, a in earned] == [
        (Award(ANA, "first_pot"),), (), (), (), (Award(ANA, "five_in_row"),), (), ()]
    first, fifth = earned[0][0], earned[4][0]
    assert await rows(store) == [(ANA, "first_pot", -1001, first),
                                 (ANA, "five_in_row", -1001, fifth)]
    # Bo's first pot is his own, and Ana's run is over.
    _, _, awards = await win(store, table, BO)
    assert awards == (Award(BO, "first_pot"),)
    held = await store.achievements.held(ANA)
    assert [(h.badge, h.chat_id, h.hand_number, h.at) for h in held] == [
        ("first_pot", -1001, 1, 1_700_000_000), ("five_in_row", -1001, 5, 1_700_000_000)]
    assert await store.achievements.of_players([ANA, BO, 99]) == {
        ANA: ["first_pot", "five_in_row"], BO: ["first_pot"]}
    assert await store.achievements.of_hand(fifth) == [Award(ANA, "five_in_row")]


async def test_a_streak_broken_at_four_starts_again(store: Store) -> None:
    table = await seated_table(store, 2)
    for winner in (ANA, ANA, ANA, ANA, BO, ANA, ANA, ANA, ANA):
        await win(store, table, winner)
    assert ("five_in_row" not in {b for _, b, _, _ in await rows(store)})
    _, _, awards = await win(store, table, ANA)
    assert awards == (Award(ANA, "five_in_row"),)


async def test_a_streak_counts_at_one_table(store: Store) -> None:
    one = await seated_table(store, 2, buy_in=200)
    other = await seated_table(store, 2, buy_in=200, chat_id=-1002)
    for n in range(4):
        await win(store, one, ANA, dealer=n % 2)
    _, _, awards = await win(store, other, ANA)
    assert awards == ()


async def test_a_practice_table_earns_nothing_and_its_wins_are_not_wins(store: Store) -> None:
    await store.users.ensure(ANA, "Ana", starting_chips=1000)
    practice = await store.tables.open_practice(
        ANA, [(computer_of(ANA, 1), "Bot 1")], rules=RULES.to_json(), buy_in=500,
        wallet_name="Ana's practice chips")
    for n in range(6):
        _, _, awards = await win(store, practice, ANA, dealer=n % 2)
        assert awards == ()
    _, _, awards = await win(store, practice, computer_of(ANA, 1))
    assert awards == ()
    assert await rows(store) == []
    # Her first real pot is her first pot.
    table = await seated_table(store, 2, buy_in=200)
    _, _, awards = await win(store, table, ANA)
    assert awards == (Award(ANA, "first_pot"),)


@pytest.mark.parametrize(("she", "he"), [(ANA, BO), (BO, ANA)])
async def test_a_comeback_is_the_hand_that_takes_her_above_all_she_brought(
        store: Store, she: int, he: int) -> None:
    for user in (ANA, BO):
        await store.users.ensure(user, f"player {user}", starting_chips=100)
    table = await store.tables.open(-1001, creator=she, rules=RULES.to_json())
    await store.tables.join(table.id, she, 95)
    await store.tables.join(table.id, he, 100)
    for n in range(9):  # each hand she folds her ante to him
        await win(store, table, he, dealer=n % 2)
    assert [s.stack for s in await store.tables.seats(table.id)] == [5, 190]
    assert await store.gifts.rebuy(table.id, she, 100, most=3, below=10) == 105
    # She brought 195 in all: back to 195 is not above it.
    for n in range(9):
        _, _, awards = await win(store, table, she, dealer=n % 2)
        assert Award(she, "comeback") not in awards
    assert {s.user_id: s.stack for s in await store.tables.seats(table.id)}[she] == 195
    _, _, awards = await win(store, table, she)
    assert Award(she, "comeback") in awards


async def test_bo_without_a_rebuy_is_no_comeback(store: Store) -> None:
    table = await seated_table(store, 2)
    for _ in range(3):
        _, _, awards = await win(store, table, BO)
        assert Award(BO, "comeback") not in awards


async def test_the_badges_are_written_with_the_settled_hand_or_not_at_all(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await seated_table(store, 2)

    async def broken(*args: object, **kwargs: object) -> tuple[Award, ...]:
        raise RuntimeError("the badges could not be written")

    monkeypatch.setattr("bot.store.hands.award", broken)
    with pytest.raises(RuntimeError):
        await win(store, table, ANA)
    last = await store.hands.last(table.id)
    assert last is not None and last.status == "open"
    assert await store.db.fetchall("SELECT * FROM hand_players") == []


async def test_a_group_that_becomes_a_supergroup_keeps_where_its_badges_were_earned(
        store: Store) -> None:
    table = await seated_table(store, 2)
    hand_id, _, _ = await win(store, table, ANA)
    await store.tables.close(table.id)
    await store.chats.migrate(-1001, -100777)
    assert await rows(store) == [(ANA, "first_pot", -100777, hand_id)]


async def test_a_tournament_stack_is_no_rebuy_and_winning_with_it_no_comeback(
        store: Store) -> None:
    for user in (ANA, BO):
        await store.users.ensure(user, f"player {user}", starting_chips=1000)
    schedule = Schedule(buy_in=100, stack=300, antes=(10,), every=5)
    table = await store.tables.open(-1001, creator=ANA, rules=RULES.to_json(),
                                    tournament=schedule)
    for user in (ANA, BO):
        await store.tournaments.enter(table.id, user)
    await store.tournaments.begin(table.id)
    _, _, awards = await win(store, table, ANA)
    assert awards == (Award(ANA, "first_pot"),)


async def test_a_win_before_badges_existed_is_no_first_pot_later(store: Store) -> None:
    table = await seated_table(store, 2)
    await win(store, table, BO)
    # The record of a bot from before badges: his win is there, his badge is not.
    await store.db.write(lambda conn: execute(conn, "DELETE FROM achievements"))
    _, _, awards = await win(store, table, BO)
    assert awards == ()


async def duel(store: Store, table: Table, winner: int, bet: int,
               dealer: int = 0) -> tuple[Award, ...]:
    """A hand of two whose pot is both antes and `bet` from each: the loser raises to
    `bet`, the winner raises over him and the loser folds (the winner's excess comes
    back to him). The badges it earned."""
    seats = await store.tables.seats(table.id)
    hand = Hand.start(RULES, [SeatIn(s.user_id, s.stack) for s in seats], dealer, b"duel")
    hand_id = await store.hands.open(table.id, hand)
    raised = False
    while True:
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal(seat)
        assert legal is not None
        if legal.phase is Phase.BLIND:
            action = Action(Act.NO_BLIND, seat)
        elif hand.seats[seat].player != winner:
            action = Action(Act.FOLD, seat) if raised else Action(Act.RAISE, seat, bet)
            raised = True
        else:
            assert legal.raise_to is not None
            action = Action(Act.RAISE, seat, legal.raise_to[0])
        events = hand.apply(action)
        if hand.is_over:
            assert sum(e.amount for e in events if isinstance(e, PotWon)) == 20 + 2 * bet
            settled = await store.hands.settle(hand_id, hand, action=action, events=events)
            return settled.awards
        await store.hands.record(hand_id, action, events)


async def test_the_pot_of_the_night_from_the_tenth_hand_and_above_every_earlier_pot(
        store: Store) -> None:
    table = await seated_table(store, 2)
    await win(store, table, ANA)  # a pot of 20
    # The biggest pot so far, but at the second hand: not yet a night to speak of.
    assert await duel(store, table, BO, 100) == (Award(BO, "first_pot"),)  # 220
    for n in range(6):  # hands 3 to 8
        await win(store, table, ANA, dealer=n % 2)
    assert await duel(store, table, BO, 101) == ()  # the ninth hand, 222
    assert await duel(store, table, BO, 102) == (Award(BO, "pot_of_the_night"),)  # 224
    # As big as the biggest is not bigger.
    assert await duel(store, table, ANA, 102) == ()
    assert await duel(store, table, ANA, 103) == (Award(ANA, "pot_of_the_night"),)
