"""Webhook delivery: POST each update to the bot's URL, in order, retrying failures."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import aiohttp

from bot.sandbox.updates import UpdateQueue
from bot.sandbox.world import World

_LOG = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Webhook:
    """The webhook setting and the task that delivers to it."""

    def __init__(self, world: World, *, retry_delay: float = 0.2, post_timeout: float = 5.0):
        self.world = world
        self.retry_delay = retry_delay  # Telegram backs off too; short here so tests stay fast
        self.post_timeout = post_timeout
        self.url = ""
        self.secret_token: str | None = None
        self.max_connections = 40
        self.allowed_updates: list[str] | None = None
        self.last_error_date: int | None = None
        self.last_error_message: str | None = None
        self.delivered: list[dict[str, Any]] = []
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def queue(self) -> UpdateQueue:
        """The world's update queue."""
        return self.world.updates

    async def set(self, url: str, secret_token: str | None, allowed: list[str] | None) -> None:
        """Point delivery at `url` and (re)start the delivery task."""
        await self.stop()
        self.url = url
        self.secret_token = secret_token
        self.allowed_updates = allowed
        self.last_error_date = self.last_error_message = None
        if self._session is None:
            self._session = aiohttp.ClientSession()
        self._task = asyncio.create_task(self._deliver(), name="sandbox-webhook")

    async def stop(self) -> None:
        """Stop delivering (the setting is cleared, pending updates stay queued)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.url = ""

    async def close(self) -> None:
        """Stop and release the HTTP session."""
        await self.stop()
        if self._session is not None:
            await self._session.close()
            self._session = None

    def info(self) -> dict[str, Any]:
        """The WebhookInfo object."""
        data: dict[str, Any] = {
            "url": self.url,
            "has_custom_certificate": False,
            "pending_update_count": self.queue.pending,
        }
        if self.url:
            data["max_connections"] = self.max_connections
            if self.allowed_updates:
                data["allowed_updates"] = self.allowed_updates
        if self.last_error_date is not None:
            data["last_error_date"] = self.last_error_date
            data["last_error_message"] = self.last_error_message
        return data

    async def _deliver(self) -> None:
        while True:
            await self.queue.wait_any()
            update = self.queue.peek(1)[0]
            self.world.begin_request()
            try:
                ok = await self._post(update)
            finally:
                self.world.end_request()
            if ok:
                self.delivered.append(update)
                self.queue.confirm(update["update_id"] + 1)
            else:
                await asyncio.sleep(self.retry_delay)

    async def _post(self, update: dict[str, Any]) -> bool:
        assert self._session is not None
        headers = {SECRET_HEADER: self.secret_token} if self.secret_token else {}
        try:
            async with self._session.post(
                self.url,
                json=update,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=self.post_timeout),
            ) as response:
                if 200 <= response.status < 300:
                    return True
                message = f"Wrong response from the webhook: {response.status} {response.reason}"
        except (aiohttp.ClientError, TimeoutError) as exc:
            message = f"Connection error: {exc!r}"
        self.last_error_date = int(self.world.wall())
        self.last_error_message = message
        _LOG.debug("webhook delivery failed: %s", message)
        return False
