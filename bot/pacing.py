"""Each group's share of Telegram: every call into a group waits here for its slot.

Telegram lets a bot put about 20 messages a minute into one group, edits included. A
table at human pace wants more edits than that, so the bot paces itself instead of
collecting 429s: calls into one group are spaced evenly, at most `per_minute` in any
minute, and new messages (a reply, the table message, results) go before edits. Waiting
here never holds a table's lock: only the screen writer and replies wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.ratelimit import Limit

PER_MINUTE = 19
"""Group calls a minute: spaced so that at most 19 fall in any 60 s, network jitter
included (Telegram allows 20)."""

URGENT, EDIT, PERSONAL = 0, 1, 2
"""Priorities: new messages first, then edits of a message already there, then edits of
what one member alone sees (his cards in the group)."""


@dataclass(slots=True)
class _Group:
    waiting: list[tuple[int, int]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class GroupPace:
    """Slots for calls into groups, evenly spaced per group."""

    def __init__(self, per_minute: float = PER_MINUTE, *, time_scale: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        # n calls evenly spaced by 60 / n put n + 1 into some closed minute, and the
        # network's jitter brings two of them closer: spaced by 60 / (n - 1), any minute
        # holds at most n even when calls arrive up to a second and a half late or early.
        self.spacing = 60.0 / max(1.0, per_minute - 1) / time_scale
        self.clock = clock
        self._slots: Limit[int] = Limit(1, self.spacing, clock=clock)
        """Each group's one slot, back `spacing` after it was taken."""
        self._groups: dict[int, _Group] = {}
        self._tickets = itertools.count()

    def wait_for_slot(self, chat_id: int, priority: int | None = None) -> float:
        """Seconds until the next slot of `chat_id` opens (0 when one is free now); with
        `priority`, until a call of that priority asked for now would go: behind every call
        of its priority or a more urgent one already waiting there."""
        wait = self._slots.wait(chat_id)
        group = self._groups.get(chat_id)
        if priority is None or group is None:
            return wait
        return wait + self.spacing * sum(1 for ahead, _ in group.waiting if ahead <= priority)

    def take_spare(self, chat_id: int) -> bool:
        """Take `chat_id`'s slot only if it is free now and no call waits for it: for a call
        that may as well wait for a quiet moment (an edit only one member sees), so that it
        never goes before another. True if it was taken."""
        group = self._groups.get(chat_id)
        if group is not None and group.waiting:
            return False
        return self._slots.take(chat_id) == 0.0

    async def slot(self, chat_id: int, priority: int = EDIT) -> None:
        """Return when this call may go into `chat_id`; the slot is used up."""
        group = self._groups.setdefault(chat_id, _Group())
        ticket = (priority, next(self._tickets))
        heapq.heappush(group.waiting, ticket)
        try:
            while True:
                if group.waiting[0] == ticket:
                    delay = self._slots.take(chat_id)
                    if delay == 0.0:
                        heapq.heappop(group.waiting)
                        group.changed.set()
                        group.changed = asyncio.Event()
                        return
                else:
                    delay = max(self._slots.wait(chat_id), self.spacing)
                changed = group.changed
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=delay or None)
        except BaseException:
            if ticket in group.waiting:
                group.waiting.remove(ticket)
                heapq.heapify(group.waiting)
                group.changed.set()
                group.changed = asyncio.Event()
            raise

    def give_back(self, chat_id: int) -> None:
        """A slot taken but not used (nothing to send after all): the next call may go now."""
        group = self._groups.get(chat_id)
        if group is not None:
            self._slots.give_back(chat_id)
            group.changed.set()
            group.changed = asyncio.Event()
