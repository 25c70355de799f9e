"""The tables' clock as players and operators meet it: countdowns that never go below
zero, timers that back off and keep trying, reminders that ring only while they mean
something, and PTB's job queue ringing a deadline that passed while the bot was down."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from dataclasses import dataclass, field, replace

import pytest
from telegram.ext import Application

from bot.clock import (
    REMIND_ALARM,
    RETRY_MAX,
    TABLE_ALARM,
    Clock,
    JobQueueAlarms,
    Ring,
    Wait,
    WaitKind,
    Want,
)
from bot.live import Live
from bot.table_settings import TableSettings
from engine.table import Table

NOW = 1_800_000_000.0


@dataclass
class ListAlarms:
    """Alarms kept in a dict: what is set, for when, and ringing them by hand."""

    set_: dict[str, tuple[float, Ring]] = field(default_factory=dict)

    def set(self, name: str, at: float, ring: Ring) -> None:
        self.set_[name] = (at, ring)

    def cancel(self, name: str) -> None:
        self.set_.pop(name, None)

    async def ring(self, name: str) -> None:
        _, ring = self.set_.pop(name)
        await ring()


@dataclass
class Calls:
    rung: list[Wait] = field(default_factory=list)
    reminded: list[Wait] = field(default_factory=list)

    async def ring(self, wait: Wait) -> None:
        self.rung.append(wait)

    async def remind(self, wait: Wait) -> None:
        self.reminded.append(wait)


def turn(deadline: float = NOW + 30, *, hand: int = 1, number: int = 0) -> Wait:
    return Wait(WaitKind.TURN, hand, number, NOW, deadline)


def live_waiting(wait: Wait) -> Live:
    settings = TableSettings()
    live = Live(1, -100, None, 7, settings, Table(settings.rules()))
    live.wait = wait
    return live


# ------------------------------------------------------------------ what the table shows

def test_a_turn_whose_deadline_passed_shows_no_time_left_not_a_negative_countdown() -> None:
    # After a restart, or while a failed timer waits to try again, the deadline is behind.
    view = live_waiting(turn(deadline=NOW - 12.5)).view(NOW)
    assert view.wait_seconds == 0
    assert live_waiting(turn(deadline=NOW + 12.5)).view(NOW).wait_seconds == 13


def test_a_lobby_waiting_to_close_shows_no_turn_clock() -> None:
    idle = Wait(WaitKind.IDLE, 0, 0, NOW, NOW + 600)
    view = live_waiting(idle).view(NOW)
    assert view.wait_seconds is None and view.deadline is None
    # A turn's wait is shown, with its deadline for the Mini App.
    shown = live_waiting(turn()).view(NOW)
    assert shown.wait_seconds == 30 and shown.deadline == NOW + 30


# ------------------------------------------------------------------ timers that failed

def test_a_timer_that_keeps_failing_tries_again_backing_off_to_a_minute() -> None:
    wait, now, pauses = turn(), NOW, []
    for _ in range(10):
        wait = wait.again(now)
        pauses.append(wait.deadline - now)
        now = wait.deadline
    assert pauses == [1, 2, 4, 8, 16, 32, RETRY_MAX, RETRY_MAX, RETRY_MAX, RETRY_MAX]
    assert RETRY_MAX == 60
    # Still the same wait: the table waits for the same thing, only later.
    assert wait.name == turn().name and wait.started == NOW


# ------------------------------------------------------------------ alarms and reminders

async def test_a_wait_rings_at_its_deadline_and_can_be_armed_again_once_rung() -> None:
    alarms, calls = ListAlarms(), Calls()
    clock = Clock(lambda: NOW, alarms)
    wait = turn()
    clock.arm(1, wait, calls.ring)
    assert alarms.set_[TABLE_ALARM.format(table=1)][0] == wait.deadline
    await alarms.ring(TABLE_ALARM.format(table=1))
    assert calls.rung == [wait]
    # Its work could not be done and the table still waits for it: armed again, it rings.
    clock.arm(1, wait, calls.ring)
    await alarms.ring(TABLE_ALARM.format(table=1))
    assert calls.rung == [wait, wait]


async def test_arming_the_wait_already_armed_sets_no_second_alarm() -> None:
    alarms, calls = ListAlarms(), Calls()
    clock = Clock(lambda: NOW, alarms)
    clock.arm(1, turn(), calls.ring)
    alarms.set_.clear()
    clock.arm(1, turn(), calls.ring)  # a redraw: the same wait
    assert alarms.set_ == {}


async def test_a_turns_reminder_rings_before_its_deadline() -> None:
    alarms, calls = ListAlarms(), Calls()
    clock = Clock(lambda: NOW, alarms)
    wait = turn()
    clock.arm(1, wait, calls.ring, remind_at=NOW + 20, remind=calls.remind)
    name = REMIND_ALARM.format(table=1)
    assert alarms.set_[name][0] == NOW + 20
    await alarms.ring(name)
    assert calls.reminded == [wait] and calls.rung == []


async def test_a_reminder_whose_moment_passed_is_not_armed() -> None:
    alarms, calls = ListAlarms(), Calls()
    clock = Clock(lambda: NOW, alarms)
    # After a restart late in the turn: no reminder at once, the turn ends as it would.
    clock.arm(1, turn(), calls.ring, remind_at=NOW - 1, remind=calls.remind)
    assert set(alarms.set_) == {TABLE_ALARM.format(table=1)}


async def test_the_next_turn_drops_the_last_turns_reminder() -> None:
    alarms, calls = ListAlarms(), Calls()
    clock = Clock(lambda: NOW, alarms)
    clock.arm(1, turn(), calls.ring, remind_at=NOW + 20, remind=calls.remind)
    clock.arm(1, turn(number=1), calls.ring)  # the player acted: a turn without reminder
    assert set(alarms.set_) == {TABLE_ALARM.format(table=1)}


async def test_a_closed_table_rings_nothing_any_more() -> None:
    alarms, calls = ListAlarms(), Calls()
    clock = Clock(lambda: NOW, alarms)
    clock.arm(1, turn(), calls.ring, remind_at=NOW + 20, remind=calls.remind)
    clock.arm(2, turn(), calls.ring)
    clock.cancel(1)
    assert set(alarms.set_) == {TABLE_ALARM.format(table=2)}
    # Once closed, the same wait arms afresh (a table id is never reused, but nothing
    # of the closed table's lingers).
    clock.arm(1, turn(), calls.ring)
    assert TABLE_ALARM.format(table=1) in alarms.set_
    clock.cancel(3)  # a table that never waited closes as quietly


async def test_a_table_that_stops_waiting_has_its_alarm_and_reminder_taken_away() -> None:
    alarms, calls = ListAlarms(), Calls()
    clock = Clock(lambda: NOW, alarms)
    clock.arm(1, turn(), calls.ring, remind_at=NOW + 20, remind=calls.remind)
    clock.arm(1, None, calls.ring)  # the hand ended and nothing is awaited
    assert alarms.set_ == {}


def test_a_wait_keeps_its_deadline_while_the_table_waits_for_the_same_thing() -> None:
    moments = iter([NOW, NOW + 10])
    clock = Clock(lambda: next(moments))
    first = clock.follow(None, Want(WaitKind.TURN, 1, 0, 30))
    assert first is not None and first.deadline == NOW + 30 and first.seconds == 30
    assert clock.follow(first, Want(WaitKind.TURN, 1, 0, 30)) is first
    later = clock.follow(first, Want(WaitKind.TURN, 1, 1, 30))
    assert later is not None and later.deadline == NOW + 40
    assert clock.follow(later, None) is None


# ------------------------------------------------------------------ PTB's job queue

async def ring_of(alarms: JobQueueAlarms, at: float) -> bool:
    """Whether an alarm set for `at` rings within three seconds."""
    rang = asyncio.Event()

    async def ring() -> None:
        rang.set()

    alarms.set("table-1", at, ring)
    try:
        await asyncio.wait_for(rang.wait(), 3.0)
    except TimeoutError:
        return False
    return True


async def job_queue_alarms() -> tuple[Application, JobQueueAlarms]:  # type: ignore[type-arg]
    app = Application.builder().token("123:not-a-token").build()
    assert app.job_queue is not None
    await app.job_queue.start()
    return app, JobQueueAlarms(app.job_queue)


async def test_a_deadline_that_passed_while_the_bot_was_down_rings_at_once() -> None:
    app, alarms = await job_queue_alarms()
    try:
        # The scheduler skips a job whose run time is long gone: it must be given "now".
        assert await ring_of(alarms, time.time() - 300)
        assert await ring_of(alarms, time.time() + 0.05)
    finally:
        assert app.job_queue is not None
        await app.job_queue.stop()


async def test_an_overdue_job_queue_alarm_is_due_now_not_later() -> None:
    app, alarms = await job_queue_alarms()
    try:
        async def ring() -> None:
            return None

        alarms.set("table-1", time.time() - 300, ring)
        assert app.job_queue is not None
        (job,) = app.job_queue.get_jobs_by_name("table-1")
        assert job.next_t is not None
        assert job.next_t <= dt.datetime.now(dt.UTC)
    finally:
        assert app.job_queue is not None
        await app.job_queue.stop()


async def test_setting_a_job_queue_alarm_again_replaces_it() -> None:
    app, alarms = await job_queue_alarms()
    try:
        rang: list[str] = []

        async def first() -> None:
            rang.append("first")

        alarms.set("table-1", time.time() + 0.2, first)
        assert await ring_of(alarms, time.time() + 0.4)  # the same name: replaces it
        await asyncio.sleep(0.1)
        assert rang == []
    finally:
        assert app.job_queue is not None
        await app.job_queue.stop()


async def test_a_cancelled_job_queue_alarm_does_not_ring() -> None:
    app, alarms = await job_queue_alarms()
    try:
        rang: list[str] = []

        async def ring() -> None:
            rang.append("rang")

        alarms.set("table-1", time.time() + 0.2, ring)
        alarms.set("table-2", time.time() + 0.2, ring)
        alarms.cancel("table-1")
        alarms.cancel("table-1")  # twice is harmless
        assert await ring_of(alarms, time.time() + 0.4)  # later than both
        assert rang == ["rang"]  # table-2's alone
        alarms.set("table-3", time.time() + 0.2, ring)
        alarms.stop()
        await asyncio.sleep(0.4)
        assert rang == ["rang"]
    finally:
        assert app.job_queue is not None
        await app.job_queue.stop()


def test_a_stored_wait_comes_back_after_a_restart_with_its_deadline() -> None:
    wait = Wait(WaitKind.SVARA, 12, 3, NOW, NOW + 45.5)
    assert Wait.from_json(wait.to_json()) == wait
    # Back-off tries are not stored: after a restart the wait rings at its deadline.
    assert Wait.from_json(wait.again(NOW).to_json()) == replace(wait, deadline=NOW + 1)


@pytest.mark.parametrize("stored", [
    None, "", "{", "[]", '{"kind":"nap","hand":1,"turn":0,"started":0,"deadline":1}',
    '{"kind":"turn","hand":1,"turn":0,"started":0}',
    '{"kind":"turn","hand":"one","turn":0,"started":0,"deadline":1}',
    '{"kind":"turn","hand":1,"turn":0,"started":null,"deadline":1}',
])
def test_a_stored_wait_that_cannot_be_read_gives_a_fresh_wait(stored: str | None) -> None:
    assert Wait.from_json(stored) is None


def test_an_unreadable_stored_wait_is_logged_for_the_operator_cut_short(
        caplog: pytest.LogCaptureFixture) -> None:
    stored = "{" + "x" * 300
    with caplog.at_level(logging.WARNING, logger="bot.clock"):
        assert Wait.from_json(stored) is None
    assert [r.getMessage() for r in caplog.records] == [
        f"a stored wait could not be read: {stored[:200]!r}"]
