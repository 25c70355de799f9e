"""One bot per token, and the vital signs around the running bot.

Telegram hands a bot's updates to one receiver: one long-polling process, or one webhook.
A second process on the same token does not fail by itself: two pollers take turns being
refused with 409 Conflict (PTB would log a long traceback every few seconds, forever),
and a second webhook silently takes every update from the first. So:

* before polling or setting the webhook, `check_token_is_free` asks Telegram where the
  updates go (``getWebhookInfo``) and refuses to start when a webhook that is not ours
  is set;
* while polling, a 409 Conflict from getUpdates stops the bot with one line
  (`Watch.polling_error`);
* while serving a webhook, `Watch.run` asks ``getWebhookInfo`` every `WEBHOOK_CHECK`
  seconds: another URL there stops the bot with one line, and the number of updates
  waiting tells `Health` whether a silence means "quiet" or "stuck".

A stop for one of these reasons ends the process like a failed start: one line, exit 1.
A clean stop in webhook mode removes the webhook it set (`remove_own_webhook`), so the
next start may poll; updates sent meanwhile wait at Telegram for that start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import urlsplit

from telegram.error import Conflict, TelegramError
from telegram.ext import Application

from bot.ops.events import Events
from bot.ops.health import Health
from bot.ops.startup import StartupError

log = logging.getLogger(__name__)

AnyApp = Application[Any, Any, Any, Any, Any, Any]

WEBHOOK_CHECK = 60.0
"""Seconds between two looks at getWebhookInfo while serving a webhook."""

ONE_PROCESS = ("a bot token can be used by one process at a time: stop the other one "
               "(another machine, container or terminal) and keep a single bot running")


def _where(url: str) -> str:
    """The host and path of a webhook address (enough to recognise it, nothing secret)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


async def check_token_is_free(app: AnyApp, webhook_url: str | None,
                              *, take_over: bool = False) -> int:
    """Refuse to start when Telegram sends this token's updates to a webhook that is not
    ``webhook_url`` (None: we poll); returns the number of updates waiting."""
    info = await app.bot.get_webhook_info()
    theirs = info.url or ""
    if theirs and theirs != (webhook_url or "") and not take_over:
        how = (f"this bot's webhook is {_where(webhook_url)}" if webhook_url
               else "this bot polls for updates")
        raise StartupError(
            f"Cannot start: Telegram sends this bot's updates to the webhook "
            f"{_where(theirs)}, but {how}: another process seems to run on the same token; "
            f"{ONE_PROCESS} (if that webhook is a stale one of yours, start once with "
            "SVARA_WEBHOOK_TAKE_OVER=true).")
    if theirs and theirs != (webhook_url or ""):
        log.warning("taking over the webhook %s (SVARA_WEBHOOK_TAKE_OVER)", _where(theirs))
    return int(info.pending_update_count or 0)


async def remove_own_webhook(app: AnyApp, webhook_url: str) -> bool:
    """At a clean stop: delete the webhook if it is still ``webhook_url`` (never another
    process's); whether it was removed. A failure is one warning: the next start in
    webhook mode sets it again, and one that polls says how to take it over."""
    try:
        info = await app.bot.get_webhook_info()
        if (info.url or "") != webhook_url:
            return False
        await app.bot.delete_webhook(drop_pending_updates=False)
    except TelegramError as err:
        log.warning("could not remove this bot's webhook %s at the stop: %s",
                    _where(webhook_url), err)
        return False
    log.info("removed this bot's webhook %s; updates wait at Telegram for the next start",
             _where(webhook_url))
    return True


class Watch:
    """Stops the bot (sets ``stop``) with a `reason` when another process uses its token."""

    def __init__(self, app: AnyApp, stop: asyncio.Event, health: Health | None = None,
                 *, webhook_url: str | None = None, every: float | None = None) -> None:
        self.app = app
        self.stop = stop
        self.health = health
        self.webhook_url = webhook_url
        self.every = WEBHOOK_CHECK if every is None else every
        self.reason: str | None = None
        self.events: Events | None = None
        """The game events' log, stopped with the watch."""
        self._task: asyncio.Task[None] | None = None

    def _stop_because(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
            log.error("%s", reason)
        self.stop.set()

    def polling_error(self, error: TelegramError) -> None:
        """PTB's polling error callback: a Conflict stops the bot; the rest is one line."""
        if isinstance(error, Conflict):
            self._stop_because(
                "Stopped: Telegram refused getUpdates with 409 Conflict, another process is "
                f"polling with this bot's token; {ONE_PROCESS}.")
            return
        log.warning("polling for updates failed, trying again: %s: %s",
                    type(error).__name__, error)

    def start(self) -> None:
        """While serving a webhook: look at getWebhookInfo every `every` seconds."""
        if self.webhook_url is not None and self._task is None:
            self._task = asyncio.create_task(self._run(), name="webhook-watch")

    async def close(self) -> None:
        if self.events is not None:
            await self.events.close()
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while not self.stop.is_set():
            await self.look()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), self.every)

    async def look(self) -> None:
        """One look at where Telegram sends the updates."""
        try:
            info = await self.app.bot.get_webhook_info()
        except TelegramError as err:
            log.warning("could not ask Telegram about the webhook: %s", err)
            return
        if self.health is not None:
            self.health.mark_webhook_info(int(info.pending_update_count or 0))
        if (info.url or "") != self.webhook_url:
            now = _where(info.url) if info.url else "no webhook (someone polls instead)"
            self._stop_because(
                f"Stopped: Telegram now sends this bot's updates to {now}, not to "
                f"{_where(self.webhook_url or '')}: another process took over the bot's "
                f"token; {ONE_PROCESS}.")
