"""The bot's own HTTP server in webhook mode: Telegram's updates in, and ``GET /healthz``.

PTB's built-in webhook server reads a request's whole body before it looks at the secret,
and sets no size limit; this one refuses a request without the right
``X-Telegram-Bot-Api-Secret-Token`` with 403 before reading a byte of its body, refuses
bodies over `MAX_BODY` with 413, and hands each update to the application's queue.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.ops.health import Health

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024
"""Largest update accepted (Telegram's are a few kilobytes)."""

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HEALTH_PATH = "/healthz"

AnyApp = Application[Any, Any, Any, Any, Any, Any]


class WebServer:
    """Serve ``POST /<path>`` (updates) and ``GET /healthz`` until `stop()`."""

    def __init__(
        self,
        app: AnyApp,
        health: Health,
        *,
        secret: str,
        path: str,
        listen: str,
        port: int,
        routes: Callable[[web.Application], None] | None = None,
    ) -> None:
        if not secret:
            raise ValueError("a webhook needs a secret")
        self.app = app
        self.health = health
        self._secret = secret.encode()
        self.path = "/" + path.strip("/")
        self.listen = listen
        self._port = port
        self._runner: web.AppRunner | None = None
        self._routes = routes
        """More routes on the same server (the Mini App, `bot.miniapp`)."""

    @property
    def port(self) -> int:
        """The port listened on (the real one when 0 was asked for)."""
        return self._port

    async def start(self) -> None:
        web_app = web.Application(client_max_size=MAX_BODY)
        web_app.router.add_post(self.path, self._update)
        web_app.router.add_get(HEALTH_PATH, self._healthz)
        if self._routes is not None:
            self._routes(web_app)
        runner = web.AppRunner(web_app, access_log=None, handle_signals=False,
                               shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.listen, self._port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        server = site._server
        if isinstance(server, asyncio.Server) and server.sockets:
            self._port = int(server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _update(self, request: web.Request) -> web.StreamResponse:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self._secret):
            return _closing(web.Response(status=403, text="forbidden"))
        length = request.content_length
        if length is not None and length > MAX_BODY:
            return _closing(web.Response(status=413, text="too large"))
        try:
            body = await request.read()  # aiohttp stops at client_max_size
        except web.HTTPRequestEntityTooLarge:
            return _closing(web.Response(status=413, text="too large"))
        try:
            data = json.loads(body)
            update = Update.de_json(data, self.app.bot)
        except (ValueError, TypeError, KeyError) as err:
            log.warning("webhook: a request that is not an update (%s)", type(err).__name__)
            return web.Response(status=400, text="not an update")
        if update is None:
            return web.Response(status=400, text="not an update")
        self.health.mark_update()
        await self.app.update_queue.put(update)
        return web.Response(status=200)

    async def _healthz(self, request: web.Request) -> web.StreamResponse:
        report = await self.health.report()
        return web.json_response(report, status=200 if report["database_ok"] else 503)


def _closing(response: web.Response) -> web.Response:
    # Close the connection after answering instead of reading (and dropping) the rest of
    # a body nobody will use.
    response.force_close()
    return response
