"""Whole hands through the buttons, from /newgame to the payout."""

from __future__ import annotations

from tests.e2e.bed import Bed


async def test_two_players_play_a_hand_to_the_showdown(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    table = await bed.open_table(group, ana, boris)
    assert "Ana" in (table.text or "") and "Boris" in (table.text or "")
    assert await bed.press(ana, group, "Start") is None
    live = bed.live(group)
    hand = live.hand
    assert hand is not None
    first = bed.tg.world.users[hand.seats[hand.to_act or 0].player]
    actor = ana if first.id == ana.id else boris
    other = boris if actor is ana else ana
    table = await bed.table_message(group)
    print(table.text, table.buttons)
    assert await bed.press(actor, group, "No blind") is None
    table = await bed.table_message(group)
    print(table.text, table.buttons)
    # Both got their cards privately.
    assert "Points" in (ana.last_dm.text or "") and "Points" in (boris.last_dm.text or "")
    assert await bed.press(other, group, "Fold") == "Not your turn."
    await bed.press(actor, group, bed.button(table, "Bet"))
    table = await bed.table_message(group)
    await bed.press(other, group, bed.button(table, "Call"))
    table = await bed.table_message(group)
    print(table.text, table.buttons)
    assert "🏆" in (table.text or "") or "svara" in (table.text or "").lower()
