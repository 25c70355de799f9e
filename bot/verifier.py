"""The checking page (docs/verify.html, kept as `bot/static/verify.html`), served by the
bot's own web server and by the sandbox at `PATH`.

It is one static file: the proof reaches it in the link's fragment, which the browser
never sends, or pasted by the reader; no request it makes carries anything of a hand.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from aiohttp import web

from bot.settings import VERIFY_PATH

PATH = VERIFY_PATH
"""Where the page is served on the bot's public address (`Settings.verifier_url`)."""


@cache
def page() -> bytes:
    """The page's HTML, as shipped with the package."""
    return resources.files("bot").joinpath("static/verify.html").read_bytes()


async def serve(request: web.Request) -> web.StreamResponse:
    return web.Response(body=page(), content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-cache",
                                 "Referrer-Policy": "no-referrer",
                                 "X-Content-Type-Options": "nosniff"})


def add_route(app: web.Application) -> None:
    """Serve the page at `PATH` on ``app``."""
    app.router.add_get(PATH, serve)
