"""Mini App viewers under Telegram's limits: ``python -m bot.bench --limits real --miniapp V``.

The run of `bot.bench.limits` (the real Application with its production rate limiter
against the stand-in enforcing Telegram's limits, 2-4 players a table at human pace), with
the table's Mini App served as in production (`bot.miniapp`, over real HTTP on 127.0.0.1)
and V viewers a table, each holding the page's event stream open with a session from
signed ``initData``: the table's players first, then watchers.

Figures:

* move-to-screen = an accepted turn press (its press on the stand-in) to the first state
  a viewer's stream delivers that shows a later turn or hand, for every viewer of the
  table; p50/p99 over all (press, viewer) pairs;
* server CPU = CPU time of the process over the run's wall time, as a share of one core:
  the bot, its web server, the stand-in and the viewers share the process, so it bounds the
  bot's own share from above.

The load average of the machine is printed beside them: other work on it slows every figure.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bot.app import build_application, rate_limiter
from bot.bench.common import LogCounter, peak_rss_mb, percentile
from bot.bench.real import Clock, RealTable, ScreenServer, real_settings
from bot.bench.screens import LATER
from bot.handling import Services
from bot.http import AiohttpRequest
from bot.miniapp.initdata import sign, user_fields
from bot.miniapp.server import MiniApp, port_of, serve
from bot.sandbox.harness import Sandbox
from bot.sandbox.world import World

TARGET_P99_MS = 100.0
PUBLIC_URL = "https://bench.invalid"


@dataclass
class Viewer:
    """One open page: when each state arrived, as (time, hand id, turn)."""

    user: int
    name: str
    seen: list[tuple[float, int, int]] = field(default_factory=list)
    errors: int = 0


@dataclass
class MiniResult:
    tables: int
    viewers: int
    scale: float
    wall: float
    cpu: float
    lags: list[float]
    unshown: int
    errors: int
    hands_done: int
    rss_mb: float

    @property
    def p99_ms(self) -> float:
        return percentile(self.lags, 0.99) * 1000

    def headline(self) -> str:
        return (f"mini app: tables {self.tables}, viewers {self.viewers}, move-to-screen p99 "
                f"{self.p99_ms:.0f} ms, server CPU {self.cpu:.0f} %")

    def details(self) -> list[str]:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        clock = "real clock" if self.scale == 1 else f"clock x{self.scale:g}"
        return [
            f"  {clock}; {self.hands_done} hands in {self.wall:.0f} s; "
            f"{len(self.lags)} (press, viewer) pairs; move-to-screen p50 "
            f"{percentile(self.lags, 0.5) * 1000:.0f} ms, p99 {self.p99_ms:.0f} ms, max "
            f"{max(self.lags, default=0) * 1000:.0f} ms; never shown {self.unshown}; "
            f"stream errors {self.errors}; peak RSS {self.rss_mb:.0f} MB",
            f"  load average {load} (2 cores); target p99 <= {TARGET_P99_MS:.0f} ms: "
            f"{'MET' if self.p99_ms <= TARGET_P99_MS and not self.unshown else 'MISSED'}",
        ]


async def _watch(http: aiohttp.ClientSession, base: str, token: str, payload: str,
                 viewer: Viewer, clock: Clock, stop: asyncio.Event) -> None:
    """Open the page's session and follow its stream until `stop`, reconnecting on a drop."""
    init = sign(user_fields(viewer.user, viewer.name, auth_date=int(time.time()),
                            start_param=payload, chat_type="supergroup"), token)
    async with http.post(base + "/app/api/session",
                         json={"init": init, "table": payload}) as reply:
        if reply.status != 200:
            viewer.errors += 1
            return
        session = (await reply.json())["session"]
    while not stop.is_set():
        try:
            async with http.get(base + "/app/api/events", params={"s": session},
                                timeout=aiohttp.ClientTimeout(total=None)) as stream:
                if stream.status != 200:
                    viewer.errors += 1
                    return
                async for line in stream.content:
                    if line.startswith(b"data: "):
                        state = json.loads(line[6:])
                        seq = state["seq"]
                        viewer.seen.append((clock.now(), int(state["hand_id"]),
                                            LATER if seq is None else int(seq)))
                        if state["status"] == "closed":
                            return
        except (aiohttp.ClientError, ValueError):
            viewer.errors += 1
            await asyncio.sleep(0.2)


async def _viewers_of(table: RealTable, services: Services, miniapp: MiniApp,
                      http: aiohttp.ClientSession, base: str, count: int, clock: Clock,
                      stop: asyncio.Event, number: int,
                      tasks: list[asyncio.Task[None]]) -> list[Viewer]:
    """Once the table opens, `count` viewers follow it (its players first)."""
    while not stop.is_set():
        live = services.games.at(table.group.id, None)
        if live is not None:
            break
        await asyncio.sleep(0.1)
    else:
        return []
    people = [(p.id, p.name) for p in table.players]
    for k in range(max(0, count - len(people))):
        # Watchers are members of the group (only they may watch its table).
        watcher = table.world.user(f"W{number}.{k}")
        table.group.members.setdefault(watcher.id, "member")
        people.append((watcher.id, watcher.name))
    viewers = [Viewer(user, name) for user, name in people[:count]]
    payload = miniapp.payload(live.id)
    token = str(miniapp.bot.token)
    tasks += [asyncio.create_task(_watch(http, base, token, payload, v, clock, stop))
              for v in viewers]
    return viewers


def _lags(table: RealTable, viewers: Sequence[Viewer], ended: float) -> tuple[list[float], int]:
    lags: list[float] = []
    unshown = 0
    for p in table.pressed:
        if not p.turn or p.press is None or p.query.answer is None or p.refused:
            continue
        at = (p.press.hand, p.press.seq)
        for v in viewers:
            shown = next((t for t, hand, seq in v.seen
                          if t >= p.query.created and (hand, seq) > at), None)
            if shown is None:
                unshown += 1
                shown = ended
            lags.append(shown - p.query.created)
    return lags, unshown


async def run_miniapp(count: int, viewers: int, hands: int, seed: int, workdir: Path,
                      scale: float, cap: float) -> MiniResult:
    """`bot.bench.limits.run_real` with V Mini App viewers a table."""
    logs = LogCounter()
    logging.getLogger().addHandler(logs)
    clock = Clock(scale)
    world = World(clock=clock.now)
    server = ScreenServer(world)
    await server.start()
    tg = Sandbox(server)
    rng = random.Random(seed * 1000 + count)
    builder = tg.app_builder().request(AiohttpRequest()).get_updates_request(
        AiohttpRequest(pool_size=1))
    if scale != 1:
        builder = builder.rate_limiter(rate_limiter(scale))
    settings = real_settings(workdir / f"mini-{count}.sqlite3", scale).model_copy(
        update={"public_url": PUBLIC_URL})
    app = build_application(settings, builder, seed_source=lambda: rng.randbytes(32))
    started = clock.now()
    ramp = min(30.0, 0.1 * count)
    tables = [RealTable(server, clock, n, rng.randint(2, 4), hands, random.Random(rng.random()),
                        delay=ramp * (n - 1) / count, deadline=started + cap)
              for n in range(1, count + 1)]
    stop = asyncio.Event()
    found: list[list[Viewer]] = []
    tasks: list[asyncio.Task[None]] = []
    cpu0, wall0 = time.process_time(), time.monotonic()
    try:
        async with tg.running(app, poll_timeout=1.0):
            assert app.post_init is not None and app.post_shutdown is not None
            await app.post_init(app)
            services = app.bot_data["services"]
            miniapp = app.bot_data["miniapp"]
            runner = await serve(miniapp, "127.0.0.1", 0)
            base = f"http://127.0.0.1:{port_of(runner)}"
            connector = aiohttp.TCPConnector(limit=0)
            try:
                async with aiohttp.ClientSession(connector=connector) as http:
                    watching = [asyncio.create_task(_viewers_of(
                        t, services, miniapp, http, base, viewers, clock, stop, t.number,
                        tasks)) for t in tables]
                    await asyncio.gather(*(t.run() for t in tables))
                    await asyncio.sleep(2.0 / scale)  # the last screens reach the viewers
                    stop.set()
                    found = await asyncio.gather(*watching)
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
            finally:
                await runner.cleanup()
                await app.post_shutdown(app)
    finally:
        await server.stop()
        logging.getLogger().removeHandler(logs)
    wall = time.monotonic() - wall0
    cpu = (time.process_time() - cpu0) / wall * 100
    ended = clock.now()
    lags: list[float] = []
    unshown = 0
    for table, seen in zip(tables, found, strict=True):
        more, missed = _lags(table, seen, ended)
        lags += more
        unshown += missed
    return MiniResult(
        tables=count, viewers=viewers, scale=scale, wall=ended - started, cpu=cpu,
        lags=lags, unshown=unshown, errors=sum(v.errors for seen in found for v in seen),
        hands_done=sum(t.hands_done for t in tables), rss_mb=peak_rss_mb())


async def run_counts(counts: Sequence[int], viewers: int, hands: int, seed: int,
                     workdir: Path, scale: float, cap: float) -> list[MiniResult]:
    print(__doc__.split("\n\n", 1)[1].strip(), flush=True)
    results = []
    for count in counts:
        gc.collect()
        result = await run_miniapp(count, viewers, hands, seed, workdir, scale, cap)
        print(result.headline(), flush=True)
        for line in result.details():
            print(line, flush=True)
        results.append(result)
    return results


def main(counts: Sequence[int], viewers: int, hands: int, seed: int, workdir: Path,
         scale: float, cap: float) -> int:
    with contextlib.suppress(KeyboardInterrupt):
        results = asyncio.run(run_counts(counts, viewers, hands, seed, workdir, scale, cap))
        return 0 if all(r.p99_ms <= TARGET_P99_MS and not r.unshown for r in results) else 1
    return 1
