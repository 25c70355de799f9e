"""The load benchmark under Telegram's real limits: `python -m bot.bench --limits real`.

The bot runs as production starts it: `python -m bot` in a process of its own, told by
`SVARA_*` variables to talk to the stand-in (`SVARA_API_BASE_URL`), with the rate limiter
on and its own SQLite file, so every call crosses a process boundary and real HTTP. The
stand-in answers 429 with retry_after the moment a call breaks one of Telegram's limits
(20 calls a minute in a group, pins and unpins included; 30 a second overall; about one a
second in a private chat). `--in-process` runs the `Application` in the bench's own loop
instead, as earlier versions did. `--lift-global` lifts the stand-in's overall limit (the
bot's own limiter stays as in production), to see how answers hold up at more tables than
one token may carry.

Each table is a group of 2-6 people, and the bot is an admin of every other group (so the
table message is pinned there). People act as people do: when the table message shows
that it is their turn they think 1.5-3 s, or, one turn in seven or so, 5-20 s (so turn
reminders go out), and press a random legal button; after each deal some of them press
"My cards". A person whose /start got no reply sends it again. A run lasts until every
table has played `hands` hands, or until the time cap.

Figures come from the stand-in's transcript afterwards:

* answer: from the press (the stand-in creating the callback query) to the bot's
  answerCallbackQuery for it;
* screen lag: from a turn press the bot accepted to the first message the stand-in stored
  for that table whose keyboard belongs to a later turn (or a later hand, or no hand: the
  hand is over), so a screen that skips a state still counts for every press before it;
* group calls/min: the most calls into one group that count against its limit (messages,
  edits, pins, unpins; 429s included) in any sliding 60 s window, as the stand-in counts;
* 429s: every 429 the stand-in answered, whatever the limit, told by limit and by method;
* lost: messages the bot tried to put in a chat that never got there: a send, an edit of a
  message, a pin or unpin answered 429 or cut off on the way (a dropped connection, a
  request the bot gave up on, a 5xx) and never followed by a successful call for the same
  message (an edit followed by another edit of the same message was superseded, not lost);
  the bot's own log lines that say "lost" are counted beside it;
* messages/hand: the bot's messages and edits that reached the stand-in, over the hands
  dealt; transactions/hand: the database's count of committed transactions, which the
  bot logs when it stops, over the same hands.

The reference is the real clock. `--time-scale S` runs the stand-in's clock, its flood
windows, the bot's pacing, the bot's timers and the players' think time S times faster,
and reports in the simulated clock; the bot's own processing and the outbox's retry waits
are not scaled, so scaled figures are pessimistic. A bot in its own process cannot be
given a faster limiter: there the limiter is off and the group pace
(`SVARA_GROUP_PER_MINUTE`) is scaled instead. Scaled runs are for trying the machinery
(the tests do), not for figures.
"""

from __future__ import annotations

import gc
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from bot.app import build_application, rate_limiter
from bot.bench.botprocess import BotLog, BotProcess, LogTaker, polling
from bot.bench.common import FAKE_TOKEN, percentile
from bot.bench.real import Clock, Plan, RealTable, ScreenServer, play_tables, real_settings
from bot.bench.real_report import RealResult, describe_real, measure, preamble
from bot.bench.screens import (
    LATER,
    Sent,
    first_showing,
    max_in_window,
    table_screens,
    turn_position,
)
from bot.http import AiohttpRequest
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FloodRules
from bot.sandbox.world import World

# The pure parts the run builds on are read from here by their tests.
__all__ = [
    "LATER",
    "Plan",
    "RealResult",
    "RealTable",
    "Sent",
    "first_showing",
    "flood_rules",
    "largest",
    "max_in_window",
    "one_run",
    "percentile",
    "run_counts",
    "run_real",
    "search",
    "table_screens",
    "turn_position",
]


def flood_rules(plan: Plan) -> FloodRules:
    """Telegram's limits, the overall one lifted if asked."""
    return FloodRules(global_per_second=10**9) if plan.lift_global else FloodRules()


async def run_real(count: int, hands: int, seed: int, workdir: Path,
                   plan: Plan | None = None) -> RealResult:
    """Open `count` tables over a ramp and play until each has played `hands` hands."""
    plan = plan or Plan()
    clock = Clock(plan.scale)
    world = World(token=FAKE_TOKEN, clock=clock.now)
    server = ScreenServer(world, flood_rules(plan))
    rng = random.Random(seed * 1000 + count)
    database = workdir / f"real-{count}.sqlite3"
    await server.start()
    tg = Sandbox(server)
    try:
        code: int | None = None
        if plan.in_process:
            log = BotLog()
            started, ended, tables = await _in_process(tg, clock, rng, count, hands,
                                                       database, plan, log)
        else:
            bot = BotProcess(server, database, plan.scale, workdir)
            await bot.start()
            try:
                await polling(server, bot)
                started, ended, tables = await play_tables(server, clock, rng, count, hands, plan)
            finally:
                code = await bot.stop()
            log = bot.log
    finally:
        await server.stop()
    return measure(tables, tg, clock, started, ended, hands, log, code)


async def _in_process(tg: Sandbox, clock: Clock, rng: random.Random, count: int, hands: int,
                      database: Path, plan: Plan,
                      log: BotLog) -> tuple[float, float, list[RealTable]]:
    """The bot's `Application` in this loop, as earlier versions of the bench ran it."""
    taker = LogTaker(log)
    watched = [logging.getLogger(), logging.getLogger("bot")]
    level = watched[1].level
    watched[1].setLevel(logging.INFO)
    watched[0].addHandler(taker)
    builder = (
        tg.app_builder()
        .request(AiohttpRequest())
        .get_updates_request(AiohttpRequest(pool_size=1))
    )
    if plan.scale != 1:
        builder = builder.rate_limiter(rate_limiter(plan.scale))
    app = build_application(real_settings(database, plan.scale), builder,
                            seed_source=lambda: rng.randbytes(32))
    try:
        async with tg.running(app, poll_timeout=1.0):
            assert app.post_init is not None and app.post_shutdown is not None
            await app.post_init(app)
            try:
                return await play_tables(tg.server, clock, rng, count, hands, plan)
            finally:
                await app.post_shutdown(app)
    finally:
        watched[0].removeHandler(taker)
        watched[1].setLevel(level)


async def one_run(count: int, hands: int, seed: int, workdir: Path, plan: Plan) -> RealResult:
    gc.collect()
    result = await run_real(count, hands, seed, workdir, plan)
    for line in describe_real(result):
        print(line, flush=True)
    return result


async def run_counts(counts: Sequence[int], hands: int, seed: int, workdir: Path,
                     plan: Plan) -> list[RealResult]:
    for line in preamble(plan):
        print(line, flush=True)
    results = []
    for count in counts:
        result = await one_run(count, hands, seed, workdir, plan)
        results.append(result)
        print(result.headline(), flush=True)
    return results


async def largest(meets: Callable[[int], Awaitable[bool]], start: int, ceiling: int) -> int:
    """The largest count in 0..`ceiling` for which `meets` holds, assuming that fewer never
    fail where more pass: doubling or halving from `start`, then bisection to within a
    tenth. No count is tried twice."""
    good, bad = 0, ceiling + 1
    count = max(1, min(start, ceiling))
    if await meets(count):
        good = count
        while good < ceiling:
            count = min(ceiling, good * 2)
            if not await meets(count):
                bad = count
                break
            good = count
    else:
        bad = count
        while bad > 1:
            count = bad // 2
            if await meets(count):
                good = count
                break
            bad = count
    while bad - good > max(1, good // 10):
        count = (good + bad) // 2
        if await meets(count):
            good = count
        else:
            bad = count
    return good


async def search(start: int, hands: int, seed: int, workdir: Path, plan: Plan,
                 ceiling: int) -> int:
    """The most tables that meet every target, one run per count tried."""
    for line in preamble(plan):
        print(line, flush=True)

    async def meets(count: int) -> bool:
        result = await one_run(count, hands, seed, workdir, plan)
        misses = result.misses()
        print(f"  {result.headline()[len('real limits: '):]} -> "
              f"{'MET' if not misses else 'MISSED: ' + '; '.join(misses)}", flush=True)
        return not misses

    return await largest(meets, start, ceiling)
