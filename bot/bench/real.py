"""The people of the real-limits bench and their tables: groups of 2-6 who open a table,
join, start and play at human pace against the stand-in enforcing Telegram's limits, on a
clock that may run faster than the real one, with the bot's production settings.

`play_tables` opens the tables over a ramp, plays them out and waits for the last answers
and screens; the real-limits and Mini App benches measure what it leaves behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import InitVar, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.bench.common import FAKE_TOKEN, buttons_of, table_group
from bot.bench.screens import LATER, markup_data, press_of, turn_position
from bot.callback_data import Button, Press
from bot.sandbox.limits import FloodMode, FloodRules
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

CALLBACK_TIMEOUT = 15.0
"""Telegram forgets a press not answered within this many seconds."""

RAMP_PER_TABLE, RAMP_MAX = 0.1, 30.0
"""Groups open their tables this far apart, over this long at most."""

LOBBY_WAIT, LOBBY_TRIES = 10.0, 3
"""A press of Join or Start whose answer was lost is made again if the table message does
not show it this long after."""

DRAIN = 30.0
"""After the last table is done: how long to wait for answers and screens to catch up."""

NOT_TURNS = frozenset({Button.CARDS, Button.BACK, Button.JOIN, Button.LEAVE, Button.START})
"""Buttons of the table message that do not play a turn."""


def think_time(rng: random.Random, slow_share: float = SLOW_SHARE) -> float:
    """Seconds a person thinks before a turn: mostly quick, sometimes long."""
    return rng.uniform(*(SLOW if rng.random() < slow_share else THINK))


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
    cards: str = "private"
    """Where the chats deal the cards (the setting `cards`): ``private`` (My cards shows
    them in the group on a press), ``group`` or ``both`` (every hand's cards dealt into the
    group, the bot an admin of every group)."""


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
        dealt_here = self.plan.cards != "private"  # the bot must be an admin to deal there
        self.players, self.group = table_group(self.world, self.number, seats,
                                               bot_admin=dealt_here or self.number % 2 == 1)
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
        if self.plan.cards != "private":
            await creator.send(self.group, f"/settings cards {self.plan.cards}")
            # As an admin would, he opens the table once the bot said the setting is saved.
            await self._within(LOBBY_WAIT, lambda: any(
                m.sender.is_bot for m in self.group.messages))
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


async def play_tables(server: SandboxServer, clock: Clock, rng: random.Random, count: int,
                      hands: int, plan: Plan) -> tuple[float, float, list[RealTable]]:
    """Open `count` tables over a ramp, play them out and wait for the last answers and
    screens: (when it started, when it ended, the tables), on the run's clock."""
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
