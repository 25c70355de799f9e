"""A group's pace on its own (no rate limiter behind it): calls into one group are at
least one spacing apart, so no 60 s window holds more than the pace allows, and new
messages go before edits."""

from __future__ import annotations

import asyncio
import itertools
import time

from bot.pacing import EDIT, PER_MINUTE, URGENT, GroupPace

SCALE = 1000.0
"""Minutes pass a thousand times faster: a 60 s window is 60 ms."""


async def test_calls_into_one_group_are_spaced_and_never_more_than_the_pace_a_minute() -> None:
    pace = GroupPace(PER_MINUTE, time_scale=SCALE)
    times: list[float] = []

    async def call() -> None:
        await pace.slot(-1, EDIT)
        times.append(time.monotonic())

    await asyncio.gather(*(call() for _ in range(45)))
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= pace.spacing * 0.999
    window = 60.0 / SCALE
    most = max(sum(1 for t in times if start <= t < start + window) for start in times)
    assert most <= PER_MINUTE


async def test_a_new_message_goes_before_edits_that_wait() -> None:
    pace = GroupPace(PER_MINUTE, time_scale=SCALE)
    order: list[str] = []
    await pace.slot(-1, EDIT)  # the group's slot is taken: the next ones wait

    async def call(name: str, priority: int) -> None:
        await pace.slot(-1, priority)
        order.append(name)

    edits = [asyncio.create_task(call(f"edit {i}", EDIT)) for i in range(3)]
    await asyncio.sleep(0)
    urgent = asyncio.create_task(call("reply", URGENT))
    await asyncio.gather(*edits, urgent)
    assert order[0] == "reply"


async def test_other_groups_do_not_wait_for_a_busy_one() -> None:
    pace = GroupPace(PER_MINUTE, time_scale=1.0)  # a real minute: 3 s between calls
    await pace.slot(-1, EDIT)
    busy = asyncio.create_task(pace.slot(-1, EDIT))  # waits about 3 s
    await asyncio.wait_for(pace.slot(-2, EDIT), timeout=1.0)
    assert not busy.done()
    busy.cancel()
