"""The table message in the group, as Telegram stores it: the turn's deadline as a clock the
reader's app counts down, and the last showdown face up until the next hand's first action."""

from __future__ import annotations

import math

from engine import format_hand
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, cards_of, find_seed, points_of, replica


async def test_the_turns_deadline_reaches_the_group_as_a_date_time_entity(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    live = bed.live(group)
    assert live.wait is not None
    table = await bed.table_message(group)
    clocks = [e for e in table.entities if e["type"] == "date_time"]
    assert [(e["unix_time"], e["date_time_format"]) for e in clocks] == [
        (math.ceil(live.wait.deadline), "r")]


async def test_the_last_showdown_stays_face_up_until_the_next_hands_first_action(
        bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await bed.open_table(group, ana, boris)
    seed, hand = find_seed(replica(bed.live(group)),
                           lambda h: h.dealer == 1 and best(points_of(h)) is not None)
    bed.seeds.append(seed)
    assert await bed.press(ana, group, "Start") is None
    assert await bed.press(ana, group, "No blind") is None
    assert await bed.press(ana, group, "Bet 10") is None
    assert await bed.press(boris, group, "Call 10") is None
    faces = [f"{p.name}: {format_hand(cards_of(hand)[seat])} ({points_of(hand)[seat]})"
             for seat, p in enumerate(players)]
    await bed.ring(group)  # the pause between hands is over: the next hand is dealt
    table = await bed.table_message(group)
    text = table.text or ""
    assert "🃏 Svara · hand 2" in text, text
    for face in faces:
        assert face in text, text
    live = bed.live(group)
    first = live.table.seats[live.hand.to_act or 0].player if live.hand else 0
    acting = next(p for p in players if p.id == first)
    assert await bed.press(acting, group, "No blind") is None
    text = (await bed.table_message(group)).text or ""
    for face in faces:
        assert face not in text, text
