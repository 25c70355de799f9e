"""The bot's update queue: long polling with offsets, allowed_updates and conflicts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.sandbox.errors import CONFLICT_POLLER, ApiError

JSON = dict[str, Any]

# What Telegram sends when allowed_updates was never set.
DEFAULT_ALLOWED = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)


@dataclass(slots=True, eq=False)
class _Poll:
    """One waiting getUpdates request."""

    wake: asyncio.Event = field(default_factory=asyncio.Event)
    superseded: bool = False


class UpdateQueue:
    """Updates waiting for the bot, delivered by getUpdates or by the webhook."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        self._pending: list[JSON] = []
        self._next_id = 500_000_001
        self._poll: _Poll | None = None
        self._arrived = asyncio.Event()
        self._on_change = on_change
        self.allowed: frozenset[str] = DEFAULT_ALLOWED
        self.dropped: list[JSON] = []  # updates filtered out by allowed_updates

    @property
    def pending(self) -> int:
        """How many updates wait for confirmation."""
        return len(self._pending)

    @property
    def polling(self) -> bool:
        """Whether a getUpdates request is waiting right now."""
        return self._poll is not None

    def push(self, kind: str, payload: JSON) -> JSON | None:
        """Queue an update of `kind`; it is dropped if allowed_updates excludes it."""
        update: JSON = {"update_id": self._next_id, kind: payload}
        self._next_id += 1
        if kind not in self.allowed:
            self.dropped.append(update)
            return None
        self._pending.append(update)
        self._arrived.set()
        if self._poll is not None:
            self._poll.wake.set()
        self._on_change()
        return update

    def set_allowed(self, allowed: list[str] | None) -> None:
        """Apply an allowed_updates parameter; an empty list means the default set."""
        if allowed is None:
            return
        self.allowed = frozenset(allowed) if allowed else DEFAULT_ALLOWED

    def confirm(self, offset: int) -> None:
        """Forget updates below `offset`; a negative offset keeps only the last -offset."""
        before = len(self._pending)
        if offset < 0:
            self._pending = self._pending[offset:]
        else:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        if len(self._pending) != before:
            self._on_change()

    def drop_all(self) -> None:
        """drop_pending_updates: forget everything queued."""
        self._pending.clear()
        self._on_change()

    def peek(self, limit: int = 100) -> list[JSON]:
        """Up to `limit` pending updates, oldest first, without confirming them."""
        return list(self._pending[:limit])

    async def poll(self, offset: int | None, limit: int, wait: float) -> list[JSON]:
        """Serve one getUpdates: confirm, then wait up to `wait` s for something to send.

        A newer getUpdates ends a waiting one with 409, as Telegram does, so two running
        copies of a bot notice each other.
        """
        if offset is not None:
            self.confirm(offset)
        if self._poll is not None:
            self._poll.superseded = True
            self._poll.wake.set()
            self._poll = None
        if self._pending or wait <= 0:
            return self.peek(limit)
        poll = _Poll()
        self._poll = poll
        try:
            await asyncio.wait_for(poll.wake.wait(), wait)
        except TimeoutError:
            pass
        finally:
            if self._poll is poll:
                self._poll = None
        if poll.superseded:
            raise ApiError(409, CONFLICT_POLLER)
        return self.peek(limit)

    def release(self) -> None:
        """Answer a waiting long poll now (the server is stopping)."""
        if self._poll is not None:
            self._poll.wake.set()

    async def wait_any(self) -> None:
        """Wait until at least one update is pending (used by webhook delivery)."""
        while not self._pending:
            self._arrived.clear()
            await self._arrived.wait()
