"""Chat admins switch every table setting with /settings; others cannot."""

from __future__ import annotations

from engine import TieRule
from tests.e2e.bed import Bed


async def test_an_admin_switches_a_variant_and_a_member_cannot(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris, admins=(ana,))
    await boris.send(group, "/settings tie split")
    await bed.idle()
    assert "creator or a chat admin" in (group.last_bot_message.text or "")
    await ana.send(group, "/settings tie split")
    await bed.idle()
    assert "Saved" in (group.last_bot_message.text or "")
    assert "ties: split" in (group.last_bot_message.text or "")
    await ana.send(group, "/settings ante lots")
    await bed.idle()
    assert "give a number" in (group.last_bot_message.text or "")
    await ana.send(group, "/settings blindcap 3")
    await bed.idle()
    assert "not accepted" in (group.last_bot_message.text or "")
    table = await bed.open_table(group, ana, boris)
    assert "ties: split" in (table.text or "")
    assert bed.live(group).settings.tie is TieRule.SPLIT


async def test_a_change_during_a_hand_applies_from_the_next_deal(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris, admins=(ana,))
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    live = bed.live(group)
    await ana.send(group, "/settings ante 20")
    await bed.idle()
    assert live.settings.ante == 10
    assert live.hand is not None and live.hand.rules.ante == 10
    assert "Pot: 20 · dealer" in ((await bed.table_message(group)).text or "")

    # The hand ends at the old ante: the first to act declines the blind and folds.
    first = live.hand.seats[live.hand.to_act or 0].player
    actor = next(p for p in players if p.id == first)
    assert await bed.press(actor, group, "No blind") is None
    assert await bed.press(actor, group, "Fold") is None
    assert live.hand is None
    stacks = {s.player: s.stack for s in live.table.seats}
    assert sorted(stacks.values()) == [990, 1010]

    await bed.ring(group)  # the next deal
    hand = live.hand
    assert hand is not None and bed.live(group).hand_no == 2
    assert hand.rules.ante == 20 and live.settings.ante == 20
    assert "Pot: 40 · dealer" in ((await bed.table_message(group)).text or "")
    assert hand.stacks == {p: stack - 20 for p, stack in stacks.items()}


async def test_a_top_up_during_the_hand_comes_at_the_next_one(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris, admins=(ana,))
    await bed.store.chats.set_settings(group.id, {"max_buy_in_antes": 50})
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    assert [s.stack for s in live.table.seats] == [500, 500]
    await ana.send(group, "/topup")
    await bed.idle()
    assert "You can add up to 0 chips" in (group.last_bot_message.text or "")
    await bed.press(ana, group, "Start")
    await boris.send(group, "/topup 10")
    await bed.idle()
    assert group.last_bot_message.text == (
        "+10 chips at the next hand. /topup cancel takes it back.")
    assert await bed.store.users.balance(boris.id) == 500  # nothing moves during the hand


async def test_a_lobby_nobody_starts_closes_by_itself_and_refunds(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    message_id = bed.message_id(live)
    assert live.wait is not None and live.wait.kind == "idle"
    await bed.games.on_timer(live.id, live.wait)
    await bed.idle()
    table = bed.tg.world.find_message(group, message_id or 0)
    assert table is not None and "Nobody started the game" in (table.text or "")
    assert table.buttons == []
    assert [await bed.store.users.balance(p.id) for p in (ana, boris)] == [1000, 1000]
    assert bed.games.at(group.id, None) is None


async def test_the_lobby_starts_by_itself_when_autostart_is_set(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris, admins=(ana,))
    await ana.send(group, "/settings autostart 0.5")
    await bed.idle()
    table = await bed.open_table(group, ana, boris)
    assert "starts by itself in" in (table.text or "")
    # The timer deals, and its edit may wait for the group's rate limit.
    await bed.tg.world.wait_for(lambda: "blind or not?" in (table.text or ""), timeout=5)
    assert bed.live(group).hand is not None


async def test_a_refused_change_is_answered_like_any_refusal(bed: Bed) -> None:
    ana, boris, cyril = bed.players("Ana", "Boris", "Cyril")
    group = bed.group(ana, boris, cyril, admins=(ana,))
    await bed.open_table(group, ana, boris, cyril)
    await ana.send(group, "/settings seats 2")
    await bed.idle()
    assert group.last_bot_message.text == "seats 2 is not accepted: more players are seated"
    assert bed.live(group).settings.max_seats == 10
    await ana.send(group, "/settings")
    await bed.idle()
    assert "\nSeats: 10 · seats\n" in (group.last_bot_message.text or "")
