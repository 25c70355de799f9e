"""One user's flood of commands must not cost anyone else: a user who sends more commands
than a person types is told once to slow down, then ignored for a while.

Only commands count (a reply costs the group a slot of its pace); presses are answered by
popups, which Telegram does not count against the group.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

BURST = 6
"""Commands a user may send within `WINDOW` seconds; the next one is past the burst."""
WINDOW = 3.0
QUIET = 30.0
"""Seconds a user who went past the burst is ignored."""
KEPT = 10_000
"""Users remembered at once; the quietest are forgotten first past that."""


class Verdict(Enum):
    ANSWER = "answer"
    WARN = "warn"
    """Past the burst just now: told once to slow down."""
    IGNORE = "ignore"


@dataclass
class _User:
    times: deque[float]
    quiet_until: float = 0.0


class CommandGuard:
    """How many commands each user sent lately, and who is being ignored."""

    def __init__(self, now: Callable[[], float] = time.monotonic, *, burst: int = BURST,
                 window: float = WINDOW, quiet: float = QUIET) -> None:
        self.now = now
        self.burst, self.window, self.quiet = burst, window, quiet
        self._users: dict[int, _User] = {}
        self.ignored = 0

    def check(self, user_id: int) -> Verdict:
        now = self.now()
        user = self._users.pop(user_id, None) or _User(deque(maxlen=self.burst + 1))
        self._users[user_id] = user  # the most recent last, for forgetting the oldest
        if now < user.quiet_until:
            self.ignored += 1
            return Verdict.IGNORE
        user.times.append(now)
        if len(user.times) > self.burst and now - user.times[0] < self.window:
            user.quiet_until = now + self.quiet
            user.times.clear()
            return Verdict.WARN
        while len(self._users) > KEPT:
            del self._users[next(iter(self._users))]
        return Verdict.ANSWER
