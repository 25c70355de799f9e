"""The outbox against a bot whose calls the test holds and releases (no stand-in): what it
sends when an edit is still on its way, and what a store failure does to card messages."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from telegram.error import BadRequest

from bot.app import rate_limiter
from bot.games import Games
from bot.i18n import Translations
from bot.live import Live
from bot.outbox import TelegramOutbox
from bot.pacing import GroupPace
from bot.store import StorageFailure, Store
from tests.bot.conftest import NOW
from tests.bot.test_games import ANA, BORIS, CHAT, SEED, SETTINGS, STARTING_CHIPS, with_private_chat


@dataclass
class Sent:
    message_id: int


@dataclass
class Budget:
    crowded: bool = False


@dataclass
class HeldBot:
    """Answers at once, except an edit the test chose to hold."""

    id: int = 42
    rate_limiter: Budget = field(default_factory=Budget)
    sent: list[tuple[int, int, str]] = field(default_factory=list)
    edits: list[tuple[int, bool]] = field(default_factory=list)
    hold_next_edit: asyncio.Event | None = None
    refuse_next_edit: Exception | None = None
    refuse_edits: list[Exception] = field(default_factory=list)
    """Refusals for the edits after `refuse_next_edit`, one an edit, in order."""
    edit_calls: int = 0
    next_id: int = 100
    options: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The options each sent message went with, by its id."""
    may_pin: bool = False
    pins: list[tuple[int, int]] = field(default_factory=list)

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> Sent:
        self.next_id += 1
        self.sent.append((chat_id, self.next_id, text))
        self.options[self.next_id] = kwargs
        return Sent(self.next_id)

    async def pin_chat_message(self, chat_id: int, message_id: int, **kwargs: Any) -> bool:
        self.pins.append((chat_id, message_id))
        return True

    async def edit_message_text(self, text: str, *, chat_id: int, message_id: int,
                                reply_markup: Any = None, **kwargs: Any) -> None:
        self.edit_calls += 1
        refused, self.refuse_next_edit = self.refuse_next_edit, None
        if refused is None and self.refuse_edits:
            refused = self.refuse_edits.pop(0)
        if refused is not None:
            raise refused
        held, self.hold_next_edit = self.hold_next_edit, None
        if held is not None:
            await held.wait()
        self.edits.append((message_id, reply_markup is not None))

    async def get_chat_member(self, chat_id: int, user_id: int) -> Any:
        if self.may_pin:
            return SimpleNamespace(status="administrator", can_pin_messages=True)
        raise BadRequest("Bad Request: member list is inaccessible")

    async def get_chat(self, chat_id: int) -> Any:
        raise BadRequest("Bad Request: chat not found")


@dataclass
class HeldApp:
    bot: HeldBot = field(default_factory=HeldBot)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    job_queue: None = None
    running: bool = True

    def create_task(self, work: Coroutine[Any, Any, Any], **kwargs: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.append(task)
        return task


async def quiet(outbox: TelegramOutbox, app: HeldApp) -> None:
    for _ in range(500):
        await asyncio.sleep(0.01)
        if not outbox.busy and all(t.done() for t in app.tasks):
            return


async def table(store: Store, *, title: str | None = "Svara night",
                pace: GroupPace | None = None) -> tuple[HeldApp, TelegramOutbox, Games, Live]:
    """A lobby in CHAT; its title as the outbox knows it (None: not seen since a start)."""
    app = HeldApp()
    outbox = TelegramOutbox(app, Translations.load(),  # type: ignore[arg-type]
                            pace or GroupPace(10**6), now=lambda: NOW[0])
    if title is not None:
        outbox.know(CHAT, "group", title, None)
    games = Games(store, outbox, defaults=SETTINGS, starting_chips=STARTING_CHIPS,
                  seed_source=lambda: SEED, clock=lambda: NOW[0])
    outbox.told = games
    await with_private_chat(store, ANA, BORIS)
    live = await games.open_table(CHAT, None, ANA)
    await quiet(outbox, app)
    return app, outbox, games, live


async def test_a_lobby_is_pinned_when_posted_but_nothing_starts_once_the_bot_stops(
        store: Store) -> None:
    app, outbox, _, live = await table(store)
    assert len(app.tasks) == 1  # the lobby's pin (refused here: the bot may not pin)
    app.running = False  # the application stops while a table message is on its way
    await outbox.move_down(live)
    await quiet(outbox, app)
    assert [m for _, m, _ in app.bot.sent] == [101, 102]
    assert len(app.tasks) == 1


async def test_item3_table_during_an_edit_in_flight_posts_a_usable_message(
        store: Store) -> None:
    app, outbox, games, live = await table(store)
    assert [m for _, m, _ in app.bot.sent] == [101]
    release = app.bot.hold_next_edit = asyncio.Event()
    await games.join(live, ANA)  # its edit of message 101 is held by Telegram
    await asyncio.sleep(0.01)
    moving = asyncio.create_task(outbox.move_down(live))
    await asyncio.sleep(0.01)
    release.set()
    await moving
    await quiet(outbox, app)
    assert [m for _, m, _ in app.bot.sent] == [101, 102]
    assert outbox.message_id(live.id) == 102
    assert outbox.retired(live.id, 101) and not outbox.retired(live.id, 102)


async def test_item8_a_store_failure_before_the_card_messages_still_sends_them(
        store: Store) -> None:
    app, outbox, games, live = await table(store)
    await games.join(live, ANA)
    await games.join(live, BORIS)
    real = store.users.get

    async def broken(user_id: int) -> Any:
        if user_id in (ANA.id, BORIS.id):
            raise StorageFailure("disk I/O error")
        return await real(user_id)

    store.users.get = broken  # type: ignore[method-assign]
    await games.start(live, ANA, is_admin=False)
    await quiet(outbox, app)
    assert all(t.done() and t.exception() is None for t in app.tasks)
    assert sorted(chat for chat, _, _ in app.bot.sent if chat > 0) == [ANA.id, BORIS.id]
    # What went out is noted, written with the next step or at a clean stop (a restart
    # would not send them again).
    assert live.cards_due == 1
    await games.keep_shown()
    assert (await store.hands.get(live.hand_id)).cards_sent == 1


async def test_when_the_budget_is_short_cards_wait_for_my_cards_and_screens_go_on(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    app, outbox, games, live = await table(store)
    await games.join(live, ANA)
    await games.join(live, BORIS)
    app.bot.rate_limiter.crowded = True
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await games.start(live, ANA, is_admin=False)
        await quiet(outbox, app)
    for player in (ANA, BORIS):  # the operator's log says whose cards and why
        assert (f"table {live.id}: cards to {player.id} left to My cards (the budget is "
                "short)") in caplog.messages
    assert not [chat for chat, _, _ in app.bot.sent if chat > 0]  # no card message
    assert outbox.delivered["superseded"] == 2
    # Settled: a restart does not send them either; the table message moved on.
    assert live.cards_due == 1
    await games.keep_shown()
    assert (await store.hands.get(live.hand_id)).cards_sent == 1
    assert app.bot.edits


async def test_the_limiter_is_crowded_while_more_sends_wait_than_a_second_lets_out() -> None:
    limiter = rate_limiter()
    await limiter.initialize()
    release = asyncio.Event()

    async def send(*_: Any, **__: Any) -> bool:
        await release.wait()
        return True

    sends = [asyncio.create_task(limiter.process_request(send, (), {}, "sendMessage",
                                                         {"chat_id": 7000 + i}, None))
             for i in range(40)]
    await asyncio.sleep(0.05)
    assert limiter.crowded
    release.set()
    await asyncio.gather(*sends)
    assert not limiter.crowded
    await limiter.shutdown()


async def test_when_the_budget_is_short_no_reminder_goes_and_the_log_says_why(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    app, outbox, games, live = await table(store)
    await games.join(live, ANA)
    await games.join(live, BORIS)
    await games.start(live, ANA, is_admin=False)
    await quiet(outbox, app)
    sent = len(app.bot.sent)
    app.bot.rate_limiter.crowded = True
    superseded = outbox.delivered["superseded"]
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        outbox.remind(live, BORIS.id, None, 20)
        await quiet(outbox, app)
    assert len(app.bot.sent) == sent  # nothing went to Boris
    assert outbox.delivered["superseded"] == superseded + 1
    assert f"table {live.id}: no reminder to {BORIS.id} (the budget is short)" in \
        caplog.messages
    # With the budget back, the same reminder goes.
    app.bot.rate_limiter.crowded = False
    outbox.remind(live, BORIS.id, None, 20)
    await quiet(outbox, app)
    assert [chat for chat, _, _ in app.bot.sent[sent:]] == [BORIS.id]


@pytest.mark.parametrize("title", [None, ""])
async def test_the_letter_of_a_closed_table_says_your_group_when_its_title_is_not_known(
        store: Store, title: str | None) -> None:
    app, outbox, _, live = await table(store, title=title)
    outbox.evicted(live, [(ANA.id, None), (BORIS.id, "bg")])
    await quiet(outbox, app)
    letters = {chat: text for chat, _, text in app.bot.sent if chat > 0}
    assert letters[ANA.id].startswith("I can no longer write to your group, so the table")
    assert letters[BORIS.id].startswith("Вече не мога да пиша в твоята група, затова")
