"""``python -m bot sandbox``: the stand-in, the unmodified bot on it, and the page.

The bot starts exactly as in production (`bot.app.build_application`, its post_init),
only pointed at the stand-in instead of Telegram, with its own database. A database given
with ``--db`` is locked as the bot locks its own (`bot.ops.lock`): on the file of a running
bot the sandbox would resume its tables and arm their timers, so it refuses instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot import verifier
from bot.app import build_application, rate_limiter
from bot.handling import Services
from bot.http import AiohttpRequest
from bot.i18n import DEFAULT_LANGUAGE, Translations
from bot.i18n.catalogs import LANGUAGES
from bot.miniapp.server import MiniApp
from bot.ops.lock import Busy, DatabaseLock
from bot.pacing import PER_MINUTE
from bot.sandbox.harness import Sandbox
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from bot.sandbox.server import SandboxServer
from bot.settings import Settings
from bot.webui.miniapp import mount as mount_miniapp
from bot.webui.robots import Robots
from bot.webui.site import Site, serve_site
from bot.webui.watch import WatchedWorld

HOST = "127.0.0.1"
NAMES = ("Ana", "Boris", "Vera", "Georgi", "Desi", "Emil", "Iva", "Kalin", "Lora")
SETTINGS_TOKEN = "1" * 9 + ":" + "s" * 35
"""Passes the settings' shape check; the bot itself gets the stand-in's own token."""


def username(name: str, number: int) -> str:
    """A seat's @username as Telegram allows one (5 to 32 of a-z, 0-9 and _): the Latin
    letters and digits of its name, with its number when they are fewer than five
    ("boris", "ana_1"), so /give @name works on the page."""
    letters = re.sub(r"[^a-z0-9]", "", name.lower())[:28] or "seat"
    return letters if len(letters) >= 5 else f"{letters}_{number}"


class Refused(Exception):
    """The sandbox cannot start; ``str()`` is the one line to print."""


def _lock(db: Path) -> DatabaseLock:
    """`db`'s lock, taken for the sandbox, or `Refused` naming who holds it."""
    lock = DatabaseLock(db, role="sandbox", now=time.time())
    try:
        lock.acquire()
    except Busy as busy:
        who = f"pid {busy.holder.pid}, a {busy.holder.role}" if busy.holder else "unknown"
        raise Refused(f"another process ({who}) is using the database {db}; stop it first, "
                      "or give the sandbox another --db") from None
    return lock


@dataclass(slots=True)
class Running:
    """A started sandbox: the page's URL and everything behind it."""

    url: str
    tg: Sandbox
    app: Any
    site: Site
    group: ChatRecord
    seats: list[Player]
    robots: Robots

    @property
    def services(self) -> Services:
        services = self.app.bot_data["services"]
        assert isinstance(services, Services)
        return services

    async def idle(self) -> None:
        """Wait until the stand-in is quiet, the bot handles no update and no table
        message is still to be written."""
        while True:
            await self.tg.world.wait_idle(timeout=30.0)
            busy = self.app.update_processor.current_concurrent_updates
            if busy == 0 and self.app.update_queue.empty() and not self.services.outbox.busy:
                return
            await asyncio.sleep(0.02)


PUBLIC_URL = "https://sandbox.invalid"
"""Only makes the table offer its Mini App; the page serves it itself (`bot.webui.miniapp`)."""


def sandbox_settings(db: Path, speed: float, **overrides: Any) -> Settings:
    return Settings(
        bot_token=SecretStr(SETTINGS_TOKEN), database=db, rate_limit=False,
        group_per_minute=PER_MINUTE * speed,
        _env_file=None,  # type: ignore[call-arg]
        **{"public_url": PUBLIC_URL, **overrides},
    )


@contextlib.asynccontextmanager
async def launch(
    *, port: int = 0, players: int = 4, db: Path | None = None, speed: float = 4.0,
    names: tuple[str, ...] = NAMES, robot_delay: float = 0.6,
    seed_source: Callable[[], bytes] | None = None, language: str = DEFAULT_LANGUAGE,
    **settings: Any,
) -> AsyncIterator[Running]:
    """Start everything; yield it running; stop it in reverse.

    `speed` > 1 runs Telegram's flood limits (and the bot's pace under them) on a faster
    clock, as the end-to-end tests do, so the table keeps up with the page.
    """
    if not 2 <= players <= len(names):
        raise ValueError(f"players must be 2..{len(names)}")
    with contextlib.ExitStack() as stack:
        if db is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="svara-sandbox-"))
            db = Path(folder) / "sandbox.sqlite3"
        else:
            stack.callback(_lock(db).release)
        world = WatchedWorld()
        server = SandboxServer(world)
        started = time.monotonic()
        server.flood.clock = lambda: started + (time.monotonic() - started) * speed
        await server.start()
        try:
            tg = Sandbox(server)
            seats = [world.user(name, language_code=language, username=username(name, number))
                     for number, name in enumerate(names[:players], 1)]
            group = world.group("Svara night", members=seats, admins=seats[:1])
            builder = (tg.app_builder().request(AiohttpRequest())
                       .get_updates_request(AiohttpRequest(pool_size=1))
                       .rate_limiter(rate_limiter(speed)))
            app: Any = build_application(sandbox_settings(db, speed, **settings), builder,
                                        seed_source=seed_source)
            async with tg.running(app, poll_timeout=1.0):
                await app.post_init(app)
                try:
                    for seat in seats:
                        await seat.start_bot()

                    def services() -> Services | None:
                        found = app.bot_data.get("services")
                        return found if isinstance(found, Services) else None

                    robots = Robots(services, group, delay=robot_delay)
                    site = Site(world, group, seats, robots,
                                Translations.load().get(language))
                    miniapp = app.bot_data.get("miniapp")
                    if isinstance(miniapp, MiniApp):
                        mount_miniapp(site, miniapp, world.token)
                    verifier.add_route(site.app)
                    runner, got = await serve_site(site, HOST, port)
                    if "verify_url" not in settings:
                        # /hand N links the page's own copy of the checking page.
                        app.bot_data["services"].verify_url = f"http://{HOST}:{got}{verifier.PATH}"
                    task = asyncio.create_task(robots.run())
                    try:
                        yield Running(f"http://{HOST}:{got}/", tg, app, site, group, seats,
                                      robots)
                    finally:
                        task.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await task
                        await runner.cleanup()
                finally:
                    await app.post_shutdown(app)
        finally:
            await server.stop()


async def serve(port: int, players: int, db: Path | None, speed: float, language: str) -> None:
    async with launch(port=port, players=players, db=db, speed=speed,
                      language=language) as running:
        print(f"The sandbox is ready: open {running.url} in a browser (Ctrl+C stops it).",
              flush=True)
        await asyncio.Event().wait()


def main(args: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="svara-bot sandbox",
        description="Play with the bot in a browser, on a local stand-in for Telegram "
                    "(no token, no network).")
    parser.add_argument("--port", type=int, default=8765,
                        help="port of the page on 127.0.0.1 (default 8765; 0: any free one)")
    parser.add_argument("--players", type=int, default=4,
                        help=f"people in the group, 2..{len(NAMES)} (default 4)")
    parser.add_argument("--db", type=Path, metavar="PATH",
                        help="keep the bot's database here (default: a temporary one)")
    parser.add_argument("--speed", type=float, default=4.0,
                        help="how much faster than Telegram the group's message pace runs "
                             "(default 4)")
    parser.add_argument("--language", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                        help="the language of the page and of the seats' Telegram "
                             "(default en)")
    options = parser.parse_args(args)
    if not 2 <= options.players <= len(NAMES):
        parser.error(f"--players must be 2..{len(NAMES)}")
    if options.speed <= 0:
        parser.error("--speed must be positive")
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(options.port, options.players, options.db, options.speed,
                          options.language))
    except KeyboardInterrupt:
        pass
    except Refused as refused:
        print(f"Cannot start the sandbox: {refused}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"Cannot start the sandbox: {err.strerror or err}", file=sys.stderr)
        return 1
    return 0


__all__ = ["Running", "launch", "main"]
