"""No message is lost to a flood wait or a dropped connection: every kind of message the
bot sends arrives through them, or is counted as no longer worth sending."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest

from bot.outbox import SEND_TRIES
from bot.outbox import base as outbox_base
from bot.outbox import group as outbox_group
from bot.pacing import EDIT, URGENT
from bot.sandbox.faults import Fault
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.seeds import find_seed, points_of, replica


def cards(player: Player) -> list[str]:
    return [m.text or "" for m in player.dm.bot_messages() if "Hand 1:" in (m.text or "")]


async def two_in_a_hand(bed: Bed) -> tuple[ChatRecord, list[Player], Player]:
    """Ana and Boris at a table in Svara night, the first hand dealt; and whose turn it is."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    return group, players, ana if hand.seats[hand.to_act].player == ana.id else boris


async def test_card_messages_arrive_through_a_flood_wait_and_a_dropped_connection(
        bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(1), chat_id=ana.id)
    bed.tg.faults.fail_next("sendMessage", Fault.drop(), chat_id=boris.id)
    await bed.press(ana, group, "Start")
    await bed.idle()
    assert len(cards(ana)) == 1 and len(cards(boris)) == 1
    assert bed.services.outbox.delivered["flood waits"] == 1
    assert bed.services.outbox.delivered["lost"] == 0
    # Both went out: noted now, and written with the next step, so a restart would not
    # send them again (a crash before it sends them twice, never not at all).
    live = bed.live(group)
    assert live.cards_due == 1
    assert (await bed.store.hands.get(live.hand_id)).cards_sent == 0
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    first = next(p for p in players if p.id == hand.seats[hand.to_act].player)
    table = await bed.table_message(group)
    labels = [b for row in table.buttons for b in row]
    await bed.press(first, group, bed.button(table, next(b for b in labels
                                                         if b.startswith(("Bet", "Call")))))
    assert live.hand is hand and not hand.is_over
    assert (await bed.store.hands.get(live.hand_id)).cards_sent == 1


async def test_replies_in_a_group_and_in_private_arrive_through_flood_waits(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(1), chat_id=group.id, times=2)
    await ana.send(group, "/help")
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(1), chat_id=boris.id)
    await boris.start_bot()
    await bed.idle()
    assert [m for m in bed.seen(group, ana) if m.reply_to is not None]
    assert boris.dm.bot_messages()
    assert bed.services.outbox.delivered["flood waits"] == 3


async def test_the_results_message_arrives_through_a_flood_wait(bed: Bed) -> None:
    group, players, first = await two_in_a_hand(bed)
    await players[0].send(group, "/endgame")
    await bed.idle()
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(1), chat_id=group.id)
    await blind_then_fold(bed, group, first)
    assert any("Results" in (m.text or "") or "results" in (m.text or "")
               for m in group.bot_messages()), [m.text for m in group.bot_messages()]


async def blind_then_fold(bed: Bed, group: ChatRecord, first: Player) -> None:
    """The first to act passes on the blind, then folds to the next one's bet: the hand
    ends."""
    await bed.press(first, group, "No blind")
    await bed.press(first, group, "Fold")


async def test_a_reminder_whose_turn_passed_during_a_flood_wait_is_not_sent(
        bed: Bed) -> None:
    group, _, first = await two_in_a_hand(bed)
    live = bed.live(group)
    table = await bed.table_message(group)
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(1), chat_id=first.id)
    assert live.wait is not None
    await bed.games.on_remind(live.id, live.wait)  # its delay ran out
    # During the flood wait the player acts: the turn the reminder was for has passed.
    press = await first.press(table, "No blind")
    await press.answer()
    await bed.idle()
    assert not [m for m in first.dm.bot_messages() if (m.text or "").startswith("Your turn")]
    assert bed.services.outbox.delivered["superseded"] == 1


async def test_a_results_message_cut_off_by_a_stop_arrives_after_the_restart(bed: Bed) -> None:
    group, players, first = await two_in_a_hand(bed)
    await players[0].send(group, "/endgame")
    await bed.idle()
    live = bed.live(group)
    # The results message meets a long flood wait, and the bot stops during it.
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(600), chat_id=group.id)
    await bed.press(first, group, "No blind")
    table = await bed.table_message(group)
    await (await first.press(table, "Fold")).answer()
    await bed.tg.world.wait_for(lambda: any(
        c.status == 429 and c.chat_id == group.id for c in bed.tg.transcript.calls), timeout=10)
    assert not results_in(group)
    assert [t.id for t in await bed.store.tables.results_due()] == [live.id]
    await bed.services.outbox.stop_sending()  # as the bot's stop does first (bot.app._stop)
    await bed.restart()
    await bed.idle()
    assert len(results_in(group)) == 1
    assert await bed.store.tables.results_due() == []
    await bed.restart()  # delivered: not sent again
    await bed.idle()
    assert len(results_in(group)) == 1


def results_in(group: ChatRecord) -> list[str]:
    return [m.text or "" for m in group.bot_messages() if "results after" in (m.text or "")]


async def end_the_table_losing_its_results(bed: Bed) -> tuple[ChatRecord, int]:
    """A table closes after its one hand, and every try of its results message meets a
    flood wait: the message is lost for now. The group and the table."""
    group, players, first = await two_in_a_hand(bed)
    await players[0].send(group, "/endgame")
    await bed.idle()
    live = bed.live(group)
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(0.01), chat_id=group.id,
                            times=SEND_TRIES)
    await bed.press(first, group, "No blind")
    table = await bed.table_message(group)
    await (await first.press(table, "Fold")).answer()
    await bed.tg.world.wait_for(lambda: bed.services.outbox.delivered["lost"] == 1,
                                timeout=20)
    return group, live.id


async def test_a_results_message_lost_after_every_try_is_sent_again_while_the_bot_runs(
        bed: Bed, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox_group, "RESULTS_AGAIN", 0.2)
    group, _ = await end_the_table_losing_its_results(bed)
    await bed.tg.world.wait_for(lambda: bool(results_in(group)), timeout=20)
    await bed.idle()
    assert len(results_in(group)) == 1
    assert await bed.store.tables.results_due() == []


async def test_a_results_message_lost_and_waiting_to_be_sent_again_arrives_after_a_restart(
        bed: Bed, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox_group, "RESULTS_AGAIN", 600.0)
    group, table_id = await end_the_table_losing_its_results(bed)
    assert not results_in(group)
    assert [t.id for t in await bed.store.tables.results_due()] == [table_id]
    await bed.services.outbox.stop_sending()
    await bed.restart()
    await bed.idle()
    assert len(results_in(group)) == 1
    assert await bed.store.tables.results_due() == []


async def test_a_players_lost_cards_are_sent_again_after_a_restart(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(0.01), chat_id=boris.id,
                            times=SEND_TRIES)
    await bed.press(ana, group, "Start")
    await bed.tg.world.wait_for(lambda: bed.services.outbox.delivered["lost"] == 1,
                                timeout=20)
    await bed.idle()
    assert len(cards(ana)) == 1 and cards(boris) == []
    # One card message of the round was lost: the round is not noted as sent.
    live = bed.live(group)
    assert live.cards_due == 0
    await bed.services.outbox.stop_sending()
    await bed.restart()
    await bed.idle()
    assert len(cards(boris)) == 1


async def test_each_hand_has_card_messages_of_its_own_and_the_last_hands_stay_as_they_were(
        bed: Bed) -> None:
    """A svara's cards replace its hand's (one card message a hand), but the next hand's
    cards are a new message: the last hand's message keeps the cards it was played with."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    before = {p.name: [m.text for m in p.dm.bot_messages() if "Hand 1:" in (m.text or "")]
              for p in players}
    assert all(len(texts) == 1 for texts in before.values()), before
    live = bed.live(group)
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    first = ana if hand.seats[hand.to_act].player == ana.id else boris
    assert await bed.press(first, group, "Fold") is None
    await bed.ring(group)  # the time between hands is up: hand 2 is dealt
    assert bed.live(group).hand_no == 2
    for player in players:
        texts = [m.text or "" for m in player.dm.bot_messages()]
        assert [t for t in texts if "Hand 1:" in t] == before[player.name], player.name
        assert len([t for t in texts if "Hand 2:" in t]) == 1, (player.name, texts)


async def test_after_a_restart_a_press_in_the_group_tells_the_bot_its_name(bed: Bed) -> None:
    """The group's name comes with every press there: the cards of a deal started by a
    press after a restart name the group without asking Telegram for it."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    await bed.restart()
    await bed.idle()
    asked = len(bed.tg.transcript.of("getChat"))
    assert await bed.press(ana, group, "Start") is None
    await bed.idle()
    assert len(bed.tg.transcript.of("getChat")) == asked
    for player in players:
        (top,) = [(m.text or "").splitlines()[0] for m in player.dm.bot_messages()
                  if "Hand 1:" in (m.text or "")]
        assert top == "🃏 Svara night · hand 1", top


@pytest.mark.parametrize("answers", [True, False])
async def test_after_a_restart_the_cards_name_the_group_as_telegram_tells_it_once(
        bed: Bed, caplog: pytest.LogCaptureFixture, answers: bool) -> None:
    """The bot forgets a group's title when it restarts: a hand dealt by the clock before
    anyone writes there asks Telegram once for both players' cards; when Telegram cannot
    tell, the cards still go, without the group's name."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    first = ana if hand.seats[hand.to_act].player == ana.id else boris
    assert await bed.press(first, group, "Fold") is None
    await bed.restart()
    await bed.idle()
    if not answers:
        bed.tg.faults.fail_next("getChat", Fault.bad_request("chat not found"),
                                chat_id=group.id)
    asked = len(bed.tg.transcript.of("getChat"))
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await bed.ring(group)  # the time between hands is up: hand 2 is dealt
    assert bed.live(group).hand_no == 2
    assert len(bed.tg.transcript.of("getChat")) == asked + 1
    for player in players:
        (top,) = [(m.text or "").splitlines()[0] for m in player.dm.bot_messages()
                  if "Hand 2:" in (m.text or "")]
        assert top == ("🃏 Svara night · hand 2" if answers else "🃏 hand 2"), top
    looked = [line for line in caplog.messages
              if line.startswith(f"could not look up chat {group.id}: ")
              and "chat not found" in line.lower()]
    assert len(looked) == (0 if answers else 1), looked
    # Hand 2 ends by the clock and hand 3 is dealt by it, nobody writing in the group: a
    # title Telegram told is known from then on; one it could not tell is asked for again,
    # not taken as "no title" for good.
    while bed.live(group).hand_no == 2:
        await bed.ring(group)
    assert bed.live(group).hand_no == 3
    assert len(bed.tg.transcript.of("getChat")) == asked + (1 if answers else 2)
    for player in players:
        (top,) = [(m.text or "").splitlines()[0] for m in player.dm.bot_messages()
                  if "Hand 3:" in (m.text or "")]
        assert top == "🃏 Svara night · hand 3", top


async def test_a_results_message_lost_again_and_again_is_tried_less_and_less_often(
        bed: Bed, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Each time every try is lost the pause before the next round doubles, from a minute
    up to a quarter of an hour, and the operator's log says when it comes again."""
    pauses: list[float] = []

    async def sleep(delay: float) -> None:
        pauses.append(delay)
        await asyncio.sleep(0)

    monkeypatch.setattr(outbox_group, "asyncio", SimpleNamespace(**{
        **vars(asyncio), "sleep": sleep}))
    monkeypatch.setattr(outbox_base, "SEND_TRIES", 2)  # a round is lost sooner
    group, players, first = await two_in_a_hand(bed)
    await players[0].send(group, "/endgame")
    await bed.idle()
    live = bed.live(group)
    rounds = 5
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(0.001), chat_id=group.id,
                            times=2 * rounds)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await bed.press(first, group, "No blind")
        table = await bed.table_message(group)
        await (await first.press(table, "Fold")).answer()
        await bed.tg.world.wait_for(lambda: bool(results_in(group)), timeout=30)
        await bed.idle()
    assert pauses == [60.0, 120.0, 240.0, 480.0, 900.0]
    assert bed.services.outbox.delivered["lost"] == rounds
    again = [line for line in caplog.messages if "its results message is sent again" in line]
    assert again[:2] == [f"table {live.id}: its results message is sent again in 60 s",
                         f"table {live.id}: its results message is sent again in 120 s"]
    assert len(again) == rounds and len(results_in(group)) == 1
    lost = [line for line in caplog.messages if line.endswith("lost after 2 tries")]
    assert lost == [f"results message to {group.id} lost after 2 tries"] * rounds, lost
    assert await bed.store.tables.results_due() == []


async def test_a_svaras_cards_held_by_a_flood_wait_past_their_hand_are_not_sent(
        bed: Bed) -> None:
    """Ana's svara cards wait out a flood wait; before it ends the svara is over and the
    next hand dealt: the old cards are no longer worth an edit, and her record of the
    first hand keeps the cards it was dealt with. (No step here waits for the bot to be
    idle: that would wait for the flood wait too.)"""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    seed, _ = find_seed(replica(bed.live(group)), lambda h: h.dealer == 1 and len(
        set(points_of(h).values())) == 1)
    bed.seeds.append(seed)
    await bed.press(ana, group, "Start")
    (record,) = [m for m in ana.dm.bot_messages() if "Hand 1:" in (m.text or "")]
    dealt = record.text
    assert await bed.press(ana, group, "Bet 10") is None
    bed.tg.faults.fail_next("editMessageText", Fault.retry_after(5), chat_id=ana.id)
    live = bed.live(group)
    world = bed.tg.world

    async def press(player: Player, label: str) -> None:
        table = world.find_message(group, bed.message_id(live) or 0)
        assert table is not None
        answer = await (await player.press(table, label)).answer()
        assert not answer.show_alert, answer.text

    await press(boris, "Call 10")  # a svara: new cards, Ana's held by the flood wait
    await world.wait_for(lambda: live.hand is not None and live.hand.round_no == 2
                         and any(c.status == 429 for c in bed.tg.transcript.calls),
                         timeout=5, what="the svara dealt")
    assert live.hand is not None
    to_act = live.hand.seats[live.hand.to_act or 0].player

    def svara_shown() -> bool:
        table = world.find_message(group, bed.message_id(live) or 0)
        text = "" if table is None else table.text or ""
        return text.splitlines()[0].endswith("· svara") and "Fold" in str(table.buttons
                                                                          if table else "")

    await world.wait_for(svara_shown, timeout=5, what="the svara's buttons")
    await press(ana if to_act == ana.id else boris, "Fold")
    await world.wait_for(lambda: (live.wait is not None and live.hand is None)
                         or (live.hand is not None and live.hand.is_over), timeout=5,
                         what="the svara over")
    superseded = bed.services.outbox.delivered["superseded"]
    wait = live.wait
    assert wait is not None
    await bed.games.on_timer(live.id, wait)  # the next hand is dealt before the wait ends
    assert live.hand_no == 2
    await world.wait_for(
        lambda: bed.services.outbox.delivered["superseded"] == superseded + 1, timeout=10,
        what="the old cards superseded")
    assert record.text == dealt


async def test_a_player_who_blocked_the_bot_is_recorded_so_and_the_log_says_why(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    """Boris blocked the bot after he sat down: his cards cannot reach him, the store
    records that he has no private chat (his cards stay a press on My cards away), and the
    operator's log says whose cards and why."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    assert (await bed.store.users.get(boris.id)).private_chat
    boris.block_bot()
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await bed.press(ana, group, "Start")
        await bed.idle()
    assert not (await bed.store.users.get(boris.id)).private_chat
    assert (await bed.store.users.get(ana.id)).private_chat
    assert any(line.startswith(f"cards to {boris.id}: blocked") for line in caplog.messages), \
        caplog.messages


async def test_cards_held_by_a_flood_wait_past_their_hand_are_not_sent(bed: Bed) -> None:
    """Ana's cards wait out a long flood wait; meanwhile the hand is folded and the next
    one dealt: the first hand's cards are no longer worth sending, the second's arrive."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # cards at the deal
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    world = bed.tg.world
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(5), chat_id=ana.id)
    table = world.find_message(group, bed.message_id(live) or 0)
    assert table is not None
    await (await ana.press(table, "Start")).answer()
    await world.wait_for(lambda: live.hand is not None and any(
        c.status == 429 for c in bed.tg.transcript.calls), timeout=5, what="the deal")
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    first = ana if hand.seats[hand.to_act].player == ana.id else boris

    def shown() -> bool:
        message = world.find_message(group, bed.message_id(live) or 0)
        return message is not None and "Fold" in str(message.buttons)

    await world.wait_for(shown, timeout=5, what="the first turn's buttons")
    table = world.find_message(group, bed.message_id(live) or 0)
    assert table is not None
    answer = await (await first.press(table, "Fold")).answer()
    assert not answer.show_alert, answer.text
    await world.wait_for(lambda: live.wait is not None and live.hand_no == 1
                         and (live.hand is None or live.hand.is_over), timeout=5,
                         what="the hand over")
    superseded = bed.services.outbox.delivered["superseded"]
    wait = live.wait
    assert wait is not None
    await bed.games.on_timer(live.id, wait)  # the next hand is dealt before the wait ends
    assert live.hand_no == 2
    await world.wait_for(
        lambda: bed.services.outbox.delivered["superseded"] == superseded + 1, timeout=10,
        what="the first hand's cards superseded")
    await bed.idle()
    texts = [m.text or "" for m in ana.dm.bot_messages()]
    assert not [t for t in texts if "Hand 1:" in t] and [t for t in texts if "Hand 2:" in t]


async def test_a_practice_tables_cards_keep_the_pace_of_its_private_chat(
        bed: Bed, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a practice table the cards and the table message share the player's private
    chat: the cards wait for a slot of its pace, ahead of the table's edits."""
    ana = bed.players("Ana")[0]
    await ana.start_bot()
    await bed.idle()
    pace = bed.services.outbox.pace
    taken: list[tuple[int, int]] = []
    real = pace.slot

    async def slot(chat_id: int, priority: int = EDIT) -> None:
        taken.append((chat_id, priority))
        await real(chat_id, priority)

    monkeypatch.setattr(pace, "slot", slot)
    await ana.send(ana.dm, "/practice 1")
    await bed.idle()
    taken.clear()
    assert await bed.press(ana, ana.dm, "No blind") is None
    assert len([m for m in ana.dm.bot_messages() if "Hand 1:" in (m.text or "")]) == 1
    # The table's edit, then her cards (a new message: ahead of any edit).
    assert sorted(taken) == [(ana.id, URGENT), (ana.id, EDIT)], taken


async def test_names_that_look_like_links_give_no_preview_under_the_table_or_its_results(
        bed: Bed) -> None:
    """A player may call himself a web address: Telegram would show a preview of it under
    the table message and the results, so both turn link previews off."""
    ana, boris = players = bed.players("t.me/ana_shop", "Boris")
    group = bed.group(*players)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    await ana.send(group, "/table")  # posted anew below: a new message, not yet edited
    await bed.idle()
    posted = await bed.table_message(group)
    assert posted.edit_date is None and posted.previews is False
    await ana.send(group, "/endgame")
    await bed.idle()
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    first = ana if hand.seats[hand.to_act].player == ana.id else boris
    table = await bed.table_message(group)
    assert "t.me/ana_shop" in (table.text or "") and table.previews is False
    await blind_then_fold(bed, group, first)
    await bed.idle()
    results = [m for m in group.bot_messages() if "results after" in (m.text or "")]
    assert len(results) == 1 and "t.me/ana_shop" in (results[0].text or "")
    assert results[0].previews is False


async def test_a_practice_tables_results_wait_for_a_slot_of_its_private_chat(
        bed: Bed, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new message into the player's private chat takes a slot of its pace, the
    results message of a practice table too."""
    ana = bed.players("Ana")[0]
    await ana.start_bot()
    await bed.idle()
    await ana.send(ana.dm, "/practice 1")
    await bed.idle()
    pace = bed.services.outbox.pace
    taken: list[tuple[int, int]] = []
    real = pace.slot

    async def slot(chat_id: int, priority: int = EDIT) -> None:
        taken.append((chat_id, priority))
        await real(chat_id, priority)

    monkeypatch.setattr(pace, "slot", slot)
    before = len(ana.dm.bot_messages())
    await ana.send(ana.dm, "/leave")
    await bed.tg.world.wait_for(lambda: bed.games.at(ana.dm.id, None) is None, timeout=30)
    await bed.idle()
    new = ana.dm.bot_messages()[before:]
    assert [m for m in new if (m.text or "").startswith("🏁 Svara: results after 1 hand")]
    assert [t for t in taken if t[0] != ana.id] == []
    assert taken.count((ana.id, URGENT)) == len(new), (taken, [m.text for m in new])
