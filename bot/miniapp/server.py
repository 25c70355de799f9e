"""The Mini App's server side: the page, a session from Telegram's initData, the table's
state as server-sent events, and presses that go through `Games` like the chat's buttons.

Routes, under ``/app`` of the bot's own aiohttp server:

- ``GET /app/`` the page; ``GET /app/static/NAME`` its files (nothing from elsewhere but
  Telegram's own ``telegram-web-app.js``: the Content-Security-Policy says so);
- ``POST /app/api/session`` ``{"init": initData, "table": payload}``: checks the initData
  (`bot.miniapp.initdata`) and the table's signed payload, and answers a session token
  bound to that user and table, with the state he sees;
- ``GET /app/api/events?s=TOKEN`` the state again each time the table is shown (SSE, with
  the revision as the event id: a client that reconnects gets the whole state at once);
- ``POST /app/api/press`` ``{"s": TOKEN, "data": press}``: one of the buttons the state
  offered him, refused in his language when it may not be pressed (the lobby's own
  presses, ``app:join`` and the like, go through the `Games` calls of /join, /leave,
  /topup and /rebuy);
- ``POST /app/api/share`` ``{"s": TOKEN}``: after a showdown, the hand's result (and the
  link to its proof) as a prepared inline message (Bot API ``savePreparedInlineMessage``)
  the page hands to Telegram's ``shareMessage``.

Who may watch: the table's seated players and the members of its group (a practice
table: its player). Anyone else who holds a forwarded link is refused a session (403, in his
language): he sees no more than the forwarded table message itself shows him, never a live
table. A session lasts no longer than the ``initData`` it came from is good for
(``SVARA_MINIAPP_MAX_AGE`` after Telegram signed it) and never more than `SESSION_HOURS`.

Every refusal changes nothing. One user may hold a few streams and press a few times a
second (counted on a monotonic clock, so a wall clock set back holds nobody up); more is
refused with 429.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram import InlineQueryResultArticle, InputTextMessageContent
from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot import errors
from bot import proof as proofs
from bot.games import Games
from bot.handling import Services, logged_refusal
from bot.i18n import Translator, normalize_language
from bot.live import Live, Player
from bot.miniapp.hub import Hub
from bot.miniapp.initdata import BadInitData, WebAppUser, check
from bot.miniapp.links import app_payload, app_table, group_link, page_url
from bot.miniapp.presses import Presses
from bot.miniapp.responses import json_body, port_of, refused, secure, serve
from bot.miniapp.sessions import PerUser, Session, Tokens
from bot.miniapp.state import Snapshot, plain, view_for
from bot.names import display_name
from bot.records import TableStatus
from bot.render.messages import WEB_APP
from bot.render.table import outcome_lines

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
FILES = {"app.js": "text/javascript", "app.css": "text/css",
         "telegram-web-app.js": "text/javascript"}
"""The page's own files (the stand-in of Telegram's script is served in the sandbox only)."""
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"

SESSION_HOURS = 12
"""The longest a session lasts (less when its initData expires sooner)."""
STREAMS_PER_USER = 4
STREAMS_TOTAL = 5000
PRESS_BURST, PRESS_RATE = 8, 4.0
"""A user may press 8 times at once, then 4 times a second."""
KEEPALIVE = 15.0


class MiniApp:
    """The Mini App of one bot: links to it, and its routes on an aiohttp application."""

    def __init__(self, services: Services, bot: Any, *, public_url: str, max_age: float,
                 clock: Callable[[], float] = time.time,
                 rate_clock: Callable[[], float] = time.monotonic,
                 telegram_js: str = TELEGRAM_JS) -> None:
        self.services = services
        self.bot = bot
        self.public_url = public_url.rstrip("/")
        self.max_age = max_age
        self.clock = clock
        """The wall clock: initData's and sessions' expiry, the table's deadlines."""
        self.rate_clock = rate_clock
        """A monotonic clock for the rate of presses and sessions."""
        self.telegram_js = telegram_js
        self.hub = Hub(clock)
        self._tokens = Tokens(bot.token)
        self._streams: dict[int, int] = {}
        self._total = 0
        self._buckets = PerUser(PRESS_BURST, PRESS_RATE, lambda: self.rate_clock())
        self._opened = PerUser(PRESS_BURST, PRESS_RATE, lambda: self.rate_clock())
        self._presses = Presses(services, bot)
        self._proofs: dict[tuple[int, int], str | None] = {}
        games = services.games
        # Each time a table is shown (under its lock), its pages get a new revision.
        games.watchers.append(self.hub.shown)

    @property
    def games(self) -> Games:
        return self.services.games

    # ----------------------------------------------------------------- links

    def payload(self, table_id: int) -> str:
        return app_payload(self.services.link_secret, table_id)

    def link(self, live: Live, private: bool) -> str | None:
        """The table's Mini App: a direct link in a group, the page itself in private."""
        payload = self.payload(live.id)
        if private:
            return WEB_APP + page_url(self.public_url, payload)
        username = self.bot.username
        return None if not username else group_link(username, payload)

    # ----------------------------------------------------------------- routes

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/app/", self._index)
        app.router.add_get("/app/static/{name}", self._static)
        app.router.add_post("/app/api/session", self._session)
        app.router.add_get("/app/api/events", self._events)
        app.router.add_post("/app/api/press", self._press)
        app.router.add_post("/app/api/share", self._share)

    async def _index(self, request: web.Request) -> web.StreamResponse:
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        page = page.replace("{{telegram_js}}", self.telegram_js)
        return secure(web.Response(text=page, content_type="text/html"), self.telegram_js)

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        kind = FILES.get(name)
        if kind is None or (name == "telegram-web-app.js" and self.telegram_js == TELEGRAM_JS):
            raise web.HTTPNotFound()
        body = (STATIC / name).read_bytes()
        return secure(web.Response(body=body, content_type=kind), self.telegram_js)

    # ----------------------------------------------------------------- sessions

    def _from_token(self, token: object) -> Session:
        return self._tokens.read(token, self.clock)

    def _tr(self, user: int, language: str | None) -> Translator:
        chosen = self.services.languages.chosen(user)
        return self.services.translations.get(normalize_language(chosen or language))

    async def _session(self, request: web.Request) -> web.StreamResponse:
        body = await json_body(request)
        init, payload = body.get("init"), body.get("table")
        if not isinstance(init, str) or not isinstance(payload, str):
            raise refused(400, "init and table are needed")
        try:
            user: WebAppUser = check(init, self.bot.token, now=self.clock(),
                                     max_age=self.max_age)
        except BadInitData as err:
            raise refused(401, f"initData refused: {err.reason}") from None
        if not self._opened.allow(user.id):
            raise refused(429, "too many sessions")
        if user.start_param is not None and user.start_param != payload:
            raise refused(403, "the link names another table")
        table_id = app_table(self.services.link_secret, payload)
        if table_id is None:
            raise refused(403, "not a table of this bot")
        live = self.games.tables.get(table_id)
        snap = await self.hub.current(live, table_id)
        if snap is None:
            raise refused(404, "no such table")
        tr = self._tr(user.id, user.language)
        seated = any(s.player == user.id for s in snap.view.seats)
        if not seated and not await self._presses.is_member(snap.chat_id, user.id):
            raise refused(403, errors.NotAWatcher().text(tr))
        name = display_name(user.name, user.id)
        expires = min(user.auth_date + self.max_age, self.clock() + SESSION_HOURS * 3600)
        session = Session(user.id, name, user.language, table_id, int(expires))
        return web.json_response({"session": self._tokens.make(session), "state": view_for(
            snap, user.id, tr, self.clock(), proof=await self._proof(snap))})

    async def _proof(self, snap: Snapshot) -> str | None:
        """The address the bot gives for the proof of the hand `snap` shows ended (None: no
        verifier is served, or no hand has ended)."""
        view = snap.view
        base = self.services.verify_url
        if not base or view.hand is not None or view.outcome is None or not view.hand_no:
            return None
        key = (view.table_id, view.hand_no)
        if key not in self._proofs:
            played = await self.services.store.history.chat_hand(snap.chat_id, view.hand_no)
            if played is None:
                return None  # not settled yet: asked again at the next state
            if len(self._proofs) > 10_000:
                self._proofs.clear()
            self._proofs[key] = None if played.proof is None else \
                proofs.link(base, played, view.names)
        return self._proofs[key]

    # ----------------------------------------------------------------- the stream

    async def _events(self, request: web.Request) -> web.StreamResponse:
        session = self._from_token(request.query.get("s"))
        if await self.hub.current(self.games.tables.get(session.table), session.table) is None:
            raise refused(404, "no such table")  # forgotten since: the page stops asking
        if self._streams.get(session.user, 0) >= STREAMS_PER_USER:
            raise refused(429, "too many streams")
        if self._total >= STREAMS_TOTAL:
            raise refused(503, "too many streams")
        self._streams[session.user] = self._streams.get(session.user, 0) + 1
        self._total += 1
        wake = asyncio.Event()
        self.hub.waiting.setdefault(session.table, set()).add(wake)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        try:
            await self._stream(request, response, session, wake)
        except ConnectionResetError:
            # The page went away (closed, offline): found at the next write, nothing to log.
            pass
        finally:
            waiters = self.hub.waiting.get(session.table)
            if waiters is not None:
                waiters.discard(wake)
                if not waiters:
                    self.hub.waiting.pop(session.table, None)
            left = self._streams.pop(session.user) - 1
            if left:
                self._streams[session.user] = left
            self._total -= 1
        return response

    async def _stream(self, request: web.Request, response: web.StreamResponse,
                      session: Session, wake: asyncio.Event) -> None:
        """Write the table's states to `response` until it closes (or the page goes)."""
        secure(response, self.telegram_js)
        await response.prepare(request)
        last = request.headers.get("Last-Event-ID", "")
        tr = self._tr(session.user, session.language)
        while True:
            wake.clear()
            snap = await self.hub.current(self.games.tables.get(session.table),
                                          session.table)
            if snap is None:
                return
            if str(snap.rev) != last:
                last = str(snap.rev)
                state = view_for(snap, session.user, tr, self.clock(),
                                 proof=await self._proof(snap))
                data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
                await response.write(f"id: {snap.rev}\ndata: {data}\n\n".encode())
            if snap.view.status is TableStatus.CLOSED:
                return
            try:
                await asyncio.wait_for(wake.wait(), KEEPALIVE)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")

    # ----------------------------------------------------------------- presses

    async def _press(self, request: web.Request) -> web.StreamResponse:
        body = await json_body(request)
        session = self._from_token(body.get("s"))
        if not self._buckets.allow(session.user):
            raise refused(429, "too many presses")
        tr = self._tr(session.user, session.language)
        who = Player(session.user, session.name, session.language)
        try:
            said = await self.do(session.table, who, body.get("data"))
        except Exception as err:
            return web.json_response({"ok": False, "error": logged_refusal(err).text(tr)})
        if said is None:
            return web.json_response({"ok": True})
        return web.json_response({"ok": True, "said": tr.gettext(said)})

    async def do(self, table_id: int, who: Player, data: object) -> str | None:
        """Press the button `data` of the table `table_id` as `who` (same path as the chat);
        what to tell him besides the table itself (a message id), if anything."""
        return await self._presses.do(table_id, who, data)

    # ----------------------------------------------------------------- sharing

    async def _share(self, request: web.Request) -> web.StreamResponse:
        """The last hand's result as a message the player may send to a chat he picks."""
        body = await json_body(request)
        session = self._from_token(body.get("s"))
        if not self._buckets.allow(session.user):
            raise refused(429, "too many presses")
        tr = self._tr(session.user, session.language)
        snap = await self.hub.current(self.games.tables.get(session.table), session.table)
        outcome = None if snap is None else snap.view.outcome
        if snap is None or snap.view.hand is not None or outcome is None:
            return web.json_response({"ok": False, "error": errors.Expired().text(tr)})
        view = snap.view
        title = plain(tr.format("🃏 <b>Svara</b> · hand {n} is over", n=view.hand_no))
        lines = [tr.format("🃏 <b>Svara</b> · hand {n} is over", n=view.hand_no), "",
                 *outcome_lines(view, tr, outcome)]
        url = await self._proof(snap)
        if url:
            words = html.escape(tr.gettext("Check this hand in your browser"))
            lines += ["", f'🔐 <a href="{html.escape(url)}">{words}</a>']
        result = InlineQueryResultArticle(
            id=f"h{view.table_id:x}-{view.hand_no}", title=title,
            description=plain("\n".join(lines[2:4])) or None,
            input_message_content=InputTextMessageContent("\n".join(lines),
                                                          parse_mode=ParseMode.HTML))
        try:
            prepared = await self.bot.save_prepared_inline_message(
                session.user, result, allow_user_chats=True, allow_group_chats=True,
                allow_channel_chats=True)
        except TelegramError as err:
            return web.json_response({"ok": False, "error": logged_refusal(err).text(tr)})
        return web.json_response({"ok": True, "id": prepared.id})


__all__ = ["MiniApp", "app_payload", "port_of", "serve"]
