"""Whole hands through the buttons, from /newgame to the payout."""

from __future__ import annotations

from engine import format_hand
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, cards_of, find_seed, points_of, replica


async def test_two_players_play_a_hand_to_the_showdown(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    table = await bed.open_table(group, ana, boris)
    assert "1. Ana: 1000" in (table.text or "") and "2. Boris: 1000" in (table.text or "")
    # Boris deals; one of the two holds the better cards.
    seed, hand = find_seed(replica(bed.live(group)),
                           lambda h: h.dealer == 1 and best(points_of(h)) is not None)
    bed.seeds.append(seed)
    winner = best(points_of(hand))
    assert winner is not None

    assert await bed.press(ana, group, "Start") is None
    assert await bed.press(boris, group, "No blind") == "Not your turn."
    assert await bed.press(ana, group, "No blind") is None
    # Both got their own cards privately.
    for seat, player in enumerate(players):
        dm = player.last_dm.text or ""
        assert f"Hand 1: {format_hand(cards_of(hand)[seat])}" in dm, dm
        assert f"Points: {points_of(hand)[seat]}" in dm, dm
    assert await bed.press(boris, group, "Fold") == "Not your turn."
    assert await bed.press(ana, group, "Bet 10") is None
    assert await bed.press(boris, group, "Call 10") is None

    table = await bed.table_message(group)
    screen = [line.strip() for line in (table.text or "").splitlines()]
    assert screen[0] == "🃏 Svara · hand 1 is over", screen
    for seat, player in enumerate(players):
        cards = format_hand(cards_of(hand)[seat])
        assert f"{player.name}: {cards} ({points_of(hand)[seat]})" in screen
    assert f"🏆 {players[winner].name} wins 40 with {points_of(hand)[winner]} points" in screen
    stacks = {p.name: 1020 if i == winner else 980 for i, p in enumerate(players)}
    for name, stack in stacks.items():
        assert f"{name}: {stack}" in screen
    assert {s.player: s.stack for s in bed.live(group).table.seats} == {
        p.id: stacks[p.name] for p in players}
