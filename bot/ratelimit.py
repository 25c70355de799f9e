"""How often one key (a user, a chat) may do something, on the monotonic clock.

Each key has `burst` tokens. Going uses one up, and a token taken at `now` comes back
`hold` seconds later, and never sooner than `gap` seconds after the token taken before it:

- a token bucket (`Limit.bucket`: a burst at once, then `rate` a second) has `hold` and
  `gap` both ``1 / rate``: the tokens drip back one at a time;
- a sliding window (`Limit.window`: at most `count` in any `seconds`) has `hold` the
  window and no `gap`: each token comes back a whole window after it went;
- with one token both are the same: calls spaced at least `hold` apart.

A key remembers no more than `burst` times; which keys are remembered is the caller's
business (`forget`, `clear`, ``len``), since each caller bounds its own differently.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class Limit(Generic[K]):
    """Tokens of each key: may it go now, how long until it may, and a token given back."""

    def __init__(self, burst: int, hold: float, *, gap: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if burst < 1 or hold < 0 or gap < 0:
            raise ValueError("a limit needs a token and no negative time")
        self.burst, self.hold, self.gap = burst, hold, gap
        self.clock = clock
        self._back: dict[K, deque[float]] = {}
        """When each key's tokens taken lately come back, the earliest first."""

    @classmethod
    def bucket(cls, burst: int, rate: float, *,
               clock: Callable[[], float] = time.monotonic) -> Limit[K]:
        """`burst` at once, then `rate` a second."""
        return cls(burst, 1.0 / rate, gap=1.0 / rate, clock=clock)

    @classmethod
    def window(cls, count: int, seconds: float, *,
               clock: Callable[[], float] = time.monotonic) -> Limit[K]:
        """At most `count` in any `seconds`."""
        return cls(count, seconds, clock=clock)

    def _wait(self, back: deque[float] | None, now: float) -> float:
        if back is None or len(back) < self.burst:
            return 0.0
        return max(0.0, back[0] - now)

    def wait(self, key: K) -> float:
        """Seconds until `key` may go (0.0: it may now); nothing is used up."""
        return self._wait(self._back.get(key), self.clock())

    def take(self, key: K) -> float:
        """Go now if `key` may, using up a token (0.0); else the seconds until it may,
        and nothing is used up."""
        now = self.clock()
        back = self._back.get(key)
        delay = self._wait(back, now)
        if delay > 0.0:
            return delay
        if back is None:
            back = self._back[key] = deque(maxlen=self.burst)
        # Full, the earliest token is back by now: appending lets it go.
        latest = now + self.hold
        if back:
            latest = max(latest, back[-1] + self.gap)
        back.append(latest)
        return 0.0

    def give_back(self, key: K) -> None:
        """The token `key` took last was not used after all: it is back now."""
        back = self._back.get(key)
        if back:
            back.pop()

    def forget(self, key: K) -> None:
        """`key` starts again with all its tokens."""
        self._back.pop(key, None)

    def clear(self) -> None:
        self._back.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._back

    def __len__(self) -> int:
        return len(self._back)
