"""The HTTP side of the stand-in: an aiohttp server speaking the Bot API on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import logging
from types import TracebackType
from typing import Any

from aiohttp import web

from bot.sandbox.api_chats import HANDLERS as CHAT_METHODS
from bot.sandbox.api_common import Ctx, Handler
from bot.sandbox.api_ephemeral import HANDLERS as EPHEMERAL_METHODS
from bot.sandbox.api_inline import HANDLERS as INLINE_METHODS
from bot.sandbox.api_messages import HANDLERS as MESSAGE_METHODS
from bot.sandbox.api_updates import HANDLERS as UPDATE_METHODS
from bot.sandbox.errors import METHOD_NOT_FOUND, ApiError, too_many_requests
from bot.sandbox.faults import Fault, FaultKind, Faults
from bot.sandbox.limits import FLOOD_METHODS, FloodControl, FloodMode, FloodRules
from bot.sandbox.params import Params, read_params
from bot.sandbox.transcript import FLOOD, UNKNOWN_METHOD, Call, Transcript, classify
from bot.sandbox.webhook import Webhook
from bot.sandbox.world import World

_LOG = logging.getLogger(__name__)
_UNAUTHORIZED = {"ok": False, "error_code": 401, "description": "Unauthorized"}


class SandboxServer:
    """A local Bot API server over a World; use `async with` or start()/stop()."""

    def __init__(
        self,
        world: World | None = None,
        *,
        flood_mode: FloodMode | str = FloodMode.RECORD,
        flood_rules: FloodRules | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.world = world or World()
        self.transcript = Transcript()
        self.flood = FloodControl(
            clock=self.world.clock, mode=FloodMode(flood_mode), rules=flood_rules or FloodRules()
        )
        self.faults = Faults()
        self.webhook = Webhook(self.world)
        self.host = host
        self._port = port
        self._runner: web.AppRunner | None = None
        self._handlers: dict[str, Handler] = {
            **MESSAGE_METHODS,
            **CHAT_METHODS,
            **UPDATE_METHODS,
            **INLINE_METHODS,
            **EPHEMERAL_METHODS,  # last: it serves ephemeral sends, the rest as before
        }

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1 in the running event loop."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._serve)
        app.router.add_get("/file/bot{token}/{path:.+}", self._serve_file)
        # handler_cancellation: a request the client gave up on (an abandoned long poll,
        # a held "timeout" fault) stops instead of lingering.
        # A short shutdown_timeout: a bot left polling must not hold up the test's teardown.
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)
        self._port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Stop webhook delivery and the HTTP server."""
        await self.webhook.close()
        self.world.updates.release()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> SandboxServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        """The port chosen at start()."""
        return self._port

    @property
    def base_url(self) -> str:
        """For ApplicationBuilder().base_url(...)."""
        return f"http://{self.host}:{self._port}/bot"

    @property
    def base_file_url(self) -> str:
        """For ApplicationBuilder().base_file_url(...)."""
        return f"http://{self.host}:{self._port}/file/bot"

    # -- serving ------------------------------------------------------------------------

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.world.token:
            return web.json_response(_UNAUTHORIZED, status=401)
        method = request.match_info["method"]
        key = method.lower()
        try:
            params = await read_params(request)
        except ApiError as error:
            return web.json_response(error.to_json(), status=error.status)
        chat_id = _chat_id(params)
        call = self.transcript.start(method, _loggable(params), chat_id, self.world.clock())
        long_poll = key == "getupdates"
        if not long_poll:
            self.world.begin_request()
        try:
            fault = self.faults.take(key, chat_id)
            if fault is not None:
                return await self._inject(request, call, fault, key, params)
            result = await self._run(call, key, params)
        except asyncio.CancelledError:
            # the client went away (an abandoned long poll, a timed-out request)
            call.ok, call.status, call.description = False, 0, "abandoned by the client"
            raise
        except ApiError as error:
            self._fail(call, error)
            return web.json_response(error.to_json(), status=error.status)
        finally:
            if not long_poll:
                self.world.end_request()
        call.result = result
        return web.json_response({"ok": True, "result": result})

    async def _run(self, call: Call, key: str, params: Params) -> Any:
        handler = self._handlers.get(key)
        if handler is None:
            raise ApiError(404, METHOD_NOT_FOUND)
        if key in FLOOD_METHODS:
            self._check_flood(call, key, params)
        return await handler(Ctx(self.world, params, self.transcript, self.faults, self.webhook))

    def _check_flood(self, call: Call, key: str, params: Params) -> None:
        chat = self.world.find_chat(params.raw("chat_id"))
        if chat is None:
            return
        violation = self.flood.check(key, chat.id, chat.type == "private")
        if violation is None:
            return
        self.transcript.flag(
            FLOOD, f"{violation.rule} limit: {call.method} to {chat.describe()}", call
        )
        if self.flood.mode is FloodMode.ENFORCE:
            raise too_many_requests(violation.retry_after)

    def _fail(self, call: Call, error: ApiError) -> None:
        call.ok = False
        call.status = error.status
        call.description = error.description
        kind = classify(error.description)
        if kind is not None and call.fault is None:
            detail = f"{call.method}: {error.description}"
            self.transcript.flag(kind, detail, call)
            if kind == UNKNOWN_METHOD:
                _LOG.warning("the bot called an unknown method %s", call.method)

    async def _inject(
        self, request: web.Request, call: Call, fault: Fault, key: str, params: Params
    ) -> web.StreamResponse:
        call.fault = fault.kind.value
        if fault.kind is FaultKind.ERROR:
            assert fault.error is not None
            raise fault.error
        if fault.kind is FaultKind.DROP:
            call.ok, call.status, call.description = False, 0, "connection dropped"
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=204)
        result = await self._run(call, key, params) if fault.applied else None
        call.ok, call.status, call.description = False, 0, "held past the client's timeout"
        await asyncio.sleep(fault.hold)
        return web.json_response({"ok": True, "result": result})

    async def _serve_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.world.token:
            return web.json_response(_UNAUTHORIZED, status=401)
        path = request.match_info["path"]
        for record in self.world.files.values():
            if record.path == path:
                return web.Response(body=record.data, content_type="application/octet-stream")
        return web.json_response(
            {"ok": False, "error_code": 404, "description": "Not Found"}, status=404
        )


def _chat_id(params: Params) -> int | None:
    try:
        return params.get_int("chat_id")
    except ApiError:
        return None  # an @username; the handler resolves it


def _loggable(params: Params) -> dict[str, Any]:
    """Parameters as parsed, with uploads shown by size so transcripts stay printable."""
    values = dict(params.values)
    for name, upload in params.uploads.items():
        values[name] = f"<upload {upload.filename} {len(upload.data)} bytes>"
    json.dumps(values, default=str)  # fail early on values a test could not print
    return values
