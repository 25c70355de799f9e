"""Every path of RULES.md §3-§6, played through the table message's buttons.

Each story picks a seed whose deal tells it (see `tests.e2e.seeds`), plays it as the
players would, and checks what they see (the table message, popups, private cards)
and where the chips are (stacks at the table, balances in the store).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.live import Live
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from bot.table_settings import TableSettings
from engine import Hand, format_hand
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, cards_of, find_seed, points_of, replica

SLOW = 30.0
"""A timer that never rings during a test: the story rings it (`Bed.ring`) when it is due.

Only `test_svara_join_and_blind_timers_ring` and the last story let real timers ring, and
they only watch what happens (each screen the group saw is kept in the message's history).
"""


# --------------------------------------------------------------------- helpers


async def configure(bed: Bed, group: ChatRecord, **settings: Any) -> None:
    """The chat's table settings (before /newgame): timers long unless a story sets them."""
    values = {"turn_timeout": SLOW, "blind_timeout": SLOW, "svara_join_timeout": SLOW,
              "next_hand_delay": SLOW, **settings}
    TableSettings.model_validate(values)  # a typo would fall back to the defaults unseen
    await bed.store.chats.set_settings(group.id, values)


async def seat_everyone(bed: Bed, *names: str, **settings: Any) -> tuple[ChatRecord, list[Player]]:
    """A group whose players sit down in the order given (the first opens the table)."""
    players = bed.players(*names)
    group = bed.group(*players)
    await configure(bed, group, **settings)
    await bed.open_table(group, players[0], *players[1:])
    return group, players


def plan(bed: Bed, group: ChatRecord, wanted: Any, *more: Any) -> Hand:
    """Find the seed of the next hand (and queue it, with any `more` after it)."""
    seed, hand = find_seed(replica(bed.live(group)), wanted)
    bed.seeds.append(seed)
    bed.seeds.extend(more)
    return hand


async def text(bed: Bed, group: ChatRecord) -> str:
    return (await bed.table_message(group)).text or ""


async def lines(bed: Bed, group: ChatRecord) -> list[str]:
    return [line.strip() for line in (await text(bed, group)).splitlines()]


async def buttons(bed: Bed, group: ChatRecord) -> list[list[str]]:
    return (await bed.table_message(group)).buttons


async def act(bed: Bed, player: Player, group: ChatRecord, label: str) -> None:
    """Press a button that must be there and must go through (no popup)."""
    popup = await bed.press(player, group, label)
    assert popup is None, f"{player.name} pressed {label!r}: {popup}"


async def say(bed: Bed, player: Player, group: ChatRecord, command: str) -> None:
    await player.send(group, command)
    await bed.idle()


def stacks(live: Live) -> dict[int, int]:
    return {s.player: s.stack for s in live.table.seats}


async def balances(bed: Bed, players: Sequence[Player]) -> list[int]:
    return [await bed.store.users.balance(p.id) for p in players]


def cards_dm(player: Player, hand_no: int = 1) -> list[str]:
    """The private card messages a player got for one hand, oldest first."""
    return [m.text or "" for m in player.inbox if f"Hand {hand_no}: " in (m.text or "")]


def check_cards_sent(players: Sequence[Player], hand: Hand, round_no: int = 1,
                     seats: Sequence[int] | None = None, hand_no: int = 1) -> None:
    """Each player of the round got exactly his cards and points in private."""
    cards = cards_of(hand, round_no, seats)
    points = points_of(hand, round_no, seats)
    for seat, own in cards.items():
        last = cards_dm(players[seat], hand_no)[-1]
        assert f"Hand {hand_no}: {format_hand(own)}" in last, last
        assert f"Points: {points[seat]}" in last, last


def shown(player: Player, hand: Hand, seat: int, round_no: int = 1,
          seats: Sequence[int] | None = None) -> str:
    """The showdown line of a seat: "Name: cards (points)"."""
    cards = cards_of(hand, round_no, seats)[seat]
    return f"{player.name}: {format_hand(cards)} ({points_of(hand, round_no, seats)[seat]})"


async def until_shown(bed: Bed, group: ChatRecord, line: str) -> list[str]:
    """Wait until the table message has `line` (after a timer rang); its lines."""
    live = bed.live(group)

    def screen() -> list[str] | None:
        message = bed.tg.world.find_message(group, bed.message_id(live) or 0)
        found = [x.strip() for x in ((message.text or "") if message else "").splitlines()]
        return found if line in found else None

    found: list[str] = await bed.tg.world.wait_for(screen, timeout=5, what=repr(line))
    await bed.idle()
    return found


def seen(bed: Bed, group: ChatRecord) -> list[list[str]]:
    """Every screen the table message has shown, oldest first, as lines."""
    message = bed.tg.world.find_message(group, bed.message_id(bed.live(group)) or 0)
    assert message is not None
    return [[x.strip() for x in text.splitlines()]
            for text in [*message.history, message.text] if text is not None]


def first_showing(screens: list[list[str]], line: str, after: int = -1) -> int:
    """The index of the first screen after `after` that has `line`."""
    found = [i for i, screen in enumerate(screens) if i > after and line in screen]
    assert found, f"no screen after #{after} shows {line!r}"
    return found[0]


async def deal_next(bed: Bed, group: ChatRecord, number: int) -> Hand:
    """The time between hands is up: hand `number` is dealt and shown."""
    await bed.ring(group)
    assert (await lines(bed, group))[0] == f"🃏 Svara · hand {number}"
    hand = bed.live(group).hand
    assert hand is not None
    return hand


async def end_table(bed: Bed, creator: Player, group: ChatRecord,
                    players: Sequence[Player] = ()) -> str:
    """/endgame; the closed table message. A hand in progress is first played out, every
    player declining the blind and folding (the table closes when that hand ends)."""
    table = await bed.table_message(group)
    await say(bed, creator, group, "/endgame")
    live = bed.games.at(group.id, None)
    if live is not None:
        assert "🔚 Closing after this hand: then every stack goes back." in await lines(bed, group)
        by_id = {p.id: p for p in players}
        while live.hand is not None:
            legal = live.hand.legal()
            assert legal is not None, "a hand to fold out"
            player = by_id[live.hand.seats[legal.seat].player]
            await act(bed, player, group, "No blind" if legal.blind else "Fold")
    assert bed.games.at(group.id, None) is None
    closed = bed.tg.world.find_message(group, table.message_id)
    assert closed is not None
    assert "the table is closed" in (closed.text or "")
    return closed.text or ""


# --------------------------------------------------------------------- full hands


async def test_two_players_bet_call_and_show(bed: Bed) -> None:
    group, (ana, boris) = await seat_everyone(bed, "Ana", "Boris")
    hand = plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h)) == 1)

    await act(bed, ana, group, "Start")
    screen = await lines(bed, group)
    assert "Svara · hand 1" in screen[0]
    assert "Pot: 20 · dealer Ana" in screen
    assert "Boris: blind or not? ⏳ 30 seconds" in screen
    assert (await buttons(bed, group))[0] == ["Blind 10", "Blind 20", "Blind 100", "No blind"]
    assert await bed.press(ana, group, "No blind") == "Not your turn."
    assert cards_dm(ana) == [] and cards_dm(boris) == []

    await act(bed, boris, group, "No blind")
    check_cards_sent([ana, boris], hand)
    mine = await bed.press(ana, group, "My cards")
    own = cards_of(hand)[0]
    assert mine == f"Your cards: {format_hand(own)} ({points_of(hand)[0]} points)"
    assert await buttons(bed, group) == [["Fold"], ["Bet 10", "Bet 20", "All-in (990)"],
                                         ["My cards", "Sit in next hand"]]

    await act(bed, boris, group, "Bet 20")
    screen = await lines(bed, group)
    assert "Boris: 970 · in 20" in screen and "Ana to act. ⏳ 30 seconds" in screen
    assert (await buttons(bed, group))[:2] == [
        ["Fold", "Call 20"], ["Raise to 30", "Raise to 60", "All-in (990)"]]

    await act(bed, ana, group, "Call 20")
    screen = await lines(bed, group)
    assert "Svara · hand 1 is over" in screen[0]
    assert shown(ana, hand, 0) in screen and shown(boris, hand, 1) in screen
    assert f"🏆 Boris wins 60 with {points_of(hand)[1]} points" in screen
    assert "Boris: 1030" in screen and "Ana: 970" in screen
    assert stacks(bed.live(group)) == {ana.id: 970, boris.id: 1030}
    assert await balances(bed, [ana, boris]) == [0, 0]


async def test_three_players_with_a_custom_raise(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera")
    ana, boris, vera = players
    hand = plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h), (1, 2)) == 2)

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "No blind")
    check_cards_sent(players, hand)
    await act(bed, boris, group, "Bet 10")
    await say(bed, vera, group, "/bet 35")
    screen = await lines(bed, group)
    assert "Vera: 955 · in 35" in screen and "Ana to act. ⏳ 30 seconds" in screen
    await act(bed, ana, group, "Fold")
    assert "Ana: 990 · folded" in await lines(bed, group)
    await act(bed, boris, group, "Call 25")

    screen = await lines(bed, group)
    assert shown(boris, hand, 1) in screen and shown(vera, hand, 2) in screen
    assert format_hand(cards_of(hand)[0]) not in "\n".join(screen), "a folded hand was shown"
    assert f"🏆 Vera wins 100 with {points_of(hand)[2]} points" in screen
    assert stacks(bed.live(group)) == {ana.id: 990, boris.id: 955, vera.id: 1055}


NAMES = ("Ana", "Boris", "Vera", "Georgi", "Dora", "Emil", "Zhana", "Ivo", "Kalin", "Lili")


async def test_ten_players_all_call_the_minimum(bed: Bed) -> None:
    group, players = await seat_everyone(bed, *NAMES)
    hand = plan(bed, group, lambda h: best(points_of(h)) is not None)
    winner = best(points_of(hand))
    assert winner is not None
    order = hand.order_after(hand.dealer)

    await act(bed, players[0], group, "Start")
    assert f"Pot: 100 · dealer {NAMES[hand.dealer]}" in await lines(bed, group)
    first = players[order[0]]
    await act(bed, first, group, "No blind")
    check_cards_sent(players, hand)
    await act(bed, first, group, "Bet 10")
    for seat in order[1:]:
        await act(bed, players[seat], group, "Call 10")

    screen = await lines(bed, group)
    for seat, player in enumerate(players):
        assert shown(player, hand, seat) in screen
    assert f"🏆 {NAMES[winner]} wins 200 with {points_of(hand)[winner]} points" in screen
    expected = {p.id: 1180 if i == winner else 980 for i, p in enumerate(players)}
    assert stacks(bed.live(group)) == expected
    assert f"{NAMES[winner]}: 1180" in screen


# --------------------------------------------------------------------- blinds


async def test_blind_chain_of_three_then_bet_double_and_blinds_pay_the_difference(
    bed: Bed,
) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", "Georgi")
    ana, boris, vera, georgi = players
    hand = plan(bed, group, lambda h: h.dealer == 0
                and best(points_of(h), (0, 1, 3)) is not None)
    winner = best(points_of(hand), (0, 1, 3))
    assert winner is not None

    await act(bed, ana, group, "Start")
    assert (await buttons(bed, group))[0] == ["Blind 10", "Blind 20", "Blind 100", "No blind"]
    await act(bed, boris, group, "Blind 20")
    screen = await lines(bed, group)
    assert "Boris: 970 · in 20 · blind" in screen and "Vera: blind or not? ⏳ 30 seconds" in screen
    assert (await buttons(bed, group))[0] == ["Blind 40", "No blind"]
    assert cards_dm(boris) == [], "cards came before the blind chain ended"
    await act(bed, vera, group, "Blind 40")
    assert (await buttons(bed, group))[0] == ["Blind 80", "No blind"]
    await act(bed, georgi, group, "Blind 80")
    assert (await buttons(bed, group))[0] == ["Blind 160", "No blind"]
    await act(bed, ana, group, "No blind")
    check_cards_sent(players, hand)

    # Ana acts first after the last blind: no call, and at least double the last blind.
    screen = await lines(bed, group)
    assert "Pot: 180 · dealer Ana" in screen and "Ana to act. ⏳ 30 seconds" in screen
    assert (await buttons(bed, group))[:2] == [
        ["Fold"], ["Bet 160", "Bet 260", "Bet 320", "All-in (990)"]]
    await say(bed, ana, group, "/bet 100")
    assert group.last_bot_message.text == "The amount must be between 160 and 990."
    running = bed.live(group).hand
    assert running is not None and running.level == 80 and running.to_act == 0
    await act(bed, ana, group, "Bet 160")

    assert (await buttons(bed, group))[0] == ["Fold", "Call 140"]
    await act(bed, boris, group, "Call 140")
    assert (await buttons(bed, group))[0] == ["Fold", "Call 120"]
    await act(bed, vera, group, "Fold")
    assert (await buttons(bed, group))[0] == ["Fold", "Call 80"]
    await act(bed, georgi, group, "Call 80")

    screen = await lines(bed, group)
    assert f"🏆 {players[winner].name} wins 560 with {points_of(hand)[winner]} points" in screen
    expected = {p.id: 830 for p in players}
    expected[vera.id] = 950
    expected[players[winner].id] += 560
    assert stacks(bed.live(group)) == expected


async def test_dealer_wins_when_nobody_bets_and_deals_again(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera")
    ana, boris, vera = players
    hand = plan(bed, group, lambda h: h.dealer == 0)

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "No blind")
    await act(bed, boris, group, "Fold")
    await act(bed, vera, group, "Fold")
    screen = await lines(bed, group)
    assert "🏆 Ana takes 30" in screen
    for cards in cards_of(hand).values():
        assert format_hand(cards) not in "\n".join(screen), "cards shown without a showdown"
    assert stacks(bed.live(group)) == {ana.id: 1020, boris.id: 990, vera.id: 990}

    second = await deal_next(bed, group, 2)
    assert second.dealer == 0
    screen = await lines(bed, group)
    assert "Pot: 30 · dealer Ana" in screen and "Boris: blind or not? ⏳ 30 seconds" in screen
    closed = await end_table(bed, ana, group, players)
    assert "🏆 Ana takes 30" in closed  # hand 2 was played out: Boris and Vera folded
    assert await balances(bed, players) == [1040, 980, 980]


async def test_last_blind_wins_when_nobody_bets_after_the_deal(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera")
    ana, boris, vera = players
    plan(bed, group, lambda h: h.dealer == 0)

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "Blind 10")
    await act(bed, vera, group, "Blind 20")
    await act(bed, ana, group, "No blind")
    assert "Ana to act. ⏳ 30 seconds" in await lines(bed, group)
    await act(bed, ana, group, "Fold")
    assert (await buttons(bed, group))[:2] == [
        ["Fold"], ["Bet 40", "Bet 80", "All-in (990)"]]
    await act(bed, boris, group, "Fold")

    screen = await lines(bed, group)
    assert "🏆 Vera takes 50" in screen
    # Vera's blind above Boris's was never called: it came back to her.
    assert stacks(bed.live(group)) == {ana.id: 990, boris.id: 980, vera.id: 1030}
    assert "Vera: 1030" in screen

    second = await deal_next(bed, group, 2)
    assert second.dealer == 1, "the deal passes on when the dealer did not win"
    assert "Pot: 30 · dealer Boris" in await lines(bed, group)
    closed = await end_table(bed, ana, group, players)
    assert "🏆 Boris takes 30" in closed  # hand 2 was played out: Vera and Ana folded
    assert await balances(bed, players) == [980, 1000, 1020]


# --------------------------------------------------------------------- all-in


async def short_stack(bed: Bed, player: Player, keep: int) -> None:
    """Leave `player` only `keep` chips of his balance: the rest goes to another chat's table."""
    other = bed.tg.world.group("Back room", members=[player], admins=[player])
    await configure(bed, other, ante=1, max_buy_in_antes=1000 - keep)
    await bed.open_table(other, player)
    assert await bed.store.users.balance(player.id) == keep


async def test_all_in_side_pot_to_one_main_pot_to_another(bed: Bed) -> None:
    ana, boris, vera = bed.players("Ana", "Boris", "Vera")
    await short_stack(bed, vera, 50)
    group = bed.group(ana, boris, vera)
    await configure(bed, group)
    await bed.open_table(group, ana, boris, vera)
    assert stacks(bed.live(group)) == {ana.id: 1000, boris.id: 1000, vera.id: 50}
    hand = plan(bed, group, lambda h: h.dealer == 2
                and (p := points_of(h))[2] > p[0] > p[1])

    await act(bed, ana, group, "Start")
    await act(bed, ana, group, "No blind")
    await act(bed, ana, group, "Bet 20")
    await act(bed, boris, group, "Call 20")
    assert (await buttons(bed, group))[:2] == [["Fold", "Call 20"], ["Raise to 30", "All-in (40)"]]
    await act(bed, vera, group, "All-in (40)")
    assert "Vera: 0 · in 40 · all-in" in await lines(bed, group)
    await act(bed, ana, group, "Raise to 100")
    await act(bed, boris, group, "Call 80")

    screen = await lines(bed, group)
    points = points_of(hand)
    assert f"🏆 Vera wins 150 with {points[2]} points" in screen
    assert f"🏆 Ana wins 120 with {points[0]} points" in screen
    assert stacks(bed.live(group)) == {ana.id: 1010, boris.id: 890, vera.id: 150}


async def test_all_in_main_pot_ties_into_a_svara_side_pot_paid(bed: Bed) -> None:
    ana, boris, vera = bed.players("Ana", "Boris", "Vera")
    await short_stack(bed, vera, 50)
    group = bed.group(ana, boris, vera)
    await configure(bed, group)
    players = [ana, boris, vera]
    await bed.open_table(group, *players)
    hand = plan(bed, group, lambda h: h.dealer == 2
                and (p := points_of(h))[2] == p[0] > p[1]
                and best(points_of(h, 2, (0, 2))) == 0)

    await act(bed, ana, group, "Start")
    await act(bed, ana, group, "No blind")
    await act(bed, ana, group, "Bet 20")
    await act(bed, boris, group, "Call 20")
    await act(bed, vera, group, "All-in (40)")
    await act(bed, ana, group, "Raise to 100")
    await act(bed, boris, group, "Call 80")

    # The side pot is Ana's; the main pot waits for the svara of Ana and Vera.
    screen = await lines(bed, group)
    assert "Tie between Ana, Vera: a svara for 150. Others may join for 75. ⏳ 30 seconds" \
        in screen
    assert "Ana: 1010" in screen
    assert (await buttons(bed, group))[0] == ["Join svara (75)", "Skip"]
    assert await bed.press(vera, group, "Skip") == "You cannot join this svara."
    await act(bed, boris, group, "Skip")

    screen = await lines(bed, group)
    assert "Svara · hand 1 · svara" in screen[0] and "Pot: 150 · dealer Vera" in screen
    await act(bed, ana, group, "No blind")
    # Vera has no chips to bet: the svara goes straight to the showdown.
    check_cards_sent(players, hand, 2, (0, 2))
    screen = await lines(bed, group)
    assert shown(ana, hand, 0, 2, (0, 2)) in screen and shown(vera, hand, 2, 2, (0, 2)) in screen
    assert f"🏆 Ana wins 150 with {points_of(hand, 2, (0, 2))[0]} points" in screen
    assert stacks(bed.live(group)) == {ana.id: 1160, boris.id: 890, vera.id: 0}

    # Vera cannot pay the ante: the next hand is dealt without her.
    second = await deal_next(bed, group, 2)
    assert not second.seats[2].in_round
    screen = await lines(bed, group)
    assert "Pot: 20 · dealer Ana" in screen \
        and "Vera: 0 · out: too few chips for the ante" in screen
    closed = await end_table(bed, ana, group, players)
    assert "🏆 Ana takes 20" in closed  # hand 2 was played out: Boris folded
    assert await balances(bed, players) == [1170, 880, 0]


async def test_two_pots_tie_into_two_svaras_main_pot_first(bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    await short_stack(bed, vera, 50)
    group = bed.group(*players)
    await configure(bed, group)
    await bed.open_table(group, *players)
    hand = plan(bed, group, lambda h: h.dealer == 2
                and len(set(points_of(h).values())) == 1
                and (p := points_of(h, 2, (0, 1, 2)))[1] > p[2]
                and best(points_of(h, 3, (0, 1))) is not None)
    winner = best(points_of(hand, 3, (0, 1)))
    assert winner is not None

    await act(bed, ana, group, "Start")
    await act(bed, ana, group, "No blind")
    await act(bed, ana, group, "Bet 20")
    await act(bed, boris, group, "Call 20")
    await act(bed, vera, group, "All-in (40)")
    await act(bed, ana, group, "Raise to 100")
    await act(bed, boris, group, "Call 80")

    # A three-way tie for the main pot (150) and a two-way tie for the side pot (120):
    # nobody else can join, so the main pot's svara is dealt at once.
    screen = await lines(bed, group)
    assert "Svara · hand 1 · svara" in screen[0]
    assert "Pot: 270 · dealer Vera" in screen and "Vera: 0 · all-in" in screen
    await act(bed, ana, group, "No blind")
    check_cards_sent(players, hand, 2, (0, 1, 2))
    await act(bed, ana, group, "Fold")

    # Boris beat Vera for the main pot; the side pot's svara is Ana's and Boris's.
    screen = await lines(bed, group)
    assert "Svara · hand 1 · svara 2" in screen[0]
    assert "Pot: 120 · dealer Vera" in screen
    assert "Boris: 1040" in screen and "Vera: 0 · out: not in the tie" in screen
    await act(bed, ana, group, "No blind")
    check_cards_sent(players, hand, 3, (0, 1))
    assert [len(cards_dm(p)) for p in players] == [1, 1, 1]  # one card message per hand
    await act(bed, ana, group, "Bet 10")
    await act(bed, boris, group, "Call 10")

    screen = await lines(bed, group)
    assert f"🏆 {players[winner].name} wins 140 with {points_of(hand, 3, (0, 1))[winner]} points" \
        in screen
    expected = {ana.id: 880, boris.id: 1030, vera.id: 0}
    expected[players[winner].id] += 140
    assert stacks(bed.live(group)) == expected


# --------------------------------------------------------------------- limits


async def test_pot_limit_caps_bets_at_the_pot(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", limit="pot_limit")
    ana, boris = players
    hand = plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h)) is not None)
    winner = best(points_of(hand))
    assert winner is not None
    assert any("pot limit" in line for line in await lines(bed, group))

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "No blind")
    assert await buttons(bed, group) == [["Fold"], ["Bet 10", "Bet 20"],
                                         ["My cards", "Sit in next hand"]]
    await say(bed, boris, group, "/bet 50")
    assert group.last_bot_message.text == "The amount must be between 10 and 20."
    await act(bed, boris, group, "Bet 20")
    # Call 20 and raise the pot (60): at most 80.
    assert (await buttons(bed, group))[:2] == [["Fold", "Call 20"], ["Raise to 30", "Raise to 60"]]
    await say(bed, ana, group, "/bet 81")
    assert group.last_bot_message.text == "The amount must be between 30 and 80."
    await say(bed, ana, group, "/bet 80")
    assert "Ana: 910 · in 80" in await lines(bed, group)
    await act(bed, boris, group, "Call 60")

    screen = await lines(bed, group)
    assert f"🏆 {players[winner].name} wins 180 with {points_of(hand)[winner]} points" in screen
    expected = {p.id: 910 for p in players}
    expected[players[winner].id] += 180
    assert stacks(bed.live(group)) == expected


async def test_fixed_cap_limits_every_bet_and_the_blind(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", limit="fixed_cap", bet_cap=30)
    ana, boris = players
    hand = plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h)) is not None)
    winner = best(points_of(hand))
    assert winner is not None
    assert any("bets capped at 30" in line for line in await lines(bed, group))

    await act(bed, ana, group, "Start")
    assert (await buttons(bed, group))[0] == ["Blind 10", "Blind 20", "Blind 30", "No blind"]
    await act(bed, boris, group, "No blind")
    assert (await buttons(bed, group))[1] == ["Bet 10", "Bet 20"]
    await say(bed, boris, group, "/bet 40")
    assert group.last_bot_message.text == "The amount must be between 10 and 30."
    await say(bed, boris, group, "/bet 30")
    assert (await buttons(bed, group))[:2] == [["Fold", "Call 30"], ["Raise to 40", "Raise to 60"]]
    await act(bed, ana, group, "Raise to 60")
    await act(bed, boris, group, "Call 30")

    screen = await lines(bed, group)
    assert f"🏆 {players[winner].name} wins 140 with {points_of(hand)[winner]} points" in screen
    expected = {p.id: 930 for p in players}
    expected[players[winner].id] += 140
    assert stacks(bed.live(group)) == expected


# --------------------------------------------------------------------- ties


async def test_svara_with_a_joiner_who_had_folded(bed: Bed) -> None:
    ana, boris, vera, georgi = players = bed.players("Ana", "Boris", "Vera", "Georgi")
    await short_stack(bed, georgi, 30)
    group = bed.group(*players)
    await configure(bed, group)
    await bed.open_table(group, *players)
    hand = plan(bed, group, lambda h: h.dealer == 0
                and (p := points_of(h))[1] == p[2] and best(points_of(h, 2, (0, 1, 2))) == 0)
    second = (0, 1, 2)

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "No blind")
    check_cards_sent(players, hand)
    await act(bed, boris, group, "Bet 10")
    await act(bed, vera, group, "Call 10")
    await act(bed, georgi, group, "Fold")
    await act(bed, ana, group, "Fold")

    screen = await lines(bed, group)
    assert "Tie between Boris, Vera: a svara for 60. Others may join for 30. ⏳ 30 seconds" \
        in screen
    # Ana may join (the marker shows who is awaited); Georgi cannot pay the whole stake.
    assert "▶ Ana: 990 · may join the svara" in screen and "Georgi: 20 · folded" in screen
    assert await buttons(bed, group) == [["Join svara (30)", "Skip"],
                                         ["My cards", "Sit in next hand"]]
    assert await bed.press(boris, group, "Join svara (30)") == "You cannot join this svara."
    assert await bed.press(georgi, group, "Join svara (30)") == "You cannot join this svara."
    before = {p.name: len(cards_dm(p)) for p in players}
    await act(bed, ana, group, "Join svara (30)")

    screen = await lines(bed, group)
    assert "Svara · hand 1 · svara" in screen[0]
    assert "Pot: 90 · dealer Ana" in screen and "Ana: 960 · joined the svara" in screen
    assert "Boris: blind or not? ⏳ 30 seconds" in screen
    await act(bed, boris, group, "No blind")
    # The svara is dealt anew: every player of it finds new cards in private, in the same
    # card message (one per hand); Georgi none.
    assert {p.name: len(cards_dm(p)) for p in players} == before
    assert all(len(cards_dm(p)) == 1 for p in players)
    assert "svara" not in cards_dm(georgi)[-1] and "svara" in cards_dm(ana)[-1]
    check_cards_sent(players, hand, 2, second)
    for seat in (1, 2):
        assert format_hand(cards_of(hand)[seat]) not in cards_dm(players[seat])[-1]
    await act(bed, boris, group, "Bet 10")
    await act(bed, vera, group, "Call 10")
    await act(bed, ana, group, "Call 10")

    screen = await lines(bed, group)
    points = points_of(hand, 2, second)
    assert all(shown(players[i], hand, i, 2, second) in screen for i in second)
    assert f"🏆 Ana wins 120 with {points[0]} points" in screen
    assert stacks(bed.live(group)) == {ana.id: 1070, boris.id: 970, vera.id: 970, georgi.id: 20}


async def test_tied_hands_are_shown_when_the_svara_opens(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera")
    ana, boris, vera = players
    hand = plan(bed, group, lambda h: h.dealer == 0 and (p := points_of(h))[1] == p[2])

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "No blind")
    await act(bed, boris, group, "Bet 10")
    await act(bed, vera, group, "Call 10")
    await act(bed, ana, group, "Fold")
    screen = await lines(bed, group)
    assert any(line.startswith("Tie between Boris, Vera") for line in screen)
    # RULES §3.5: when the betting ends, all players still in show their cards.
    assert shown(boris, hand, 1) in screen and shown(vera, hand, 2) in screen
    await act(bed, ana, group, "Skip")


async def test_svara_join_and_blind_timers_ring(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", blind_timeout=0.6,
                                         svara_join_timeout=0.6)
    ana, boris, vera = players
    hand = plan(bed, group, lambda h: h.dealer == 0 and (p := points_of(h))[1] == p[2])

    await act(bed, ana, group, "Start")
    # Boris lets the blind timer run out: the cards are dealt without a blind.
    await until_shown(bed, group, "Boris to act. ⏳ 30 seconds")
    screens = seen(bed, group)
    asked = first_showing(screens, "Boris: blind or not? ⏳ 1 second")
    assert first_showing(screens, "Boris to act. ⏳ 30 seconds", asked) == len(screens) - 1
    running = bed.live(group).hand
    assert running is not None and len(running.actions) == 1
    check_cards_sent(players, hand)
    await act(bed, boris, group, "Bet 10")
    await act(bed, vera, group, "Call 10")
    await act(bed, ana, group, "Fold")

    # Nobody joins: the window closes by itself and the svara is played by the two.
    screen = await until_shown(bed, group, "Boris to act. ⏳ 30 seconds")
    assert "Svara · hand 1 · svara" in screen[0] and "Ana: 990 · folded" in screen
    screens = seen(bed, group)
    tie = first_showing(
        screens, "Tie between Boris, Vera: a svara for 50. Others may join for 25. ⏳ 1 second")
    asked = first_showing(screens, "Boris: blind or not? ⏳ 1 second", tie)
    assert "Svara · hand 1 · svara" in screens[asked][0]
    assert first_showing(screens, "Boris to act. ⏳ 30 seconds", asked) == len(screens) - 1
    check_cards_sent(players, hand, 2, (1, 2))
    assert len(cards_dm(ana)) == 1
    await act(bed, boris, group, "Bet 10")
    await act(bed, vera, group, "Fold")
    screen = await lines(bed, group)
    assert "🏆 Boris takes 50" in screen
    assert stacks(bed.live(group)) == {ana.id: 990, boris.id: 1030, vera.id: 980}


async def test_svara_that_ties_again(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris")
    ana, boris = players
    hand = plan(bed, group, lambda h: h.dealer == 0
                and len(set(points_of(h).values())) == 1
                and len(set(points_of(h, 2).values())) == 1
                and best(points_of(h, 3)) is not None)
    winner = best(points_of(hand, 3))
    assert winner is not None

    await act(bed, ana, group, "Start")
    pots = [40, 60, 80]
    for round_no, pot in enumerate(pots, start=1):
        await act(bed, boris, group, "No blind")
        check_cards_sent(players, hand, round_no)
        assert [len(cards_dm(p)) for p in players] == [1, 1]  # edited for each svara
        await act(bed, boris, group, "Bet 10")
        await act(bed, ana, group, "Call 10")
        if round_no < len(pots):
            screen = await lines(bed, group)
            title = "svara" if round_no == 1 else f"svara {round_no}"
            assert screen[0].endswith(f"hand 1 · {title}"), screen[0]
            assert f"Pot: {pot} · dealer Ana" in screen
    screen = await lines(bed, group)
    assert f"🏆 {players[winner].name} wins 80 with {points_of(hand, 3)[winner]} points" in screen
    assert stacks(bed.live(group)) == {p.id: 1040 if i == winner else 960
                                       for i, p in enumerate(players)}


async def test_split_variant_shares_the_pot_odd_chip_left_of_the_dealer(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", tie="split", ante=5)
    ana, boris, vera = players
    lobby = await lines(bed, group)
    assert any("ties: split" in line for line in lobby)
    hand = plan(bed, group, lambda h: h.dealer == 0 and (p := points_of(h))[1] == p[2])

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "No blind")
    await act(bed, boris, group, "Bet 5")
    await act(bed, vera, group, "Call 5")
    await act(bed, ana, group, "Fold")

    screen = await lines(bed, group)
    assert shown(boris, hand, 1) in screen and shown(vera, hand, 2) in screen
    assert "🏆 Boris, Vera split 25" in screen
    assert not any("Tie between" in line for line in screen)
    assert stacks(bed.live(group)) == {ana.id: 495, boris.id: 503, vera.id: 502}
    assert await balances(bed, players) == [500, 500, 500]


# --------------------------------------------------------------------- timing


async def test_timeouts_fold_then_sit_out_until_back(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", blind=False)
    ana, boris, vera = players
    plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h), (0, 1)) is not None)
    live = bed.live(group)

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "Bet 10")
    assert "Vera to act. ⏳ 30 seconds" in await lines(bed, group)
    await bed.ring(group)  # Vera's time is up
    screen = await lines(bed, group)
    assert "Vera: 990 · folded" in screen and "Ana to act. ⏳ 30 seconds" in screen
    await act(bed, ana, group, "Call 10")
    screen = await lines(bed, group)
    assert "Vera: 990" in screen and not any("away" in line for line in screen)
    seat = live.table.seat(vera.id)
    assert seat is not None and seat.timeouts == 1 and not seat.sitting_out

    # Second hand: Boris deals, Vera is first and times out again.
    await deal_next(bed, group, 2)
    assert "Vera to act. ⏳ 30 seconds" in await lines(bed, group)
    await bed.ring(group)
    screen = await lines(bed, group)
    assert "Vera: 980 · folded" in screen and "Ana to act. ⏳ 30 seconds" in screen
    await act(bed, ana, group, "Fold")
    screen = await lines(bed, group)
    assert "🏆 Boris takes 30" in screen
    assert "Vera: 980 · away" in screen
    assert await buttons(bed, group) == [["I'm back"]]
    assert seat.sitting_out
    assert [s.sitting_out for s in await bed.store.tables.seats(live.id)] == [False, False, True]

    assert await bed.press(ana, group, "I'm back") == "You are playing."
    assert "Vera: 980 · away" in await lines(bed, group)
    await act(bed, vera, group, "I'm back")
    screen = await lines(bed, group)
    assert "Vera: 980" in screen and not any("away" in line for line in screen)
    assert await buttons(bed, group) == []

    third = await deal_next(bed, group, 3)
    assert third.in_play(2), "Vera is dealt in again"
    assert not seat.sitting_out and seat.timeouts == 0
    assert third.dealer == 1, "Boris won hand 2 with no bet: he deals again"
    closed = await end_table(bed, ana, group, players)
    assert "🏆 Boris takes 30" in closed  # hand 3 was played out: Vera and Ana folded
    assert sum(await balances(bed, players)) == 3000
    assert (await balances(bed, players))[2] == 970


async def test_table_closes_when_fewer_than_two_can_pay_the_ante(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", next_hand_delay=0.3)
    ana, boris = players
    hand = plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h)) == 0)

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "No blind")
    await act(bed, boris, group, "All-in (990)")
    rows = await buttons(bed, group)  # the call is her all-in: no second button for it
    assert rows[0] == ["Fold", "Call 990"]
    assert not any(label.startswith("All-in") for row in rows for label in row), rows
    await act(bed, ana, group, "Call 990")

    # Boris, broke, may still rebuy or be given chips: the table waits for him, then closes.
    assert bed.live(group).wait is not None
    await bed.ring(group)
    await bed.tg.world.wait_for(lambda: bed.games.at(group.id, None) is None, timeout=5,
                                what="the table to close")
    await bed.idle()
    closed = [m for m in group.bot_messages() if "the table is closed" in (m.text or "")]
    assert len(closed) == 1
    screen = [line.strip() for line in (closed[0].text or "").splitlines()]
    assert f"🏆 Ana wins 2000 with {points_of(hand)[0]} points" in screen
    assert ("Fewer than two players can pay the ante: the table is closed and every stack "
            "went back.") in screen
    assert closed[0].buttons == []
    assert await balances(bed, players) == [2000, 0]
    assert await bed.store.tables.live(group.id) is None
