"""The test bed: a bot, its database and a group of simulated players, told as a story."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.app import build_application, rate_limiter, table_defaults
from bot.flood import CommandGuard
from bot.games import Games
from bot.handling import Services
from bot.http import AiohttpRequest
from bot.live import Live
from bot.pacing import PER_MINUTE
from bot.sandbox.harness import Sandbox
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from bot.settings import Settings
from bot.store import Store
from engine import Action, Hand, format_hand
from engine.events import Dealt, Fold, RoundStarted
from tests.e2e.seeds import cards_of, points_of

FAKE_TOKEN = "12345" + ":" + "x" * 35
"""Only for the settings check: the application gets the stand-in's own token."""

TIME_SCALE = 20.0

FAST = {
    "turn_timeout": 30.0,
    "blind_timeout": 30.0,
    "svara_join_timeout": 30.0,
    "next_hand_delay": 30.0,
    "nudge_after": 0.0,
}


class Bed:
    """One bot run against the stand-in; `restart()` brings up a new Application on the same DB."""

    def __init__(self, tg: Sandbox, db: Path, **settings: Any) -> None:
        self.tg = tg
        self.db = db
        self.overrides = {**FAST, **settings}
        self.seeds: list[bytes] = []
        self.app: Any = None
        self._running: Any = None
        self.deals = 0
        self.derive = False
        """Deal as in production, from the table secret and the players' seeds, instead of
        from the seeds a test plans (see `next_seed`); takes effect at the next start."""
        # Telegram's flood limits, on a clock TIME_SCALE times faster on both sides.
        started = time.monotonic()
        tg.flood.clock = lambda: started + (time.monotonic() - started) * TIME_SCALE

    def settings(self) -> Settings:
        values = {"group_per_minute": PER_MINUTE * TIME_SCALE, **self.overrides}
        return Settings(
            bot_token=SecretStr(FAKE_TOKEN), database=self.db, rate_limit=False,
            _env_file=None,  # type: ignore[call-arg]
            **values,
        )

    def next_seed(self) -> bytes:
        """A planned seed if a test queued one, else a fixed one of its own for every deal."""
        self.deals += 1
        if self.seeds:
            return self.seeds.pop(0)
        return self.deals.to_bytes(4, "big") + b"bed"

    async def start(self) -> None:
        builder = (
            self.tg.app_builder()
            .request(AiohttpRequest())
            .get_updates_request(AiohttpRequest(pool_size=1))
            .rate_limiter(rate_limiter(TIME_SCALE))
        )
        self.app = build_application(self.settings(), builder,
                                     seed_source=None if self.derive else self.next_seed)
        self._running = self.tg.running(self.app, poll_timeout=1.0)
        await self._running.__aenter__()
        await self.app.post_init(self.app)
        # Scripted players type faster than people: the flood guard is tested on its own.
        self.services.guard = CommandGuard(burst=10**6)

    async def stop(self) -> None:
        if self._running is not None:
            running, self._running = self._running, None
            await running.__aexit__(None, None, None)
            await self.app.post_shutdown(self.app)

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    def screens_due(self) -> bool:
        """A table message is still to be written (its writer waits for the group's pace)."""
        services = self.app.bot_data.get("services")
        return isinstance(services, Services) and services.outbox.busy

    @property
    def services(self) -> Services:
        services = self.app.bot_data["services"]
        assert isinstance(services, Services)
        return services

    @property
    def games(self) -> Games:
        return self.services.games

    @property
    def store(self) -> Store:
        return self.services.store

    def live(self, chat: ChatRecord) -> Live:
        live = self.games.at(chat.id, None)
        assert live is not None
        return live

    def message_id(self, live: Live) -> int | None:
        """The table message of an open table, as the outbox keeps it."""
        return self.services.outbox.message_id(live.id)

    # ------------------------------------------------------------- the story

    def players(self, *names: str) -> list[Player]:
        return [self.tg.world.user(n) for n in names]

    def group(self, *players: Player, admins: tuple[Player, ...] = ()) -> ChatRecord:
        return self.tg.world.group("Svara night", members=players, admins=admins or players[:1])

    async def idle(self) -> None:
        """Wait until the stand-in is quiet and the bot handles no update (rate-limit waits too)."""
        while True:
            await self.tg.world.wait_idle()
            busy = self.app.update_processor.current_concurrent_updates
            if busy == 0 and self.app.update_queue.empty() and not self.screens_due():
                return
            await asyncio.sleep(0.02)

    def seen(self, chat: ChatRecord, player: Player) -> list[MessageRecord]:
        """What `player` sees of the bot in `chat`: its messages there, and those shown to
        him alone (the answers to his ephemeral commands), in the order they came."""
        world = self.tg.world
        mine = [r for r in world.ephemeral.seen_by(chat, player.record, world.clock())
                if r.sender.is_bot]
        ordered = [((m.message_id, 0, 0), m) for m in chat.bot_messages()]
        ordered += [((r.after, 1, r.ephemeral_id), r) for r in mine]
        return [m for _, m in sorted(ordered, key=lambda pair: pair[0])]

    async def table_message(self, chat: ChatRecord) -> MessageRecord:
        await self.idle()
        message_id = self.message_id(self.live(chat))
        assert message_id is not None
        message = self.tg.world.find_message(chat, message_id)
        assert message is not None
        return message

    async def open_table(
        self, chat: ChatRecord, creator: Player, *joiners: Player
    ) -> MessageRecord:
        """/newgame, then everyone starts the bot in private and presses Join."""
        await creator.send(chat, "/newgame")
        table = await self.table_message(chat)
        for p in (creator, *joiners):
            await p.start_bot()
            await self.idle()
            press = await p.press(table, "Join")
            answer = await press.answer()
            assert not answer.show_alert, answer.text
        await self.idle()
        return table

    async def press(self, player: Player, chat: ChatRecord, label: str) -> str | None:
        """Press a button on the table message; the popup (or toast) text, if any."""
        table = await self.table_message(chat)
        press = await player.press(table, label)
        answer = await press.answer()
        await self.idle()
        return answer.text

    async def ring(self, chat: ChatRecord) -> None:
        """Let the table's timer ring now, as the job queue would when it runs out."""
        live = self.live(chat)
        wait = live.wait
        assert wait is not None, "the table waits for nothing"
        await self.games.on_timer(live.id, wait)
        await self.idle()

    def button(self, message: MessageRecord, prefix: str) -> str:
        """The full label of the first button starting with `prefix`."""
        for row in message.buttons:
            for label in row:
                if label.startswith(prefix):
                    return label
        raise AssertionError(f"no button {prefix!r} in {message.buttons}")

    async def audit(self) -> None:
        store = await Store.open(self.db)
        try:
            report = await store.audit()
        finally:
            await store.close()
        assert report.ok, report

    async def assert_no_cards_leaked(self) -> None:
        """No chat ever saw cards it should not: every version of every bot message checked.

        The cards come from the engine's own deal of every hand in the database (whether
        or not its private message arrived). A group sees a round's cards only in the
        showdown line of their player ("Name: cards (points)") once that round's betting is
        over: in the svara window it opened, in the rounds after it, at the end of the hand,
        or on the closed table after its last hand; cards folded are never shown. A private
        chat sees only its own player's cards, and those a group would see of the practice
        table played in it. The next hand's table message shows the last hand's showdown
        until its first action.
        """
        store = await Store.open(self.db)
        try:
            dealt = await _every_deal(store)
        finally:
            await store.close()
        for chat in self.tg.world.chats.values():
            for message in chat.bot_messages():
                for text in [*message.history, message.text]:
                    for deal in dealt:
                        if text is not None and deal.shown in text:
                            assert deal.may_show(chat, text), \
                                f"cards {deal.shown} ({deal.describe()}) shown in " \
                                f"{chat.describe()}: {text!r}"


@dataclass(frozen=True, slots=True)
class Deal:
    """One seat's cards in one round of a hand, and where they may be shown."""

    chat_id: int
    player: int
    name: str
    hand_no: int
    round_no: int
    shown: str
    points: int
    folded: bool
    """Folded in that round: such cards are never shown."""
    over: bool
    last: bool
    """The last hand of its table (its outcome stays on the closed table)."""
    hand_id: int = 0

    def describe(self) -> str:
        return f"player {self.player}, hand {self.hand_no}, round {self.round_no}"

    def may_show(self, chat: ChatRecord, text: str) -> bool:
        if chat.type == "private" and chat.id == self.player:
            return True
        # A practice table plays in its player's private chat, by a group's rules.
        if chat.id != self.chat_id or self.folded:
            return False
        lines = [line.strip() for line in text.splitlines()]
        if f"{self.name}: {self.shown} ({self.points})" not in lines:
            return False
        title = lines[0]
        if title.startswith(f"📜 Hand {self.hand_no} · "):  # /hand N, asked after the hand
            return self.over
        if title == "🃏 Svara: the table is closed.":
            return self.over and self.last
        m = _TITLE.fullmatch(title)
        if m is not None and int(m["hand"]) > self.hand_no:
            # The next hand shows the last one's showdown face up until its first action.
            return self.over and any(line.startswith("Last hand: ")
                                     and line.endswith(f" · /hand {self.hand_no}")
                                     for line in lines)
        if m is None or int(m["hand"]) != self.hand_no:
            return False
        if m["over"]:
            return True
        now = 1 if m["svara"] is None else 1 + int(m["nth"] or 1)
        ended = any(line.startswith("Tie between ") for line in lines)
        return self.round_no < now or (self.round_no == now and ended)


_TITLE = re.compile(r"🃏 Svara · hand (?P<hand>\d+)(?P<over> is over)?"
                    r"(?P<svara> · svara(?: (?P<nth>\d+))?)?")
"""A hand's title: "hand 3", "hand 3 · svara" (round 2), "hand 3 · svara 2", "hand 3 is over"."""


async def _every_deal(store: Store) -> list[Deal]:
    """Every seat's cards in every round of every hand, replayed from the action log."""
    rows = await store.db.fetchall("SELECT id, table_id, number, start FROM hands ORDER BY id")
    last = {int(r["table_id"]): int(r["id"]) for r in rows}
    out = []
    for row in rows:
        start = json.loads(row["start"])
        table = await store.tables.get(int(row["table_id"]))
        hand = Hand.from_start(start)
        rounds: list[Dealt] = []
        seen = 0
        for step in [None, *await store.hands.actions(int(row["id"]))]:
            if step is not None:
                hand.apply(Action.from_json(step))
            new = [e for e in hand.events[seen:] if isinstance(e, Dealt)]
            seen = len(hand.events)
            if new:
                # The engine holds the cards of the round it dealt last.
                cards = cards_of(hand, new[-1].round_no, new[-1].seats)
                assert cards == {i: hand.cards(i) for i in new[-1].seats}, "the deal moved"
            rounds += new
        folded: set[tuple[int, int]] = set()
        round_no = 0
        for e in hand.events:
            if isinstance(e, RoundStarted):
                round_no = e.round_no
            elif isinstance(e, Fold):
                folded.add((round_no, e.seat))
        for event in rounds:
            cards = cards_of(hand, event.round_no, event.seats)
            points = points_of(hand, event.round_no, event.seats)
            for seat, own in cards.items():
                player = hand.seats[seat].player
                name = " ".join((await store.users.get(player)).name.split())
                out.append(Deal(table.chat_id, player, name, int(row["number"]),
                                event.round_no, format_hand(own), points[seat],
                                (event.round_no, seat) in folded, hand.is_over,
                                last[table.id] == int(row["id"]), int(row["id"])))
    return out


def only(items: list[Any], pred: Callable[[Any], bool]) -> Any:
    found = [i for i in items if pred(i)]
    assert len(found) == 1, found
    return found[0]


__all__ = ["Bed", "format_hand", "only", "table_defaults"]
