"""A group's pace on its own (no rate limiter behind it): calls into one group are at
least one spacing apart, so no 60 s window holds more than the pace allows, and new
messages go before edits."""

from __future__ import annotations

import asyncio
import itertools
import time

from bot.pacing import EDIT, PER_MINUTE, URGENT, GroupPace

SCALE = 100.0
"""Minutes pass a hundred times faster: a 60 s window is 600 ms."""


async def test_calls_into_one_group_are_spaced_and_never_more_than_the_pace_a_minute() -> None:
    pace = GroupPace(PER_MINUTE, time_scale=SCALE)
    times: list[float] = []

    async def call() -> None:
        await pace.slot(-1, EDIT)
        times.append(time.monotonic())

    await asyncio.gather(*(call() for _ in range(25)))
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= pace.spacing * 0.999
    # Calls at least `spacing` apart put at most PER_MINUTE into any closed minute, even
    # when the network brings two of them up to a second and a half closer (jitter):
    window, jitter = 60.0 / SCALE, 1.5 / SCALE
    assert PER_MINUTE * pace.spacing > window + jitter
    most = max(sum(1 for t in times if start <= t <= start + window) for start in times)
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


async def test_the_wait_told_for_a_call_counts_the_calls_waiting_ahead_of_it() -> None:
    now = [1000.0]
    pace = GroupPace(21.0, clock=lambda: now[0])  # one slot every 3 s
    assert pace.spacing == 3.0
    assert pace.wait_for_slot(-1) == pace.wait_for_slot(-1, URGENT) == 0.0  # all quiet
    await pace.slot(-1, URGENT)  # taken now: the next one opens in 3 s
    now[0] += 1.0
    assert pace.wait_for_slot(-1) == pace.wait_for_slot(-1, URGENT) == 2.0
    # Two answers and an edit queue up behind it: an answer asked for now goes after the
    # two answers (an edit waits behind every answer), an edit after all three.
    waiting = [asyncio.create_task(pace.slot(-1, p)) for p in (URGENT, URGENT, EDIT)]
    await asyncio.sleep(0)
    assert pace.wait_for_slot(-1) == 2.0  # the slot itself
    assert pace.wait_for_slot(-1, URGENT) == 2.0 + 2 * 3.0
    assert pace.wait_for_slot(-1, EDIT) == 2.0 + 3 * 3.0
    assert pace.wait_for_slot(-2, URGENT) == 0.0  # another group waits for nothing
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    assert pace.wait_for_slot(-1, URGENT) == 2.0  # the cancelled calls wait no more
