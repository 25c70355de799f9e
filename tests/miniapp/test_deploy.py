"""The reverse-proxy recipe says what the bot serves: the Mini App's path and port."""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp import web

from bot.miniapp.server import MiniApp
from bot.settings import DEFAULT_WEBHOOK_PORT

REPO = Path(__file__).resolve().parents[2]


def test_the_caddy_recipe_passes_the_mini_app_on_to_the_bot_unbuffered() -> None:
    caddy = (REPO / "deploy" / "Caddyfile").read_text()
    block = re.search(r"handle /app/\* \{(.*?)\n\t\}", caddy, re.S)
    assert block is not None, "no /app/* block"
    assert f"reverse_proxy bot:{DEFAULT_WEBHOOK_PORT}" in block.group(1)
    assert "flush_interval -1" in block.group(1)  # the live table is a stream
    compose = (REPO / "deploy" / "compose.caddy.yaml").read_text()
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in compose
    assert '"443:443"' in compose and f'"{DEFAULT_WEBHOOK_PORT}"' in compose


def test_every_route_of_the_mini_app_is_under_the_proxied_path() -> None:
    app = web.Application()
    MiniApp.add_routes(object.__new__(MiniApp), app)
    paths = {r.resource.canonical for r in app.router.routes() if r.resource is not None}
    assert paths and all(p.startswith("/app/") for p in paths), paths
