"""The players of the load benchmark (limits off): each group opens a table, joins, starts
and presses a random legal button as soon as the table message shows a new turn (or after
a think time), while a `Watch` fed by the stand-in times each press to the next edit."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import InitVar, dataclass, field
from typing import Any

from bot.bench.common import buttons_of, table_group
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FloodMode
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.params import Params
from bot.sandbox.players import Player
from bot.sandbox.server import SandboxServer
from bot.sandbox.transcript import Call
from bot.sandbox.world import World

WAIT = 60.0
"""How long a player waits for the bot before the table is reported stuck."""

STORED = frozenset({"sendmessage", "editmessagetext"})
"""Calls after which the stand-in has a new state of a chat to show its users."""

NOT_ACTIONS = ("My cards", "I'm back")
"""Buttons of the table message that do not play a turn."""


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
