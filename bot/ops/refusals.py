"""Saves the store refused: counted one by one, logged at most once a minute per cause.

When the disk is full every press fails the same way; a line for each (hundreds a minute
in a busy group) drowns the log and says nothing new. `Refusals.saw` counts every refusal
(``svara_saves_refused_total``) and logs the first one at once; the ones that follow
within `EVERY` seconds are only counted, and the next line says how many there were.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

EVERY = 60.0
"""Seconds between two warnings of refused saves."""


class Refusals:
    """Counts refused saves and writes a warning at most every `every` seconds."""

    def __init__(self, log: logging.Logger, *, every: float = EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.every = every
        self.clock = clock
        self.count = 0
        """Refusals since the bot started."""
        self._logged_at: float | None = None
        self._quiet = 0
        """Refusals counted but not logged since the last line."""

    def saw(self, table: int, what: object, error: BaseException) -> None:
        """The store refused to save ``what`` for ``table`` with ``error``; nothing changed."""
        self.count += 1
        now = self.clock()
        if self._logged_at is not None and now - self._logged_at < self.every:
            self._quiet += 1
            return
        since = (f" ({self._quiet} more refused in the last {int(now - self._logged_at)} s)"
                 if self._quiet and self._logged_at is not None else "")
        self.log.warning("table %s: could not save %s, undone: %s%s", table, what, error, since,
                         extra={"table": table, "refused": self.count})
        self._logged_at = now
        self._quiet = 0
