"""The page and its JSON API: what the chats show, and presses and typing as a person does.

GET  /                 the page (static files from this package)
GET  /api/state        the group, every seat's private chat, who plays by computer
GET  /api/events       server-sent events: the world's revision at every change
GET  /api/photo/C/M    the picture of message M in chat C (a chart the bot sent; eN: ephemeral N)
POST /api/send         {"user", "chat", "text", "reply_to"?}: a seat types into the group or
                       its chat, as a reply to message ``reply_to`` of that chat if given
POST /api/press        {"user", "chat", "message", "data"}: a seat presses a button
                       (with "ephemeral": its id, on the seat's own ephemeral message)
POST /api/auto         {"user", "on"}: hand a seat to the computer, or take it back

Only the page itself may use the API. Any web site the developer visits could otherwise
type and press for every seat, so every request must name the page's own address as its
Host (no DNS rebinding) and, when a browser says where it comes from, as its Origin; a
POST must be ``application/json`` (a form or ``text/plain`` post from elsewhere needs no
permission from the browser) and carry this run's random token, which the page reads
from its own HTML and another site cannot read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from importlib import resources
from typing import Any

from aiohttp import web

from bot.i18n import Translations, Translator
from bot.sandbox.ephemeral import EphemeralRecord
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
TOKEN_HEADER = "X-Sandbox-Token"
TOKEN_SLOT = "{{sandbox-token}}"
"""Where index.html gets this run's token."""
LOCAL_NAMES = ("127.0.0.1", "localhost")


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
        "reply_to": None if message.reply_to is None or message.reply_to.deleted else {
            "id": message.reply_to.message_id, "from": message.reply_to.sender.first_name,
            "text": (message.reply_to.text or message.reply_to.caption or "")[:80]},
        "date": message.date,
        "photo": None if message.photo is None else {
            "src": f"/api/photo/{message.chat.id}/{message.message_id}",
            "width": message.photo.width, "height": message.photo.height},
    }


def chat_json(chat: ChatRecord) -> dict[str, Any]:
    return {
        "id": chat.id,
        "title": chat.title or (chat.user.first_name if chat.user else ""),
        "messages": [message_json(m) for m in chat.messages
                     if not m.deleted and not m.service],
    }


def ephemeral_json(record: EphemeralRecord) -> dict[str, Any]:
    """An ephemeral message as its one reader's page draws it in the group: where it shows
    (after the group message `after`, or in place of `replaces`) and its own id."""
    data = message_json(record)
    data.update({"ephemeral": record.ephemeral_id, "after": record.after,
                 "replaces": record.replaces, "photo": None if record.photo is None else {
                     "src": f"/api/photo/{record.chat.id}/e{record.ephemeral_id}",
                     "width": record.photo.width, "height": record.photo.height}})
    return data


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
        self.token = secrets.token_urlsafe(24)
        self.port: int | None = None
        """Where the page is served; set by `serve_site`. Until then nothing is answered."""
        self.app = web.Application(middlewares=[self._guard])
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/static/{name}", self._static)
        self.app.router.add_get("/api/state", self._state)
        self.app.router.add_get("/api/events", self._events)
        self.app.router.add_get("/api/photo/{chat}/{message}", self._photo)
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
                {"id": p.id, "name": p.name, "username": p.record.username,
                 "auto": self.robots.playing(p.id), "chat": chat_json(p.dm),
                 # What this seat alone sees in the group (ephemeral messages).
                 "group_ephemeral": [ephemeral_json(r) for r in self.world.ephemeral.seen_by(
                     self.group, p.record, self.world.clock())]}
                for p in self.seats.values()
            ],
        }

    # ----------------------------------------------------------------- guard

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Answer the page itself only (see the module's docstring)."""
        hosts = {f"{name}:{self.port}" for name in LOCAL_NAMES}
        if request.headers.get("Host") not in hosts:
            raise _forbidden("this page answers only at its own address")
        origin = request.headers.get("Origin")
        if origin is not None and origin not in {f"http://{host}" for host in hosts}:
            raise _forbidden("requests from other sites are refused")
        if request.method == "POST":
            if request.content_type != "application/json":
                raise _bad("send the body as application/json")
            # The Mini App (`bot.webui.miniapp`) proves who presses by initData and its
            # session, as in production: it has no part in this page's token.
            if not request.path.startswith("/app/") and not secrets.compare_digest(
                    request.headers.get(TOKEN_HEADER, ""), self.token):
                raise _forbidden("the page's token is missing or wrong: reload the page")
        response: web.StreamResponse = await handler(request)
        return response

    # ----------------------------------------------------------------- pages

    async def _index(self, request: web.Request) -> web.Response:
        return _file("index.html", {TOKEN_SLOT: self.token})

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return _file(name)

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self.state())

    async def _photo(self, request: web.Request) -> web.Response:
        """A photo in the group (an ephemeral one too) or a seat's private chat, as its
        bytes."""
        named = request.match_info["message"]
        hidden = named.startswith("e")  # an ephemeral message of the group: "e<its id>"
        try:
            chat_id, message_id = int(request.match_info["chat"]), int(named.removeprefix("e"))
        except ValueError:
            raise web.HTTPNotFound() from None
        chats = [self.group, *(p.dm for p in self.seats.values())]
        chat = next((c for c in chats if c.id == chat_id), None)
        message: MessageRecord | None = None
        if chat is not None:
            message = self.world.ephemeral.find(chat, message_id) if hidden \
                else self.world.find_message(chat, message_id)
        if message is None or message.photo is None:
            raise web.HTTPNotFound()
        return web.Response(body=message.photo.data, content_type="image/png",
                            headers={"Cache-Control": "no-store"})

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
        user = body.get("user")
        # A seat id is a whole number; a list or an object is not even hashable.
        player = self.seats.get(user) if type(user) is int else None
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
        answered = body.get("reply_to")
        replied = None
        if answered is not None:
            replied = (self.world.find_message(chat, answered) if type(answered) is int
                       else None)
            if replied is None or replied.service:
                raise _bad("the message to reply to is gone")
        try:
            message = await player.send(chat, text.strip(), reply_to=replied)
        except SandboxError as err:
            raise _bad(str(err)) from None
        return web.json_response({"id": message.message_id})

    async def _press(self, request: web.Request) -> web.Response:
        body, player = await self._body(request)
        chat = self._chat(player, body.get("chat"))
        message_id = body.get("message")
        message = (self.world.find_message(chat, message_id) if type(message_id) is int
                   else None)
        ephemeral_id = body.get("ephemeral")
        if type(ephemeral_id) is int:  # an ephemeral message: the press checks who sees it
            message = self.world.ephemeral.find(chat, ephemeral_id)
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


def _forbidden(reason: str) -> web.HTTPForbidden:
    return web.HTTPForbidden(text=json.dumps({"error": reason}), content_type="application/json")


def _file(name: str, slots: dict[str, str] | None = None) -> web.Response:
    """A static file, with each slot in it filled (the values are plain ASCII)."""
    data = resources.files("bot.webui").joinpath("static", name).read_bytes()
    for slot, value in (slots or {}).items():
        data = data.replace(slot.encode(), value.encode())
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
    site.port = int(server.sockets[0].getsockname()[1])
    return runner, site.port
