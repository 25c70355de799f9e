"""Flood control: record, enforce and off; per private chat, per group, overall."""

from __future__ import annotations

import pytest
from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter

from bot.sandbox.faults import Fault
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FloodControl, FloodMode, FloodRules

# PTB itself reads its deprecated int retry_after while building RetryAfter.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_private_chat_allows_short_bursts_then_one_per_second() -> None:
    clock = FakeClock()
    flood = FloodControl(clock=clock, mode=FloodMode.ENFORCE)
    assert [flood.check("sendmessage", 7, private=True) for _ in range(3)] == [None] * 3
    refused = flood.check("sendmessage", 7, private=True)
    assert refused is not None and (refused.rule, refused.retry_after) == ("private", 1)
    clock.now += 1.0
    assert flood.check("sendmessage", 7, private=True) is None
    assert flood.check("sendmessage", 8, private=True) is None  # other chats are separate


def test_group_allows_twenty_a_minute() -> None:
    clock = FakeClock()
    flood = FloodControl(clock=clock, mode=FloodMode.ENFORCE)
    for _ in range(20):
        assert flood.check("editmessagetext", -5, private=False) is None
        clock.now += 0.5
    refused = flood.check("sendmessage", -5, private=False)
    assert refused is not None and refused.rule == "group" and refused.retry_after == 50
    clock.now += 50.0
    assert flood.check("sendmessage", -5, private=False) is None


def test_thirty_a_second_overall() -> None:
    clock = FakeClock()
    flood = FloodControl(clock=clock, rules=FloodRules(group_per_minute=100))
    for chat in range(30):
        assert flood.check("sendmessage", -chat - 1, private=False) is None
    violation = flood.check("sendmessage", -99, private=False)
    assert violation is not None and violation.rule == "global"
    assert flood.violations == [violation]  # record mode: remembered, not refused


async def test_record_mode_lets_sends_through_and_fails_the_check(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    await alice.start_bot()
    async with tg.bot() as bot:
        for n in range(4):
            await bot.send_message(alice.id, f"card {n}")
    assert len(alice.inbox) == 4
    assert [v.kind for v in tg.unexpected()] == ["flood"]
    with pytest.raises(AssertionError, match=r"\[flood\] private limit"):
        tg.check()
    tg.expect("flood")
    tg.check()


async def test_enforce_mode_answers_429_and_edits_count(tg: Sandbox) -> None:
    tg.expect("flood")
    tg.flood.mode = FloodMode.ENFORCE
    tg.flood.clock = FakeClock()
    group = tg.world.group("Friends")
    async with tg.bot() as bot:
        sent = await bot.send_message(group.id, "0")
        for n in range(1, 20):
            await bot.edit_message_text(str(n), group.id, sent.message_id)
        with pytest.raises(RetryAfter, match=r"Retry in (60 seconds|0:01:00)"):
            await bot.send_message(group.id, "one too many")
    refused = tg.transcript.calls[-1]
    assert (refused.status, refused.description) == (429, "Too Many Requests: retry after 60")


async def test_off_mode_counts_nothing(tg: Sandbox) -> None:
    tg.flood.mode = FloodMode.OFF
    group = tg.world.group("Friends")
    async with tg.bot() as bot:
        for n in range(25):
            await bot.send_message(group.id, str(n))
    assert tg.violations() == []


async def test_aio_rate_limiter_retries_through_an_injected_429(tg: Sandbox) -> None:
    group = tg.world.group("Friends")
    tg.faults.fail_next("sendMessage", Fault.retry_after(0.2))
    app = tg.app_builder().rate_limiter(AIORateLimiter(max_retries=1)).build()
    async with app:
        sent = await app.bot.send_message(group.id, "after a pause")
    assert sent.text == "after a pause"
    calls = [(c.status, c.description) for c in tg.transcript.of("sendMessage")]
    assert calls == [(429, "Too Many Requests: retry after 0.2"), (200, None)]
    assert [m.text for m in group.bot_messages()] == ["after a pause"]


def test_the_busiest_minute_of_each_group_is_kept() -> None:
    clock = FakeClock()
    flood = FloodControl(clock=clock, mode=FloodMode.OFF)
    for at in (0.0, 20.0, 40.0, 60.0, 100.0, 101.0):
        clock.now = 1000.0 + at
        flood.check("editmessagetext", -5, private=False)
    # 20, 40 and 60 lie in one minute; 0 and 60 do not (the window is half-open, as
    # Telegram's): three at most.
    assert flood.group_peak == {-5: 3}
    flood.check("sendmessage", 7, private=True)
    assert 7 not in flood.group_peak  # a private chat has no group minute


async def test_pins_and_unpins_count_against_the_group(tg: Sandbox) -> None:
    tg.expect("flood")
    tg.flood.mode = FloodMode.ENFORCE
    tg.flood.clock = FakeClock()
    group = tg.world.group("Friends", bot_admin=True)
    async with tg.bot() as bot:
        sent = await bot.send_message(group.id, "0")
        for n in range(1, 9):
            await bot.edit_message_text(str(n), group.id, sent.message_id)
        for _ in range(5):
            await bot.pin_chat_message(group.id, sent.message_id)
            await bot.unpin_chat_message(group.id, sent.message_id)
        assert tg.flood.group_peak == {group.id: 19}
        await bot.pin_chat_message(group.id, sent.message_id)
        with pytest.raises(RetryAfter):
            await bot.unpin_chat_message(group.id, sent.message_id)
    assert tg.flood.group_peak == {group.id: 21}  # the refused call was tried all the same
    assert tg.flood.group_calls == {group.id: 21}
    assert tg.flood.refused_by_method() == {"unpinchatmessage": 1}
    assert tg.flood.refused_by_rule() == {"group": 1}
