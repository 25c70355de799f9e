"""Races between buy-ins are answered: a buy-in reads the balance where it moves it."""

from __future__ import annotations

import asyncio

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed

MAX_BUY_IN = 1000
"""The default table: ante 10, at most 100 antes."""


async def _two_tables(bed: Bed, buyin: int = 100) -> tuple[Player, ChatRecord, ChatRecord]:
    """Two groups, each with an open table (``buyin`` antes of 10 at most), and Ana, a member
    of both, with 1500 chips."""
    ana, boris, vera = bed.players("Ana", "Boris", "Vera")
    one = bed.tg.world.group("Monday", members=(boris, ana), admins=(boris,))
    two = bed.tg.world.group("Tuesday", members=(vera, ana), admins=(vera,))
    for admin, group in ((boris, one), (vera, two)):
        if buyin != 100:
            await admin.send(group, f"/settings buyin {buyin}")
            await bed.idle()
            assert "Saved" in (group.last_bot_message.text or "")
        await bed.open_table(group, admin)
        assert bed.live(group).settings.max_buy_in == buyin * 10
    await ana.start_bot()
    await bed.idle()
    await bed.store.users.grant(ana.id, 500)
    assert await bed.store.users.balance(ana.id) == 1500
    return ana, one, two


def _stacks(bed: Bed, player: Player, *groups: ChatRecord) -> list[int]:
    """His stack at each table, -1 where he has no seat, smallest first."""
    stacks = []
    for group in groups:
        seat = bed.live(group).table.seat(player.id)
        stacks.append(-1 if seat is None else seat.stack)
    return sorted(stacks)


async def _join_both(bed: Bed, player: Player, *groups: ChatRecord) -> list[tuple[bool, str]]:
    """Press Join on both tables at the same instant; the answers, sorted."""
    tables = [await bed.table_message(g) for g in groups]
    presses = await asyncio.gather(*(player.press(t, "Join") for t in tables))
    answers = [await p.answer() for p in presses]
    await bed.idle()
    return sorted((a.show_alert, a.text or "") for a in answers)


async def test_item15_races_between_buy_ins_two_groups_joining_at_once(bed: Bed) -> None:
    """1500 chips, Join in two groups at once: one table gets 1000, the other the 500 left."""
    ana, one, two = await _two_tables(bed)
    assert await _join_both(bed, ana, one, two) == [(False, ""), (False, "")]
    assert _stacks(bed, ana, one, two) == [500, 1000]
    assert await bed.store.users.balance(ana.id) == 0
    stored = [s.stack for g in (one, two)
              for s in await bed.store.tables.seats(bed.live(g).id) if s.user_id == ana.id]
    assert sorted(stored) == [500, 1000]
    for group in (one, two):
        assert "Ana" in ((await bed.table_message(group)).text or "")


async def test_item15_races_between_buy_ins_the_loser_is_told_what_is_left(bed: Bed) -> None:
    """Tables of 1500 at most: the first Join takes all, the second is told he has 0."""
    ana, one, two = await _two_tables(bed, buyin=150)
    assert await _join_both(bed, ana, one, two) == [
        (False, ""),
        (True, "You need at least 10 chips to sit at this table (you have 0 chips). "
               "A friend can /give you chips, and /daily gives you free chips now."),
    ]
    assert _stacks(bed, ana, one, two) == [-1, 1500]
    assert await bed.store.users.balance(ana.id) == 0
