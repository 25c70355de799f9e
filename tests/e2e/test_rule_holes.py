"""Table rules that once went wrong in the chat: /endgame during a hand, sitting out and
coming back, a seated player without chips, and why a table closes.

Timers are rung by the test (`ring`), as the job queue would when they run out, so no
story waits on the clock.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.live import Live
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from engine import Phase, format_hand
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, cards_of, points_of
from tests.e2e.test_rules_paths import (
    act,
    balances,
    buttons,
    cards_dm,
    configure,
    lines,
    plan,
    seat_everyone,
    stacks,
)

ONLY_CREATOR = "Only the table's creator or a chat admin can do that."
CLOSING_LINE = "🔚 Closing after this hand: then every stack goes back."
CLOSING = "This table closes after the hand in progress."
CLOSED_AS_ASKED = "The table closed after the hand, as asked; every stack went back."
YOU_ARE_PLAYING = "You are playing."
AWAY_NO_CARDS = ("You have no cards: you are sitting out. Press I'm back to play from the "
                 "next hand.")
SHORT_NO_CARDS = ("You have no cards: your stack is below the ante, so you sit this hand out. "
                  "Add chips with /topup when it ends.")
NEXT_HAND_NO_CARDS = "You have no cards in this round; you play from the next hand."
TOP_UP_NEXT = ("Chips up to the table's maximum at the next hand. /topup cancel takes it "
               "back.")
ONE_ACTIVE = ("Only one player is active; the others are sitting out: the table is closed "
              "and every stack went back.")


# --------------------------------------------------------------------- helpers


async def ring(bed: Bed, group: ChatRecord, kind: str) -> None:
    """The table's timer of `kind` runs out now."""
    live = bed.live(group)
    wait = live.wait
    assert wait is not None and wait.kind == kind, wait
    await bed.games.on_timer(live.id, wait)
    await bed.idle()


async def replies(bed: Bed, sent: MessageRecord) -> list[str]:
    """What the bot answered to a command in the group (it quotes the command)."""
    await bed.idle()
    return [m.text or "" for m in sent.chat.bot_messages()
            if m.reply_to is not None and m.reply_to.message_id == sent.message_id]


async def command(bed: Bed, player: Player, group: ChatRecord, text: str) -> list[str]:
    return await replies(bed, await player.send(group, text))


async def play_hand(bed: Bed, group: ChatRecord, players: Sequence[Player],
                    slow: Player | None = None) -> None:
    """Play the hand in progress to its end: the first bets the ante, the others call,
    `slow` lets his turn run out every time, and nobody joins a svara."""
    live = bed.live(group)
    by_id = {p.id: p for p in players}
    while (hand := live.hand) is not None:
        if hand.phase is Phase.SVARA_JOIN:
            await ring(bed, group, "svara")
            continue
        assert hand.phase is Phase.BETTING and hand.to_act is not None
        player = by_id[hand.seats[hand.to_act].player]
        if player is slow:
            await ring(bed, group, "turn")
            continue
        legal = hand.legal()
        assert legal is not None
        await act(bed, player, group, "Bet 10" if legal.call is None else f"Call {legal.call}")


async def sit_out_by_timeouts(bed: Bed, group: ChatRecord, players: Sequence[Player],
                              slow: Player) -> None:
    """From the lobby: two hands in which `slow` lets his turn run out; he is then away."""
    await act(bed, players[0], group, "Start")
    await play_hand(bed, group, players, slow)
    seat = bed.live(group).table.seat(slow.id)
    assert seat is not None and seat.timeouts == 1 and not seat.sitting_out
    await ring(bed, group, "next")
    await play_hand(bed, group, players, slow)
    assert seat.timeouts == 2 and seat.sitting_out


def table_text(bed: Bed, group: ChatRecord, message_id: int) -> list[str]:
    message = bed.tg.world.find_message(group, message_id)
    assert message is not None
    return [line.strip() for line in (message.text or "").splitlines()]


# --------------------------------------------------------------------- item 6


async def test_item6_endgame_during_a_hand_closes_the_table_when_the_hand_ends(bed: Bed) -> None:
    ana, boris, vera, dora = players = bed.players("Ana", "Boris", "Vera", "Dora")
    group = bed.group(*players)
    await configure(bed, group, blind=False)
    await bed.open_table(group, ana, boris, vera)
    live = bed.live(group)
    message_id = bed.message_id(live)
    assert message_id is not None
    hand = plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h), (1, 2)) is not None)
    winner = best(points_of(hand), (1, 2))
    assert winner is not None

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "Bet 10")
    assert await command(bed, boris, group, "/endgame") == [ONLY_CREATOR]
    assert CLOSING_LINE not in await lines(bed, group)

    # The creator ends the table: the hand goes on, and the answer and the table say it
    # is closing.
    assert await command(bed, ana, group, "/endgame") == [CLOSING_LINE]
    screen = await lines(bed, group)
    assert CLOSING_LINE in screen and "Vera to act. ⏳ 30 seconds" in screen
    assert bed.games.at(group.id, None) is live and live.hand is not None
    assert await command(bed, ana, group, "/endgame") == [CLOSING]
    await dora.start_bot()
    await bed.idle()  # her private chat is open before she asks to join
    assert await command(bed, dora, group, "/join") == [CLOSING]

    await act(bed, vera, group, "Call 10")
    await act(bed, ana, group, "Fold")

    # The hand was played out and settled; then the table closed and the stacks went back.
    assert bed.games.at(group.id, None) is None
    screen = table_text(bed, group, message_id)
    assert "🃏 Svara: the table is closed." in screen
    name = players[winner].name
    assert f"🏆 {name} wins 50 with {points_of(hand)[winner]} points" in screen
    assert CLOSED_AS_ASKED in screen
    expected = [990, 980, 980, 1000]
    expected[winner] += 50
    assert await balances(bed, players) == expected
    last = await bed.store.hands.last(live.id)
    assert last is not None and last.status == "settled"
    assert await bed.store.tables.live(group.id) is None


async def one_hand_played(bed: Bed) -> tuple[ChatRecord, list[Player], Live, list[int], int]:
    """Ana and Boris's table after its first hand: the group, the players, the table,
    their stacks and the table message's id."""
    group, players = await seat_everyone(bed, "Ana", "Boris", blind=False)
    await act(bed, players[0], group, "Start")
    await play_hand(bed, group, players)
    live = bed.live(group)
    message_id = bed.message_id(live)
    assert message_id is not None
    return group, list(players), live, [stacks(live)[p.id] for p in players], message_id


async def test_item6_endgame_between_hands_closes_at_once(bed: Bed) -> None:
    group, players, _, before, message_id = await one_hand_played(bed)
    assert await command(bed, players[0], group, "/endgame") == []
    assert bed.games.at(group.id, None) is None
    assert "The table was closed; every chip went back." in table_text(bed, group, message_id)
    assert await balances(bed, players) == before


async def test_item6_endgame_during_a_hand_is_kept_across_a_restart(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", blind=False)
    ana = players[0]
    await act(bed, ana, group, "Start")
    assert await command(bed, ana, group, "/endgame") == [CLOSING_LINE]
    assert CLOSING_LINE in await lines(bed, group)
    table_id = bed.live(group).id
    message_id = bed.message_id(bed.live(group))
    assert message_id is not None

    await bed.restart()
    # The hand goes on where it was, still closing when it ends.
    live = bed.live(group)
    assert live.id == table_id and live.hand is not None and not live.hand.is_over
    assert CLOSING_LINE in await lines(bed, group)
    assert await command(bed, ana, group, "/endgame") == [CLOSING]
    await play_hand(bed, group, players)
    assert bed.games.at(group.id, None) is None
    assert CLOSED_AS_ASKED in table_text(bed, group, message_id)
    assert sum(await balances(bed, players)) == 2000
    assert await bed.store.tables.live(group.id) is None


async def test_item6_a_table_asked_to_close_whose_hand_ended_closes_at_start(bed: Bed) -> None:
    # The process stopped after the hand was settled and before the table closed: the
    # mark in the database closes it when the bot starts again.
    group, players, live, before, message_id = await one_hand_played(bed)
    await bed.store.tables.set_closing(live.id)
    await bed.restart()
    await bed.idle()
    assert bed.games.at(group.id, None) is None
    assert CLOSED_AS_ASKED in table_text(bed, group, message_id)
    assert await balances(bed, players) == before
    assert await bed.store.tables.live(group.id) is None


# --------------------------------------------------------------------- item 4


async def test_item4_a_player_sitting_out_is_offered_the_svara_and_joins(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", blind=False)
    ana, boris, vera = players
    await sit_out_by_timeouts(bed, group, players, vera)
    hand = plan(bed, group, lambda h: not h.in_play(2) and (p := points_of(h))[0] == p[1])
    await ring(bed, group, "next")
    live = bed.live(group)
    assert live.hand is not None and live.hand.seed == hand.seed
    first = players[next(i for i in hand.order_after(hand.dealer) if hand.in_play(i))]
    second = ana if first is boris else boris
    await act(bed, first, group, "Bet 10")
    await act(bed, second, group, "Call 10")

    screen = await lines(bed, group)
    assert "Tie between" in "\n".join(screen)
    vera_line = next(line for line in screen if "Vera:" in line)
    assert vera_line.startswith("▶ Vera:") and "away" in vera_line
    assert (await buttons(bed, group))[0] == ["Join svara (20)", "Skip"]
    vera_stack = stacks(live)[vera.id]
    dealt_before = len(cards_dm(vera, 3))
    await act(bed, vera, group, "Join svara (20)")

    running = live.hand
    assert running is not None and running.round_no == 2 and running.in_play(2)
    assert running.seats[2].stack == vera_stack - 20
    assert len(cards_dm(vera, 3)) == dealt_before + 1
    # In the svara she plays like anyone: her line shows her stack, not "away".
    assert f"Vera: {vera_stack - 20} · joined the svara" in [
        line.lstrip("▶ ") for line in await lines(bed, group)]
    own = cards_of(running, 2, (0, 1, 2))[2]
    assert f"Hand 3: {format_hand(own)}" in cards_dm(vera, 3)[-1]


# --------------------------------------------------------------------- item 18


async def test_item18_im_back_pressed_during_a_hand_sticks(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", blind=False)
    _, boris, vera = players
    await sit_out_by_timeouts(bed, group, players, vera)
    live = bed.live(group)
    await ring(bed, group, "next")  # hand 3, without Vera
    hand = live.hand
    assert hand is not None and not hand.in_play(2)
    vera_stack = stacks(live)[vera.id]
    assert f"Vera: {vera_stack} · away" in await lines(bed, group)
    assert await bed.press(vera, group, "My cards") == AWAY_NO_CARDS

    assert await bed.press(vera, group, "I'm back") is None
    assert not any("I'm back" in row for row in await buttons(bed, group))
    assert f"Vera: {vera_stack} · out: was away at the deal" in await lines(bed, group)
    assert await bed.press(vera, group, "My cards") == NEXT_HAND_NO_CARDS
    assert await command(bed, boris, group, "/back") == [YOU_ARE_PLAYING]
    assert await command(bed, vera, group, "/back") == [YOU_ARE_PLAYING]

    await play_hand(bed, group, players)
    screen = await lines(bed, group)
    assert "Svara · hand 3 is over" in screen[0]
    assert f"Vera: {vera_stack}" in screen
    seat = live.table.seat(vera.id)
    assert seat is not None and not seat.sitting_out and seat.timeouts == 0
    stored = {s.user_id: s for s in await bed.store.tables.seats(live.id)}
    assert not stored[vera.id].sitting_out and stored[vera.id].timeouts == 0

    await ring(bed, group, "next")
    fourth = live.hand
    assert fourth is not None and fourth.in_play(2), "Vera is dealt in again"


# --------------------------------------------------------------------- item 19


async def test_item19_a_seated_player_without_chips_is_told_what_is_true(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", blind=False,
                                         max_buy_in_antes=50)
    ana, boris, vera = players
    assert stacks(bed.live(group)) == {p.id: 500 for p in players}
    plan(bed, group, lambda h: h.dealer == 0 and (p := points_of(h))[1] > p[2])

    await act(bed, ana, group, "Start")
    await act(bed, boris, group, "Bet 10")
    await act(bed, vera, group, "All-in (490)")
    await act(bed, ana, group, "Fold")
    await act(bed, boris, group, "Call 480")
    assert stacks(bed.live(group))[vera.id] == 0

    await ring(bed, group, "next")
    hand = bed.live(group).hand
    assert hand is not None and not hand.in_play(2)
    assert "Vera: 0 · out: too few chips for the ante" in await lines(bed, group)
    assert await command(bed, vera, group, "/back") == [
        "You are seated, but your stack is below the ante of 10 chips: /topup brings chips "
        "from your balance."]
    assert await command(bed, vera, group, "/topup") == [TOP_UP_NEXT]
    assert await bed.press(vera, group, "My cards") == SHORT_NO_CARDS
    assert await command(bed, boris, group, "/topup 100") == [
        "+100 chips at the next hand. /topup cancel takes it back."]
    assert await command(bed, boris, group, "/topup cancel") == [
        "Cancelled: nothing is added at the next hand."]

    await play_hand(bed, group, players)  # Vera's top-up is brought as the hand ends
    assert stacks(bed.live(group))[vera.id] == 500
    assert await balances(bed, [vera]) == [0]


# --------------------------------------------------------------------- item 20


async def test_item20_a_table_closed_by_sitting_out_says_so(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", blind=False)
    boris = players[1]
    message_id = bed.message_id(bed.live(group))
    assert message_id is not None
    await sit_out_by_timeouts(bed, group, players, boris)
    await ring(bed, group, "next")
    assert bed.games.at(group.id, None) is None
    screen = table_text(bed, group, message_id)
    assert ONE_ACTIVE in screen
    assert not any("can pay the ante" in line for line in screen)
    assert await balances(bed, players) == [1020, 980]
