"""Build the Telegram application and run it (long polling, or a webhook when configured)."""

from __future__ import annotations

import gc
import hashlib
import hmac
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from telegram import BotCommand, Update
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, ContextTypes

from bot.games import Games
from bot.handlers import Context, Services, register
from bot.http import AiohttpRequest
from bot.i18n import Translations
from bot.outbox import TelegramOutbox
from bot.pacing import GroupPace
from bot.settings import Settings
from bot.store import Store
from bot.table_settings import TableSettings
from bot.texts import COMMANDS
from engine import new_seed

log = logging.getLogger(__name__)

AnyApp = Application[Any, Any, Any, Any, Any, Any]

# Telegram counts about 20 messages a minute in a group and 30 a second overall, over any
# window. aiolimiter's leaky bucket lets through its capacity plus its rate times the
# window, so both stay under the limits with room for network jitter: at most 14 + 14 in a
# second overall. In a group the bot paces itself (`bot.pacing`, 18 a minute, evenly
# spaced); the limiter's group bucket (1 + one per 3.2 s, at most 19 a minute) is only a
# safety net under that pace, so a table message never waits in it.
GROUP_BURST, GROUP_PERIOD = 1, 3.2
OVERALL_BURST, OVERALL_PERIOD = 14, 1.0

CONCURRENT_UPDATES = 256
"""Updates handled at once: tables are independent, each has its own lock."""


def link_secret(settings: Settings) -> bytes:
    """The key that signs join links: derived from the token, so it is per install, stays
    the same across restarts, and is known to nobody who does not hold the token."""
    return hmac.new(settings.token().encode(), b"svara join links", hashlib.sha256).digest()


def table_defaults(settings: Settings) -> TableSettings:
    """The settings of a new table, from the operator's configuration."""
    return TableSettings(
        ante=settings.default_ante,
        turn_timeout=settings.turn_timeout,
        blind_timeout=settings.blind_timeout,
        svara_join_timeout=settings.svara_join_timeout,
        next_hand_delay=settings.next_hand_delay,
        autostart=settings.lobby_autostart,
    )


def rate_limiter(time_scale: float = 1.0) -> AIORateLimiter:
    """PTB's limiter set to stay within Telegram's flood limits.

    It does not retry a 429 itself: waiting inside a call would hold the table's lock and
    pause every other request; the outbox schedules the same edit again instead.

    `time_scale` > 1 runs the same limits on a faster clock (tests compress time).
    """
    return AIORateLimiter(
        overall_max_rate=OVERALL_BURST, overall_time_period=OVERALL_PERIOD / time_scale,
        group_max_rate=GROUP_BURST, group_time_period=GROUP_PERIOD / time_scale,
        max_retries=0,
    )


def build_application(
    settings: Settings,
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] | None = None,
    *,
    seed_source: Callable[[], bytes] = new_seed,
) -> AnyApp:
    """The application with every handler; `start_services` runs in its post_init.

    `seed_source` gives each hand its secret seed (tests inject known ones).
    """
    if builder is None:
        builder = (
            ApplicationBuilder()
            .token(settings.token())
            .base_url(settings.api_base_url)
            .base_file_url(settings.file_url)
            .request(AiohttpRequest())
            .get_updates_request(AiohttpRequest(pool_size=1))
        )
    if settings.rate_limit:
        builder = builder.rate_limiter(rate_limiter())
    app = (
        builder.context_types(ContextTypes(context=Context))
        .concurrent_updates(CONCURRENT_UPDATES)
        .post_init(lambda app: _started(app, settings, seed_source))
        .post_shutdown(stop_services)
        .build()
    )
    register(app)
    return app


async def start_services(
    app: AnyApp, settings: Settings, seed_source: Callable[[], bytes] = new_seed
) -> Services:
    """Open the store, bring back every table, and register the command list."""
    # Wallet movements and settled hands are forced to disk (FULL); in-hand steps survive a
    # crash of the process (NORMAL), and a power cut at worst rewinds an open hand a step.
    store = await Store.open(settings.database, synchronous="FULL", step_synchronous="NORMAL")
    translations = Translations.load()
    outbox = TelegramOutbox(app, store, translations, GroupPace(settings.group_per_minute))
    games = Games(store, outbox, defaults=table_defaults(settings),
                  starting_chips=settings.starting_chips, seed_source=seed_source)
    outbox.on_timer = games.on_timer
    services = Services(store, games, translations, outbox, link_secret(settings))
    app.bot_data["services"] = services
    app.bot_data["outbox"] = outbox
    for line in await games.resume_all():
        log.info("restart: %s", line)
    try:
        for language in translations.languages:
            tr = translations.get(language)
            commands = [BotCommand(c, tr.gettext(d)) for c, d in COMMANDS]
            code = None if language == translations.get(None).language else language
            await app.bot.set_my_commands(commands, language_code=code)
    except Exception as err:  # a missing command list must not keep the tables down
        log.warning("could not register the command list: %s", err)
    # Everything loaded so far lives as long as the process: keep it out of the cyclic
    # collector's full passes, which otherwise pause every table now and then.
    gc.freeze()
    log.info("ready: %d live tables", len(games.tables))
    return services


async def _started(app: AnyApp, settings: Settings, seed_source: Callable[[], bytes]) -> None:
    await start_services(app, settings, seed_source)


async def stop_services(app: AnyApp) -> None:
    outbox = app.bot_data.pop("outbox", None)
    if isinstance(outbox, TelegramOutbox):
        outbox.stop()
    services = app.bot_data.pop("services", None)
    if isinstance(services, Services):
        await services.store.close()


def run(settings: Settings) -> None:
    """Run until interrupted: long polling, or a webhook when SVARA_WEBHOOK_URL is set."""
    app = build_application(settings)
    updates = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
    if settings.webhook_url:
        secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
        app.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path=urlsplit(settings.webhook_url).path.lstrip("/"),
            webhook_url=settings.webhook_url,
            secret_token=secret,
            allowed_updates=updates,
        )
    else:
        app.run_polling(allowed_updates=updates)
