"""A stand-in world that tells the page when anything in it changed."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bot.sandbox.world import World


class WatchedWorld(World):
    """A `World` with a revision number that grows at every change, and an event for it."""

    def __init__(self, **kwargs: Any) -> None:
        self.revision = 0
        self.changed = asyncio.Event()
        super().__init__(**kwargs)

    def touch(self) -> None:
        super().touch()
        self.revision += 1
        self.changed.set()

    async def next_change(self, seen: int, timeout: float) -> int:  # noqa: ASYNC109
        """Wait until the revision passes `seen` (or `timeout` runs out); the revision."""
        if self.revision == seen:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout)
        return self.revision
