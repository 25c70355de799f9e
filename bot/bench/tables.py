"""Load benchmark: many tables at once, the real bot against the local Telegram stand-in.

Run ``python -m bot.bench [--tables 1,10,100,500] [--hands K] [--hands-big K] [--profile]``.

``--limits real`` measures under Telegram's limits instead (see `bot.bench.limits`):
``python -m bot.bench --limits real --tables T [--time-scale S]`` or ``--limits real
--max-tables``.

Everything runs in one process and one asyncio loop: the stand-in (`SandboxServer`), the
real PTB `Application` from `bot.app.build_application` polling it over HTTP, a fresh
SQLite file per run, and the simulated players. Each table is a group of 2-4 players who
send /newgame, start the bot privately, press Join, then Start, and play hands by pressing
a random legal button of the player to act ("No blind" at the blind) as soon as the table
message shows a new turn. Timers are long, so nothing ever times out. The bot's rate
limiter and the stand-in's flood control are both off: this measures the bot's own
capacity, not Telegram's limits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import logging
import pstats
import random
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.app import build_application
from bot.bench.common import FAKE_TOKEN, LogCounter, buttons_of, peak_rss_mb, table_group
from bot.http import AiohttpRequest
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FloodMode
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.params import Params
from bot.sandbox.players import Player
from bot.sandbox.server import SandboxServer
from bot.sandbox.transcript import Call
from bot.sandbox.world import World
from bot.settings import Settings

LONG = 3600.0
"""Turn, blind and svara timers: far longer than any run, so no timer ever fires."""

DEFAULT_TABLES = (1, 10, 100, 500)
BIG = 500
"""From this many tables on, `--hands-big` hands are played instead of `--hands`."""

WAIT = 60.0
"""How long a player waits for the bot before the table is reported stuck."""

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

STORED = frozenset({"sendmessage", "editmessagetext"})
"""Calls after which the stand-in has a new state of a chat to show its users."""

NOT_ACTIONS = ("My cards", "I'm back")
"""Buttons of the table message that do not play a turn."""


# ----------------------------------------------------------------------------- measuring


class Watch:
    """Press-to-edit timing and wake-ups, fed by the stand-in as it stores messages.

    A press starts a clock for its chat; the next editMessageText of that chat that the
    stand-in stores stops it. Edits with no press waiting are counted as unprompted.
    """

    def __init__(self) -> None:
        self.events: dict[int, asyncio.Event] = {}
        self.pressed: dict[int, float] = {}
        self.latencies: list[float] = []
        self.unprompted_edits = 0
        self.opened: dict[int, float] = {}
        """Chat id -> when its first message from the bot (the table) was stored."""

    def event(self, chat_id: int) -> asyncio.Event:
        event = self.events.get(chat_id)
        if event is None:
            event = self.events[chat_id] = asyncio.Event()
        return event

    def press_starts(self, chat_id: int) -> None:
        self.pressed[chat_id] = time.perf_counter()

    def stored(self, chat_id: int, key: str) -> None:
        now = time.perf_counter()
        self.opened.setdefault(chat_id, now)
        if key == "editmessagetext":
            started = self.pressed.pop(chat_id, None)
            if started is None:
                self.unprompted_edits += 1
            else:
                self.latencies.append(now - started)
        event = self.events.get(chat_id)
        if event is not None:
            event.set()


class TimedServer(SandboxServer):
    """The stand-in, telling a `Watch` the moment a message or an edit is stored."""

    def __init__(self, world: World, watch: Watch) -> None:
        super().__init__(world, flood_mode=FloodMode.OFF)
        self.watch = watch

    async def _run(self, call: Call, key: str, params: Params) -> Any:
        result = await super()._run(call, key, params)
        if key in STORED and call.chat_id is not None:
            self.watch.stored(call.chat_id, key)
        return result


@dataclass
class Tally:
    """What the simulated players saw during one run."""

    commands: int = 0
    presses: int = 0
    changed: int = 0
    """Presses answered without a popup or link: the game changed."""
    failed: list[str] = field(default_factory=list)
    """Presses refused with a popup or a link."""
    no_edit: int = 0
    """Presses that changed the game but were answered before any edit was stored."""
    stuck: list[str] = field(default_factory=list)
    """Tables abandoned: the bot did not answer or show a new turn in time."""
    hands: int = 0
    closed_early: int = 0


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


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered) + 0.5))
    return ordered[min(rank, len(ordered)) - 1]


# ----------------------------------------------------------------------------- players


@dataclass(frozen=True, slots=True)
class Turn:
    """A state of the table message that asks somebody to act."""

    keys: frozenset[str]
    actor: str
    buttons: tuple[tuple[str, str], ...]
    hand_no: int


def read_turn(message: MessageRecord) -> Turn | None:
    """Who is to act and with which buttons, as a player reads the table message."""
    text = message.text or ""
    lines = text.splitlines()
    if not lines or "· hand " not in lines[0] or "is over" in lines[0]:
        return None
    actors = [line[2:].split(":", 1)[0].strip() for line in lines if line.startswith("▶ ")]
    actions = [(label, data) for label, data in buttons_of(message) if label not in NOT_ACTIONS]
    if not actors or not actions:
        return None
    try:
        hand_no = int(lines[0].split("· hand ", 1)[1].split()[0])
    except (IndexError, ValueError):
        hand_no = 0
    return Turn(frozenset(data for _, data in actions), actors[0], tuple(actions), hand_no)


def choose(turn: Turn, rng: random.Random) -> str:
    """The label to press: "No blind" at the blind, else a random turn button.

    All-in is left out while there is another way to stay in, so stacks last for
    several hands.
    """
    labels = [label for label, _ in turn.buttons]
    if "No blind" in labels:
        return "No blind"
    calm = [label for label in labels if not label.startswith("All-in")]
    return rng.choice(calm if len(calm) > 1 else labels)


@dataclass(eq=False)
class TablePlay:
    """One group: its players open a table and play `hands` hands as fast as the bot goes."""

    tg: Sandbox
    watch: Watch
    tally: Tally
    number: int
    seats: InitVar[int]
    hands: int
    rng: random.Random
    think: float = 0.0
    delay: float = 0.0
    players: list[Player] = field(init=False)
    group: ChatRecord = field(init=False)
    by_name: dict[str, Player] = field(init=False)
    message_id: int = field(default=0, init=False)
    last_hand: int = field(default=0, init=False)
    asked: float = field(default=0.0, init=False)

    def __post_init__(self, seats: int) -> None:
        self.players, self.group = table_group(self.tg.world, self.number, seats)
        self.by_name = {p.name: p for p in self.players}
        self.name = f"table {self.number}"

    async def run(self) -> None:
        await asyncio.sleep(self.delay)
        try:
            await self._play()
        except Stuck as err:
            self.tally.stuck.append(f"{self.name}: {err}")
            self.last_hand -= 1  # the hand it was stuck in did not finish
        self.tally.hands += max(0, min(self.last_hand, self.hands))

    async def _wait(self, chat: ChatRecord, ready: Any, what: str) -> Any:
        """Wait until `ready()` is truthy, woken by every message stored in `chat`."""
        event = self.watch.event(chat.id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while True:
            event.clear()
            value = ready()
            if value:
                return value
            left = deadline - loop.time()
            if left <= 0:
                raise Stuck(f"no {what} within {WAIT:.0f} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), left)

    def _table(self) -> MessageRecord:
        message = self.tg.world.find_message(self.group, self.message_id)
        if message is None:
            raise Stuck("the table message is gone")
        return message

    async def _press(self, player: Player, label: str) -> bool:
        """Press a button of the table message; True if the game changed."""
        if self.think > 0:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
        message = self._table()
        data = dict(buttons_of(message)).get(label)
        if data is None:
            raise Stuck(f"no button {label!r}")
        self.watch.press_starts(self.group.id)
        press = await player.press_data(message, data)
        self.tally.presses += 1
        try:
            await asyncio.wait_for(press.query.answered.wait(), WAIT)
        except TimeoutError:
            self.watch.pressed.pop(self.group.id, None)
            raise Stuck(f"press of {label!r} not answered") from None
        answer = press.query.answer
        assert answer is not None
        if answer.show_alert or answer.url:
            self.watch.pressed.pop(self.group.id, None)
            self.tally.failed.append(f"{self.name}: {label!r} by {player.name}: "
                                     f"{answer.text or answer.url}")
            return False
        self.tally.changed += 1
        if self.watch.pressed.pop(self.group.id, None) is not None:
            self.tally.no_edit += 1  # the bot answered before it showed the change
        return True

    async def _play(self) -> None:
        creator = self.players[0]
        self.asked = time.perf_counter()
        await creator.send(self.group, "/newgame")
        self.tally.commands += 1
        table = await self._wait(self.group, lambda: self.group.bot_messages(), "table message")
        self.message_id = table[0].message_id
        for player in self.players:
            await player.start_bot()
            self.tally.commands += 1
        for player in self.players:
            await self._wait(player.dm, lambda p=player: p.dm.bot_messages(), "reply to /start")
        for player in self.players:
            if not await self._press(player, "Join"):
                raise Stuck(f"{player.name} could not join")
        if not await self._press(creator, "Start"):
            raise Stuck("the table could not start")
        seen: frozenset[str] = frozenset()
        while True:
            turn = await self._wait(self.group, lambda s=seen: self._next(s), "new turn")
            if isinstance(turn, str):
                return
            self.last_hand = max(self.last_hand, turn.hand_no)
            if turn.hand_no > self.hands:
                return
            seen = turn.keys
            await self._act(turn)

    def _next(self, seen: frozenset[str]) -> Turn | str | None:
        """A turn not played yet; "done" when the table closed or the last hand is over."""
        message = self._table()
        first = (message.text or "").split("\n", 1)[0]
        if "closed" in first:
            self.tally.closed_early += 1
            return "done"
        if "is over" in first:
            if f"hand {self.hands} is over" in first:
                return "done"
            return None
        turn = read_turn(message)
        if turn is None or turn.keys == seen:
            return None
        return turn

    async def _act(self, turn: Turn) -> None:
        player = self.by_name.get(turn.actor)
        if player is None:
            raise Stuck(f"unknown player {turn.actor!r} to act")
        if not await self._press(player, choose(turn, self.rng)):
            raise Stuck(f"{player.name} could not play")


class Stuck(Exception):
    """A table cannot go on: the bot did not answer, or refused a legal press."""


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
        f"  press-to-edit latency  p50 {percentile(ms, 0.50):7.1f} ms   "
        f"p90 {percentile(ms, 0.90):7.1f} ms   p99 {percentile(ms, 0.99):7.1f} ms   "
        f"max {max(ms, default=0.0):7.1f} ms   ({len(ms)} presses timed)",
        f"  /newgame to table      p50 {percentile(opening, 0.50):7.1f} ms   "
        f"p99 {percentile(opening, 0.99):7.1f} ms   max {max(opening, default=0.0):7.1f} ms   "
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


AREAS = (
    ("stand-in (bot/sandbox)", ("/bot/sandbox/",)),
    ("stand-in HTTP server (aiohttp, yarl, multidict)", ("/aiohttp/", "/yarl/", "/multidict/")),
    ("bot (bot/, excluding the stand-in)", ("/bot/",)),
    ("engine", ("/engine/",)),
    ("PTB (telegram/, telegram.ext)", ("/telegram/",)),
    ("HTTP client (httpx, httpcore, h11, anyio)", ("/httpx/", "/httpcore/", "/h11/", "/anyio/")),
    ("timers (apscheduler)", ("/apscheduler/",)),
    ("asyncio and selectors", ("/asyncio/", "selectors.py")),
    ("json", ("/json/",)),
    ("pydantic", ("/pydantic",)),
)


def _area(filename: str) -> str:
    for name, marks in AREAS:
        if any(mark in filename for mark in marks):
            return name
    if filename.startswith("~") or filename.startswith("<"):
        return "built-ins (C functions, sockets, sqlite3 calls)"
    return "other"


def describe_profile(stats: pstats.Stats, wall: float) -> list[str]:
    """Where the main thread's time went, by area and by function."""
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    by_area: Counter[str] = Counter()
    total = 0.0
    for (filename, _, _), (_, _, tottime, _, _) in raw.items():
        by_area[_area(filename)] += tottime
        total += tottime
    lines = [f"  profile (main thread; {total:.2f} s of CPU in {wall:.2f} s wall; the SQLite "
             "writer and reader threads are not in it):"]
    for area, seconds in by_area.most_common():
        lines.append(f"    {seconds / total * 100:5.1f}%  {area}")
    buffer = io.StringIO()
    stats.stream = buffer  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(18)
    lines.append("  top functions by own time:")
    lines += ["    " + line for line in _table_lines(buffer.getvalue())]
    buffer = io.StringIO()
    stats.stream = buffer  # type: ignore[attr-defined]
    stats.sort_stats("cumulative").print_stats(r"/bot/(?!sandbox)", 25)
    lines.append("  bot functions by cumulative time:")
    lines += ["    " + line for line in _table_lines(buffer.getvalue())]
    return lines


def _table_lines(text: str) -> list[str]:
    out = []
    started = False
    for line in text.splitlines():
        if line.lstrip().startswith("ncalls"):
            started = True
        if started and line.strip():
            out.append(_shorten(line))
    return out


_ROOT = str(Path(__file__).resolve().parents[1])
"""The checkout, cut from profile lines like the library paths."""


def _shorten(line: str) -> str:
    for mark in ("site-packages/", f"{_ROOT}/", "/lib/python3"):
        head, sep, tail = line.partition(mark)
        if sep:
            cut = head.rfind(" ")
            line = head[: cut + 1] + tail
    return line


def verdicts(results: list[Result]) -> list[str]:
    by_n = {r.tables: r for r in results}
    lines = ["targets:"]
    at = by_n.get(TARGET_P99_TABLES)
    if at is None:
        lines.append(f"  p99 <= {TARGET_P99_MS:.0f} ms at {TARGET_P99_TABLES} tables: not run")
    else:
        p99 = percentile([x * 1000 for x in at.latencies], 0.99)
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
        "and the deal after each hand's pause are counted apart (the issue allows two new "
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


# ----------------------------------------------------------------------------- main


def _counts(text: str) -> list[int]:
    try:
        counts = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError("table counts must be 1 or more")
    return counts


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limits", choices=("off", "real"), default="off",
                        help="off (default): the bot's own capacity, limits off on both "
                             "sides; real: the production rate limiter against Telegram's "
                             "limits, players at human pace")
    parser.add_argument("--tables", type=_counts, default=None,
                        help="table counts to run, comma-separated (default: 1,10,100,500; "
                             "with --limits real: 10)")
    parser.add_argument("--hands", type=int, default=None,
                        help="hands per table (default: 2; with --limits real: 3, and 2 "
                             "for each run of --max-tables)")
    parser.add_argument("--hands-big", type=int, default=1,
                        help=f"hands per table from {BIG} tables on (default: 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of players and decks")
    parser.add_argument("--profile", type=int, metavar="N", default=None,
                        help="profile the run with N tables (cProfile, main thread)")
    parser.add_argument("--think", type=float, default=3000.0, metavar="MS",
                        help="mean think time before each press, in ms (default 3000, a "
                             "quick human; 0: press as soon as the bot answers)")
    parser.add_argument("--think-big", type=float, default=8000.0, metavar="MS",
                        help=f"the same from {BIG} tables on (default 8000)")
    parser.add_argument("--max-tables", action="store_true",
                        help="with --limits real: search for the most tables that meet "
                             "every target")
    parser.add_argument("--from", dest="search_from", type=int, default=10, metavar="T",
                        help="--max-tables starts at T tables (default 10)")
    parser.add_argument("--ceiling", type=int, default=200, metavar="T",
                        help="--max-tables tries at most T tables (default 200)")
    parser.add_argument("--time-scale", type=float, default=1.0, metavar="S",
                        help="with --limits real: run every clock S times faster (default "
                             "1, the real clock, which is the reference)")
    parser.add_argument("--cap", type=float, default=300.0, metavar="SECONDS",
                        help="with --limits real: end a run after this long (default 300)")
    parser.add_argument("--in-process", action="store_true",
                        help="with --limits real: run the bot in the bench's own process "
                             "instead of as `python -m bot` in a process of its own")
    parser.add_argument("--lift-global", action="store_true",
                        help="with --limits real: lift Telegram's overall limit of 30 "
                             "calls a second in the stand-in (to see answers at more tables "
                             "than one token may carry)")
    parser.add_argument("--miniapp", type=int, default=0, metavar="V",
                        help="with --limits real: V Mini App viewers a table "
                             "(bot.bench.miniapp)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where to put the scratch databases (default: a temp dir)")
    args = parser.parse_args(argv)
    if (args.hands is not None and args.hands < 1) or args.hands_big < 1:
        parser.error("--hands and --hands-big must be 1 or more")
    if args.limits == "off" and (args.max_tables or args.time_scale != 1.0
                                 or args.in_process or args.lift_global):
        parser.error("--max-tables, --time-scale, --in-process and --lift-global go with "
                     "--limits real")
    if args.time_scale <= 0 or args.cap <= 0:
        parser.error("--time-scale and --cap must be positive")
    logging.getLogger().setLevel(logging.WARNING)  # counted by LogCounter, not printed
    workdir = Path(tempfile.mkdtemp(prefix="svara-bench-", dir=args.dir))
    try:
        if args.limits == "real":
            return _real(args, workdir)
        results = asyncio.run(run(args.tables or list(DEFAULT_TABLES), args.hands or 2,
                                  args.hands_big, args.seed, workdir, args.profile,
                                  args.think / 1000, args.think_big / 1000))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if all(r.errors == 0 for r in results) else 1


def _real(args: argparse.Namespace, workdir: Path) -> int:
    from bot.bench import limits as bench_limits

    if args.miniapp:
        from bot.bench import miniapp as bench_miniapp
        return bench_miniapp.main(args.tables or [10], args.miniapp, args.hands or 3,
                                  args.seed, workdir, args.time_scale, args.cap)
    plan = bench_limits.Plan(scale=args.time_scale, cap=args.cap,
                             in_process=args.in_process, lift_global=args.lift_global)
    if args.max_tables:
        found = asyncio.run(bench_limits.search(
            args.search_from, args.hands or 2, args.seed, workdir, plan, args.ceiling))
        print(f"real limits: one token carries {found} tables")
        return 0
    results = asyncio.run(bench_limits.run_counts(
        args.tables or [10], args.hands or 3, args.seed, workdir, plan))
    return 0 if all(not r.misses() for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
