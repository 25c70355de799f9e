"""One member's flood of commands costs nobody else anything."""

from __future__ import annotations

from bot.flood import BURST, CommandGuard
from bot.sandbox.models import MessageRecord
from tests.e2e.bed import Bed


async def flood_then_press(bed: Bed) -> list[MessageRecord]:
    """Mallory sends 300 /help in a group of his own; then Ana presses Start at her table
    in another group, and her press is answered. What Mallory sees of the bot in his group."""
    flooder, ana, boris = bed.players("Mallory", "Ana", "Boris")
    his = bed.tg.world.group("Mallory's own", members=[flooder], admins=[flooder])
    group = bed.group(ana, boris)
    await bed.open_table(group, ana, boris)
    table = await bed.table_message(group)
    for _ in range(300):
        await flooder.send(his, "/help")
    # While his replies wait for his group's pace, a press elsewhere is answered at once
    # (stalled behind the flood it would take minutes).
    press = await ana.press(table, "Start")
    answer = await press.answer(timeout=10.0)
    assert not answer.show_alert, answer.text
    await bed.idle()
    assert bed.live(group).hand is not None
    return bed.seen(his, flooder)


async def test_item1_one_users_flood_does_not_stall_a_press_in_another_group(
        bed: Bed) -> None:
    # The guard as it runs in production, on a clock that stands still: the whole flood
    # falls within its window however slowly this machine sends it.
    bed.services.guard = CommandGuard(now=lambda: 0.0)
    his = await flood_then_press(bed)
    said = [m.text or "" for m in his]
    warnings = [t for t in said if t.startswith("Too many commands at once")]
    assert len(warnings) == 1, said
    # Repeats of one command merge while they wait, and past the burst he is ignored.
    assert len(said) <= BURST + 1
    assert bed.services.guard.ignored == 300 - BURST - 1  # BURST answered, one warned


async def test_item1_replies_hold_no_update_place_while_their_group_waits(bed: Bed) -> None:
    # The bed's guard lets everything through: the replies wait for their group's pace
    # outside the update handlers all the same.
    his = await flood_then_press(bed)
    # Waiting repeats of his one command were merged: far fewer than 300 replies went out.
    assert 1 <= len(his) <= 10 and bed.services.outbox.replies_dropped >= 290
