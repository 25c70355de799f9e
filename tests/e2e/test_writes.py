"""What a hand costs the store: transactions per hand, as the bot really writes them."""

from __future__ import annotations

from tests.e2e.bed import Bed

MOST_PER_HAND = 12


async def test_a_hand_costs_at_most_twelve_transactions(bed: Bed) -> None:
    players = bed.players("Ana", "Boris", "Carol")
    ana = players[0]
    group = bed.group(*players)
    await bed.store.chats.set_settings(group.id, {"blind": False})
    await bed.open_table(group, *players)
    db = bed.store.db
    commits, units = db.commits, db.writes.copy()
    hands = 0
    await bed.press(ana, group, "Start")
    for _ in range(4):
        live = bed.live(group)
        while live.hand is not None:
            hand = live.hand
            assert hand.to_act is not None
            acting = next(p for p in players if p.id == hand.seats[hand.to_act].player)
            table = await bed.table_message(group)
            labels = [b for row in table.buttons for b in row]
            # The first bets, everyone calls: a showdown, every seat acting.
            label = next((b for b in labels if b.startswith(("Call", "Bet"))), "Fold")
            await bed.press(acting, group, bed.button(table, label))
        hands += 1
        await bed.ring(group)  # the pause between hands is over
    per_hand = (db.commits - commits) / hands
    assert per_hand <= MOST_PER_HAND, (per_hand, db.writes - units)
