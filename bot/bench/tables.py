"""The load benchmark with limits off: many tables at once, the real bot against the local
Telegram stand-in, in one process and one asyncio loop (``python -m bot.bench``, see
`bot.bench.__main__`). Each run opens its tables, plays them out (`bot.bench.loadplay`) and
prints press-to-edit latency, updates a second, group calls per action, peak memory and
errors, then the verdicts against the targets."""

from __future__ import annotations

import asyncio
import cProfile
import gc
import logging
import pstats
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from bot.app import build_application
from bot.bench.common import FAKE_TOKEN, LogCounter, peak_rss_mb
from bot.bench.loadplay import WAIT, TablePlay, Tally, TimedServer, Watch
from bot.bench.profiling import describe_profile
from bot.http import AiohttpRequest
from bot.sandbox.harness import Sandbox
from bot.sandbox.world import World
from bot.settings import Settings

LONG = 3600.0
"""Turn, blind and svara timers: far longer than any run, so no timer ever fires."""

DEFAULT_TABLES = (1, 10, 100, 500)
BIG = 500
"""From this many tables on, `--hands-big` hands are played instead of `--hands`."""

HTTP_POOL = 32
RAMP_PER_TABLE, RAMP_MAX = 0.1, 30.0
"""Connections of the bot's HTTP client: what ApplicationBuilder gives by default."""

TARGET_P99_MS, TARGET_P99_TABLES = 50.0, 100
TARGET_CALLS_PER_ACTION = 1.0
TARGET_CLEAN_TABLES = 500

GROUP_METHODS = frozenset({
    "sendmessage", "editmessagetext", "editmessagereplymarkup", "editmessagecaption",
    "deletemessage", "deletemessages", "sendphoto", "pinchatmessage", "unpinchatmessage",
    "sendchataction", "getchatmember", "getchat", "getchatadministrators",
})
"""Calls that name a group chat; they count as group API calls."""


@dataclass
class Result:
    tables: int
    hands_each: int
    wall: float
    tally: Tally
    latencies: list[float]
    openings: list[float]
    calls: Counter[str]
    group_calls: Counter[str]
    unprompted_edits: int
    api_errors: Counter[str]
    violations: int
    unanswered_left: int
    logs: LogCounter
    rss_mb: float
    profile: pstats.Stats | None = None

    @property
    def updates(self) -> int:
        return self.tally.commands + self.tally.presses

    @property
    def exceptions(self) -> int:
        return self.logs.counts["ERROR"] + self.logs.counts["CRITICAL"]

    @property
    def errors(self) -> int:
        t = self.tally
        return (len(t.failed) + self.unanswered_left + self.exceptions + len(t.stuck)
                + self.violations)


def load_percentile(values: Sequence[float], share: float) -> float:
    """This benchmark's percentile (0 for no values): rank round(share * n + 0.5), which
    is one above `bot.bench.common.percentile`'s nearest rank where share * n is whole;
    kept so that its figures compare with earlier runs."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered) + 0.5))
    return ordered[min(rank, len(ordered)) - 1]


# ----------------------------------------------------------------------------- one run


def bench_settings(database: Path) -> Settings:
    return Settings(
        bot_token=SecretStr(FAKE_TOKEN), database=database, rate_limit=False,
        turn_timeout=LONG, blind_timeout=LONG, svara_join_timeout=LONG,
        next_hand_delay=0, lobby_autostart=0,
        _env_file=None,  # type: ignore[call-arg]
    )


async def run_tables(count: int, hands: int, seed: int, workdir: Path,
                     profile: bool, think: float = 0.0) -> Result:
    """Open `count` tables at once and play `hands` hands at each."""
    watch = Watch()
    logs = LogCounter()
    root = logging.getLogger()
    root.addHandler(logs)
    database = workdir / f"bench-{count}.sqlite3"
    rng = random.Random(seed * 1000 + count)
    server = TimedServer(World(), watch)
    await server.start()
    tg = Sandbox(server)
    builder = (
        tg.app_builder()
        .request(AiohttpRequest(pool_size=HTTP_POOL))
        .get_updates_request(AiohttpRequest(pool_size=1))
    )
    app = build_application(bench_settings(database), builder,
                            seed_source=lambda: rng.randbytes(32))
    tally = Tally()
    profiler = cProfile.Profile() if profile else None
    try:
        async with tg.running(app, poll_timeout=1.0):
            assert app.post_init is not None and app.post_shutdown is not None
            await app.post_init(app)
            try:
                # At human pace groups open their tables over a while, not all in one
                # instant: RAMP_PER_TABLE apart, at most RAMP_MAX in all.
                ramp = min(RAMP_MAX, RAMP_PER_TABLE * count) if think > 0 else 0.0
                tables = [TablePlay(tg, watch, tally, n, rng.randint(2, 4), hands,
                                    random.Random(rng.random()), think,
                                    delay=ramp * (n - 1) / count)
                          for n in range(1, count + 1)]
                if profiler is not None:
                    profiler.enable()
                started = time.perf_counter()
                await asyncio.gather(*(t.run() for t in tables))
                wall = time.perf_counter() - started
                if profiler is not None:
                    profiler.disable()
                await tg.world.wait_idle(quiet=0.05, timeout=WAIT)
            finally:
                await app.post_shutdown(app)
    finally:
        await server.stop()
        root.removeHandler(logs)
    group_ids = {t.group.id for t in tables}
    calls: Counter[str] = Counter(c.method for c in tg.transcript.calls)
    group_calls: Counter[str] = Counter(
        c.method for c in tg.transcript.calls
        if c.chat_id in group_ids and c.method.lower() in GROUP_METHODS)
    api_errors: Counter[str] = Counter(
        f"{c.method}: {c.description}" for c in tg.transcript.errors()
        if c.method != "getUpdates")
    stats = pstats.Stats(profiler) if profiler is not None else None
    return Result(
        tables=count, hands_each=hands, wall=wall, tally=tally, latencies=watch.latencies,
        openings=[watch.opened[t.group.id] - t.asked for t in tables
                  if t.group.id in watch.opened],
        calls=calls, group_calls=group_calls, unprompted_edits=watch.unprompted_edits,
        api_errors=api_errors, violations=len(tg.transcript.violations),
        unanswered_left=len(tg.world.unanswered_queries()), logs=logs,
        rss_mb=peak_rss_mb(), profile=stats,
    )


# ----------------------------------------------------------------------------- report


def describe(result: Result) -> list[str]:
    t = result.tally
    lat = result.latencies
    ms = [x * 1000 for x in lat]
    opening = [x * 1000 for x in result.openings]
    group_total = sum(result.group_calls.values())
    caused = group_total - result.unprompted_edits - result.tables
    per_press = caused / t.changed if t.changed else 0.0
    breakdown = ", ".join(f"{m} {n}" for m, n in result.group_calls.most_common())
    api_errors = sum(result.api_errors.values())
    lines = [
        f"== {result.tables} table{'s' if result.tables != 1 else ''} x {result.hands_each} "
        f"hand{'s' if result.hands_each != 1 else ''}: {result.wall:.2f} s wall, "
        f"{t.hands} hands finished, {t.closed_early} tables closed early (stacks ran out)",
        f"  press-to-edit latency  p50 {load_percentile(ms, 0.50):7.1f} ms   "
        f"p90 {load_percentile(ms, 0.90):7.1f} ms   "
        f"p99 {load_percentile(ms, 0.99):7.1f} ms   "
        f"max {max(ms, default=0.0):7.1f} ms   ({len(ms)} presses timed)",
        f"  /newgame to table      p50 {load_percentile(opening, 0.50):7.1f} ms   "
        f"p99 {load_percentile(opening, 0.99):7.1f} ms   "
        f"max {max(opening, default=0.0):7.1f} ms   "
        f"({len(opening)} of {result.tables} tables got their message)",
        f"  updates handled        {result.updates / result.wall:7.1f} /s   "
        f"({t.presses} presses + {t.commands} commands)",
        f"  group API calls/action {per_press:7.3f}      (calls a press caused / presses "
        f"that changed the game: {caused}/{t.changed})",
        f"  other group calls      {group_total - caused:7d}      (one table message per table,"
        f" one deal edit per hand after the pause: {result.unprompted_edits} edits, "
        f"{result.tables} tables, {t.hands} hands; all: {breakdown})",
        f"  peak RSS               {result.rss_mb:7.1f} MB",
        f"  errors                 {result.errors:7d}      (failed presses {len(t.failed)}, "
        f"unanswered callbacks {result.unanswered_left}, exceptions {result.exceptions}, "
        f"stuck tables {len(t.stuck)}, rule breaks {result.violations}; besides: API error "
        f"answers {api_errors}, warnings {result.logs.counts['WARNING']}, presses answered "
        f"before their edit {t.no_edit})",
    ]
    for sample in [*t.failed[:3], *t.stuck[:3], *result.logs.samples,
                   *(f"{k} x{v}" for k, v in result.api_errors.most_common(3))]:
        lines.append(f"    ! {sample}")
    return lines


def verdicts(results: list[Result]) -> list[str]:
    by_n = {r.tables: r for r in results}
    lines = ["targets:"]
    at = by_n.get(TARGET_P99_TABLES)
    if at is None:
        lines.append(f"  p99 <= {TARGET_P99_MS:.0f} ms at {TARGET_P99_TABLES} tables: not run")
    else:
        p99 = load_percentile([x * 1000 for x in at.latencies], 0.99)
        ok = "MET" if p99 <= TARGET_P99_MS else "MISSED"
        lines.append(f"  p99 <= {TARGET_P99_MS:.0f} ms at {TARGET_P99_TABLES} tables: "
                     f"{p99:.1f} ms -> {ok}")
    worst = max(
        ((sum(r.group_calls.values()) - r.unprompted_edits - r.tables) / r.tally.changed
         for r in results if r.tally.changed),
        default=0.0)
    ok = "MET" if worst <= TARGET_CALLS_PER_ACTION else "MISSED"
    lines.append(f"  <= {TARGET_CALLS_PER_ACTION:.1f} group call per action: worst run "
                 f"{worst:.3f} -> {ok}")
    big = by_n.get(TARGET_CLEAN_TABLES)
    if big is None:
        lines.append(f"  {TARGET_CLEAN_TABLES} tables without errors: not run")
    else:
        ok = "MET" if big.errors == 0 and big.tally.hands > 0 else "MISSED"
        lines.append(f"  {TARGET_CLEAN_TABLES} tables without errors: {big.errors} errors "
                     f"-> {ok}")
    return lines


def preamble(counts: Sequence[int], hands: int, hands_big: int, think: float) -> list[str]:
    plan = ", ".join(f"{n} x {hands_big if n >= BIG else hands}" for n in counts)
    pace = ("press as soon as the bot answers (a closed loop: one press in flight per "
            "table, so latency ~ tables / throughput)" if think <= 0 else
            f"think {think * 1000:.0f} ms on average (exponential) before each press; tables "
            f"open {RAMP_PER_TABLE * 1000:.0f} ms apart (over {RAMP_MAX:.0f} s at most)")
    return [
        "svara-bot load benchmark: the real Application (bot.app.build_application) against "
        "the local stand-in,",
        "  one process, one asyncio loop, long polling over HTTP on 127.0.0.1, a fresh SQLite "
        "file per run.",
        f"  Runs (tables x hands): {plan}. Tables start at once; each has 2-4 players who",
        f"  {pace}.",
        "  Bot rate limiter OFF and stand-in flood control OFF: this measures the bot's own "
        "capacity, not Telegram's limits.",
        f"  Timers {LONG:.0f} s (nothing times out), next hand dealt at once; bot HTTP pool "
        f"{HTTP_POOL} connections.",
        "method:",
        "  latency = time from the press entering the stand-in's update queue to the moment "
        "the stand-in has stored the next editMessageText of that group (its handler "
        "returned); one press in flight per table.",
        "  updates/s = (presses + commands delivered) / wall time from the first /newgame to "
        "the last table done.",
        "  group calls/action = calls naming a group chat (sendMessage, editMessageText, ...) "
        "caused by presses / presses answered without a popup; the table's first message "
        "and the deal after each hand's pause are counted apart (the target allows two new "
        "group messages per hand).",
        "  peak RSS = ru_maxrss of the whole process (stand-in and bot) after the run; runs "
        "go in ascending order, so it is the peak up to that run.",
        "  errors = failed presses (popup or link) + unanswered callbacks (never answered, or "
        "too late: the stand-in expires a query after 15 s as Telegram does)",
        "    + exceptions (ERROR log records of the bot and PTB) + stuck tables (a player "
        f"waited {WAIT:.0f} s in vain) + rule breaks (HTML, length, markup).",
        "targets: p99 <= 50 ms at 100 tables; <= 1.0 group call per action; 500 tables "
        "without errors.",
    ]


# ----------------------------------------------------------------------------- runs


async def run(counts: Sequence[int], hands: int, hands_big: int, seed: int,
              workdir: Path, profile: int | None, think: float,
              think_big: float) -> list[Result]:
    for line in preamble(counts, hands, hands_big, think):
        print(line, flush=True)
    results = []
    for count in counts:
        gc.collect()
        big = count >= BIG
        if big:
            print(f"  ({count} tables: think {think_big * 1000:.0f} ms on average)", flush=True)
        result = await run_tables(count, hands_big if big else hands, seed, workdir,
                                  profile == count, think_big if big else think)
        results.append(result)
        for line in describe(result):
            print(line, flush=True)
        if result.profile is not None:
            for line in describe_profile(result.profile, result.wall):
                print(line, flush=True)
    for line in verdicts(results):
        print(line)
    return results
