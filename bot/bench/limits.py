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

import asyncio
import bisect
import contextlib
import gc
import logging
import math
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from dataclasses import InitVar, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.app import build_application, rate_limiter
from bot.bench.tables import FAKE_TOKEN, buttons_of, peak_rss_mb, table_group
from bot.callback_data import BadCallbackData, Button, Press
from bot.http import AiohttpRequest
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FLOOD_METHODS, FloodMode, FloodRules
from bot.sandbox.models import CallbackRecord, ChatRecord, MessageRecord
from bot.sandbox.params import Params
from bot.sandbox.players import Player
from bot.sandbox.server import SandboxServer
from bot.sandbox.transcript import Call
from bot.sandbox.world import World
from bot.settings import Settings

THINK = (1.5, 3.0)
"""Seconds a player thinks once he sees it is his turn (uniform)..."""
SLOW, SLOW_SHARE = (5.0, 20.0), 0.15
"""...except this share of turns, which take this long (uniform): reminders go out."""

SEATS = (2, 6)
"""People in each group (uniform)."""

CARDS_SHARE, CARDS_AFTER = 0.3, (0.5, 6.0)
"""The share of players who press "My cards" after a deal, and when (seconds, uniform)."""

TARGET_ANSWER_MS, TARGET_LAG_S, TARGET_GROUP_CALLS, TARGET_429 = 250.0, 3.5, 19, 0
TARGET_LOST, TARGET_TRANSACTIONS = 0, 12.0

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

MESSAGE_METHODS = frozenset({"sendMessage", "sendPhoto", "editMessageText",
                             "editMessageReplyMarkup"})
"""Calls that put or change a message a person reads."""
PIN_METHODS = frozenset({"pinChatMessage", "unpinChatMessage"})
CUT_OFF = frozenset({0, 429, 500, 502, 503, 504})
"""Answers after which a message may not have arrived: 429, no answer, a server error."""

REMINDER = "Your turn at "
"""How the private reminder of a waiting turn begins (`render.nudge_text`; the bench's
people read English)."""

STOP_WAIT = 30.0
"""Seconds the bot process has to stop cleanly after SIGTERM before it is killed."""

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


def think_time(rng: random.Random, slow_share: float = SLOW_SHARE) -> float:
    """Seconds a person thinks before a turn: mostly quick, sometimes long."""
    return rng.uniform(*(SLOW if rng.random() < slow_share else THINK))


def _message_key(call: Call) -> tuple[str, int | None, str] | None:
    """What a call put in a chat: a send by its text, an edit, pin or unpin by its message."""
    if call.method in ("sendMessage", "sendPhoto"):
        return (call.method, call.chat_id,
                str(call.params.get("text", call.params.get("caption", ""))))
    if call.method in MESSAGE_METHODS or call.method in PIN_METHODS:
        kind = "edit" if call.method.startswith("edit") else call.method
        return (kind, call.chat_id, str(call.params.get("message_id", "")))
    return None


@dataclass(frozen=True, slots=True)
class Losses:
    """What became of the messages a call failed to deliver."""

    lost: int
    """Never delivered: no later successful call for the same message."""
    retried: int
    """Delivered by a later call with the same content."""
    superseded: int
    """An edit replaced by a later edit of the same message with other content."""


def count_losses(calls: Sequence[Call]) -> Losses:
    """Sort the calls cut off on the way (429, no answer, 5xx) by what came after them.

    A message is counted once however many times it failed.
    """
    delivered: dict[tuple[str, int | None, str], list[str]] = {}
    for call in calls:
        key = _message_key(call)
        if key is not None and call.ok and call.result is not None:
            delivered.setdefault(key, []).append(_content(call))
    lost: set[tuple[str, int | None, str]] = set()
    retried: set[tuple[tuple[str, int | None, str], str]] = set()
    superseded: set[tuple[tuple[str, int | None, str], str]] = set()
    for call in calls:
        key = _message_key(call)
        if key is None or call.ok or call.status not in CUT_OFF:
            continue
        later = delivered.get(key)
        if not later:
            lost.add(key)
        elif _content(call) in later:
            retried.add((key, _content(call)))
        else:
            superseded.add((key, _content(call)))
    return Losses(len(lost), len(retried), len(superseded))


def _content(call: Call) -> str:
    return f"{call.params.get('text', '')}\x00{call.params.get('reply_markup', '')}"


LOG_LINE = re.compile(r"^\S+ \S+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) (\S+): (.*)$")
"""A line of the bot's log as `python -m bot` writes it (`bot.__main__`)."""
TRANSACTIONS = re.compile(r"^transactions committed: (\d+) for \d+ units \((.*)\)$")
LOST = re.compile(r"\blost\b", re.IGNORECASE)


@dataclass
class BotLog:
    """What the bot logged: warnings and errors counted, a few errors kept, its count of
    committed transactions, and the lines that say a message was lost."""

    counts: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    lost_lines: int = 0
    transactions: int | None = None
    writers: str = ""
    by_writer: Counter[str] = field(default_factory=Counter)

    def take(self, level: str, name: str, text: str) -> None:
        self.counts[level] += 1
        if level in ("ERROR", "CRITICAL") and len(self.samples) < 3:
            self.samples.append(f"{name}: {text}"[:300])
        if level != "DEBUG" and LOST.search(text):
            self.lost_lines += 1
        found = TRANSACTIONS.match(text)
        if found:
            self.transactions = (self.transactions or 0) + int(found[1])
            self.writers = found[2]
            for part in found[2].split(", "):
                name, _, n = part.rpartition(" ")
                if n.isdigit():
                    self.by_writer[name] += int(n)

    def line(self, raw: str) -> None:
        """One line of the bot process's stderr (tracebacks' inner lines are skipped)."""
        found = LOG_LINE.match(raw)
        if found:
            self.take(found[1], found[2], found[3])

    @property
    def errors(self) -> int:
        return self.counts["ERROR"] + self.counts["CRITICAL"]


class LogTaker(logging.Handler):
    """Feeds a `BotLog` from the records of a bot running in this process."""

    def __init__(self, log: BotLog) -> None:
        super().__init__(logging.INFO)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        self.log.take(record.levelname, record.name, text)


# ----------------------------------------------------------------------------- stand-in


class ScreenServer(SandboxServer):
    """The stand-in enforcing flood limits, waking the players of a chat on each message."""

    def __init__(self, world: World, rules: FloodRules | None = None) -> None:
        super().__init__(world, flood_mode=FloodMode.ENFORCE, flood_rules=rules)
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


# ----------------------------------------------------------------------------- the bot


def bot_environment(server: SandboxServer, database: Path, scale: float) -> dict[str, str]:
    """The environment of `python -m bot` pointed at the stand-in: this process's own
    without any SVARA_* setting or PORT, and the bench's settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.upper().startswith("SVARA_") and k.upper() != "PORT"}
    defaults = Settings(bot_token=SecretStr(FAKE_TOKEN), _env_file=None)  # type: ignore[call-arg]
    env.update({
        "SVARA_BOT_TOKEN": server.world.token,
        "SVARA_API_BASE_URL": server.base_url,
        "SVARA_API_BASE_FILE_URL": server.base_file_url,
        "SVARA_DATABASE": str(database),
        "SVARA_LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    })
    if scale != 1:
        env.update({
            "SVARA_RATE_LIMIT": "false",
            "SVARA_GROUP_PER_MINUTE": f"{defaults.group_per_minute * scale:g}",
            "SVARA_TURN_TIMEOUT": f"{defaults.turn_timeout / scale:g}",
            "SVARA_BLIND_TIMEOUT": f"{defaults.blind_timeout / scale:g}",
            "SVARA_SVARA_JOIN_TIMEOUT": f"{defaults.svara_join_timeout / scale:g}",
            "SVARA_NEXT_HAND_DELAY": f"{defaults.next_hand_delay / scale:g}",
            "SVARA_NUDGE_AFTER": f"{defaults.nudge_after / scale:g}",
        })
    return env


class BotProcess:
    """`python -m bot` in a process of its own, as production starts it; its log is read
    line by line into a `BotLog`."""

    def __init__(self, server: SandboxServer, database: Path, scale: float,
                 workdir: Path) -> None:
        self.env = bot_environment(server, database, scale)
        self.workdir = workdir  # its working directory: no stray .env is read
        self.log = BotLog()
        self.code: int | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.workdir, env=self.env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        async for raw in self._process.stderr:
            self.log.line(raw.decode("utf-8", "replace").rstrip())

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def stop(self) -> int | None:
        """SIGTERM, as a service manager stops it; killed if it does not stop in time."""
        process = self._process
        if process is None:
            return None
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), STOP_WAIT)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._reader is not None:
            await self._reader
        self.code = process.returncode
        return self.code


async def polling(server: SandboxServer, bot: BotProcess, within: float = 60.0) -> None:
    """Wait until the bot asks the stand-in for updates: it is up."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not server.transcript.of("getUpdates"):
        if not bot.running or loop.time() > deadline:
            await bot.stop()
            raise SystemExit(f"the bot did not start (exit code {bot.code}): "
                             f"{'; '.join(bot.log.samples) or 'nothing logged'}")
        await asyncio.sleep(0.1)


# ----------------------------------------------------------------------------- players


@dataclass(frozen=True)
class Plan:
    """How a run is played, besides its size."""

    scale: float = 1.0
    cap: float = 300.0
    in_process: bool = False
    lift_global: bool = False
    slow_share: float = SLOW_SHARE
    cards_share: float = CARDS_SHARE
    dealt: Callable[[RealTable], None] | None = None
    """Called once a table has dealt its first hand (tests arm faults here)."""


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
    plan: Plan = field(default_factory=Plan)
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
        self.players, self.group = table_group(self.world, self.number, seats,
                                               bot_admin=self.number % 2 == 1)
        self.by_name = {p.name: p for p in self.players}
        self.event = self.server.event(self.group.id)

    async def run(self) -> None:
        await self.clock.sleep(self.delay)
        try:
            await self._lobby()
            await self._play()
        except TableDone as done:
            self.outcome = str(done)
            if self.outcome == "done":
                # Played out: the creator closes the table, so the bot deals no more.
                await self.players[0].send(self.group, "/endgame")
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
        return think_time(self.rng, self.plan.slow_share)

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

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

    async def _within(self, seconds: float, ready: Callable[[], Any],
                      event: asyncio.Event | None = None) -> Any:
        """Wait up to `seconds` for the table message (or the chat of `event`) to make
        `ready()` true."""
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self._until(event or self.event, ready),
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
            for _ in range(LOBBY_TRIES):
                if await self._within(LOBBY_WAIT, dm.bot_messages, self.server.event(dm.id)):
                    break
                await player.start_bot()  # no reply: he tries again, as people do
        joined = await asyncio.gather(*(self._lobby_step(p, "Join", partial(self._listed, p))
                                        for p in self.players))
        if sum(joined) < 2:
            raise TableDone("could not seat two players")
        if not await self._lobby_step(creator, "Start", self._dealt):
            raise TableDone("could not start")
        if self.plan.dealt is not None:
            self.plan.dealt(self)

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
        if position[0] not in self.hand_ids:
            self._look_at_cards(position[0])
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
            self._spawn(self._turn(player, keys))
        return False

    def _look_at_cards(self, hand_id: int) -> None:
        """After a deal some people press "My cards", each a while later."""
        for player in self.players:
            if self.rng.random() < self.plan.cards_share:
                self._spawn(self._cards(player, hand_id))

    async def _cards(self, player: Player, hand_id: int) -> None:
        await self.clock.sleep(self.rng.uniform(*CARDS_AFTER))
        message = self.table_message()
        if message is None:
            return
        for _, data in buttons_of(message):
            press = press_of(data)
            if press is not None and press.button is Button.CARDS and press.hand == hand_id:
                await self._press(player, message, data)
                return

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
    plan: Plan
    hands_each: int
    wall: float
    """Seconds from the first /newgame to the end of the drain, on the run's clock."""
    outcomes: Counter[str]
    hands_done: int
    hands_dealt: int
    """Hands the bot dealt, the last one of each table (played out by its timers) too."""
    presses: int
    cards_presses: int
    refused: list[str]
    answers: list[float]
    """Seconds from each press to its answer; never answered counts until the run's end."""
    late: int
    """Presses answered after Telegram's 15 s, or never."""
    lags: list[float]
    unshown: int
    group_max: int
    """The stand-in's count: most calls into one group in any sliding 60 s."""
    group_max_admin: int
    """The same over the groups where the bot is an admin (and pins)."""
    group_total: int
    group_calls: dict[int, int]
    """The stand-in's count of calls into each group against its limit."""
    flood: Counter[str]
    """429s by limit (group, global, private)."""
    flood_methods: Counter[str]
    """429s by method."""
    losses: Losses
    messages: Counter[str]
    """Messages and edits that reached the stand-in, by kind."""
    pins: Counter[str]
    """Successful pins and unpins, and the groups with pins."""
    reminders: int
    calls: int
    transcript: list[Call]
    """Every call the bot made, for checks after the run."""
    log: BotLog
    rss_mb: float
    bot_exit: int | None
    load: tuple[float, float, float]
    slowest: list[str] = field(default_factory=list)
    """The slowest screens, each with the group's calls around it."""

    @property
    def answer_p99_ms(self) -> float:
        return percentile(self.answers, 0.99) * 1000

    @property
    def lag_p99(self) -> float:
        return percentile(self.lags, 0.99)

    @property
    def too_many(self) -> int:
        return sum(self.flood.values())

    @property
    def hands(self) -> int:
        """Hands the bot dealt: its own count (`Hands.open`) when it logged one, else the
        hands the people saw."""
        return self.log.by_writer.get("Hands.open") or self.hands_dealt

    @property
    def per_hand(self) -> float:
        return sum(self.messages.values()) / max(1, self.hands)

    @property
    def transactions_per_hand(self) -> float | None:
        if self.log.transactions is None:
            return None
        return self.log.transactions / max(1, self.hands)

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
        if self.losses.lost > TARGET_LOST:
            out.append(f"{self.losses.lost} messages lost")
        finished = self.outcomes["done"] + self.outcomes["closed early"]
        if finished < self.tables:
            out.append(f"{self.tables - finished} tables did not finish")
        return out

    def headline(self) -> str:
        return (f"real limits: tables {self.tables}, answer p99 {self.answer_p99_ms:.0f} ms, "
                f"screen lag p99 {self.lag_p99:.1f} s, group calls/min max {self.group_max}, "
                f"429s {self.too_many}, lost {self.losses.lost}, "
                f"messages/hand {self.per_hand:.1f}")


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
        nudge_after=defaults.nudge_after / scale,
        _env_file=None,  # type: ignore[call-arg]
    )


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
                started, ended, tables = await _play(server, clock, rng, count, hands, plan)
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
                return await _play(tg.server, clock, rng, count, hands, plan)
            finally:
                await app.post_shutdown(app)
    finally:
        watched[0].removeHandler(taker)
        watched[1].setLevel(level)


async def _play(server: SandboxServer, clock: Clock, rng: random.Random, count: int,
                hands: int, plan: Plan) -> tuple[float, float, list[RealTable]]:
    assert isinstance(server, ScreenServer)
    started = clock.now()
    ramp = min(RAMP_MAX, RAMP_PER_TABLE * count)
    tables = [RealTable(server, clock, n, rng.randint(*SEATS), hands, random.Random(rng.random()),
                        delay=ramp * (n - 1) / count, deadline=started + plan.cap, plan=plan)
              for n in range(1, count + 1)]
    await asyncio.gather(*(t.run() for t in tables))
    await _drain(tables, clock)
    return started, clock.now(), tables


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


def _kind(call: Call, groups: set[int]) -> str:
    where = "group" if call.chat_id in groups else "private"
    what = "edits" if call.method.startswith("edit") else "messages"
    return f"{where} {what}"


def measure(tables: Sequence[RealTable], tg: Sandbox, clock: Clock, started: float,
            ended: float, hands: int, log: BotLog, bot_exit: int | None) -> RealResult:
    calls = tg.transcript.calls
    answer_calls: dict[str, Call] = {}
    for c in calls:
        if c.method == "answerCallbackQuery":
            answer_calls.setdefault(str(c.params.get("callback_query_id")), c)
    answers, lags, refused = [], [], []
    slow: list[tuple[float, RealTable, float, float]] = []
    late = unshown = cards = 0
    group_total = 0
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
            if p.press is not None and p.press.button is Button.CARDS:
                cards += 1
                continue  # the cards come as an alert: no refusal
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
            slow.append((shown - query.created, table, query.created, shown))
        group_total += sum(1 for c in calls
                           if c.chat_id == table.group.id and c.method in SCREEN_METHODS)
    flood = tg.flood
    groups = {t.group.id for t in tables}
    delivered = [c for c in calls if c.ok and c.result is not None]
    messages = Counter(_kind(c, groups) for c in delivered if c.method in MESSAGE_METHODS)
    pins = Counter(c.method for c in delivered if c.method in PIN_METHODS)
    pins["groups"] = len({c.chat_id for c in delivered if c.method == "pinChatMessage"})
    reminders = sum(1 for c in delivered if c.method == "sendMessage"
                    and c.chat_id not in groups
                    and str(c.params.get("text", "")).startswith(REMINDER))
    return RealResult(
        tables=len(tables), plan=tables[0].plan if tables else Plan(), hands_each=hands,
        wall=ended - started,
        outcomes=Counter(t.outcome for t in tables),
        hands_done=sum(t.hands_done for t in tables),
        hands_dealt=sum(len(t.hand_ids) for t in tables),
        presses=sum(len(t.pressed) for t in tables), cards_presses=cards, refused=refused,
        answers=answers, late=late, lags=lags, unshown=unshown,
        group_max=max((flood.group_peak.get(g, 0) for g in groups), default=0),
        group_max_admin=max((flood.group_peak.get(t.group.id, 0) for t in tables
                             if t.group.bot_status == "administrator"), default=0),
        group_total=group_total, group_calls={g: flood.group_calls[g] for g in groups},
        flood=flood.refused_by_rule(),
        flood_methods=flood.refused_by_method(), losses=count_losses(calls),
        messages=messages, pins=pins, reminders=reminders,
        calls=sum(1 for c in calls if c.method != "getUpdates"), transcript=calls, log=log,
        rss_mb=peak_rss_mb(), bot_exit=bot_exit, load=os.getloadavg(),
        slowest=[_around(lag, table, pressed, shown, calls)
                 for lag, table, pressed, shown in sorted(
                     slow, key=lambda x: x[0], reverse=True)[:SLOWEST]],
    )


SLOWEST = 3
"""The slowest screens the report shows, each with what went into its group meanwhile."""


def _around(lag: float, table: RealTable, pressed: float, shown: float,
            calls: Sequence[Call]) -> str:
    """One slow screen: the group's calls from a few seconds before the press to the
    screen, in seconds from the press (what took the group's slots)."""
    near = ", ".join(f"{c.method} {c.at - pressed:+.1f}" for c in calls
                     if c.chat_id == table.group.id and c.method.lower() in FLOOD_METHODS
                     and pressed - 4.0 <= c.at <= shown)
    return f"{lag:.1f} s at table {table.number}: {near}"


# ----------------------------------------------------------------------------- report


def describe_real(r: RealResult) -> list[str]:
    ms = [x * 1000 for x in r.answers]
    plan = r.plan
    clock = "real clock" if plan.scale == 1 else \
        f"clock x{plan.scale:g} (figures in simulated time)"
    where = "bot in this process" if plan.in_process else "bot in its own process"
    outcomes = ", ".join(f"{n} {what}" for what, n in r.outcomes.most_common())
    flood = ", ".join(f"{rule} {n}" for rule, n in r.flood.most_common()) or "none"
    methods = ", ".join(f"{m} {n}" for m, n in r.flood_methods.most_common()) or "none"
    kinds = ", ".join(f"{k} {n / max(1, r.hands):.1f}"
                      for k, n in sorted(r.messages.items()))
    tph = r.transactions_per_hand
    transactions = ("not logged" if tph is None else
                    f"{tph:.1f} per hand ({r.log.transactions} in all: {r.log.writers})")
    lost = r.losses
    load = " ".join(f"{x:.2f}" for x in r.load)
    lines = [
        f"== real limits, {r.tables} table{'s' if r.tables != 1 else ''} x {r.hands_each} "
        f"hands, {clock}, {where}"
        f"{', overall limit lifted' if plan.lift_global else ''}: {r.wall:.1f} s "
        f"({r.wall / plan.scale:.1f} s real); tables: {outcomes}; {r.hands_done} hands "
        f"played out by the people, {r.hands_dealt} seen dealt, {r.hands} dealt by the bot",
        f"  answer       p50 {percentile(ms, 0.5):7.0f} ms  p90 {percentile(ms, 0.9):7.0f} ms  "
        f"p99 {percentile(ms, 0.99):7.0f} ms  max {max(ms, default=0):7.0f} ms  "
        f"({r.presses} presses, {r.cards_presses} of them My cards; {r.late} answered after "
        f"{CALLBACK_TIMEOUT:.0f} s or never)",
        f"  screen lag   p50 {percentile(r.lags, 0.5):7.1f} s   "
        f"p90 {percentile(r.lags, 0.9):7.1f} s   p99 {r.lag_p99:7.1f} s   "
        f"max {max(r.lags, default=0):7.1f} s   ({len(r.lags)} accepted turn presses; "
        f"{r.unshown} never shown)",
        f"  group calls  max {r.group_max} in any {WINDOW:.0f} s window of one group "
        f"(messages, edits, pins, unpins, 429s included; {r.group_max_admin} where the bot "
        f"is an admin and pins); {r.group_total} sendMessage + "
        f"editMessageText into groups, {r.calls} API calls in all",
        f"  pins         {r.pins['pinChatMessage']} pins, {r.pins['unpinChatMessage']} unpins "
        f"in {r.pins['groups']} groups",
        f"  429s         {r.too_many} (by limit: {flood}; by method: {methods})",
        f"  lost         {lost.lost} messages never delivered; {lost.retried} delivered by a "
        f"retry, {lost.superseded} edits superseded; the bot logged 'lost' "
        f"{r.log.lost_lines} times",
        f"  messages     {r.per_hand:.1f} per hand the bot dealt, lobby and closing "
        f"included ({kinds}; reminders {r.reminders / max(1, r.hands):.1f})",
        f"  transactions {transactions}",
        f"  refused presses {len(r.refused)}, exceptions {r.log.errors}, warnings "
        f"{r.log.counts['WARNING']}, bench peak RSS {r.rss_mb:.0f} MB"
        f"{'' if plan.in_process else f', bot exit code {r.bot_exit}'}",
        f"  machine      load average {load} (1, 5, 15 min) on {os.cpu_count()} cores, "
        "shared with whatever else runs",
        *(f"  slowest      {line}" for line in r.slowest),
    ]
    for sample in [*r.refused[:3], *r.log.samples]:
        lines.append(f"    ! {sample}")
    return lines


def preamble(plan: Plan) -> list[str]:
    where = ("the real Application in this process" if plan.in_process else
             "`python -m bot` in its own process (SVARA_API_BASE_URL at the stand-in)")
    return [
        f"svara-bot under Telegram's limits: {where}, with its production rate limiter, "
        "against the stand-in answering 429 as Telegram does"
        f"{' (its overall limit lifted)' if plan.lift_global else ''},",
        f"  {'on the real clock' if plan.scale == 1 else f'on a clock {plan.scale:g} times faster'}"
        f"; production timers; {SEATS[0]}-{SEATS[1]} players a table, the bot an admin "
        "(pinning) in every other group;",
        f"  players think {THINK[0]}-{THINK[1]} s once they see their turn, "
        f"{plan.slow_share:.0%} of turns {SLOW[0]:.0f}-{SLOW[1]:.0f} s, and press a random "
        f"legal button; {plan.cards_share:.0%} of them press My cards after a deal;",
        f"  tables open {RAMP_PER_TABLE:g} s apart (over {RAMP_MAX:.0f} s at most); a run "
        f"ends when every table has played its hands or after {plan.cap:.0f} s.",
        "  answer = press to answerCallbackQuery; screen lag = accepted turn press to the "
        "first table message stored with a later turn (or hand);",
        "  group calls/min = the stand-in's most calls into one group in any sliding 60 s; "
        "429s = every 429 the stand-in answered; lost = messages cut off (429, no answer) "
        "and never delivered after.",
        f"targets: answer p99 <= {TARGET_ANSWER_MS:.0f} ms, screen lag p99 <= "
        f"{TARGET_LAG_S} s, group calls/min <= {TARGET_GROUP_CALLS}, 429s = {TARGET_429}, "
        f"lost = {TARGET_LOST}; transactions/hand <= {TARGET_TRANSACTIONS:g} (not a "
        "verdict of a run).",
    ]


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
