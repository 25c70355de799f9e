"""Build the Telegram application and run it (long polling, or a webhook when configured).

`serve` owns the whole life of the process: it takes the database's lock and checks the
file (`bot.ops.startup`), asks Telegram who the bot is, opens the store, then either polls
or serves the webhook and ``/healthz`` itself (`bot.ops.web`), schedules the automatic
backups, and on SIGINT/SIGTERM stops everything in reverse order. A start that cannot
succeed raises `StartupError` with the one line to print.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import hmac
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any
from urllib.parse import urlsplit

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, ContextTypes

from bot.clock import JobQueueAlarms
from bot.ephemeral_api import Command, set_commands
from bot.games import Games
from bot.handling import Context, Services
from bot.http import AiohttpRequest, hide_private_texts
from bot.i18n import Translations
from bot.languages import Languages
from bot.metrics import Metrics
from bot.miniapp.server import MiniApp
from bot.next_hand import NextHand
from bot.ops.backups import Backups, newest_backup_in
from bot.ops.events import Events
from bot.ops.health import Health
from bot.ops.startup import (
    StartupError,
    backup_before_migrating,
    check_database,
    check_port,
    explain_telegram_error,
    lock_database,
    port_problem,
)
from bot.ops.watch import Watch, check_token_is_free, remove_own_webhook
from bot.ops.web import WebServer
from bot.outbox import TelegramOutbox
from bot.pacing import GroupPace
from bot.practice import Practice
from bot.routes import register
from bot.season_close import SeasonCloser
from bot.settings import Settings
from bot.store import Store, StoreError
from bot.store.db import hide_statements
from bot.table_settings import TableSettings
from bot.texts import COMMANDS, EPHEMERAL_COMMANDS

log = logging.getLogger(__name__)

AnyApp = Application[Any, Any, Any, Any, Any, Any]

# Telegram counts about 20 messages a minute in a group and 30 a second overall, over any
# window. aiolimiter's leaky bucket lets through its capacity plus its rate times the
# window. Overall: 4 at once and then 25 a second (one per 0.16 s), so at most 29 in any
# second while a busy bot keeps 25 a second. In a group the bot paces itself (`bot.pacing`,
# 19 a minute, evenly spaced); the limiter's group bucket (1 + one per 3.1 s, at most 20
# in any minute) is only a safety net under that pace, so a table message never waits in it.
GROUP_BURST, GROUP_PERIOD = 1, 3.1
OVERALL_BURST, OVERALL_PERIOD = 4, 0.16

CONCURRENT_UPDATES = 256
"""Updates handled at once: tables are independent, each has its own lock."""

UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER, Update.INLINE_QUERY]
"""The update types the bot asks Telegram for."""


def link_secret(settings: Settings) -> bytes:
    """The key that signs join links: derived from the token, so it is per install, stays
    the same across restarts, and is known to nobody who does not hold the token."""
    return hmac.new(settings.token().encode(), b"svara join links", hashlib.sha256).digest()


def table_defaults(settings: Settings) -> TableSettings:
    """The settings of a new table, from the operator's configuration."""
    return TableSettings.from_operator(settings)


SENDS = frozenset({
    "sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup", "copyMessage",
    "forwardMessage", "editMessageText", "editMessageCaption", "editMessageReplyMarkup",
    "editMessageMedia", "pinChatMessage", "unpinChatMessage",
})
"""Calls that put or change something in a chat: the ones Telegram's flood limits count."""


class SendLimiter(AIORateLimiter):
    """PTB's limiter, applied only to calls that put or change something in a chat.

    A look-up such as getChatMember or getChat names a chat too, but is no message: taken
    through the group bucket, it would make the next table edit wait a whole slot.
    """

    waiting = 0
    """Sends inside the limiter now (waiting for the overall budget, or on their way)."""

    @property
    def crowded(self) -> bool:
        """More sends wait than the overall budget lets out in a second: private messages
        that can wait or be read elsewhere give way (`bot.outbox`)."""
        return self.waiting > OVERALL_BURST + 1 / OVERALL_PERIOD

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        if endpoint not in SENDS:
            return await callback(*args, **kwargs)
        self.waiting += 1
        try:
            return await super().process_request(callback, args, kwargs, endpoint, data,
                                                 rate_limit_args)
        finally:
            self.waiting -= 1


def rate_limiter(time_scale: float = 1.0) -> SendLimiter:
    """PTB's limiter set to stay within Telegram's flood limits.

    It does not retry a 429 itself: waiting inside a call would hold the table's lock and
    pause every other request; the outbox schedules the same edit again instead.

    `time_scale` > 1 runs the same limits on a faster clock (tests compress time).
    """
    return SendLimiter(
        overall_max_rate=OVERALL_BURST, overall_time_period=OVERALL_PERIOD / time_scale,
        group_max_rate=GROUP_BURST, group_time_period=GROUP_PERIOD / time_scale,
        max_retries=0,
    )


def build_application(
    settings: Settings,
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] | None = None,
    *,
    seed_source: Callable[[], bytes] | None = None,
) -> AnyApp:
    """The application with every handler; `start_services` runs in its post_init.

    `seed_source`, for tests only, deals every hand from a known seed instead of the
    table's derivation (docs/FAIRNESS.md).
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
    hide_private_texts()  # before the first call: DEBUG logs must not show anyone's cards
    hide_statements()  # nor a hand's seed or a table's secret, from the database's log
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
    app.bot_data["daily_bonus"] = settings.daily_bonus
    return app


async def start_services(
    app: AnyApp, settings: Settings, seed_source: Callable[[], bytes] | None = None
) -> Services:
    """Open the store, bring back every table, and register the command list."""
    # Wallet movements and settled hands are forced to disk (FULL); in-hand steps survive a
    # crash of the process (NORMAL), and a power cut at worst rewinds an open hand a step.
    store = await Store.open(settings.database, synchronous="FULL", step_synchronous="NORMAL")
    translations = Translations.load()
    outbox = TelegramOutbox(app, translations, GroupPace(settings.group_per_minute))
    alarms = JobQueueAlarms(app.job_queue)
    games = Games(store, outbox, defaults=table_defaults(settings),
                  starting_chips=settings.starting_chips, seed_source=seed_source,
                  house_daily=settings.house_daily,
                  alarms=alarms)
    outbox.told = games
    app.bot_data["alarms"] = alarms
    services = Services(store, games, translations, outbox, link_secret(settings),
                        Languages(store, translations), verify_url=settings.verifier_url())
    app.bot_data["services"] = services
    app.bot_data["outbox"] = outbox
    app.bot_data["practice"] = Practice(app, services)  # before the tables come back
    app.bot_data["next_hand"] = NextHand(app, services)
    seasons = SeasonCloser(store, outbox, translations, lambda chat: TableSettings.load(
        chat.settings_dict(), **games.defaults.model_dump()).season)
    app.bot_data["seasons"] = seasons
    if settings.public_url is not None:
        miniapp = MiniApp(services, app.bot, public_url=settings.public_url,
                          max_age=settings.miniapp_max_age)
        outbox.app_link = miniapp.link
        app.bot_data["miniapp"] = miniapp
    for line in await games.resume_all():
        log.info("restart: %s", line)
    if app.job_queue is not None:
        seasons.schedule(app.job_queue)  # after the tables: their results go out first
    try:
        for language in translations.languages:
            tr = translations.get(language)
            # Private asks are ephemeral commands: only the asker sees them, and the answer.
            commands = [Command(c, tr.gettext(d), is_ephemeral=c in EPHEMERAL_COMMANDS)
                        for c, d in COMMANDS]
            code = None if language == translations.get(None).language else language
            await set_commands(app.bot, commands, language_code=code)
    except Exception as err:  # a missing command list must not keep the tables down
        log.warning("could not register the command list: %s", err)
    # Everything loaded so far lives as long as the process: keep it out of the cyclic
    # collector's full passes, which otherwise pause every table now and then.
    gc.freeze()
    log.info("ready: %d live tables", len(games.tables))
    return services


async def _started(app: AnyApp, settings: Settings,
                   seed_source: Callable[[], bytes] | None) -> None:
    await start_services(app, settings, seed_source)


async def stop_services(app: AnyApp) -> None:
    alarms = app.bot_data.pop("alarms", None)
    if isinstance(alarms, JobQueueAlarms):
        alarms.stop()
    outbox = app.bot_data.pop("outbox", None)
    if isinstance(outbox, TelegramOutbox):
        outbox.stop()
    services = app.bot_data.pop("services", None)
    if isinstance(services, Services):
        await services.games.keep_shown()
        await services.store.close()


def run(settings: Settings) -> None:
    """Run until SIGINT or SIGTERM; raise `StartupError` when the bot cannot start."""
    asyncio.run(serve(settings))


async def serve(
    settings: Settings, stop: asyncio.Event | None = None, *, signals: bool = True
) -> None:
    """Start, run until ``stop`` is set (or, with ``signals``, SIGINT or SIGTERM comes),
    and stop cleanly."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    handled = []
    for sig in (signal.SIGINT, signal.SIGTERM) if signals else ():
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
            handled.append(sig)
    try:
        await _serve(settings, stop)
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)


async def _serve(settings: Settings, stop: asyncio.Event) -> None:
    if settings.webhook_url or settings.public_url:
        check_port(settings.webhook_listen, settings.webhook_port)
    if settings.health_port is not None:
        check_port(settings.health_listen, settings.health_port, "SVARA_HEALTH_PORT")
    lock = lock_database(settings.database)
    try:
        version = check_database(settings.database)
        kept = await asyncio.to_thread(backup_before_migrating, settings.database, version,
                                       settings.backup_dir)
        if kept is not None:
            log.info("schema %d will be upgraded; the database as it was is kept at %s",
                     version, kept)
        metrics = Metrics(newest_backup=newest_backup_in(settings.backup_dir),
                          backups=settings.backup_dir is not None)
        requests = (AiohttpRequest(observer=metrics),
                    AiohttpRequest(pool_size=1, observer=metrics))
        builder = (
            ApplicationBuilder()
            .token(settings.token())
            .base_url(settings.api_base_url)
            .base_file_url(settings.file_url)
            .request(requests[0])
            .get_updates_request(requests[1])
        )
        app = build_application(settings, builder)
        metrics.open_tables = lambda: _open_tables(app)
        metrics.outbox = lambda: _outbox_figures(app)
        watch = Watch(app, stop, webhook_url=settings.webhook_url)
        servers: list[WebServer] = []
        try:
            await _start(app, settings, metrics, watch, servers)
            log.info("running (%s)", "webhook" if settings.webhook_url else "long polling")
            await stop.wait()
            log.info("stopping")
        finally:
            await watch.close()
            # A clean stop after the webhook was set: take it down, so a start that polls
            # next is not refused as if another process held the token.
            if (settings.webhook_url and watch.reason is None
                    and any(server.path is not None for server in servers)):
                await remove_own_webhook(app, settings.webhook_url)
            await _stop(app, servers)
            for request in requests:
                await request.shutdown()
        if watch.reason is not None:
            raise StartupError(watch.reason)
    finally:
        lock.release()


async def _stop_sending(app: AnyApp) -> None:
    outbox = app.bot_data.get("outbox")
    if isinstance(outbox, TelegramOutbox):
        await outbox.stop_sending()


def _outbox_figures(app: AnyApp) -> dict[str, float]:
    services = app.bot_data.get("services")
    return services.outbox.figures() if isinstance(services, Services) else {}


def _open_tables(app: AnyApp) -> int:
    services = app.bot_data.get("services")
    return len(services.games.tables) if isinstance(services, Services) else 0


async def _start(app: AnyApp, settings: Settings, metrics: Metrics, watch: Watch,
                 servers: list[WebServer]) -> None:
    try:
        await app.initialize()  # getMe: the token and the network
    except TelegramError as err:
        raise explain_telegram_error(err, settings.api_base_url) from None
    try:
        # Before the store: a refused start must leave the database as it was.
        pending = await check_token_is_free(app, settings.webhook_url,
                                            take_over=settings.webhook_take_over)
    except TelegramError as err:
        raise explain_telegram_error(err, settings.api_base_url) from None
    try:
        services = await start_services(app, settings)
    except StoreError as err:
        raise StartupError(
            f"Cannot start: the database {settings.database} cannot be opened ({err}); "
            "check the disk, or restore a backup (python -m bot restore BACKUP)."
        ) from None
    health = Health(settings.database, store=lambda: services.store,
                    open_tables=lambda: len(services.games.tables),
                    webhook=settings.webhook_url is not None,
                    stale_after=settings.updates_stale_after)
    metrics.health = watch.health = health
    metrics.ready = lambda: health.ready
    metrics.refused = lambda: services.games.refusals.count
    health.mark_webhook_info(pending)
    watch.events = Events(lambda: services.store, metrics)
    await watch.events.look()  # where the books stand at start
    watch.events.start()
    if settings.health_port is not None:
        servers.append(await _listen(WebServer(
            app, health, path=None, listen=settings.health_listen, port=settings.health_port,
            metrics=metrics, serve_metrics=True), "SVARA_HEALTH_PORT"))
    if settings.webhook_url:
        servers.append(await _serve_webhook(app, settings, health, metrics))
        watch.start()
    else:
        miniapp = app.bot_data.get("miniapp")
        if isinstance(miniapp, MiniApp):
            # Long polling with a Mini App: its page on a server of its own (with the
            # health checks, as the webhook's server has them).
            servers.append(await _listen(WebServer(
                app, health, path=None, listen=settings.webhook_listen,
                port=settings.webhook_port, metrics=metrics, routes=miniapp.add_routes)))
        assert app.updater is not None
        try:
            await app.updater.start_polling(allowed_updates=UPDATES,
                                            error_callback=watch.polling_error)
        except TelegramError as err:
            raise explain_telegram_error(err, settings.api_base_url) from None
    await app.start()
    if settings.backup_dir is not None and app.job_queue is not None:
        Backups(settings.database, settings.backup_dir, every_hours=settings.backup_every,
                keep=settings.backup_keep).schedule(app.job_queue)


async def _listen(server: WebServer, variable: str = "SVARA_WEBHOOK_PORT") -> WebServer:
    try:
        await server.start()
    except OSError as err:
        raise port_problem(server.listen, server.port, err, variable) from None
    return server


async def _serve_webhook(app: AnyApp, settings: Settings, health: Health,
                         metrics: Metrics) -> WebServer:
    assert settings.webhook_url is not None
    secret = settings.webhook_secret_value()
    miniapp = app.bot_data.get("miniapp")
    server = await _listen(WebServer(
        app, health, secret=secret, path=urlsplit(settings.webhook_url).path,
        listen=settings.webhook_listen, port=settings.webhook_port, metrics=metrics,
        routes=miniapp.add_routes if isinstance(miniapp, MiniApp) else None))
    try:
        await app.bot.set_webhook(settings.webhook_url, secret_token=secret,
                                  allowed_updates=UPDATES)
    except TelegramError as err:
        await server.stop()
        raise StartupError(
            f"Cannot start: Telegram refused the webhook {settings.webhook_url} ({err}); "
            "check SVARA_WEBHOOK_URL (Telegram calls https on ports 443, 80, 88 and 8443)."
        ) from None
    return server


async def _stop(app: AnyApp, servers: list[WebServer]) -> None:
    """Undo whatever `_start` got to, in reverse; one failing step does not skip the rest."""
    steps: list[Callable[[], Awaitable[object]]] = [server.stop for server in servers]
    if app.updater is not None and app.updater.running:
        steps.append(app.updater.stop)
    if app.running:
        # Sends still trying again give up first: the application waits for its tasks,
        # and cards not yet out are sent again after the restart.
        steps.append(lambda: _stop_sending(app))
        steps.append(app.stop)
    steps.append(lambda: stop_services(app))
    steps.append(app.shutdown)
    for step in steps:
        try:
            await step()
        except Exception:
            log.exception("while stopping")

