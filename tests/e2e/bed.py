"""The test bed: a bot, its database and a group of simulated players, told as a story."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.app import build_application, rate_limiter, table_defaults
from bot.games import Games, Live
from bot.handlers import Services
from bot.http import AiohttpRequest
from bot.sandbox.harness import Sandbox
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from bot.settings import Settings
from bot.store import Store
from engine import format_hand

FAKE_TOKEN = "12345" + ":" + "x" * 35
"""Only for the settings check: the application gets the stand-in's own token."""

TIME_SCALE = 20.0

FAST = {
    "turn_timeout": 30.0,
    "blind_timeout": 30.0,
    "svara_join_timeout": 30.0,
    "next_hand_delay": 30.0,
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
        self.dealt: list[str] = []
        # Telegram's flood limits, on a clock TIME_SCALE times faster on both sides.
        started = time.monotonic()
        tg.flood.clock = lambda: started + (time.monotonic() - started) * TIME_SCALE

    def settings(self) -> Settings:
        return Settings(
            bot_token=SecretStr(FAKE_TOKEN), database=self.db, rate_limit=False,
            group_per_minute=18 * TIME_SCALE,
            _env_file=None,  # type: ignore[call-arg]
            **self.overrides,
        )

    def next_seed(self) -> bytes:
        if self.seeds:
            return self.seeds.pop(0)
        return len(self.dealt).to_bytes(4, "big") + b"bed"

    async def start(self) -> None:
        builder = (
            self.tg.app_builder()
            .request(AiohttpRequest())
            .get_updates_request(AiohttpRequest(pool_size=1))
            .rate_limiter(rate_limiter(TIME_SCALE))
        )
        self.app = build_application(self.settings(), builder, seed_source=self.next_seed)
        self._running = self.tg.running(self.app, poll_timeout=1.0)
        await self._running.__aenter__()
        await self.app.post_init(self.app)

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

    async def table_message(self, chat: ChatRecord) -> MessageRecord:
        await self.idle()
        live = self.live(chat)
        assert live.message_id is not None
        message = self.tg.world.find_message(chat, live.message_id)
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
        """Press a button on the table message; the popup text, if any."""
        table = await self.table_message(chat)
        press = await player.press(table, label)
        answer = await press.answer()
        await self.idle()
        return answer.text if answer.show_alert else None

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

    def all_cards_dealt(self) -> Iterator[str]:
        for hand_text in self.dealt:
            yield from hand_text.split()

    def assert_no_cards_leaked(self) -> None:
        """No group message shows a dealt hand except in a showdown line (every text checked)."""
        for record in self.tg.transcript.calls:
            if record.method not in ("sendMessage", "editMessageText"):
                continue
            chat_id = record.params.get("chat_id")
            text = str(record.params.get("text", ""))
            if chat_id is None or int(chat_id) > 0:
                continue
            for hand in _private_hands(self.tg):
                # A hand may appear only as a showdown line: "Name: cards (points)".
                shown_at_showdown = f"{hand} (" in text
                assert hand not in text or shown_at_showdown, \
                    f"cards {hand} shown in the group: {text!r}"


_HAND = re.compile(r"Hand \d+: <b>([^<]+)</b>")


def _private_hands(tg: Sandbox) -> list[str]:
    out = []
    for record in tg.transcript.calls:
        if record.method == "sendMessage" and int(record.params.get("chat_id", 0)) > 0:
            m = _HAND.search(str(record.params.get("text", "")))
            if m:
                out.append(m.group(1))
    return out


def only(items: list[Any], pred: Callable[[Any], bool]) -> Any:
    found = [i for i in items if pred(i)]
    assert len(found) == 1, found
    return found[0]


__all__ = ["Bed", "format_hand", "only", "table_defaults"]
