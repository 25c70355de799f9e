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
import base64
import hashlib
import hmac
import html
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram import InlineQueryResultArticle, InputTextMessageContent
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import TelegramError

from bot import errors, replies
from bot import proof as proofs
from bot.callback_data import BadCallbackData, Button, Press
from bot.games import Games
from bot.handling import Services, logged_refusal
from bot.i18n import Translator, normalize_language
from bot.live import Live, Outbox, Player
from bot.miniapp.initdata import BadInitData, WebAppUser, check
from bot.miniapp.links import app_payload, app_table, group_link, page_url
from bot.miniapp.state import (
    APP_JOIN,
    APP_LEAVE,
    APP_REBUY,
    APP_TOP_UP,
    LOBBY_BUTTONS,
    SVARA_BUTTONS,
    TURN_BUTTONS,
    Snapshot,
    plain,
    take,
    view_for,
)
from bot.names import display_name
from bot.records import TableStatus
from bot.render.messages import WEB_APP
from bot.render.table import outcome_lines
from bot.render.views import PrivateHand
from engine import Act, Action

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
FILES = {"app.js": "text/javascript", "app.css": "text/css",
         "telegram-web-app.js": "text/javascript"}
"""The page's own files (the stand-in of Telegram's script is served in the sandbox only)."""
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"

MAX_BODY = 8 * 1024
"""Largest request body (a press or a session is a few hundred bytes)."""
SESSION_HOURS = 12
"""The longest a session lasts (less when its initData expires sooner)."""
STREAMS_PER_USER = 4
STREAMS_TOTAL = 5000
PRESS_BURST, PRESS_RATE = 8, 4.0
"""A user may press 8 times at once, then 4 times a second."""
KEEPALIVE = 15.0
KEEP_CLOSED = 600.0
"""Seconds a closed table's last state stays available."""

_TURN = {Button.FOLD: Act.FOLD, Button.CALL: Act.CALL, Button.RAISE: Act.RAISE,
         Button.ALL_IN: Act.ALL_IN, Button.BLIND: Act.BLIND, Button.NO_BLIND: Act.NO_BLIND}
_SVARA = {Button.SVARA_JOIN: Act.JOIN_SVARA, Button.SVARA_SKIP: Act.SKIP_SVARA}


@dataclass(frozen=True, slots=True)
class Session:
    user: int
    name: str
    language: str | None
    table: int
    expires: int


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


@dataclass(slots=True)
class Hub:
    """Each table's revision and last snapshot; who waits for the next one."""

    clock: Callable[[], float]
    base: int = field(default_factory=lambda: int(time.time() * 1000))
    """Revisions start from the process's start time: a client never mistakes a revision
    of an earlier run for the current one."""
    revs: dict[int, int] = field(default_factory=dict)
    snaps: dict[int, Snapshot] = field(default_factory=dict)
    waiting: dict[int, set[asyncio.Event]] = field(default_factory=dict)

    def shown(self, live: Live) -> None:
        """The table was shown (called under its lock): a new revision, and the streams
        that follow it are woken with a snapshot taken now."""
        rev = self.revs.get(live.id, self.base) + 1
        self.revs[live.id] = rev
        waiters = self.waiting.get(live.id)
        if waiters or live.status is TableStatus.CLOSED:
            self.snaps[live.id] = take(live, rev, self.clock())
            for event in waiters or ():
                event.set()
        else:
            self.snaps.pop(live.id, None)
        if live.status is TableStatus.CLOSED:
            # A closed table is shown a while longer to pages that open late, then forgotten.
            asyncio.get_running_loop().call_later(KEEP_CLOSED, self._forget, live.id, rev)

    def _forget(self, table_id: int, rev: int) -> None:
        if self.revs.get(table_id) == rev and not self.waiting.get(table_id):
            self.revs.pop(table_id, None)
            self.snaps.pop(table_id, None)

    async def current(self, live: Live | None, table_id: int) -> Snapshot | None:
        """The table as it is now (None: no such table in this run)."""
        rev = self.revs.get(table_id, self.base)
        snap = self.snaps.get(table_id)
        if snap is not None and (snap.rev == rev or live is None):
            return snap
        if live is None:
            return None
        async with live.lock:
            rev = self.revs.setdefault(table_id, self.base)
            snap = self.snaps[table_id] = take(live, rev, self.clock())
        return snap


class _Showing:
    """The table's outbox, also telling the Mini App each time a table is shown (under the
    table's lock, as `Games` shows it: every move, and a /endgame or a language change too)."""

    def __init__(self, outbox: Outbox, shown: Callable[[Live], None]) -> None:
        self.outbox = outbox
        self.shown = shown

    def show(self, live: Live) -> None:
        self.outbox.show(live)
        self.shown(live)

    def send_cards(self, live: Live, hands: list[tuple[PrivateHand, str | None]], *,
                   hand_id: int, rounds: int) -> None:
        self.outbox.send_cards(live, hands, hand_id=hand_id, rounds=rounds)

    def remind(self, live: Live, player: int, language: str | None, left: int) -> None:
        self.outbox.remind(live, player, language, left)

    def moved(self, live: Live) -> None:
        self.outbox.moved(live)

    def evicted(self, live: Live, players: list[tuple[int, str | None]]) -> None:
        self.outbox.evicted(live, players)

    def resume(self, live: Live, *, message_id: int | None, shown: str | None) -> None:
        self.outbox.resume(live, message_id=message_id, shown=shown)

    def results_again(self, live: Live) -> None:
        self.outbox.results_again(live)


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
        self._key = hmac.new(bot.token.encode(), b"svara mini app sessions",
                             hashlib.sha256).digest()
        self._streams: dict[int, int] = {}
        self._total = 0
        self._buckets: dict[int, _Bucket] = {}
        self._opened: dict[int, _Bucket] = {}
        self._proofs: dict[tuple[int, int], str | None] = {}
        games = services.games
        games.outbox = _Showing(games.outbox, self.hub.shown)

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
        return _secure(web.Response(text=page, content_type="text/html"), self.telegram_js)

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        kind = FILES.get(name)
        if kind is None or (name == "telegram-web-app.js" and self.telegram_js == TELEGRAM_JS):
            raise web.HTTPNotFound()
        body = (STATIC / name).read_bytes()
        return _secure(web.Response(body=body, content_type=kind), self.telegram_js)

    # ----------------------------------------------------------------- sessions

    def _token(self, s: Session) -> str:
        body = base64.urlsafe_b64encode(json.dumps(
            [s.user, s.name, s.language, s.table, s.expires],
            ensure_ascii=False, separators=(",", ":")).encode()).decode().rstrip("=")
        sig = hmac.new(self._key, body.encode(), hashlib.sha256).digest()[:18]
        return body + "." + base64.urlsafe_b64encode(sig).decode()

    def _from_token(self, token: object) -> Session:
        if not isinstance(token, str) or len(token) > 1024 or "." not in token:
            raise _refused(401, "no session")
        body, _, sig = token.rpartition(".")
        want = base64.urlsafe_b64encode(
            hmac.new(self._key, body.encode(), hashlib.sha256).digest()[:18]).decode()
        if not hmac.compare_digest(want.encode(), sig.encode()):
            raise _refused(401, "no session")
        try:
            user, name, language, table, expires = json.loads(
                base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except (ValueError, TypeError):
            raise _refused(401, "no session") from None
        if expires < self.clock():
            raise _refused(401, "session expired")
        return Session(int(user), str(name), language, int(table), int(expires))

    def _tr(self, user: int, language: str | None) -> Translator:
        chosen = self.services.languages.chosen(user)
        return self.services.translations.get(normalize_language(chosen or language))

    async def _session(self, request: web.Request) -> web.StreamResponse:
        body = await _json_body(request)
        init, payload = body.get("init"), body.get("table")
        if not isinstance(init, str) or not isinstance(payload, str):
            raise _refused(400, "init and table are needed")
        try:
            user: WebAppUser = check(init, self.bot.token, now=self.clock(),
                                     max_age=self.max_age)
        except BadInitData as err:
            raise _refused(401, f"initData refused: {err.reason}") from None
        if not self._allow(user.id, self._opened):
            raise _refused(429, "too many sessions")
        if user.start_param is not None and user.start_param != payload:
            raise _refused(403, "the link names another table")
        table_id = app_table(self.services.link_secret, payload)
        if table_id is None:
            raise _refused(403, "not a table of this bot")
        live = self.games.tables.get(table_id)
        snap = await self.hub.current(live, table_id)
        if snap is None:
            raise _refused(404, "no such table")
        tr = self._tr(user.id, user.language)
        seated = any(s.player == user.id for s in snap.view.seats)
        if not seated and not await self._is_member(snap.chat_id, user.id):
            raise _refused(403, errors.NotAWatcher().text(tr))
        name = display_name(user.name, user.id)
        expires = min(user.auth_date + self.max_age, self.clock() + SESSION_HOURS * 3600)
        session = Session(user.id, name, user.language, table_id, int(expires))
        return web.json_response({"session": self._token(session), "state": view_for(
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
            raise _refused(404, "no such table")  # forgotten since: the page stops asking
        if self._streams.get(session.user, 0) >= STREAMS_PER_USER:
            raise _refused(429, "too many streams")
        if self._total >= STREAMS_TOTAL:
            raise _refused(503, "too many streams")
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
        _secure(response, self.telegram_js)
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

    def _allow(self, user: int, buckets: dict[int, _Bucket]) -> bool:
        """A user's press (or session) within his bucket: `PRESS_BURST` at once, then
        `PRESS_RATE` a second (on the monotonic clock)."""
        now = self.rate_clock()
        bucket = buckets.get(user)
        if bucket is None:
            if len(buckets) > 10_000:
                buckets.clear()
            bucket = buckets[user] = _Bucket(PRESS_BURST, now)
        bucket.tokens = min(PRESS_BURST, bucket.tokens + (now - bucket.at) * PRESS_RATE)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    async def _press(self, request: web.Request) -> web.StreamResponse:
        body = await _json_body(request)
        session = self._from_token(body.get("s"))
        if not self._allow(session.user, self._buckets):
            raise _refused(429, "too many presses")
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
        if not isinstance(data, str) or len(data) > 64:
            raise errors.Expired()
        if data.startswith("app:"):
            return await self._lobby(table_id, who, data)
        try:
            press = Press.decode(data)
        except BadCallbackData:
            raise errors.Expired() from None
        live = self.games.tables.get(table_id)
        if live is None or press.table != table_id:
            raise errors.Expired()
        button = press.button
        games = self.games
        if press.hand == 0 and button in LOBBY_BUTTONS:
            if button is Button.JOIN:
                if not await self._is_member(live.chat_id, who.id):
                    raise errors.NotAMember()
                await games.join(live, who)
            elif button is Button.LEAVE:
                await games.leave(live, who)
            else:
                admin = who.id == live.creator or await self._is_admin(live.chat_id, who.id)
                await games.start(live, who, is_admin=admin)
        elif button is Button.BACK:
            await games.come_back(live, who)
        elif button in TURN_BUTTONS:
            await games.press(live, who, Action(_TURN[button], 0, press.amount),
                              hand_id=press.hand, seq=press.seq)
        elif button in SVARA_BUTTONS:
            await games.press(live, who, Action(_SVARA[button], 0), hand_id=press.hand,
                              seq=None)
        else:
            raise errors.Expired()
        return None

    async def _lobby(self, table_id: int, who: Player, data: str) -> str | None:
        """The lobby's own presses, as /join, /leave, /topup and /rebuy do them in the group:
        now, or (during his hand) kept for the next one."""
        live = self.games.tables.get(table_id)
        if live is None:
            raise errors.Expired()
        games, store = self.games, self.services.store
        if data == APP_JOIN:
            if not await self._is_member(live.chat_id, who.id):
                raise errors.NotAMember()
            during = live.hand is not None
            await games.join(live, who)
            return replies.SEATED_NEXT_HAND if during else None
        if data == APP_LEAVE:
            await games.leave(live, who)
            return None
        if data == APP_TOP_UP:
            try:
                await games.top_up(live, who, None)
            except (errors.WaitForHand, errors.TopUpAfterHand):
                if await store.users.balance(who.id) == 0:
                    room = (live.next_settings or live.settings).max_buy_in
                    raise errors.BadTopUp(room=room, balance=0) from None
                await store.gifts.queue(live.id, who.id, "top_up", None)
                return replies.TOP_UP_ALL_NEXT_HAND
            return None
        if data == APP_REBUY:
            try:
                await games.rebuy(live, who)
            except errors.WaitForHand:
                await store.gifts.queue(live.id, who.id, "rebuy", None)
                return replies.REBUY_NEXT_HAND
            return None
        raise errors.Expired()

    # ----------------------------------------------------------------- sharing

    async def _share(self, request: web.Request) -> web.StreamResponse:
        """The last hand's result as a message the player may send to a chat he picks."""
        body = await _json_body(request)
        session = self._from_token(body.get("s"))
        if not self._allow(session.user, self._buckets):
            raise _refused(429, "too many presses")
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

    async def _member(self, chat_id: int, user_id: int) -> Any:
        if chat_id > 0:  # a practice table: only its player is "in" the chat
            return None
        try:
            return await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return None

    async def _is_member(self, chat_id: int, user_id: int) -> bool:
        if chat_id > 0:
            return chat_id == user_id
        member = await self._member(chat_id, user_id)
        if member is None or member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
            return False
        return member.status != ChatMemberStatus.RESTRICTED or bool(
            getattr(member, "is_member", False))

    async def _is_admin(self, chat_id: int, user_id: int) -> bool:
        member = await self._member(chat_id, user_id)
        return member is not None and member.status in (ChatMemberStatus.OWNER,
                                                        ChatMemberStatus.ADMINISTRATOR)


def _secure(response: web.StreamResponse, telegram_js: str) -> web.StreamResponse:
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


def _refused(status: int, reason: str) -> web.HTTPException:
    body = json.dumps({"ok": False, "error": reason})
    kinds: dict[int, type[web.HTTPException]] = {
        400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden,
        404: web.HTTPNotFound, 413: web.HTTPRequestEntityTooLarge,
        429: web.HTTPTooManyRequests, 503: web.HTTPServiceUnavailable}
    if status == 413:
        return web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=MAX_BODY + 1,
                                             text=body, content_type="application/json")
    return kinds[status](text=body, content_type="application/json")


async def _json_body(request: web.Request) -> dict[str, Any]:
    """The request's whole body as a JSON object, however many writes it came in; never
    more than `MAX_BODY` + 1 bytes are read."""
    body = bytearray()
    while len(body) <= MAX_BODY:
        chunk = await request.content.read(MAX_BODY + 1 - len(body))
        if not chunk:
            break
        body += chunk
    if len(body) > MAX_BODY:
        raise _refused(413, "too large")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: arrays nested deeper than the parser goes.
        raise _refused(400, "not JSON") from None
    if not isinstance(data, dict):
        raise _refused(400, "not a JSON object")
    return data


async def serve(miniapp: MiniApp, listen: str, port: int) -> web.AppRunner:
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


__all__ = ["MiniApp", "app_payload", "serve"]
