"""The load benchmark under Telegram's real limits: `python -m bot.bench --limits real`.

The real `Application` runs with the rate limiter production gives it (`Settings(rate_limit
=True)` through `build_application`), against the stand-in answering 429 with retry_after
the moment a call breaks one of Telegram's limits (20 messages a minute in a group, 30 a
second overall, about one a second in a private chat). Each table is a group of 2-4 people
who act as people do: when the table message they see shows that it is their turn, they
think for 1.5-3 s (uniform) and press a random legal button. A run lasts until every table
has played `hands` hands, or until the time cap.

Figures come from the stand-in's transcript afterwards:

* answer: from the press (the stand-in creating the callback query) to the bot's
  answerCallbackQuery for it;
* screen lag: from a turn press the bot accepted to the first message the stand-in stored
  for that table whose keyboard belongs to a later turn (or a later hand, or no hand: the
  hand is over), so a screen that skips a state still counts for every press before it;
* group calls/min: the most sendMessage and editMessageText calls into one group (429s
  included) over any 60 s window;
* 429s: every 429 the stand-in answered, whatever the limit.

The reference is the real clock. `--time-scale S` runs the stand-in's clock, its flood
windows, the bot's limiter, the bot's timers and the players' think time S times faster,
and reports in the simulated clock; the bot's own processing and the outbox's retry waits
are not scaled, so scaled figures are pessimistic.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import logging
import math
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import InitVar, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.app import build_application, rate_limiter
from bot.bench.tables import FAKE_TOKEN, LogCounter, buttons_of, peak_rss_mb, table_group
from bot.callback_data import BadCallbackData, Button, Press
from bot.http import AiohttpRequest
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FloodMode
from bot.sandbox.models import CallbackRecord, ChatRecord, MessageRecord
from bot.sandbox.params import Params
from bot.sandbox.players import Player
from bot.sandbox.server import SandboxServer
from bot.sandbox.transcript import FLOOD, Call
from bot.sandbox.world import World
from bot.settings import Settings

THINK = (1.5, 3.0)
"""Seconds a player thinks once he sees it is his turn (uniform)."""

TARGET_ANSWER_MS, TARGET_LAG_S, TARGET_GROUP_CALLS, TARGET_429 = 250.0, 3.5, 20, 0

WINDOW = 60.0
"""Telegram's group limit counts messages over any minute."""

CALLBACK_TIMEOUT = 15.0
"""Telegram forgets a press not answered within this many seconds."""

RAMP_PER_TABLE, RAMP_MAX = 0.1, 30.0
"""Groups open their tables this far apart, over this long at most."""

LOBBY_WAIT, LOBBY_TRIES = 10.0, 3
"""A press of Join or Start whose answer was lost is made again if the table message does
not show it this long after."""

DRAIN = 30.0
"""After the last table is done: how long to wait for answers and screens to catch up."""

SCREEN_METHODS = frozenset({"sendMessage", "editMessageText"})

NOT_TURNS = frozenset({Button.CARDS, Button.BACK, Button.JOIN, Button.LEAVE, Button.START})
"""Buttons of the table message that do not play a turn."""

LATER = 1 << 62
"""The seq of a screen with no turn buttons: the hand is over, after every turn of it."""

Position = tuple[int, int]
"""Where a screen is in a table's game: (hand id, turn seq)."""


# ----------------------------------------------------------------------------- pure helpers


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest rank: the smallest value with at least `share` of all at or below it (0 for
    no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered) - 1e-9))
    return ordered[rank - 1]


def max_in_window(times: Sequence[float], width: float) -> int:
    """The most of `times` (sorted) that fall within any window `width` long.

    A window is half-open like the stand-in's: two events `width` apart are in different
    windows.
    """
    best = 0
    start = 0
    for end, at in enumerate(times):
        while times[start] <= at - width:
            start += 1
        best = max(best, end - start + 1)
    return best


def press_of(data: str) -> Press | None:
    """The decoded callback data, or None for data the bot's codec did not produce."""
    try:
        return Press.decode(data)
    except BadCallbackData:
        return None


def markup_data(markup: Any) -> list[str]:
    """The callback data of every button of a reply_markup as the bot sent it."""
    if not isinstance(markup, dict):
        return []
    return [str(b["callback_data"]) for row in markup.get("inline_keyboard", [])
            for b in row if isinstance(b, dict) and "callback_data" in b]


def turn_position(markup: Any) -> Position | None:
    """(hand, seq) of a keyboard's hand buttons; None when it has none (no hand running)."""
    found = [(p.hand, p.seq) for p in map(press_of, markup_data(markup))
             if p is not None and p.hand > 0]
    return max(found, default=None)


@dataclass(frozen=True, slots=True)
class Sent:
    """A message the stand-in stored in a group: a new one, or an edit."""

    at: float
    new: bool
    message_id: int
    markup: Any


def table_screens(sent: Iterable[Sent]) -> list[tuple[float, Position]]:
    """The states of a group's table message, in order, each with where its game stood.

    The table message is the newest message sent with the bot's buttons; edits of others
    (an old table message, a results message) are not screens. A screen with no hand
    buttons comes after every turn of the last hand shown (the hand is over).
    """
    out: list[tuple[float, Position]] = []
    current: int | None = None
    last_hand = 0
    for s in sent:
        if s.new:
            if not markup_data(s.markup):
                continue
            current = s.message_id
        elif s.message_id != current:
            continue
        position = turn_position(s.markup)
        if position is None:
            position = (last_hand, LATER)
        else:
            last_hand = max(last_hand, position[0])
        out.append((s.at, position))
    return out


def first_showing(pressed_at: float, position: Position,
                  screens: Sequence[tuple[float, Position]]) -> float | None:
    """When the first screen stored after the press showed its effect or a later state."""
    start = bisect.bisect_right(screens, pressed_at, key=lambda s: s[0])
    for at, shown in screens[start:]:
        if shown > position:
            return at
    return None


def sent_in(calls: Iterable[Call], chat_id: int) -> list[Sent]:
    """The messages the stand-in stored in one chat, from its transcript."""
    out = []
    for c in calls:
        if c.chat_id != chat_id or c.method not in SCREEN_METHODS or not c.ok:
            continue
        if not isinstance(c.result, dict):
            continue  # still in flight
        message_id = int(c.result.get("message_id", 0))
        out.append(Sent(c.at, c.method == "sendMessage", message_id,
                        c.params.get("reply_markup")))
    return out


# ----------------------------------------------------------------------------- stand-in


class ScreenServer(SandboxServer):
    """The stand-in enforcing flood limits, waking the players of a chat on each message."""

    def __init__(self, world: World) -> None:
        super().__init__(world, flood_mode=FloodMode.ENFORCE)
        self.events: dict[int, asyncio.Event] = {}

    def event(self, chat_id: int) -> asyncio.Event:
        event = self.events.get(chat_id)
        if event is None:
            event = self.events[chat_id] = asyncio.Event()
        return event

    async def _run(self, call: Call, key: str, params: Params) -> Any:
        result = await super()._run(call, key, params)
        if key in ("sendmessage", "editmessagetext") and call.chat_id is not None:
            event = self.events.get(call.chat_id)
            if event is not None:
                event.set()
        return result


# ----------------------------------------------------------------------------- players


@dataclass
class Clock:
    """Simulated seconds over real ones: `scale` times faster."""

    scale: float
    started: float = field(default_factory=time.monotonic)

    def now(self) -> float:
        return self.started + (time.monotonic() - self.started) * self.scale

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.scale)


@dataclass
class Pressed:
    """One press a player made: what, on which table, and what he was told."""

    table: int
    query: CallbackRecord
    press: Press | None

    @property
    def refused(self) -> bool:
        answer = self.query.answer
        return answer is not None and (answer.show_alert or answer.url is not None)

    @property
    def turn(self) -> bool:
        return self.press is not None and self.press.hand > 0 \
            and self.press.button not in NOT_TURNS


class TableDone(Exception):
    """This table stops: played out, closed, or it cannot go on."""


@dataclass(eq=False)
class RealTable:
    """One group: its people open a table, join, start and play `hands` hands at human pace."""

    server: ScreenServer
    clock: Clock
    number: int
    seats: InitVar[int]
    hands: int
    rng: random.Random
    delay: float
    deadline: float
    world: World = field(init=False)
    players: list[Player] = field(init=False)
    group: ChatRecord = field(init=False)
    by_name: dict[str, Player] = field(init=False)
    event: asyncio.Event = field(init=False)
    message_id: int = field(default=0, init=False)
    pressed: list[Pressed] = field(default_factory=list, init=False)
    hand_ids: set[int] = field(default_factory=set, init=False)
    last_keys: dict[str, frozenset[str]] = field(default_factory=dict, init=False)
    thinking: set[str] = field(default_factory=set, init=False)
    tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False)
    outcome: str = field(default="unfinished", init=False)
    hands_done: int = field(default=0, init=False)

    def __post_init__(self, seats: int) -> None:
        self.world = self.server.world
        self.players, self.group = table_group(self.world, self.number, seats)
        self.by_name = {p.name: p for p in self.players}
        self.event = self.server.event(self.group.id)

    async def run(self) -> None:
        await self.clock.sleep(self.delay)
        try:
            await self._lobby()
            await self._play()
        except TableDone as done:
            self.outcome = str(done)
        finally:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

    def _left(self) -> float:
        left = self.deadline - self.clock.now()
        if left <= 0:
            raise TableDone("unfinished")
        return left

    async def _until(self, event: asyncio.Event, ready: Callable[[], Any]) -> Any:
        while True:
            event.clear()
            value = ready()
            if value:
                return value
            left = self._left()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), left / self.clock.scale)

    def _think(self) -> float:
        return self.rng.uniform(*THINK)

    def table_message(self) -> MessageRecord | None:
        """The table message as the group sees it: the newest one with the bot's buttons."""
        for message in reversed(self.group.messages):
            if message.deleted or not message.sender.is_bot:
                continue
            if message.message_id == self.message_id or markup_data(message.reply_markup):
                self.message_id = message.message_id
                return message
        return None

    async def _press(self, player: Player, message: MessageRecord, data: str) -> Pressed:
        query = (await player.press_data(message, data)).query
        pressed = Pressed(self.number, query, press_of(data))
        self.pressed.append(pressed)
        return pressed

    async def _within(self, seconds: float, ready: Callable[[], Any]) -> Any:
        """Wait up to `seconds` for the table message to make `ready()` true."""
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self._until(self.event, ready),
                                          seconds / self.clock.scale)
        return None

    async def _lobby_press(self, player: Player, label: str) -> Pressed | None:
        """Think, then press a button of the lobby; None when it is not there."""
        await self.clock.sleep(self._think())
        message = self.table_message()
        data = dict(buttons_of(message)).get(label) if message is not None else None
        if message is None or data is None:
            return None
        return await self._press(player, message, data)

    async def _told(self, pressed: Pressed) -> bool | None:
        """What the answer said: True done, False refused, None lost (no answer in time)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(pressed.query.answered.wait(),
                                   CALLBACK_TIMEOUT / self.clock.scale)
        if pressed.query.answer is None:
            return None
        return not pressed.refused

    async def _lobby_step(self, player: Player, label: str, ready: Callable[[], bool]) -> bool:
        """Press `label` until the bot says it worked or the table message shows it did;
        a press whose answer was lost is made again, as a person would."""
        for _ in range(LOBBY_TRIES):
            pressed = await self._lobby_press(player, label)
            if pressed is None:
                return False
            told = await self._told(pressed)
            if told is not None:
                return told
            if await self._within(LOBBY_WAIT, ready):
                return True
        return False

    def _listed(self, player: Player) -> bool:
        message = self.table_message()
        return message is not None and f". {player.name}:" in (message.text or "")

    def _dealt(self) -> bool:
        message = self.table_message()
        return message is not None and turn_position(message.reply_markup) is not None

    async def _lobby(self) -> None:
        creator = self.players[0]
        await creator.send(self.group, "/newgame")
        await self._until(self.event, self.table_message)
        for player in self.players:
            await player.start_bot()
        for player in self.players:
            dm = player.dm
            await self._until(self.server.event(dm.id), dm.bot_messages)
        joined = await asyncio.gather(*(self._lobby_step(p, "Join", partial(self._listed, p))
                                        for p in self.players))
        if sum(joined) < 2:
            raise TableDone("could not seat two players")
        if not await self._lobby_step(creator, "Start", self._dealt):
            raise TableDone("could not start")

    async def _play(self) -> None:
        while True:
            await self._until(self.event, self._step)

    def _step(self) -> bool:
        """Look at the table message; start the players whose turn it shows. Never true."""
        message = self.table_message()
        if message is None:
            raise TableDone("the table message is gone")
        data = markup_data(message.reply_markup)
        position = turn_position(message.reply_markup)
        if position is None:
            first = (message.text or "").split("\n", 1)[0]
            if "closed" in first:
                self.hands_done = len(self.hand_ids)
                raise TableDone("closed early")
            if len(self.hand_ids) >= self.hands:
                self.hands_done = len(self.hand_ids)
                raise TableDone("done")
            return False
        self.hand_ids.add(position[0])
        self.hands_done = len(self.hand_ids) - 1
        if len(self.hand_ids) > self.hands:
            raise TableDone("done")
        keys = frozenset(d for d in data if (p := press_of(d)) is not None
                         and p.hand > 0 and p.button not in NOT_TURNS)
        if not keys:
            return False
        for name in _to_act(message):
            player = self.by_name.get(name)
            if player is None or name in self.thinking or self.last_keys.get(name) == keys:
                continue
            self.thinking.add(name)
            task = asyncio.get_running_loop().create_task(self._turn(player, keys))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return False

    async def _turn(self, player: Player, keys: frozenset[str]) -> None:
        """Think, then press a random legal button if the turn is still the one he saw."""
        try:
            await self.clock.sleep(self._think())
            message = self.table_message()
            if message is None or player.name not in _to_act(message):
                return
            turns = [(label, d) for label, d in buttons_of(message) if d in keys]
            if len(turns) != len(keys):
                return  # the screen moved on while he thought
            self.last_keys[player.name] = keys
            await self._press(player, message, choose(turns, self.rng))
        finally:
            self.thinking.discard(player.name)
            self.event.set()  # look again: the screen may have moved on meanwhile


def _to_act(message: MessageRecord) -> list[str]:
    """The names marked ▶ on the table message."""
    return [line[2:].split(":", 1)[0].strip() for line in (message.text or "").splitlines()
            if line.startswith("▶ ")]


def choose(turns: Sequence[tuple[str, str]], rng: random.Random) -> str:
    """A random legal button's data; all-in only when nothing else keeps the player in."""
    calm = [d for _, d in turns if (p := press_of(d)) is None or p.button is not Button.ALL_IN]
    return rng.choice(calm or [d for _, d in turns])


# ----------------------------------------------------------------------------- one run


@dataclass
class RealResult:
    tables: int
    scale: float
    hands_each: int
    wall: float
    """Seconds from the first /newgame to the end of the drain, on the run's clock."""
    outcomes: Counter[str]
    hands_done: int
    presses: int
    refused: list[str]
    answers: list[float]
    """Seconds from each press to its answer; never answered counts until the run's end."""
    late: int
    """Presses answered after Telegram's 15 s, or never."""
    lags: list[float]
    unshown: int
    group_max: int
    group_total: int
    flood: Counter[str]
    """429s by limit (group, global, private)."""
    calls: int
    logs: LogCounter
    rss_mb: float

    @property
    def answer_p99_ms(self) -> float:
        return percentile(self.answers, 0.99) * 1000

    @property
    def lag_p99(self) -> float:
        return percentile(self.lags, 0.99)

    @property
    def too_many(self) -> int:
        return sum(self.flood.values())

    def misses(self) -> list[str]:
        """The targets this run missed."""
        out = []
        if self.answer_p99_ms > TARGET_ANSWER_MS:
            out.append(f"answer p99 {self.answer_p99_ms:.0f} > {TARGET_ANSWER_MS:.0f} ms")
        if self.lag_p99 > TARGET_LAG_S:
            out.append(f"screen lag p99 {self.lag_p99:.1f} > {TARGET_LAG_S} s")
        if self.group_max > TARGET_GROUP_CALLS:
            out.append(f"group calls/min {self.group_max} > {TARGET_GROUP_CALLS}")
        if self.too_many > TARGET_429:
            out.append(f"{self.too_many} 429s")
        finished = self.outcomes["done"] + self.outcomes["closed early"]
        if finished < self.tables:
            out.append(f"{self.tables - finished} tables did not finish")
        return out

    def headline(self) -> str:
        return (f"real limits: tables {self.tables}, answer p99 {self.answer_p99_ms:.0f} ms, "
                f"screen lag p99 {self.lag_p99:.1f} s, group calls/min max {self.group_max}, "
                f"429s {self.too_many}")


def real_settings(database: Path, scale: float) -> Settings:
    """Production settings: real timers and the rate limiter on; scaled if asked."""
    if scale == 1:
        return Settings(bot_token=SecretStr(FAKE_TOKEN), database=database, rate_limit=True,
                        _env_file=None)  # type: ignore[call-arg]
    defaults = Settings(bot_token=SecretStr(FAKE_TOKEN), _env_file=None)  # type: ignore[call-arg]
    return Settings(
        bot_token=SecretStr(FAKE_TOKEN), database=database, rate_limit=False,
        turn_timeout=defaults.turn_timeout / scale,
        blind_timeout=defaults.blind_timeout / scale,
        svara_join_timeout=defaults.svara_join_timeout / scale,
        next_hand_delay=defaults.next_hand_delay / scale,
        lobby_autostart=defaults.lobby_autostart / scale,
        _env_file=None,  # type: ignore[call-arg]
    )


async def run_real(count: int, hands: int, seed: int, workdir: Path, scale: float,
                   cap: float) -> RealResult:
    """Open `count` tables over a ramp and play until each has played `hands` hands."""
    logs = LogCounter()
    root = logging.getLogger()
    root.addHandler(logs)
    clock = Clock(scale)
    world = World(clock=clock.now)
    server = ScreenServer(world)
    await server.start()
    tg = Sandbox(server)
    rng = random.Random(seed * 1000 + count)
    builder = (
        tg.app_builder()
        .request(AiohttpRequest())
        .get_updates_request(AiohttpRequest(pool_size=1))
    )
    if scale != 1:
        builder = builder.rate_limiter(rate_limiter(scale))
    app = build_application(real_settings(workdir / f"real-{count}.sqlite3", scale), builder,
                            seed_source=lambda: rng.randbytes(32))
    started = clock.now()
    ramp = min(RAMP_MAX, RAMP_PER_TABLE * count)
    tables = [RealTable(server, clock, n, rng.randint(2, 4), hands, random.Random(rng.random()),
                        delay=ramp * (n - 1) / count, deadline=started + cap)
              for n in range(1, count + 1)]
    try:
        async with tg.running(app, poll_timeout=1.0):
            assert app.post_init is not None and app.post_shutdown is not None
            await app.post_init(app)
            try:
                await asyncio.gather(*(t.run() for t in tables))
                await _drain(tables, clock)
            finally:
                await app.post_shutdown(app)
    finally:
        await server.stop()
        root.removeHandler(logs)
    ended = clock.now()
    return measure(tables, tg, clock, started, ended, hands, logs)


async def _drain(tables: Sequence[RealTable], clock: Clock) -> None:
    """Wait until every press is answered or forgotten and every screen shows its press."""
    deadline = clock.now() + DRAIN
    while clock.now() < deadline:
        if all(_settled(t, clock.now()) for t in tables):
            return
        await asyncio.sleep(0.05)


def _settled(table: RealTable, now: float) -> bool:
    for p in table.pressed:
        if p.query.answer is None and now - p.query.created <= CALLBACK_TIMEOUT:
            return False
    accepted = [p.press for p in table.pressed if p.turn and p.query.answer and not p.refused]
    if not accepted:
        return True
    message = table.table_message()
    if message is None:
        return True
    shown = turn_position(message.reply_markup) or (LATER, LATER)
    return all(shown > (p.hand, p.seq) for p in accepted if p is not None)


def measure(tables: Sequence[RealTable], tg: Sandbox, clock: Clock, started: float,
            ended: float, hands: int, logs: LogCounter) -> RealResult:
    calls = tg.transcript.calls
    answer_calls: dict[str, Call] = {}
    for c in calls:
        if c.method == "answerCallbackQuery":
            answer_calls.setdefault(str(c.params.get("callback_query_id")), c)
    answers, lags, refused = [], [], []
    late = unshown = 0
    group_max = group_total = 0
    for table in tables:
        screens = table_screens(sent_in(calls, table.group.id))
        for p in table.pressed:
            query = p.query
            answer = answer_calls.get(query.id)
            # Told from what the bot sent: an answer given too late is still its answer.
            at = ended if answer is None else answer.at
            answers.append(at - query.created)
            if answer is None or at - query.created > CALLBACK_TIMEOUT:
                late += 1
            if answer is not None and (str(answer.params.get("show_alert")).lower() == "true"
                                       or answer.params.get("url")):
                said = answer.params.get("text") or answer.params.get("url")
                refused.append(f"table {table.number}: {query.data} by "
                               f"{query.user.first_name}: {said}")
                continue
            if not p.turn or p.press is None:
                continue
            shown = first_showing(query.created, (p.press.hand, p.press.seq), screens)
            if shown is None:
                unshown += 1
                shown = ended
            lags.append(shown - query.created)
        times = sorted(c.at for c in calls
                       if c.chat_id == table.group.id and c.method in SCREEN_METHODS)
        group_total += len(times)
        group_max = max(group_max, max_in_window(times, WINDOW))
    flood: Counter[str] = Counter(v.detail.split(" ", 1)[0] for v in tg.transcript.violations
                                  if v.kind == FLOOD)
    return RealResult(
        tables=len(tables), scale=clock.scale, hands_each=hands,
        wall=ended - started,
        outcomes=Counter(t.outcome for t in tables),
        hands_done=sum(t.hands_done for t in tables),
        presses=sum(len(t.pressed) for t in tables), refused=refused,
        answers=answers, late=late, lags=lags, unshown=unshown, group_max=group_max,
        group_total=group_total, flood=flood,
        calls=sum(1 for c in calls if c.method != "getUpdates"), logs=logs,
        rss_mb=peak_rss_mb(),
    )


# ----------------------------------------------------------------------------- report


def describe_real(r: RealResult) -> list[str]:
    ms = [x * 1000 for x in r.answers]
    clock = "real clock" if r.scale == 1 else f"clock x{r.scale:g} (figures in simulated time)"
    outcomes = ", ".join(f"{n} {what}" for what, n in r.outcomes.most_common())
    flood = ", ".join(f"{rule} {n}" for rule, n in r.flood.most_common()) or "none"
    lines = [
        f"== real limits, {r.tables} table{'s' if r.tables != 1 else ''} x {r.hands_each} "
        f"hands, {clock}: {r.wall:.1f} s ({r.wall / r.scale:.1f} s real); tables: "
        f"{outcomes}; {r.hands_done} hands played",
        f"  answer       p50 {percentile(ms, 0.5):7.0f} ms  p90 {percentile(ms, 0.9):7.0f} ms  "
        f"p99 {percentile(ms, 0.99):7.0f} ms  max {max(ms, default=0):7.0f} ms  "
        f"({r.presses} presses; {r.late} answered after {CALLBACK_TIMEOUT:.0f} s or never)",
        f"  screen lag   p50 {percentile(r.lags, 0.5):7.1f} s   "
        f"p90 {percentile(r.lags, 0.9):7.1f} s   p99 {r.lag_p99:7.1f} s   "
        f"max {max(r.lags, default=0):7.1f} s   ({len(r.lags)} accepted turn presses; "
        f"{r.unshown} never shown)",
        f"  group calls  max {r.group_max} in any {WINDOW:.0f} s window of one group; "
        f"{r.group_total} sendMessage + editMessageText into groups, "
        f"{r.calls} API calls in all",
        f"  429s         {r.too_many} ({flood})",
        f"  refused presses {len(r.refused)}, exceptions "
        f"{r.logs.counts['ERROR'] + r.logs.counts['CRITICAL']}, warnings "
        f"{r.logs.counts['WARNING']}, peak RSS {r.rss_mb:.0f} MB",
    ]
    for sample in [*r.refused[:3], *r.logs.samples]:
        lines.append(f"    ! {sample}")
    return lines


def preamble(scale: float, cap: float) -> list[str]:
    return [
        "svara-bot under Telegram's limits: the real Application with its production rate "
        "limiter against the stand-in answering 429 as Telegram does,",
        f"  {'on the real clock' if scale == 1 else f'on a clock {scale:g} times faster'}; "
        f"production timers; 2-4 players a table, thinking {THINK[0]}-{THINK[1]} s (uniform) "
        "once they see their turn, pressing a random legal button;",
        f"  tables open {RAMP_PER_TABLE:g} s apart (over {RAMP_MAX:.0f} s at most); a run "
        f"ends when every table has played its hands or after {cap:.0f} s.",
        "  answer = press to answerCallbackQuery; screen lag = accepted turn press to the "
        "first table message stored with a later turn (or hand);",
        "  group calls/min = most sendMessage + editMessageText into one group in any 60 s; "
        "429s = every 429 the stand-in answered.",
        f"targets: answer p99 <= {TARGET_ANSWER_MS:.0f} ms, screen lag p99 <= "
        f"{TARGET_LAG_S} s, group calls/min <= {TARGET_GROUP_CALLS}, 429s = {TARGET_429}.",
    ]


async def one_run(count: int, hands: int, seed: int, workdir: Path, scale: float,
                  cap: float) -> RealResult:
    gc.collect()
    result = await run_real(count, hands, seed, workdir, scale, cap)
    for line in describe_real(result):
        print(line, flush=True)
    return result


async def run_counts(counts: Sequence[int], hands: int, seed: int, workdir: Path,
                     scale: float, cap: float) -> list[RealResult]:
    for line in preamble(scale, cap):
        print(line, flush=True)
    results = []
    for count in counts:
        result = await one_run(count, hands, seed, workdir, scale, cap)
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


async def search(start: int, hands: int, seed: int, workdir: Path, scale: float,
                 cap: float, ceiling: int) -> int:
    """The most tables that meet every target, one run per count tried."""
    for line in preamble(scale, cap):
        print(line, flush=True)

    async def meets(count: int) -> bool:
        result = await one_run(count, hands, seed, workdir, scale, cap)
        misses = result.misses()
        print(f"  {result.headline()[len('real limits: '):]} -> "
              f"{'MET' if not misses else 'MISSED: ' + '; '.join(misses)}", flush=True)
        return not misses

    return await largest(meets, start, ceiling)
