"""What happens to a table when its group changes under it: Telegram upgrades it to a
supergroup (a new chat id), or the bot is removed from it mid-hand."""

from __future__ import annotations

import logging

import pytest

from bot.records import TableStatus
from tests.e2e.bed import Bed
from tests.e2e.test_delivery import two_in_a_hand


async def test_item2_a_group_upgraded_to_a_supergroup_keeps_its_table(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.open_table(group, ana, boris)
    await ana.send(group, "/language bg")
    await bed.idle()
    await bed.press(ana, group, "Старт")
    live = bed.live(group)
    hand_id = live.hand_id
    balances = {p.id: await bed.store.users.balance(p.id) for p in players}

    supergroup = bed.tg.world.migrate(group, ana)
    await bed.idle()
    # The table, its hand, its language and its settings live on under the new id.
    assert bed.games.at(supergroup.id, None) is live and bed.games.at(group.id, None) is None
    assert live.chat_id == supergroup.id and live.hand_id == hand_id
    assert (await bed.store.chats.get(supergroup.id)).language == "bg"
    assert [t.chat_id for t in await bed.store.tables.live_tables()] == [supergroup.id]
    table = await bed.table_message(supergroup)
    assert table.chat.id == supergroup.id and table.buttons

    # Commands in the supergroup find it; the hand plays on there.
    await boris.send(supergroup, "/table")
    await bed.idle()
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    acting = ana if hand.seats[hand.to_act].player == ana.id else boris
    answer = await bed.press(acting, supergroup, "Без тъмно")
    assert answer is None or "изтекъл" not in answer
    assert live.hand is hand and len(hand.actions) == 1
    assert sum([await bed.store.users.balance(p.id) for p in players]) == sum(balances.values())
    await bed.audit()


async def test_item3_a_bot_removed_mid_hand_stops_dealing_and_sends_the_chips_home(
        bed: Bed) -> None:
    group, players, _ = await two_in_a_hand(bed)
    ana = players[0]
    live = bed.live(group)
    assert live.hand is not None
    before = {p.id: await bed.store.users.balance(p.id) for p in players}
    at_table = {s.user_id: s.stack for s in await bed.store.tables.seats(live.id)}
    in_pot = live.hand.pot

    bed.tg.world.kick_bot(group, ana)
    await bed.idle()
    # No hand goes on where nobody can act: it was refunded, and every stack went home.
    assert bed.games.at(group.id, None) is None and live.status is TableStatus.CLOSED
    assert (await bed.store.hands.get(live.hand_id)).status == "aborted"
    after = {p.id: await bed.store.users.balance(p.id) for p in players}
    assert in_pot > 0 and sum(after.values()) == sum(before.values()) + sum(at_table.values()) \
        + in_pot
    assert not (await bed.store.users.holdings(ana.id)).tables
    for p in players:
        told = [m.text or "" for m in p.inbox]
        assert any("can no longer write to Svara night" in t for t in told), told
    await bed.audit()


async def test_the_letter_of_a_table_closed_with_its_group_names_it_in_each_language(
        bed: Bed) -> None:
    ana = bed.tg.world.user("Ana")
    boris = bed.tg.world.user("Boris", language_code="bg")
    group = bed.tg.world.group("Tom & Jerry", members=[ana, boris], admins=[ana])
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    bed.tg.world.kick_bot(group, ana)
    await bed.idle()
    assert any((m.text or "").startswith("I can no longer write to Tom & Jerry, so the table")
               for m in ana.inbox), [m.text for m in ana.inbox]
    assert any((m.text or "").startswith("Вече не мога да пиша в Tom & Jerry, затова")
               for m in boris.inbox), [m.text for m in boris.inbox]


async def test_the_letter_names_the_group_the_bot_has_not_seen_since_a_restart(
        bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.open_table(group, ana, boris)
    await bed.restart()
    await bed.idle()
    bed.tg.world.kick_bot(group, ana)  # the first the bot hears of the group since
    await bed.idle()
    for p in players:
        told = [m.text or "" for m in p.inbox]
        assert any(t.startswith("I can no longer write to Svara night, so") for t in told), told


async def test_a_letter_to_a_player_who_blocked_the_bot_is_logged_for_the_operator(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await bed.open_table(group, ana, boris)
    boris.block_bot()
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        bed.tg.world.kick_bot(group, ana)
        await bed.idle()
    assert any(m.text and m.text.startswith("I can no longer write to Svara night")
               for m in ana.inbox)
    assert any(line.startswith(f"closing notice to {boris.id}: blocked")
               for line in caplog.messages), caplog.messages
