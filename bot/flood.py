"""One user's flood of commands must not cost anyone else: a user who sends more commands
than a person types is told once to slow down, then ignored for a while.

Only commands count (a reply costs the group a slot of its pace); presses are answered by
popups, which Telegram does not count against the group.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum

from bot.ratelimit import Limit

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


class CommandGuard:
    """How many commands each user sent lately, and who is being ignored."""

    def __init__(self, now: Callable[[], float] = time.monotonic, *, burst: int = BURST,
                 window: float = WINDOW, quiet: float = QUIET) -> None:
        self.now = now
        self.burst, self.window, self.quiet = burst, window, quiet
        self._commands: Limit[int] = Limit.window(burst, window, clock=lambda: self.now())
        self._quiet_until: dict[int, float] = {}
        """Every user remembered, the one heard from most recently last (0.0: not quiet)."""
        self.ignored = 0

    def check(self, user_id: int) -> Verdict:
        now = self.now()
        quiet_until = self._quiet_until.pop(user_id, 0.0)
        self._quiet_until[user_id] = quiet_until
        if now < quiet_until:
            self.ignored += 1
            return Verdict.IGNORE
        if self._commands.take(user_id) > 0.0:
            self._quiet_until[user_id] = now + self.quiet
            self._commands.forget(user_id)
            return Verdict.WARN
        while len(self._quiet_until) > KEPT:
            oldest = next(iter(self._quiet_until))
            del self._quiet_until[oldest]
            self._commands.forget(oldest)
        return Verdict.ANSWER
