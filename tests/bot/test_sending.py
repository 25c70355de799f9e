"""The one path every message but the table's takes, as the operator meets it: how each of
Telegram's answers ends a message, what is counted (the metrics' ``messages_*``) and
logged, how long it waits between tries, and who is told that a chat moved or is gone."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import InlineKeyboardButton
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.ephemeral_api import EphemeralRefused
from bot.i18n import Translations
from bot.outbox import SEND_TRIES, Delivery, TelegramOutbox, digest, markup
from bot.outbox.base import BACKOFF_MAX, RETRY_SECONDS, Writer, retry_delay
from bot.pacing import EDIT, URGENT, GroupPace
from bot.render.messages import WEB_APP
from bot.render.views import Screen

REAL_SLEEP = asyncio.sleep
"""The loop's own sleep: the `pauses` fixture takes the module's place (asyncio is one)."""

GROUP = -100500
PLAYER = 4242


@dataclass
class App:
    running: bool = True
    bot: object = None
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    def create_task(self, work: Any, **kwargs: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.append(task)
        return task


@dataclass
class Told:
    moved: list[tuple[int, int]] = field(default_factory=list)
    gone: list[int] = field(default_factory=list)

    async def chat_moved(self, old: int, new: int) -> None:
        self.moved.append((old, new))

    async def chat_gone(self, chat_id: int) -> None:
        self.gone.append(chat_id)


class Pace(GroupPace):
    """The group's pace, with every slot taken written down (chat, priority)."""

    def __init__(self) -> None:
        super().__init__(10**6)
        self.taken: list[tuple[int, int]] = []

    async def slot(self, chat_id: int, priority: int = 0) -> None:
        self.taken.append((chat_id, priority))


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Every pause the sending path takes between tries, taken at once."""
    taken: list[float] = []

    async def sleep(delay: float, *args: Any) -> None:
        taken.append(delay)
        await REAL_SLEEP(0)

    monkeypatch.setattr("bot.outbox.base.asyncio.sleep", sleep)
    yield taken


def outbox() -> tuple[TelegramOutbox, Told, Pace, App]:
    app = App()
    pace = Pace()
    box = TelegramOutbox(app, Translations.load(), pace)  # type: ignore[arg-type]
    told = Told()
    box.told = told  # type: ignore[assignment]
    return box, told, pace, app


def answers(*errors: Exception | None) -> tuple[Callable[[], Any], list[int]]:
    """A send that meets `errors` one try after another (None: it goes through); and the
    tries made."""
    tries: list[int] = []

    async def send() -> None:
        tries.append(len(tries) + 1)
        error = errors[len(tries) - 1] if len(tries) <= len(errors) else None
        if error is not None:
            raise error

    return send, tries


async def settle(app: App) -> None:
    for _ in range(10):
        await REAL_SLEEP(0)
    await asyncio.gather(*app.tasks)


async def test_a_flood_wait_is_waited_out_as_telegram_asks_and_counted(
        pauses: list[float], caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, _ = outbox()
    send, tries = answers(RetryAfter(3), RetryAfter(dt.timedelta(seconds=5)))
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        how = await box._deliver("cards", PLAYER, send)
    assert how is Delivery.SENT and tries == [1, 2, 3]
    assert pauses == pytest.approx([3.1, 5.1])  # what Telegram asked, and a little more
    assert box.delivered == {"flood waits": 2, "sent": 1}
    assert f"cards to {PLAYER}: flood wait of 3.1 s (try 1)" in caplog.messages
    assert f"cards to {PLAYER}: flood wait of 5.1 s (try 2)" in caplog.messages


async def test_a_network_that_keeps_failing_backs_off_doubling_and_loses_the_message(
        pauses: list[float], caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, _ = outbox()
    send, tries = answers(*[TimedOut(), NetworkError("connection reset")] * SEND_TRIES)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        how = await box._deliver("results message", GROUP, send)
    assert how is Delivery.LOST and not how.settled
    assert tries == list(range(1, SEND_TRIES + 1))
    # 1, 2, 4 ... seconds, never more than the cap; none after the last try.
    assert pauses == [min(BACKOFF_MAX, 2.0 ** n) for n in range(SEND_TRIES)]
    assert max(pauses) == BACKOFF_MAX and SEND_TRIES == 8
    assert box.delivered == {"lost": 1}
    assert f"results message to {GROUP} lost after {SEND_TRIES} tries" in caplog.messages
    assert f"results message to {GROUP}: connection reset (try 2)" in caplog.messages


async def test_a_network_error_then_success_sends_it_after_one_pause(
        pauses: list[float]) -> None:
    box, _, _, _ = outbox()
    send, tries = answers(NetworkError("bad gateway"))
    assert await box._deliver("cards", PLAYER, send) is Delivery.SENT
    assert tries == [1, 2] and pauses == [1.0]
    assert box.delivered == {"sent": 1}


@pytest.mark.parametrize(("error", "ended"), [
    (BadRequest("Bad Request: chat not found"), Delivery.REFUSED),
    (EphemeralRefused("Bad Request: receiver is not a member"), Delivery.REFUSED),
    (TelegramError("something new"), Delivery.REFUSED),
    (Forbidden("Forbidden: bot was blocked by the user"), Delivery.BLOCKED),
])
async def test_an_answer_for_good_ends_the_message_at_once_and_settles_it(
        pauses: list[float], caplog: pytest.LogCaptureFixture, error: Exception,
        ended: Delivery) -> None:
    box, told, _, app = outbox()
    send, tries = answers(error)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        how = await box._deliver("closing notice", PLAYER, send)
    await settle(app)
    assert how is ended and how.settled and tries == [1] and pauses == []
    assert box.delivered == {ended.value: 1}
    assert any(str(error) in line and f"closing notice to {PLAYER}" in line
               for line in caplog.messages), caplog.messages
    assert told.gone == [] and told.moved == []  # a private chat: no group to close


async def test_a_group_that_forbids_the_bot_is_reported_gone() -> None:
    box, told, _, app = outbox()
    send, _ = answers(Forbidden("Forbidden: bot was kicked from the group chat"))
    assert await box._deliver("group message", GROUP, send) is Delivery.BLOCKED
    await settle(app)
    assert told.gone == [GROUP]


async def test_a_group_that_became_a_supergroup_is_reported_moved() -> None:
    box, told, _, app = outbox()
    send, tries = answers(ChatMigrated(-1009999))
    assert await box._deliver("results message", GROUP, send) is Delivery.REFUSED
    await settle(app)
    assert told.moved == [(GROUP, -1009999)] and told.gone == [] and tries == [1]
    assert box.delivered == {"refused": 1}


async def test_a_message_no_longer_wanted_is_not_sent_and_counted_superseded(
        pauses: list[float], caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, _ = outbox()
    send, tries = answers(RetryAfter(1))
    wanted = iter([True, False])
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        how = await box._deliver("reminder", PLAYER, send, wanted=lambda: next(wanted))
    assert how is Delivery.SUPERSEDED and how.settled and tries == [1]
    assert box.delivered == {"flood waits": 1, "superseded": 1}
    assert f"reminder to {PLAYER} superseded before try 2" in caplog.messages


async def test_while_the_bot_stops_nothing_more_is_tried_and_it_is_counted_lost(
        caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, _ = outbox()
    await box.stop_sending()
    send, tries = answers()
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        how = await box._deliver("cards", PLAYER, send)
    assert how is Delivery.LOST and tries == []
    assert box.delivered == {"lost": 1}
    assert f"cards to {PLAYER} not sent: the bot is stopping" in caplog.messages


async def test_a_stop_during_a_pause_counts_the_message_lost_and_ends_its_task(
        caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, _ = outbox()
    send, tries = answers(RetryAfter(600))
    task = asyncio.create_task(box._deliver("results message", GROUP, send))
    for _ in range(5):
        await REAL_SLEEP(0)
    assert tries == [1]
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert box.delivered == {"flood waits": 1, "lost": 1}
    assert (f"results message to {GROUP} lost: the bot stopped before it could try again"
            in caplog.messages)


async def test_calls_into_a_group_keep_its_pace_and_private_ones_do_not() -> None:
    box, _, pace, _ = outbox()
    for chat in (GROUP, PLAYER):
        send, _ = answers()
        assert await box._deliver("message", chat, send) is Delivery.SENT
    assert pace.taken == [(GROUP, URGENT)]
    # A practice table's messages keep the pace of its private chat when asked to...
    send, _ = answers()
    await box._deliver("cards", PLAYER, send, paced=True)
    # ...and a group's may be sent outside it only when asked so.
    send, _ = answers()
    await box._deliver("message", GROUP, send, paced=False)
    assert pace.taken == [(GROUP, URGENT), (PLAYER, URGENT)]


async def test_each_try_after_a_flood_wait_waits_for_the_groups_slot_again(
        pauses: list[float]) -> None:
    box, _, pace, _ = outbox()
    send, tries = answers(RetryAfter(1), RetryAfter(1))
    assert await box._deliver("group message", GROUP, send) is Delivery.SENT
    assert tries == [1, 2, 3] and pace.taken == [(GROUP, URGENT)] * 3


def test_retry_delay_reads_telegrams_seconds_and_waits_a_little_longer() -> None:
    assert retry_delay(RetryAfter(7)) == pytest.approx(7.1)
    assert retry_delay(RetryAfter(dt.timedelta(seconds=2, milliseconds=500))) == \
        pytest.approx(2.6)
    assert retry_delay(NetworkError("down")) == RETRY_SECONDS == 2.0


def test_screens_are_the_same_exactly_when_their_text_and_buttons_are() -> None:
    screen = Screen("Ана: 1000", ((("Bet 10", "b:1:10"),),))
    same = Screen("Ана: 1000", ((("Bet 10", "b:1:10"),),))
    assert digest(screen) == digest(same)
    assert digest(Screen("Ана: 1000")) != digest(screen)
    assert digest(Screen("Ана: 990", screen.buttons)) != digest(screen)
    assert digest(Screen("Ана: 1000", ((("Bet 10", "b:1:20"),),))) != digest(screen)


def test_buttons_become_presses_links_and_mini_app_buttons() -> None:
    assert markup(Screen("no buttons")) is None
    found = markup(Screen("x", ((("Join", "j:1"), ("Rules", "https://example.org/r")),
                                (("Open", WEB_APP + "https://example.org/app"),))))
    assert found is not None
    rows: tuple[tuple[InlineKeyboardButton, ...], ...] = found.inline_keyboard
    (join, rules), (app,) = rows
    assert (join.text, join.callback_data, join.url) == ("Join", "j:1", None)
    assert (rules.text, rules.url, rules.callback_data) == ("Rules", "https://example.org/r",
                                                            None)
    assert app.text == "Open"
    assert app.web_app is not None and app.web_app.url == "https://example.org/app"
    assert app.callback_data is None


async def test_a_send_started_before_the_bot_runs_that_fails_is_logged_not_lost_silently(
        caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, app = outbox()
    app.running = False  # the start-up restore: the application does not run yet

    async def broken() -> None:
        raise RuntimeError("the disk is full")

    with caplog.at_level(logging.ERROR, logger="bot.outbox"):
        box._background(broken())
        for _ in range(5):
            await REAL_SLEEP(0)
    assert app.tasks == []  # the loop's own task, not the application's
    assert "a message could not be sent: RuntimeError: the disk is full" in caplog.messages
    # With the traceback, for the operator to find where it broke.
    (record,) = [r for r in caplog.records if r.message.startswith("a message could not")]
    assert record.exc_info is not None and record.exc_info[1] is not None
    assert str(record.exc_info[1]) == "the disk is full"
    assert not box._sending  # nothing left for a stop to wait for


async def test_a_stop_gives_up_every_send_still_waiting_and_later_sends_are_not_tried(
        caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, app = outbox()
    send, tries = answers(RetryAfter(600))  # waits ten minutes before its next try

    async def results() -> None:
        await box._deliver("results message", GROUP, send)

    box._background(results())
    for _ in range(5):
        await REAL_SLEEP(0)
    assert len(app.tasks) == 1 and tries == [1]
    with caplog.at_level(logging.WARNING, logger="bot.outbox"):
        await box.stop_sending()  # returns at once: the waiting send gave up
    assert app.tasks[0].cancelled()
    assert box.delivered["lost"] == 1
    later, more = answers()
    assert await box._deliver("cards", PLAYER, later) is Delivery.LOST and more == []


@dataclass
class Member:
    status: str
    can_pin_messages: bool = False


@dataclass
class GroupBot:
    """Answers what the bot may do in GROUP, and takes pins and unpins."""

    member: Member | SimpleNamespace
    id: int = 42
    asked: int = 0
    down: bool = False
    pins: list[tuple[int, int, bool]] = field(default_factory=list)
    unpins: list[tuple[int, int]] = field(default_factory=list)
    refuse: bool = False
    meanwhile: Callable[[], Awaitable[object]] | None = None
    """What happens in the bot while a pin is on its way to Telegram."""

    async def get_chat_member(self, chat_id: int, user_id: int) -> Member | SimpleNamespace:
        assert (chat_id, user_id) == (GROUP, self.id)
        self.asked += 1
        if self.down:
            raise NetworkError("Bad Gateway")
        return self.member

    async def pin_chat_message(self, chat_id: int, message_id: int, *,
                               disable_notification: bool = False) -> bool:
        if self.meanwhile is not None:
            await self.meanwhile()
        if self.refuse:
            raise BadRequest("Bad Request: not enough rights to manage pinned messages")
        self.pins.append((chat_id, message_id, disable_notification))
        return True

    async def unpin_chat_message(self, chat_id: int, message_id: int) -> bool:
        if self.refuse:
            raise BadRequest("Bad Request: message to unpin not found")
        self.unpins.append((chat_id, message_id))
        return True


def group_outbox(member: Member | SimpleNamespace) -> tuple[TelegramOutbox, GroupBot, Pace, Any]:
    box, _, pace, app = outbox()
    app.bot = GroupBot(member)
    return box, app.bot, pace, SimpleNamespace(id=7, chat_id=GROUP)


@pytest.mark.parametrize(("member", "admin", "pins"), [
    (Member("administrator", can_pin_messages=True), True, True),
    (Member("administrator"), True, False),
    (Member("creator"), True, True),
    (Member("member"), False, False),
    # Telegram's plain member has no can_pin_messages at all.
    (SimpleNamespace(status="member"), False, False),
])
async def test_what_the_bot_may_do_in_a_group_is_asked_once_and_again_after_a_change(
        member: Member | SimpleNamespace, admin: bool, pins: bool) -> None:
    box, bot, _, _ = group_outbox(member)
    assert await box.is_admin_in(GROUP) is admin
    assert await box._may_pin_in(GROUP) is pins
    assert await box.is_admin_in(GROUP) is admin and bot.asked == 1
    bot.member = Member("administrator", can_pin_messages=True)  # promoted
    assert await box.is_admin_in(GROUP) is admin and bot.asked == 1  # not told yet
    box.rights_changed(GROUP)
    assert await box.is_admin_in(GROUP) is True and await box._may_pin_in(GROUP) is True
    assert bot.asked == 2


async def test_a_table_message_is_pinned_quietly_once_in_the_groups_pace_and_unpinned(
        ) -> None:
    box, bot, pace, live = group_outbox(Member("administrator", can_pin_messages=True))
    await box._pin(live, 501)
    await box._pin(live, 501)  # already pinned: nothing more
    assert bot.pins == [(GROUP, 501, True)]
    assert pace.taken == [(GROUP, EDIT)]
    await box._unpin(live)
    assert bot.unpins == [(GROUP, 501)] and pace.taken == [(GROUP, EDIT)] * 2
    await box._unpin(live)  # nothing pinned any more
    assert bot.unpins == [(GROUP, 501)] and len(pace.taken) == 2


async def test_a_refused_pin_is_logged_and_not_tried_again_but_the_bot_stays_an_admin(
        caplog: pytest.LogCaptureFixture) -> None:
    box, bot, pace, live = group_outbox(Member("administrator", can_pin_messages=True))
    bot.refuse = True
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await box._pin(live, 501)
        await box._unpin(live, 400)
    assert any(line.startswith("table 7: could not pin its message: ") and "rights" in line
               for line in caplog.messages), caplog.messages
    assert any(line.startswith("table 7: could not unpin its message: ")
               and "not found" in line for line in caplog.messages), caplog.messages
    bot.refuse = False
    await box._pin(live, 502)
    assert bot.pins == [] and bot.asked == 1
    assert await box.is_admin_in(GROUP) is True
    await box._unpin(live)  # the refused pin left nothing to unpin
    assert bot.unpins == [] and pace.taken == [(GROUP, EDIT)] * 2


async def test_a_pin_refused_after_the_bots_rights_changed_leaves_them_to_be_asked_anew(
        ) -> None:
    """The bot is made an admin with pin rights while a pin sent before it is refused: the
    next table message asks Telegram again and is pinned."""
    box, bot, _, live = group_outbox(Member("member"))
    bot.member = Member("administrator", can_pin_messages=True)
    assert await box._may_pin_in(GROUP) is True and bot.asked == 1
    bot.refuse = True

    async def promoted_again() -> None:
        box.rights_changed(GROUP)

    bot.meanwhile = promoted_again
    await box._pin(live, 501)
    bot.refuse, bot.meanwhile = False, None
    await box._pin(live, 502)
    assert bot.asked == 2 and bot.pins == [(GROUP, 502, True)]


async def test_a_refused_pin_leaves_a_member_allowed_to_pin_no_admin() -> None:
    """A restricted member may be allowed to pin: when a pin is refused he is still no
    admin (no cards shown in the group as an admin's)."""
    box, bot, _, live = group_outbox(Member("restricted", can_pin_messages=True))
    assert await box._may_pin_in(GROUP) is True and await box.is_admin_in(GROUP) is False
    bot.refuse = True
    await box._pin(live, 501)
    assert await box.is_admin_in(GROUP) is False and await box._may_pin_in(GROUP) is False
    assert bot.asked == 1


async def test_a_table_closed_while_its_pin_is_refused_leaves_nothing_pinned_or_to_unpin(
        ) -> None:
    box, bot, pace, live = group_outbox(Member("administrator", can_pin_messages=True))
    bot.refuse = True

    async def closed() -> None:
        await box._unpin(live)  # the table closes while the pin is on its way

    bot.meanwhile = closed
    await box._pin(live, 501)  # the close's unpin came too soon, and is refused too
    bot.refuse, bot.meanwhile = False, None
    await box._unpin(live)  # nothing is left to unpin: no call, no slot taken
    assert bot.pins == [] and bot.unpins == [] and pace.taken == [(GROUP, EDIT)] * 2


async def test_a_closed_table_leaves_nothing_of_its_hands_behind_and_other_tables_keep_theirs(
        ) -> None:
    """A bot that runs for weeks holds only the tables that are open: what it kept of a
    table's card messages and reminder goes when the table closes."""
    box, _, _, _ = group_outbox(Member("member"))
    closed, other = SimpleNamespace(id=7, chat_id=GROUP, results=None), 8
    for table in (closed.id, other):
        box._cards[table] = (3, {PLAYER: 900 + table})
        box._reminders[table] = (cast(Any, None), 0, PLAYER, 800 + table)
    await box._after_close(closed)  # type: ignore[arg-type]
    assert closed.id not in box._cards and closed.id not in box._reminders
    assert box._cards[other] == (3, {PLAYER: 908}) and box._reminders[other][3] == 808


async def test_while_telegram_cannot_say_what_the_bot_may_do_it_acts_as_a_plain_member(
        ) -> None:
    """No admin's cards in the group, no pin, on a guess: asked again the next time."""
    box, bot, _, live = group_outbox(Member("administrator", can_pin_messages=True))
    bot.down = True
    assert await box.is_admin_in(GROUP) is False
    await box._pin(live, 501)
    assert bot.pins == [] and bot.asked == 2
    bot.down = False
    assert await box.is_admin_in(GROUP) is True and bot.asked == 3
    await box._pin(live, 501)
    assert bot.pins == [(GROUP, 501, True)] and bot.asked == 3


@pytest.mark.parametrize(("running", "stopping"), [(True, True), (False, False)])
async def test_no_pin_is_started_while_the_bot_stops_or_before_it_runs(
        running: bool, stopping: bool) -> None:
    """A table message sent then is pinned by its first edit after the start."""
    box, bot, _, live = group_outbox(Member("administrator", can_pin_messages=True))
    app = cast(App, box.app)
    app.running, box._stopping = running, stopping
    box._pin_soon(live, 501)
    assert app.tasks == [] and bot.asked == 0
    app.running, box._stopping = True, False
    box._pin_soon(live, 501)
    await settle(app)
    assert bot.pins == [(GROUP, 501, True)]


@pytest.mark.parametrize(("error", "said"), [
    (BadRequest("Bad Request: message text is empty"), "Message text is empty"),
    (EphemeralRefused("the answer carries no ephemeral_message_id"),
     "the answer carries no ephemeral_message_id"),
    (TelegramError("Conflict: something new"), "Conflict: something new"),
])
async def test_an_answer_for_good_is_logged_with_what_was_refused_and_where(
        error: Exception, said: str, caplog: pytest.LogCaptureFixture) -> None:
    box, _, _, _ = outbox()
    send, _ = answers(error)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        assert await box._deliver("results message", GROUP, send) is Delivery.REFUSED
    assert f"results message to {GROUP} refused: {said}" in caplog.messages


async def test_an_outbox_nobody_listens_to_yet_meets_a_moved_group_without_failing() -> None:
    """Before the tables are wired to it (at the start), a group that moved is still only
    a refused message."""
    app = App()
    box = TelegramOutbox(app, Translations.load(), Pace())  # type: ignore[arg-type]
    send, _ = answers(ChatMigrated(-1009999))
    assert await box._deliver("results message", GROUP, send) is Delivery.REFUSED
    await settle(app)
    assert box.figures()["replies_merged"] == 0.0  # nothing merged yet in a fresh outbox


async def test_a_stop_ends_every_table_writer_that_runs() -> None:
    box, _, _, _ = outbox()
    running = asyncio.get_running_loop().create_task(asyncio.sleep(60))
    box._writers[7] = Writer(cast(Any, SimpleNamespace(id=7)), task=running)
    box._writers[8] = Writer(cast(Any, SimpleNamespace(id=8)))  # nothing to write yet
    box.stop()
    await REAL_SLEEP(0)
    assert running.cancelled()


@dataclass
class Announcing:
    """Takes the bot's own messages into a group, or refuses them."""

    sent: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    refuse: bool = False

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> object:
        if self.refuse:
            raise BadRequest("Bad Request: message thread not found")
        self.sent.append((chat_id, text, kwargs))
        return SimpleNamespace(message_id=9)


async def test_an_announcement_goes_to_its_topic_as_html_without_preview_in_the_groups_pace(
        caplog: pytest.LogCaptureFixture) -> None:
    box, _, pace, app = outbox()
    app.bot = bot = Announcing()
    assert await box.announce(GROUP, 5, "🏆 <b>Ana</b>") is Delivery.SENT
    assert bot.sent == [(GROUP, "🏆 <b>Ana</b>", {
        "parse_mode": "HTML", "message_thread_id": 5, "disable_web_page_preview": True})]
    assert pace.taken == [(GROUP, URGENT)]
    bot.refuse = True
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        assert await box.announce(GROUP, None, "🏆") is Delivery.REFUSED
    assert f"announcement to {GROUP} refused: Message thread not found" in caplog.messages
