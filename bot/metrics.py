"""What the running bot counts, for ``GET /metrics`` (Prometheus' text format).

Everything is counted where the bot meets the outside or commits, never inside the game:

* every Bot API call in the request layer (`bot.http.AiohttpRequest`): calls and their
  latency by method and HTTP status, 429s by method, and for presses the time from the
  update that brought the press to the ``answerCallbackQuery`` that answered it;
* every update as it arrives (long polling's answers, or the webhook);
* game events from the committed ledger and hands (`bot.ops.events`): hands settled;
* saves refused by the store (a press answered "I could not save that"), counted where
  the game logs them (`bot.ops.refusals`);
* at each scrape: open tables, whether the last readiness probe could save (``svara_ready``),
  the age of the last update and of the newest backup, and the outbox's figures.

Every counter is there from the start at 0, so ``increase(...[1h]) > 0`` sees the first
event too; a figure that only counts is a counter (``_total``), one that goes up and
down a gauge.

Each `Metrics` has its own registry, so several bots in one process (tests) never share
a figure.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
PRESSES_REMEMBERED = 10_000
"""Presses waiting for their answer that are remembered (oldest forgotten first)."""


class Marks(Protocol):
    """Who else wants to know that updates come in (`bot.ops.health.Health`)."""

    def mark_update(self) -> None: ...
    def mark_fetch(self) -> None: ...


OUTBOX_GAUGES = {
    "screens_waiting": "Table messages whose newest screen waits for its group's pace.",
    "replies_waiting": "Replies to commands waiting for their group's pace.",
}
OUTBOX_COUNTERS = {
    "replies_merged": "Replies dropped because the same user repeated the same command.",
    "messages_sent": "Messages (not table edits) sent.",
    "messages_lost": "Messages given up after every try met a flood wait or the network.",
    "messages_superseded": "Messages no longer worth sending when their turn came.",
    "messages_refused": "Messages Telegram refused for good (400).",
    "messages_blocked": "Messages to users who blocked the bot or groups that removed it.",
    "messages_flood waits": "Tries of a message that met a flood wait (429).",
    "messages_hidden sent": "Cards shown in a group to one member alone (ephemeral messages).",
    "messages_hidden refused": "Cards for one member's eyes in a group that Telegram refused "
                               "or did not answer in time (his private chat has them).",
}
"""The outbox's figures (`bot.outbox.Outbox.figures`), each shown from the start."""


class _Live(Collector):
    """The figures read at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        m = self.metrics
        tables = GaugeMetricFamily("svara_open_tables", "Tables open now (lobbies included).")
        tables.add_metric([], float(m.open_tables()))
        yield tables
        now = m.wall()
        if m.last_update is not None:
            age = GaugeMetricFamily("svara_last_update_age_seconds",
                                    "Seconds since the last update from Telegram arrived.")
            age.add_metric([], max(0.0, now - m.last_update))
            yield age
        if m.last_fetch is not None:
            fetch = GaugeMetricFamily(
                "svara_last_fetch_age_seconds",
                "Seconds since long polling last got an answer from getUpdates.")
            fetch.add_metric([], max(0.0, now - m.last_fetch))
            yield fetch
        ready = m.ready()
        if ready is not None:
            probe = GaugeMetricFamily("svara_ready", "1 when the last readiness probe saved "
                                      "its bytes (a press can be saved), else 0.")
            probe.add_metric([], 1.0 if ready else 0.0)
            yield probe
        refused = CounterMetricFamily("svara_saves_refused", "Game steps and presses the "
                                      "store refused to save (each answered: nothing changed).")
        refused.add_metric([], float(m.refused()))
        yield refused
        figures = m.outbox()
        for name, text in OUTBOX_GAUGES.items():
            gauge = GaugeMetricFamily(f"svara_outbox_{name}", text)
            gauge.add_metric([], figures.get(name, 0.0))
            yield gauge
        for name, text in OUTBOX_COUNTERS.items():
            counter = CounterMetricFamily(f"svara_outbox_{name.replace(' ', '_')}", text)
            counter.add_metric([], figures.get(name, 0.0))
            yield counter
        configured = GaugeMetricFamily("svara_backups_configured",
                                       "1 when automatic backups are configured, else 0.")
        configured.add_metric([], 1.0 if m.backups else 0.0)
        yield configured
        backup = m.newest_backup()
        if backup is not None:
            gauge = GaugeMetricFamily("svara_last_backup_age_seconds",
                                      "Seconds since the newest automatic backup was taken.")
            gauge.add_metric([], max(0.0, now - backup))
            yield gauge


class Metrics:
    """The bot's counters and gauges; `render()` is the body of ``GET /metrics``."""

    def __init__(
        self,
        *,
        open_tables: Callable[[], int] = lambda: 0,
        newest_backup: Callable[[], float | None] = lambda: None,
        backups: bool = False,
        wall: Callable[[], float] = time.time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.open_tables = open_tables
        self.newest_backup = newest_backup
        self.backups = backups
        """Automatic backups are configured (SVARA_BACKUP_DIR)."""
        self.outbox: Callable[[], dict[str, float]] = dict
        self.ready: Callable[[], bool | None] = lambda: None
        """The outcome of the last readiness probe (`bot.ops.health.Health.ready`)."""
        self.refused: Callable[[], int] = lambda: 0
        """Saves the store refused so far (`bot.ops.refusals.Refusals.count`)."""
        self.wall = wall
        self.clock = clock
        self.last_update: float | None = None
        self.last_fetch: float | None = None
        self.health: Marks | None = None
        self._presses: OrderedDict[str, float] = OrderedDict()
        r = self.registry
        self.calls = Counter("svara_telegram_calls", "Bot API calls by method and HTTP status.",
                             ["method", "status"], registry=r)
        self.call_seconds = Histogram("svara_telegram_call_seconds",
                                      "Time a Bot API call took, by method.", ["method"],
                                      buckets=LATENCY_BUCKETS, registry=r)
        self.flood = Counter("svara_telegram_429", "Bot API calls Telegram refused with 429 "
                             "(too many requests), by method.", ["method"], registry=r)
        self.updates = Counter("svara_updates", "Updates received from Telegram.", registry=r)
        self.presses = Counter("svara_presses_answered",
                               "Button presses answered (answerCallbackQuery).", registry=r)
        self.press_seconds = Histogram(
            "svara_press_answer_seconds",
            "Time from the arrival of a button press to its answer leaving.",
            buckets=LATENCY_BUCKETS, registry=r)
        self.hands = Counter("svara_hands_settled", "Hands settled (svara re-deals are part "
                             "of their hand).", registry=r)
        self.tables_opened = Counter("svara_tables_opened", "Tables opened.", registry=r)
        self.tables_closed = Counter("svara_tables_closed", "Tables closed.", registry=r)
        self.up = Gauge("svara_up", "1 while the bot runs.", registry=r)
        self.up.set(1)
        r.register(_Live(self))

    # -- what the request layer and the webhook see -----------------------------------

    def update_received(self, press_id: str | None = None) -> None:
        """One update arrived; ``press_id`` is its callback query's id, if it is a press."""
        self.last_update = self.wall()
        self.updates.inc()
        if self.health is not None:
            self.health.mark_update()
        if press_id is not None:
            self._presses[press_id] = self.clock()
            while len(self._presses) > PRESSES_REMEMBERED:
                self._presses.popitem(last=False)

    def fetched(self) -> None:
        """getUpdates answered (with or without updates): long polling is alive."""
        self.last_fetch = self.wall()
        if self.health is not None:
            self.health.mark_fetch()

    def call(self, method: str, status: int, seconds: float) -> None:
        """One Bot API call ended with HTTP ``status`` after ``seconds``."""
        self.calls.labels(method, str(status)).inc()
        self.call_seconds.labels(method).observe(seconds)
        if status == 429:
            self.flood.labels(method).inc()

    def press_answered(self, press_id: str) -> None:
        self.presses.inc()
        arrived = self._presses.pop(press_id, None)
        if arrived is not None:
            self.press_seconds.observe(max(0.0, self.clock() - arrived))

    def render(self) -> bytes:
        return generate_latest(self.registry)
