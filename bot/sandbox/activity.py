"""Knowing when the bot has gone quiet, so tests wait for it instead of sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.sandbox.errors import SandboxError


class Activity:
    """Counts requests in flight and remembers when anything last happened.

    `pending` reports updates the bot has not confirmed yet; the world supplies it.
    """

    def __init__(self, pending: Callable[[], int]) -> None:
        self._pending = pending
        self._in_flight = 0
        self._last_activity = 0.0

    def touch(self) -> None:
        """Note that something happened (restarts the quiet period)."""
        self._last_activity = asyncio.get_running_loop().time() if _loop_running() else 0.0

    def begin_request(self) -> None:
        """A bot request (other than a long poll) started."""
        self._in_flight += 1
        self.touch()

    def end_request(self) -> None:
        """A bot request finished."""
        self._in_flight -= 1
        self.touch()

    def is_idle(self, quiet: float) -> bool:
        """No pending updates, no requests in flight, and nothing happened for `quiet` s."""
        if self._pending() or self._in_flight:
            return False
        return asyncio.get_running_loop().time() - self._last_activity >= quiet

    # Tests read best with a plain timeout argument, hence the noqa on these two helpers.
    async def wait_idle(self, quiet: float = 0.1, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Wait until the bot has gone quiet; a test error if it does not within `timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.is_idle(quiet):
            if loop.time() > deadline:
                raise SandboxError(
                    f"the bot did not go quiet within {timeout}s: {self._pending()} updates"
                    f" pending, {self._in_flight} requests in flight"
                )
            await asyncio.sleep(0.01)

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = 5.0,  # noqa: ASYNC109
        what: str = "condition",
    ) -> Any:
        """Wait until `predicate()` is truthy and return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if loop.time() > deadline:
                raise SandboxError(f"{what} did not become true within {timeout}s")
            await asyncio.sleep(0.01)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
