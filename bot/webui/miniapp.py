"""The Mini App in the sandbox: each seat opens the table's page as Telegram would.

``GET /open-app?user=ID&link=URL`` takes a Mini App link of the bot (the group's
``t.me/<bot>?startapp=...`` button, or a ``web_app`` button's page in private), signs
``initData`` for that seat with the stand-in's token, exactly as Telegram signs it, and
sends the browser to the bot's own page with it after the ``#`` (``tgWebAppData``) and a
theme (``tgWebAppThemeParams``). The page there loads a local stand-in of
``telegram-web-app.js`` instead of Telegram's.
"""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from aiohttp import web

from bot.miniapp.initdata import sign, user_fields
from bot.miniapp.server import MiniApp
from bot.webui.site import Site

STAND_IN = "/app/static/telegram-web-app.js"

LIGHT = {"bg_color": "#ffffff", "text_color": "#1b1b1b", "hint_color": "#707579",
         "button_color": "#2e7cf6", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f0f2f5"}
DARK = {"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#8b9aa7",
        "button_color": "#5288c1", "button_text_color": "#ffffff",
        "secondary_bg_color": "#232e3c"}


def payload_of(link: str) -> tuple[str, bool] | None:
    """The table payload of a Mini App link, and whether it was opened by a direct link."""
    parts = urlsplit(link)
    query = parse_qs(parts.query)
    if parts.netloc == "t.me" and "startapp" in query:
        return query["startapp"][0], True
    if parts.path.endswith("/app/") and "t" in query:
        return query["t"][0], False
    return None


def app_url(site: Site, token: str, user: int, link: str, *, dark: bool = False) -> str:
    """Where the browser goes for seat `user` opening `link`."""
    found = payload_of(link)
    if found is None:
        raise web.HTTPBadRequest(text="not a Mini App link of this bot")
    payload, direct = found
    player = site.seats[user]
    fields = user_fields(player.id, player.name, language=player.record.language_code,
                         auth_date=int(time.time()),
                         start_param=payload if direct else None,
                         chat_type="supergroup" if direct else None)
    data = sign(fields, token)
    fragment = urlencode({"tgWebAppData": data,
                          "tgWebAppThemeParams": json.dumps(DARK if dark else LIGHT),
                          "tgWebAppColorScheme": "dark" if dark else "light"},
                         quote_via=quote)
    return f"/app/?t={quote(payload)}#{fragment}"


def mount(site: Site, miniapp: MiniApp, token: str) -> None:
    """Serve the Mini App beside the sandbox's page."""
    miniapp.telegram_js = STAND_IN
    miniapp.add_routes(site.app)

    async def open_app(request: web.Request) -> web.StreamResponse:
        try:
            user = int(request.query.get("user", ""))
        except ValueError:
            raise web.HTTPBadRequest(text="no such seat") from None
        if user not in site.seats:
            raise web.HTTPBadRequest(text="no such seat")
        url = app_url(site, token, user, request.query.get("link", ""),
                      dark=request.query.get("theme") == "dark")
        # Not HTTPFound: it would normalise the fragment and unquote the signed data in it.
        return web.Response(status=302, headers={"Location": url})

    site.app.router.add_get("/open-app", open_app)
