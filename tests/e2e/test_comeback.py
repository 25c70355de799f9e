"""A broke friend always has a way back: a rebuy with his seat, a table that waits a
little for him before it closes, and answers that name what works now."""

from __future__ import annotations

from bot.clock import WaitKind
from bot.records import TableStatus
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.test_history import reply, steady_clock

ANTE = 1000
"""Everyone's whole stack: the first hand is over at the deal, and one of two is broke."""


async def all_in_at_the_deal(bed: Bed, group: ChatRecord,
                             players: list[Player]) -> tuple[Player, Player]:
    """Open, seat both and start: the antes are the stacks, one takes both. (winner, broke)"""
    await bed.store.chats.set_settings(group.id, {"ante": ANTE, "rebuy": ANTE})
    await bed.open_table(group, *players)
    assert await bed.press(players[0], group, "Start") is None
    live = bed.live(group)
    assert live.hand is None and live.played == 1
    stacks = {s.player: s.stack for s in live.table.seats}
    assert sorted(stacks.values()) == [0, 2 * ANTE]
    winner, broke = sorted(players, key=lambda p: -stacks[p.id])
    return winner, broke


async def test_a_table_with_a_broke_player_seated_waits_for_his_rebuy_before_it_closes(
        bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    _, broke = await all_in_at_the_deal(bed, group, players)
    live = bed.live(group)
    assert live.wait is not None and live.wait.kind is WaitKind.GRACE
    waited = live.wait
    table = await bed.table_message(group)
    assert f"Waiting for {broke.name} to rebuy · " in (table.text or ""), table.text
    # The wait is stored: after a restart the table waits on, to the same moment.
    await bed.restart()
    live = bed.live(group)
    assert live.status is TableStatus.PLAYING and live.wait == waited
    await bed.ring(group)  # nobody came back in time: now it closes
    assert bed.games.at(group.id, None) is None
    assert (await bed.store.tables.get(live.id)).status is TableStatus.CLOSED
    await bed.audit()


async def test_a_rebuy_during_the_wait_brings_the_next_hand(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    _, broke = await all_in_at_the_deal(bed, group, players)
    assert await reply(bed, broke, group, "/rebuy") == [
        f"{broke.name} takes 1,000 chips from the house: stack 1000, 2 more rebuys."]
    live = bed.live(group)
    assert live.wait is not None and live.wait.kind is WaitKind.NEXT
    await bed.ring(group)
    assert bed.live(group).played == 2
    await bed.audit()


async def test_a_broke_player_at_a_closed_table_comes_back_by_rebuy_at_his_next_join(
        bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    winner, broke = await all_in_at_the_deal(bed, group, players)
    await bed.ring(group)  # the wait for him ran out: the table closed
    assert bed.games.at(group.id, None) is None
    assert await bed.store.users.balance(broke.id) == 0
    await winner.send(group, "/newgame")
    press = await broke.press(await bed.table_message(group), "Join")
    answer = await press.answer()
    assert not answer.show_alert
    assert answer.text == (f"{broke.name} sits down with 1,000 chips from the house "
                           "(a rebuy), 2 more rebuys.")
    live = bed.live(group)
    assert [(s.player, s.stack) for s in live.table.seats] == [(broke.id, ANTE)]
    assert await bed.store.users.balance(broke.id) == 0
    await bed.audit()


async def test_a_broke_player_without_rebuys_is_told_every_way_back(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    # The real clock, as the table's: the next /daily is a day after this one.
    winner, broke = await all_in_at_the_deal(bed, group, players)
    assert await reply(bed, broke, group, "/topup") == [
        "Your balance is empty: /topup has no chips to bring. /rebuy takes 1,000 chips from "
        "the house. A friend can /give you chips, and /daily gives you free chips now."]
    assert await reply(bed, broke, group, "/daily") != []
    await bed.ring(group)
    await bed.store.chats.set_settings(group.id, {"ante": 5000, "rebuy": None})
    await winner.send(group, "/newgame")
    answer = await (await broke.press(await bed.table_message(group), "Join")).answer()
    assert answer.show_alert
    assert answer.text == ("You need at least 5,000 chips to sit at this table (you have "
                           "200 chips). A friend can /give you chips, and /daily gives you "
                           "free chips in 23 h 59 min.")
    await bed.audit()


async def play_out(bed: Bed, group: ChatRecord, players: list[Player],
                   folder: Player | None = None) -> None:
    """Play the hand in play to its end: nobody bets blind, `folder` folds, the others
    call or bet the least."""
    by_id = {p.id: p for p in players}
    live = bed.live(group)
    for _ in range(40):
        hand = live.hand
        if hand is None:
            return
        if hand.to_act is None:
            await bed.ring(group)  # a svara nobody joins: the time to join runs out
            continue
        who = by_id[hand.seats[hand.to_act].player]
        labels = (await bed.table_message(group)).labels
        moves = [x for x in labels if x.startswith(("Call", "Bet"))]
        label = "No blind" if "No blind" in labels else (
            "Fold" if who is folder or not moves else moves[0])
        await bed.press(who, group, label)
    raise AssertionError("the hand did not end")


async def test_a_broke_player_sitting_out_is_told_once_not_every_hand(bed: Bed) -> None:
    """Vera sits with just the ante and is all in at every deal until she loses it; then
    the hands go on without her, and she is told once how to come back."""
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    await bed.store.chats.set_settings(group.id, {"ante": 100, "max_buy_in_antes": 10,
                                                  "rebuy": 500})
    for p in (ana, vera):
        await bed.store.users.ensure(p.id, p.name, starting_chips=1000)
    await bed.store.gifts.give(vera.id, ana.id, 900)  # she keeps 100: the ante
    await bed.open_table(group, *players)
    assert await bed.press(ana, group, "Start") is None
    live = bed.live(group)
    for _ in range(20):
        await play_out(bed, group, players, folder=vera)
        stacks = {s.player: s.stack for s in live.table.seats}
        if stacks[vera.id] == 0:
            break
        await bed.ring(group)
    assert {s.player: s.stack for s in live.table.seats}[vera.id] == 0
    for _ in range(3):  # three more hands without her
        await bed.ring(group)
        hand = live.hand
        assert hand is not None
        seat = hand.seat_of(vera.id)
        assert seat is not None and not hand.seats[seat].in_round
        await play_out(bed, group, [ana, boris], folder=boris)
    await bed.idle()
    told = [m for m in vera.inbox
            if (m.text or "").startswith("Svara night: your stack is below the ante")]
    assert len(told) == 1, [m.text for m in told]
    await bed.audit()


async def test_a_latecomer_sits_in_with_a_button_and_rebuys_wait_for_a_broke_hand(
        bed: Bed) -> None:
    ana, boris, cyril = players = bed.players("Ana", "Boris", "Cyril")
    group = bed.group(*players)
    steady_clock(bed)
    await bed.store.chats.set_settings(group.id, {"rebuy": 500})
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    # Ana still has chips: a rebuy would bring nothing, now or after the hand.
    assert await reply(bed, ana, group, "/rebuy") == [
        "A rebuy is for a player with no chips left: /topup brings more from your balance."]
    assert await reply(bed, ana, group, "/rebuy cancel") == [
        "Nothing was waiting for your next hand."]
    await cyril.start_bot()
    assert await bed.press(cyril, group, "Sit in next hand") == "You sit down at the next hand."
    live = bed.live(group)
    assert cyril.id in [s.player for s in live.table.seats]
    assert cyril.id not in live.table.dealt
    assert await reply(bed, ana, group, "/endgame") == [
        "🔚 Closing after this hand: then every stack goes back."]
    await bed.audit()


async def test_endgame_in_a_lobby_is_answered(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    await bed.open_table(group, ana, boris)
    assert await reply(bed, ana, group, "/endgame") == [
        "The table was closed; every chip went back."]
    assert await bed.store.users.balance(ana.id) == 1000


async def test_help_says_a_chat_admin_turns_rebuys_on(bed: Bed) -> None:
    ana = bed.players("Ana")[0]
    await ana.start_bot()
    (text,) = await reply(bed, ana, ana.dm, "/help")
    assert "/rebuy cancel: Take back a rebuy asked for during your hand" in text
    assert text.endswith("Rebuys from the house are off until a chat admin turns them on: "
                         "/settings rebuy 500."), text
