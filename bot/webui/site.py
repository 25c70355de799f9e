"""The page and its JSON API: what the chats show, and presses and typing as a person does.

GET  /                 the page (static files from this package)
GET  /api/state        the group, every seat's private chat, who plays by computer
GET  /api/events       server-sent events: the world's revision at every change
POST /api/send         {"user", "chat", "text"}: a seat types into the group or its chat
POST /api/press        {"user", "chat", "message", "data"}: a seat presses a button
POST /api/auto         {"user", "on"}: hand a seat to the computer, or take it back
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from importlib import resources
from typing import Any

from aiohttp import web

from bot.i18n import Translations, Translator
from bot.sandbox.errors import SandboxError
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from bot.webui.robots import Robots
from bot.webui.watch import WatchedWorld
from bot.webui.words import page_words

STATIC = ("index.html", "app.js", "style.css")
_TYPES = {"html": "text/html", "js": "text/javascript", "css": "text/css"}
PRESS_WAIT = 10.0
"""Seconds the page waits for the bot to answer a press."""


def message_json(message: MessageRecord) -> dict[str, Any]:
    """A message as the page draws it: plain text and entities, never raw HTML."""
    buttons = [
        [{"text": str(b.get("text", "")), "data": b.get("callback_data"),
          "url": b.get("url") or (b.get("web_app") or {}).get("url")}
         for b in row]
        for row in (message.reply_markup or {}).get("inline_keyboard", [])
    ]
    return {
        "id": message.message_id,
        "from": message.sender.first_name,
        "from_id": message.sender.id,
        "bot": message.sender.is_bot,
        "text": message.text if message.text is not None else (message.caption or ""),
        "entities": message.entities,
        "buttons": buttons,
        "edited": message.edit_date is not None,
        "date": message.date,
    }


def chat_json(chat: ChatRecord) -> dict[str, Any]:
    return {
        "id": chat.id,
        "title": chat.title or (chat.user.first_name if chat.user else ""),
        "messages": [message_json(m) for m in chat.messages
                     if not m.deleted and not m.service],
    }


class Site:
    """The web side of one sandbox: a group, its seats and their robots."""

    def __init__(self, world: WatchedWorld, group: ChatRecord, seats: list[Player],
                 robots: Robots, tr: Translator | None = None) -> None:
        self.tr = tr or Translations.load().get(None)
        self.words = page_words(self.tr)
        self.world = world
        self.group = group
        self.seats = {p.id: p for p in seats}
        self.robots = robots
        self.app = web.Application()
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/static/{name}", self._static)
        self.app.router.add_get("/api/state", self._state)
        self.app.router.add_get("/api/events", self._events)
        self.app.router.add_post("/api/send", self._send)
        self.app.router.add_post("/api/press", self._press)
        self.app.router.add_post("/api/auto", self._auto)

    def state(self) -> dict[str, Any]:
        return {
            "revision": self.world.revision,
            "language": self.tr.language,
            "words": self.words,
            "bot": self.world.bot.first_name,
            "group": chat_json(self.group),
            "seats": [
                {"id": p.id, "name": p.name, "auto": self.robots.playing(p.id),
                 "chat": chat_json(p.dm)}
                for p in self.seats.values()
            ],
        }

    # ----------------------------------------------------------------- pages

    async def _index(self, request: web.Request) -> web.Response:
        return _file("index.html")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return _file(name)

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self.state())

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        seen = -1
        while True:
            revision = await self.world.next_change(seen, timeout=15.0)
            if revision == seen:
                await response.write(b": still here\n\n")
                continue
            await asyncio.sleep(0.05)  # a burst of changes becomes one event
            seen = self.world.revision
            await response.write(f"data: {seen}\n\n".encode())

    # ----------------------------------------------------------------- actions

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], Player]:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise _bad("the body is not JSON") from None
        if not isinstance(body, dict):
            raise _bad("the body is not a JSON object")
        player = self.seats.get(body.get("user"))  # type: ignore[arg-type]
        if player is None:
            raise _bad("no such seat")
        return body, player

    def _chat(self, player: Player, chat_id: object) -> ChatRecord:
        if chat_id == self.group.id:
            return self.group
        if chat_id == player.id:
            return player.dm
        raise _bad("that chat is not open to this seat")

    async def _send(self, request: web.Request) -> web.Response:
        body, player = await self._body(request)
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise _bad("nothing to send")
        chat = self._chat(player, body.get("chat"))
        try:
            message = await player.send(chat, text.strip())
        except SandboxError as err:
            raise _bad(str(err)) from None
        return web.json_response({"id": message.message_id})

    async def _press(self, request: web.Request) -> web.Response:
        body, player = await self._body(request)
        chat = self._chat(player, body.get("chat"))
        message = self.world.find_message(chat, body.get("message"))  # type: ignore[arg-type]
        data = body.get("data")
        if message is None or not isinstance(data, str):
            raise _bad("that message is gone")
        labels = [b.get("text") for row in (message.reply_markup or {}).get("inline_keyboard", [])
                  for b in row if b.get("callback_data") == data]
        if not labels:
            return web.json_response({"gone": True, "text": None, "alert": False})
        try:
            press = await player.press(message, str(labels[0]))
            answer = await press.answer(timeout=PRESS_WAIT)
        except SandboxError as err:
            raise _bad(str(err)) from None
        return web.json_response({"gone": False, "text": answer.text, "alert": answer.show_alert})

    async def _auto(self, request: web.Request) -> web.Response:
        body, player = await self._body(request)
        self.robots.set(player, bool(body.get("on")))
        self.world.touch()
        return web.json_response({"auto": self.robots.playing(player.id)})


def _bad(reason: str) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(text=json.dumps({"error": reason}), content_type="application/json")


def _file(name: str) -> web.Response:
    data = resources.files("bot.webui").joinpath("static", name).read_bytes()
    kind = _TYPES[name.rsplit(".", 1)[1]]
    return web.Response(body=data, content_type=kind, charset="utf-8",
                        headers={"Cache-Control": "no-store"})


async def serve_site(site: Site, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Listen on `host`:`port` (0: a free one); the runner and the port it got."""
    runner = web.AppRunner(site.app, access_log=None, handler_cancellation=True,
                           shutdown_timeout=0.5)
    await runner.setup()
    tcp = web.TCPSite(runner, host, port)
    try:
        await tcp.start()
    except OSError:
        with contextlib.suppress(Exception):
            await runner.cleanup()
        raise
    server = tcp._server
    assert isinstance(server, asyncio.Server)
    return runner, int(server.sockets[0].getsockname()[1])
