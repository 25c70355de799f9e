"""The tables' clock: at most one wait per table, each with one absolute deadline.

A wait is fixed when it begins (a new turn, a new round, a lobby that can start) and is
kept, deadline and all, for as long as the table waits for the same thing: a spectator
joining, a redraw of the screen or a player leaving who is not the one to act never moves
it. Its deadline is stored with the table, so after a restart it rings when it would have
(at once, if that moment passed while the bot was down).

`Games` owns one `Clock`; the clock owns the alarms (PTB's job queue in production). It
knows nothing of Telegram messages or of the store.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

log = logging.getLogger(__name__)

RETRY_MAX = 60.0
"""Longest pause between two tries of a timer that could not do its work."""


class WaitKind(StrEnum):
    """What a table's timer does when it rings."""

    BLIND = "blind"
    """The player asked to bet blind did not answer: he passes."""
    TURN = "turn"
    """The player to act did not: he folds (or checks out of the turn)."""
    SVARA = "svara"
    """The time to join a svara is over: it is played by those in it."""
    NEXT = "next"
    """The pause between two hands is over: the next one is dealt."""
    AUTOSTART = "autostart"
    """A lobby with enough players starts by itself."""
    IDLE = "idle"
    """A lobby nobody started closes, and the buy-ins go back."""
    GRACE = "grace"
    """Too few can play the next hand while a broke player is seated who may still rebuy
    or be given chips: the table waits a little for him, then closes (or deals)."""

    @property
    def shown(self) -> bool:
        """Whether the table message shows this wait's clock as the turn's."""
        return self is not WaitKind.IDLE


@dataclass(frozen=True, slots=True)
class Wait:
    """What a table waits for, since when and until when.

    (`kind`, `hand_id`, `turn`) name what is awaited: two waits with the same name are the
    same wait, and the later keeps the earlier's deadline.
    """

    kind: WaitKind
    hand_id: int
    turn: int
    """Which turn of the hand (or state of the lobby) the wait belongs to."""
    started: float
    deadline: float
    """Seconds since the epoch."""
    attempt: int = 0
    """How many times this wait already rang and could not do its work (it rings again)."""

    @property
    def name(self) -> tuple[WaitKind, int, int]:
        return self.kind, self.hand_id, self.turn

    @property
    def seconds(self) -> float:
        """The wait's whole length."""
        return self.deadline - self.started

    def left(self, now: float) -> float:
        return max(0.0, self.deadline - now)

    def again(self, now: float) -> Wait:
        """The same wait, to ring again after its work failed: 1, 2, 4 … 60 seconds on."""
        delay = min(RETRY_MAX, 2.0 ** self.attempt)
        return replace(self, deadline=now + delay, attempt=self.attempt + 1)

    def to_json(self) -> str:
        return json.dumps({"kind": self.kind.value, "hand": self.hand_id, "turn": self.turn,
                           "started": self.started, "deadline": self.deadline},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | None) -> Wait | None:
        """A stored wait; None for none, or for anything unreadable (a fresh wait begins)."""
        if not text:
            return None
        try:
            data = json.loads(text)
            return cls(WaitKind(data["kind"]), int(data["hand"]), int(data["turn"]),
                       float(data["started"]), float(data["deadline"]))
        except (ValueError, KeyError, TypeError):
            log.warning("a stored wait could not be read: %r", text[:200])
            return None


@dataclass(frozen=True, slots=True)
class Want:
    """What a table should wait for now, and for how long if the wait is new."""

    kind: WaitKind
    hand_id: int
    turn: int
    seconds: float


Ring = Callable[[], Awaitable[None]]

TABLE_ALARM = "table-{table}"
"""The alarm that ends a table's wait."""
REMIND_ALARM = "remind-{table}"
"""The alarm of a turn's private reminder."""


class Alarms(Protocol):
    """Something that calls back at an absolute time: PTB's job queue, or a test's list."""

    def set(self, name: str, at: float, ring: Ring) -> None:
        """Call `ring` at `at` (seconds since the epoch), replacing any alarm of `name`."""

    def cancel(self, name: str) -> None:
        """Forget the alarm of `name`, if any."""


class NoAlarms:
    """Alarms that never ring (a table driven by hand, as in tests)."""

    def set(self, name: str, at: float, ring: Ring) -> None:
        return None

    def cancel(self, name: str) -> None:
        return None


class JobQueueAlarms:
    """`Alarms` over python-telegram-bot's `JobQueue` (APScheduler underneath)."""

    def __init__(self, queue: Any) -> None:
        self.queue = queue
        self._jobs: dict[str, Any] = {}

    def set(self, name: str, at: float, ring: Ring) -> None:
        self.cancel(name)

        async def fire(_: Any) -> None:
            await ring()

        # Seconds from now: a deadline that passed while the bot was down rings at once.
        when = dt.timedelta(seconds=max(0.0, at - time.time()))
        job = self.queue.run_once(fire, when=when, name=name)
        self._jobs[name] = job

    def cancel(self, name: str) -> None:
        job = self._jobs.pop(name, None)
        if job is None or job.removed:
            return
        with contextlib.suppress(Exception):  # it may have rung or left with its scheduler
            job.schedule_removal()

    def stop(self) -> None:
        for name in list(self._jobs):
            self.cancel(name)


class Clock:
    """The waits of every table, and the alarms that end them."""

    def __init__(self, now: Callable[[], float], alarms: Alarms | None = None) -> None:
        self.now = now
        self.alarms: Alarms = alarms or NoAlarms()
        self._armed: dict[int, Wait] = {}

    def follow(self, current: Wait | None, want: Want | None) -> Wait | None:
        """The wait a table has once it should wait for `want`: `current` itself, deadline
        and all, when it waits for the same thing; a new one from now otherwise."""
        if want is None:
            return None
        if current is not None and current.name == (want.kind, want.hand_id, want.turn):
            return current
        now = self.now()
        return Wait(want.kind, want.hand_id, want.turn, now, now + want.seconds)

    def cancel(self, table_id: int) -> None:
        """The table waits for nothing any more (it closed)."""
        self._armed.pop(table_id, None)
        self.alarms.cancel(TABLE_ALARM.format(table=table_id))
        self.alarms.cancel(REMIND_ALARM.format(table=table_id))

    def arm(self, table_id: int, wait: Wait | None, ring: Callable[[Wait], Awaitable[None]],
            *, remind_at: float | None = None,
            remind: Callable[[Wait], Awaitable[None]] | None = None) -> None:
        """Set the table's alarm to ring at `wait`'s deadline (and its reminder, if any);
        a wait already armed is left alone."""
        if wait is None:
            self.cancel(table_id)
            return
        if self._armed.get(table_id) == wait:
            return
        self._armed[table_id] = wait
        name = TABLE_ALARM.format(table=table_id)
        self.alarms.cancel(REMIND_ALARM.format(table=table_id))
        armed = wait

        async def ring_now() -> None:
            if self._armed.get(table_id) == armed:
                del self._armed[table_id]  # rung: the same wait may be armed again
            await ring(armed)

        self.alarms.set(name, wait.deadline, ring_now)
        if remind is not None and remind_at is not None and remind_at > self.now():
            call = remind

            async def remind_now() -> None:
                await call(armed)

            self.alarms.set(REMIND_ALARM.format(table=table_id), remind_at, remind_now)
