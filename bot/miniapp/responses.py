"""The Mini App's HTTP plumbing: security headers, refusals as JSON, a request's bounded
body, and a server of its own."""

from __future__ import annotations

import json
from typing import Any, Protocol

from aiohttp import web

MAX_BODY = 8 * 1024
"""Largest request body (a press or a session is a few hundred bytes)."""


class Routes(Protocol):
    def add_routes(self, app: web.Application) -> None: ...


def secure(response: web.StreamResponse, telegram_js: str) -> web.StreamResponse:
    """Only the page's own files and Telegram's script may run; no framing by others."""
    script = "'self'" if telegram_js.startswith("/") else f"'self' {telegram_js}"
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; script-src {script}; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors https://web.telegram.org https://*.telegram.org 'self'")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = response.headers.get("Cache-Control", "no-cache")
    return response


def refused(status: int, reason: str) -> web.HTTPException:
    body = json.dumps({"ok": False, "error": reason})
    kinds: dict[int, type[web.HTTPException]] = {
        400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden,
        404: web.HTTPNotFound, 413: web.HTTPRequestEntityTooLarge,
        429: web.HTTPTooManyRequests, 503: web.HTTPServiceUnavailable}
    if status == 413:
        return web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=MAX_BODY + 1,
                                             text=body, content_type="application/json")
    return kinds[status](text=body, content_type="application/json")


async def json_body(request: web.Request) -> dict[str, Any]:
    """The request's whole body as a JSON object, however many writes it came in; never
    more than `MAX_BODY` + 1 bytes are read."""
    body = bytearray()
    while len(body) <= MAX_BODY:
        chunk = await request.content.read(MAX_BODY + 1 - len(body))
        if not chunk:
            break
        body += chunk
    if len(body) > MAX_BODY:
        raise refused(413, "too large")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: arrays nested deeper than the parser goes.
        raise refused(400, "not JSON") from None
    if not isinstance(data, dict):
        raise refused(400, "not a JSON object")
    return data


async def serve(miniapp: Routes, listen: str, port: int) -> web.AppRunner:
    """The Mini App on a server of its own (long polling: no webhook server to share)."""
    app = web.Application(client_max_size=MAX_BODY)
    miniapp.add_routes(app)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, listen, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def port_of(runner: web.AppRunner) -> int:
    """The port a runner listens on (the real one when 0 was asked for)."""
    for address in runner.addresses:
        return int(address[1])
    raise RuntimeError("not listening")
