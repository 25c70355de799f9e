"""Computer players for the sandbox's seats: they press the buttons a person would press.

A robot looks at the hand the way a seated player can (the engine's strategy reads only
what its seat sees), waits a moment, then presses a button that is on the table message
right now for the current turn. It never sends anything a person could not.

Robots read buttons by their callback data, never by their labels: the labels are in the
group's language ("Join" is "Влез" in Bulgarian), the data is the same in every one.

In a lobby each robot presses Join once (at a tournament's table that registers it, paying
the buy-in). A robot that opened the table itself (typed /newgame or /tournament as that
seat) presses Start, as its creator may, once every computer seat has tried to join; a
table a person opened waits for a person's Start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.callback_data import BadCallbackData, Button, Press
from bot.handling import Services
from bot.live import Live
from bot.records import TableStatus
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from engine import Act, Action, Phase
from engine.players import Computer, Level

log = logging.getLogger(__name__)

_BUTTON_OF = {
    Act.FOLD: Button.FOLD, Act.CALL: Button.CALL, Act.RAISE: Button.RAISE,
    Act.ALL_IN: Button.ALL_IN, Act.BLIND: Button.BLIND, Act.NO_BLIND: Button.NO_BLIND,
    Act.JOIN_SVARA: Button.SVARA_JOIN, Act.SKIP_SVARA: Button.SVARA_SKIP,
}
_FALLBACK = (Button.CALL, Button.NO_BLIND, Button.SVARA_SKIP, Button.FOLD)
"""What a robot presses when the button it wants is not offered."""


def choose(action: Action, offered: dict[str, Press]) -> str | None:
    """The callback data of the offered button closest to `action`, or None if none fits."""
    want = _BUTTON_OF.get(action.act)
    same = {data: p for data, p in offered.items() if p.button is want}
    if same:
        if action.amount is None:
            return next(iter(same))
        amount = action.amount
        return min(same, key=lambda data: abs((same[data].amount or 0) - amount))
    if want is Button.RAISE:
        for data, p in offered.items():
            if p.button is Button.ALL_IN:
                return data
    for fallback in _FALLBACK:
        for data, p in offered.items():
            if p.button is fallback:
                return data
    return None


def buttons_of(message: MessageRecord) -> dict[str, Press]:
    """The message's buttons of a table, by callback data."""
    found: dict[str, Press] = {}
    for row in (message.reply_markup or {}).get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if not isinstance(data, str):
                continue
            try:
                found[data] = Press.decode(data)
            except BadCallbackData:
                continue
    return found


def offered_now(message: MessageRecord, live: Live) -> dict[str, Press]:
    """The table message's buttons that belong to the hand's current turn, by callback
    data."""
    hand = live.hand
    if hand is None:
        return {}
    turn = (live.id, live.hand_id, len(hand.actions))
    return {data: press for data, press in buttons_of(message).items()
            if (press.table, press.hand, press.seq) == turn and press.button in _BUTTON_OF.values()}


@dataclass(slots=True)
class Robot:
    player: Player
    computer: Computer
    pressed: tuple[int, int, int] | None = None
    """The (table, hand, turn) it last pressed for: one press per turn."""


class Robots:
    """The computer players of one group chat; `run()` plays until cancelled."""

    def __init__(self, services: Callable[[], Services | None], group: ChatRecord, *,
                 delay: float = 0.6, level: Level = Level.NORMAL, seed: int = 1) -> None:
        self._services = services
        self.group = group
        self.delay = delay
        self.level = level
        self._rng = random.Random(seed)
        self.robots: dict[int, Robot] = {}
        self._joined: set[tuple[int, int]] = set()
        self._started: set[int] = set()
        """The tables a robot pressed Start at: one press each."""

    def set(self, player: Player, on: bool) -> None:
        """Hand the seat of `player` to the computer (on) or back to the person."""
        if on and player.id not in self.robots:
            rng = random.Random(self._rng.getrandbits(64))
            self.robots[player.id] = Robot(player, Computer(self.level, rng))
        elif not on:
            self.robots.pop(player.id, None)

    def playing(self, user_id: int) -> bool:
        return user_id in self.robots

    async def run(self) -> None:
        while True:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:  # a robot must never take the sandbox down
                log.exception("a computer player failed")
            await asyncio.sleep(max(self.delay, 0.05))

    async def step(self) -> None:
        """Let every robot do what is due now (at most one press each)."""
        services = self._services()
        live = None if services is None else services.games.at(self.group.id, None)
        message_id = None if services is None or live is None \
            else services.outbox.message_id(live.id)
        if live is None or message_id is None:
            return
        message = _find(self.group, message_id)
        if message is None:
            return
        for robot in list(self.robots.values()):
            await self._act(robot, live, message)

    async def _act(self, robot: Robot, live: Live, message: MessageRecord) -> None:
        me = robot.player
        if live.status is TableStatus.LOBBY:
            join = next((data for data, press in buttons_of(message).items()
                         if press.button is Button.JOIN and press.table == live.id), None)
            if live.table.seat(me.id) is None and (live.id, me.id) not in self._joined \
                    and join is not None:
                self._joined.add((live.id, me.id))
                await _press(me, message, join)
            elif self._may_start(me, live):
                start = next((data for data, press in buttons_of(message).items()
                              if press.button is Button.START and press.table == live.id), None)
                if start is not None:
                    self._started.add(live.id)
                    await _press(me, message, start)
            return
        hand = live.hand
        if hand is None or hand.is_over:
            return
        seat = hand.seat_of(me.id)
        if seat is None:
            return
        due = seat in hand.pending if hand.phase is Phase.SVARA_JOIN else hand.to_act == seat
        turn = (live.id, live.hand_id, len(hand.actions))
        if not due or robot.pressed == turn:
            return
        offered = offered_now(message, live)
        if not offered:
            return  # the table message does not show this turn yet
        data = choose(robot.computer.decide(hand, seat), offered)
        if data is not None:
            robot.pressed = turn
            await _press(me, message, data)

    def _may_start(self, me: Player, live: Live) -> bool:
        """Whether `me` presses the lobby's Start now: it opened the table, every computer
        seat has tried to join it, and two can be dealt in."""
        return live.creator == me.id and live.id not in self._started \
            and all((live.id, r.player.id) in self._joined for r in self.robots.values()) \
            and live.table.can_deal()


def _find(chat: ChatRecord, message_id: int) -> MessageRecord | None:
    for message in chat.messages:
        if message.message_id == message_id and not message.deleted:
            return message
    return None


async def _press(player: Player, message: MessageRecord, data: str) -> None:
    """Press the button of the message that carries `data`, as it is now."""
    press = await player.press_data(message, data)
    with contextlib.suppress(Exception):
        await press.answer(timeout=10)
