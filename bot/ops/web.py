"""The bot's own HTTP server: Telegram's updates in (webhook mode), health and metrics.

``GET /livez`` answers 200 while updates come in (`Health.live`), ``GET /readyz`` 200
while the store can write, ``GET /healthz`` both with details, ``GET /metrics`` the
Prometheus figures (`bot.metrics`, on the health port only, never the public webhook),
``GET /verify`` the page that checks a hand's proof (`bot.verifier`).

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

from bot import verifier
from bot.metrics import CONTENT_TYPE, Metrics
from bot.ops.health import Health

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024
"""Largest update accepted (Telegram's are a few kilobytes)."""

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HEALTH_PATH = "/healthz"
LIVE_PATH = "/livez"
READY_PATH = "/readyz"
METRICS_PATH = "/metrics"

AnyApp = Application[Any, Any, Any, Any, Any, Any]


class WebServer:
    """Serve ``POST /<path>`` (updates; without a path, none), ``GET /healthz``,
    ``/livez``, ``/readyz`` and, with `metrics`, ``GET /metrics`` until `stop()`."""

    def __init__(
        self,
        app: AnyApp,
        health: Health,
        *,
        secret: str = "",
        path: str | None,
        listen: str,
        port: int,
        metrics: Metrics | None = None,
        serve_metrics: bool = False,
        routes: Callable[[web.Application], None] | None = None,
    ) -> None:
        if path is not None and not secret:
            raise ValueError("a webhook needs a secret")
        self.app = app
        self.health = health
        self.metrics = metrics
        self.serve_metrics = serve_metrics and metrics is not None
        self._secret = secret.encode()
        self.path = None if path is None else "/" + path.strip("/")
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
        if self.path is not None:
            web_app.router.add_post(self.path, self._update)
        web_app.router.add_get(HEALTH_PATH, self._healthz)
        web_app.router.add_get(LIVE_PATH, self._livez)
        web_app.router.add_get(READY_PATH, self._readyz)
        if self.serve_metrics:
            web_app.router.add_get(METRICS_PATH, self._metrics)
        verifier.add_route(web_app)
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
        update = self._parse(body)
        if update is None:
            return web.Response(status=400, text="not an update")
        if self.metrics is not None:
            press = update.callback_query.id if update.callback_query is not None else None
            self.metrics.update_received(press)  # marks the health too
        else:
            self.health.mark_update()
        await self.app.update_queue.put(update)
        return web.Response(status=200)

    def _parse(self, body: bytes) -> Update | None:
        """The update in ``body``, or None (logged in one line) for anything else."""
        try:
            data = json.loads(body)
        except ValueError:
            log.warning("webhook: a request whose body is not JSON (%d bytes)", len(body))
            return None
        if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
            log.warning("webhook: a request whose JSON is not an update (%s)",
                        type(data).__name__)
            return None
        try:
            return Update.de_json(data, self.app.bot)
        except Exception as err:  # any shape PTB cannot read is the sender's fault
            log.warning("webhook: a request that is not an update (%s)", type(err).__name__)
            return None

    async def _healthz(self, request: web.Request) -> web.StreamResponse:
        report = await self.health.report()
        return web.json_response(report, status=200 if report["status"] == "ok" else 503)

    async def _livez(self, request: web.Request) -> web.StreamResponse:
        live, why = self.health.live()
        return web.json_response({"live": live, "problem": None if live else why},
                                 status=200 if live else 503)

    async def _readyz(self, request: web.Request) -> web.StreamResponse:
        ready = await self.health.database_ok()
        return web.json_response(
            {"ready": ready, "problem": None if ready else "the database cannot be written"},
            status=200 if ready else 503)

    async def _metrics(self, request: web.Request) -> web.StreamResponse:
        assert self.metrics is not None
        await self.health.database_ok()  # svara_ready says what a press would meet now
        body = self.metrics.render()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})


def _closing(response: web.Response) -> web.Response:
    # Close the connection after answering instead of reading (and dropping) the rest of
    # a body nobody will use.
    response.force_close()
    return response
