"""The table message's writer against a group's pace whose clock only the test moves: what
waits for the group's slot, what goes first when one opens, and what a press keeps back."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from telegram import Chat, Message, User
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter

from bot.live import Live
from bot.pacing import EDIT, GroupPace
from bot.records import TableStatus
from bot.store import Store
from engine import Act, Action
from tests.bot.test_games import ANA, BORIS, CHAT, STARTING_CHIPS
from tests.bot.test_outbox import HeldApp, quiet, table

SETTLE = 0.15
"""Real seconds for the tasks to act on a slot the clock opened (the pace's waits are a few
milliseconds of real time)."""


@dataclass
class Clock:
    now: float = 0.0


def frozen_pace(clock: Clock) -> GroupPace:
    """A group's pace whose next slot opens only when the test moves `clock` on."""
    return GroupPace(19, time_scale=360, clock=lambda: clock.now)


async def a_slot_opens(clock: Clock, pace: GroupPace) -> None:
    clock.now += pace.spacing
    await asyncio.sleep(SETTLE)


def sent(app: HeldApp) -> list[int]:
    return [message_id for _, message_id, _ in app.bot.sent]


async def test_table_posts_the_new_message_in_the_next_slot_and_points_the_old_one_down_after(
        store: Store) -> None:
    clock = Clock()
    app, outbox, _, live = await table(store, pace=frozen_pace(clock))
    pace = outbox.pace
    assert sent(app) == [101]  # the lobby took the group's slot
    moving = asyncio.create_task(outbox.move_down(live))
    await asyncio.sleep(SETTLE)
    assert sent(app) == [101] and app.bot.edits == []  # both wait for the group
    await a_slot_opens(clock, pace)
    # A new message goes before an edit that asked first: the players' buttons move down.
    assert sent(app) == [101, 102] and app.bot.edits == []
    assert not moving.done()
    await a_slot_opens(clock, pace)
    await moving
    assert app.bot.edits == [(101, False)]  # the old message, without its buttons


async def test_a_new_table_message_goes_before_an_edit_already_waiting(store: Store) -> None:
    clock = Clock()
    app, outbox, _, live = await table(store, pace=frozen_pace(clock))
    other = asyncio.create_task(outbox.pace.slot(CHAT, EDIT))  # another edit in the group
    await asyncio.sleep(SETTLE)
    outbox.moved(live)  # the table message is to be posted anew
    outbox.show(live)
    await a_slot_opens(clock, outbox.pace)
    assert sent(app) == [101, 102] and not other.done()
    await a_slot_opens(clock, outbox.pace)
    assert other.done()


async def test_a_screen_waits_while_a_press_is_answered_even_once_its_slot_is_open(
        store: Store) -> None:
    clock = Clock()
    app, outbox, games, live = await table(store, pace=frozen_pace(clock))
    await games.join(live, ANA)  # the lobby changes; its edit waits for the group's slot
    await asyncio.sleep(SETTLE)
    assert app.bot.edits == []
    async with outbox.hold(live.id):
        await a_slot_opens(clock, outbox.pace)
        assert app.bot.edits == []
    await asyncio.sleep(SETTLE)
    assert app.bot.edits == [(101, True)]


async def test_a_screen_back_to_what_the_group_sees_costs_no_edit_and_no_slot(
        store: Store) -> None:
    clock = Clock()
    app, outbox, games, live = await table(store, pace=frozen_pace(clock))
    await games.join(live, ANA)
    await asyncio.sleep(SETTLE)
    await games.leave(live, ANA)  # the lobby is as the group sees it again
    await a_slot_opens(clock, outbox.pace)
    assert app.bot.edits == [] and not outbox.busy
    assert outbox.figures()["screens_waiting"] == 0.0
    assert outbox.pace.wait_for_slot(CHAT) == 0.0  # the slot it took went back to the group


async def test_showing_an_unchanged_table_leaves_nothing_waiting(store: Store) -> None:
    app, outbox, _, live = await table(store)
    outbox.show(live)
    assert not outbox.busy and outbox.figures()["screens_waiting"] == 0.0
    await quiet(outbox, app)
    assert sent(app) == [101] and app.bot.edits == []
    assert outbox.message_id(live.id) == 101 and outbox.message_id(live.id + 1) is None


def _command(app: HeldApp, message_id: int, text: str) -> Message:
    message = Message(message_id, datetime.now(UTC), Chat(CHAT, Chat.SUPERGROUP),
                      from_user=User(BORIS.id, "Boris", is_bot=False), text=text)
    message.set_bot(app.bot)  # type: ignore[arg-type]
    return message


async def test_the_operator_sees_how_many_replies_wait_for_the_groups_slot(
        store: Store) -> None:
    clock = Clock()
    app, outbox, _, _ = await table(store, pace=frozen_pace(clock))
    for n, command in enumerate(("/balance", "/rules", "/top"), start=1):
        outbox.reply(_command(app, n, command), f"answer {n}", key=command)
    await asyncio.sleep(SETTLE)
    # The first is taken to be sent and waits for the slot; two wait behind it.
    assert outbox.figures()["replies_waiting"] == 2.0
    for left in (1.0, 0.0):
        await a_slot_opens(clock, outbox.pace)
        assert outbox.figures()["replies_waiting"] == left
    await a_slot_opens(clock, outbox.pace)
    assert [text for _, _, text in app.bot.sent[1:]] == ["answer 1", "answer 2", "answer 3"]


async def test_a_closed_table_shown_again_before_its_last_screen_went_posts_its_results_once(
        store: Store) -> None:
    clock = Clock()
    app, outbox, games, live = await table(store, pace=frozen_pace(clock))
    for player in (ANA, BORIS):
        await games.join(live, player)
    await games.start(live, ANA, is_admin=False)
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    folder = ANA if hand.seats[hand.to_act].player == ANA.id else BORIS
    await games.press(live, folder, Action(Act.FOLD, 0), hand_id=live.hand_id, seq=0)
    await games.end(live, ANA, is_admin=True)
    outbox.show(live)  # shown again while its closing screen waits for the group
    for _ in range(6):
        await a_slot_opens(clock, outbox.pace)
    in_group = [text for chat, _, text in app.bot.sent if chat == CHAT]
    assert sum(": results after 1 hand" in text for text in in_group) == 1, in_group


async def test_an_edit_telegram_finds_unchanged_counts_as_shown(store: Store) -> None:
    app, outbox, games, live = await table(store)
    lobby = live.shown  # what a restart would take the message to show
    app.bot.refuse_next_edit = BadRequest(
        "Message is not modified: specified new message content and reply markup are exactly"
        " the same as a current content and reply markup of the message")
    await games.join(live, ANA)
    await quiet(outbox, app)
    assert app.bot.edit_calls == 1 and app.bot.edits == []
    assert live.shown is not None and live.shown != lobby  # kept for a restart
    outbox.show(live)  # the same screen again: the group has it already
    await quiet(outbox, app)
    assert app.bot.edit_calls == 1 and not outbox.busy


async def test_a_screen_set_again_while_the_same_one_is_on_its_way_is_not_sent_twice(
        store: Store) -> None:
    clock = Clock()
    app, outbox, games, live = await table(store, pace=frozen_pace(clock))
    release = app.bot.hold_next_edit = asyncio.Event()
    await games.join(live, ANA)
    await a_slot_opens(clock, outbox.pace)  # the edit is on its way, held by Telegram
    await games.join(live, BORIS)
    await games.leave(live, BORIS)  # back to the screen on its way
    release.set()
    await asyncio.sleep(SETTLE)
    await a_slot_opens(clock, outbox.pace)
    assert app.bot.edits == [(101, True)] and not outbox.busy
    assert outbox.pace.wait_for_slot(CHAT) == 0.0  # the slot it took went back


async def test_a_screen_waiting_for_the_group_after_a_flood_wait_keeps_the_outbox_busy(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    app, outbox, games, live = await table(store, pace=frozen_pace(clock))
    flood = app.bot.refuse_next_edit = RetryAfter(0)
    await games.join(live, ANA)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await a_slot_opens(clock, outbox.pace)  # refused with a flood wait; tried after it
    assert f"table {live.id}: table message delayed ({flood})" in caplog.messages
    assert str(flood).startswith("Flood control exceeded. Retry in ")  # Telegram's words
    await asyncio.sleep(SETTLE)
    assert app.bot.edit_calls == 1 and outbox.busy  # waiting for the group's next slot
    await a_slot_opens(clock, outbox.pace)
    assert app.bot.edits == [(101, True)] and not outbox.busy


async def test_a_closed_table_leaves_no_message_behind_once_its_last_screen_went(
        store: Store) -> None:
    app, outbox, games, live = await table(store)
    await games.end(live, ANA, is_admin=True)
    await quiet(outbox, app)
    assert app.bot.edits == [(101, False)]  # the closed table, without buttons
    assert outbox.message_id(live.id) is None
    assert live.id not in outbox._writers  # nothing of it stays in memory for the evening


@pytest.mark.parametrize("refusal", [
    "Bad Request: message to edit not found", "Bad Request: message can't be edited"])
async def test_a_table_message_telegram_cannot_edit_is_posted_anew_in_the_next_slot(
        store: Store, refusal: str) -> None:
    clock = Clock()
    app, outbox, games, live = await table(store, pace=frozen_pace(clock))
    app.bot.refuse_next_edit = BadRequest(refusal)
    await games.join(live, ANA)
    await a_slot_opens(clock, outbox.pace)  # the edit is refused: the message is gone
    assert app.bot.edit_calls == 1 and sent(app) == [101]
    assert outbox.busy  # it waits for the group's next slot, with no pause before it
    await a_slot_opens(clock, outbox.pace)
    assert sent(app) == [101, 102] and outbox.message_id(live.id) == 102
    assert not outbox.busy


async def test_a_table_message_refused_twice_is_posted_anew_in_the_next_slot(
        store: Store, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr("bot.outbox.table.RETRY_SECONDS", 0.01)  # the pause after the first
    clock = Clock()
    app, outbox, games, live = await table(store, pace=frozen_pace(clock))
    refusal = "Can't parse entities: unsupported start tag \"blink\""
    app.bot.refuse_edits = [BadRequest(refusal), BadRequest(refusal)]
    await games.join(live, ANA)
    with caplog.at_level(logging.WARNING, logger="bot.outbox"):
        await a_slot_opens(clock, outbox.pace)  # refused: the edit is tried once more
        await a_slot_opens(clock, outbox.pace)  # refused again: posted anew
    assert [m for m in caplog.messages if "refused the table message" in m] == [
        f"table {live.id}: Telegram refused the table message ({n}): {refusal}"
        for n in (1, 2)]
    assert app.bot.edit_calls == 2 and sent(app) == [101]
    assert outbox.busy  # it waits for the group's next slot, with no pause before it
    await a_slot_opens(clock, outbox.pace)
    assert sent(app) == [101, 102] and outbox.message_id(live.id) == 102


async def test_a_table_whose_group_became_a_supergroup_is_posted_there_anew(
        store: Store) -> None:
    app, outbox, games, live = await table(store)
    supergroup = -100_777
    app.bot.refuse_next_edit = ChatMigrated(supergroup)
    await games.join(live, ANA)
    await quiet(outbox, app)
    assert live.chat_id == supergroup
    assert games.at(supergroup, None) is live and games.at(CHAT, None) is None
    assert [(chat, message_id) for chat, message_id, _ in app.bot.sent] == [
        (CHAT, 101), (supergroup, 102)]
    assert outbox.message_id(live.id) == 102


async def test_a_group_that_shuts_the_bot_out_of_the_table_message_closes_the_table(
        store: Store) -> None:
    app, outbox, games, live = await table(store)
    app.bot.refuse_next_edit = Forbidden("Forbidden: bot was kicked from the supergroup chat")
    await games.join(live, ANA)
    await quiet(outbox, app)
    assert live.status is TableStatus.CLOSED and games.at(CHAT, None) is None
    assert await store.users.balance(ANA.id) == STARTING_CHIPS  # his buy-in went home


async def test_a_table_message_goes_as_html_without_a_preview_into_its_topic(
        store: Store) -> None:
    app, outbox, games, _ = await table(store)
    in_topic = await games.open_table(CHAT, 7, BORIS)
    await quiet(outbox, app)
    first, second = (message_id for chat, message_id, _ in app.bot.sent if chat == CHAT)
    for message_id, thread in ((first, None), (second, 7)):
        options = app.bot.options[message_id]
        assert options["message_thread_id"] == thread
        assert options["parse_mode"] == "HTML" and options["disable_web_page_preview"] is True
    assert outbox.message_id(in_topic.id) == second


async def test_a_bot_made_admin_pins_the_table_message_at_its_next_edit(store: Store) -> None:
    app, outbox, games, live = await table(store)
    assert app.bot.pins == []  # the bot may not pin yet
    app.bot.may_pin = True
    outbox.rights_changed(CHAT)
    await games.join(live, ANA)
    await quiet(outbox, app)
    assert app.bot.pins == [(CHAT, 101)] and app.bot.edits == [(101, True)]
    await games.join(live, BORIS)
    await quiet(outbox, app)
    assert app.bot.pins == [(CHAT, 101)]  # pinned once


async def test_the_mini_app_is_the_page_itself_in_every_private_chat_and_a_link_in_a_group(
        store: Store) -> None:
    app, outbox, games, lobby = await table(store)
    asked: list[tuple[int, bool]] = []

    def app_link(live: Live, private: bool) -> str:
        asked.append((live.chat_id, private))
        return "https://t.me/svara_bot/play?startapp=t1"

    outbox.app_link = app_link
    outbox.show(lobby)
    # A private chat's id is its user's: 1 is the smallest there is.
    await games.open_table(1, None, ANA)
    await quiet(outbox, app)
    assert sorted(set(asked)) == [(CHAT, False), (1, True)]


async def test_a_table_that_closes_while_an_edit_is_on_its_way_shows_its_close_in_that_message(
        store: Store) -> None:
    app, outbox, games, live = await table(store)
    release = app.bot.hold_next_edit = asyncio.Event()
    await games.join(live, ANA)
    await asyncio.sleep(SETTLE)  # the lobby's edit is on its way, held by Telegram
    # As the games close a table: its status first, its closing screen once the results
    # are read from the store; the edit lands in between.
    live.status = TableStatus.CLOSED
    release.set()
    await asyncio.sleep(SETTLE)
    outbox.show(live)
    await quiet(outbox, app)
    assert sent(app) == [101]  # no second table message, with the first keeping buttons
    assert app.bot.edits == [(101, True), (101, False)]
    assert outbox.message_id(live.id) is None and live.id not in outbox._writers
