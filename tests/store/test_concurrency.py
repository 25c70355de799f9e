"""Many tables playing at once share one database without ever mixing transactions."""

from __future__ import annotations

import asyncio
import random

from bot.store import Store
from tests.store.conftest import can_deal, play_hand, seated_table


async def test_many_tables_settle_hands_concurrently(store: Store) -> None:
    tables = [await seated_table(store, 3, chips=2000, buy_in=600, chat_id=-100 - i,
                                 first_user=1 + 3 * i) for i in range(12)]

    async def run(index: int) -> int:
        rng, played = random.Random(index), 0
        for n in range(8):
            if not can_deal([s.stack for s in await store.tables.seats(tables[index].id)]):
                break
            await play_hand(store, tables[index], rng, dealer=n)
            played += 1
        return played

    played = await asyncio.gather(*(run(i) for i in range(len(tables))))
    assert sum(played) > 50
    report = await store.audit()
    assert report.ok, report.violations
    assert report.hands == {"settled": sum(played)} and report.granted == 36 * 2000
