"""Where the answer to a command in a group goes, seen by the asker and by the group: an
ephemeral ask (/stats and its chart) is answered to the asker alone in the group when the
group's budget lets it go in time, else in his private chat, and only where that is closed
too, in the group (in his topic); ordinary answers queue behind the group's pace, and a
flood of asks keeps only the newest."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from bot.outbox.base import REPLIES_KEPT
from bot.pacing import URGENT, GroupPace
from bot.sandbox.ephemeral import EphemeralRecord
from bot.sandbox.faults import Fault
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.seeds import find_seed, replica

NO_HAND = "No hand has been played here yet."
"""/top in a group before its first hand."""
STATS = "📊 Ana\nHands played 1"
"""How Ana's /stats begins after her one hand (her name in bold)."""


async def _played(bed: Bed, chat: ChatRecord, ana: Player, boris: Player) -> None:
    """One hand of Ana and Boris in `chat`, Ana folding first: both have played."""
    await bed.open_table(chat, ana, boris)
    seed, _ = find_seed(replica(bed.live(chat)), lambda h: h.dealer == 1)
    bed.seeds.append(seed)
    for label in ("Start", "No blind", "Fold"):
        assert await bed.press(ana, chat, label) is None, label
    await bed.idle()
    assert bed.live(chat).hand is None


def hidden(bed: Bed, chat: ChatRecord, player: Player) -> list[EphemeralRecord]:
    """The bot's messages in `chat` that `player` alone sees, oldest first."""
    world = bed.tg.world
    return [r for r in world.ephemeral.seen_by(chat, player.record, world.clock())
            if r.sender.is_bot and r.receiver is player.record]


def bold(message: MessageRecord) -> list[str]:
    """The bold parts of the message's text (entities count UTF-16 code units)."""
    text = (message.text or "").encode("utf-16-le")
    return [text[2 * e["offset"]:2 * (e["offset"] + e["length"])].decode("utf-16-le")
            for e in message.entities if e["type"] == "bold"]


async def _ask(bed: Bed, chat: ChatRecord, player: Player, text: str,
               topic: str | None = None) -> MessageRecord:
    asked = await player.send(chat, text, topic=topic)
    await bed.idle()
    return asked


async def _stats_come_in_private(bed: Bed, group: ChatRecord, ana: Player) -> None:
    """Ana asks /stats in the group; the figures and the chart come in her private chat
    alone: nothing in the group, nothing shown to her there."""
    before, dm_before = len(group.bot_messages()), len(ana.inbox)
    await _ask(bed, group, ana, "/stats")
    assert hidden(bed, group, ana) == []
    text, chart = ana.inbox[dm_before:]
    assert (text.text or "").startswith(STATS) and bold(text) == ["Ana"]
    assert chart.photo is not None
    assert len(group.bot_messages()) == before


async def test_an_ephemeral_ask_is_answered_to_him_alone_below_his_ask(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await _played(bed, group, ana, boris)
    before = len(group.bot_messages())
    dm_before = len(ana.inbox)
    asked = await _ask(bed, group, ana, "/stats")
    assert isinstance(asked, EphemeralRecord)  # the group never saw the ask
    text, chart = hidden(bed, group, ana)
    # Formatted as every answer is, and each one a reply to his ask.
    assert (text.text or "").startswith(STATS) and bold(text) == ["Ana"]
    assert chart.photo is not None and chart.text is None
    assert text.reply_to is asked and chart.reply_to is asked
    # Nobody else saw anything: not the group, not Boris, not Ana's private chat.
    assert len(group.bot_messages()) == before and hidden(bed, group, boris) == []
    assert len(ana.inbox) == dm_before


async def test_an_ask_the_group_cannot_answer_in_time_is_answered_in_private(
        bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await _played(bed, group, ana, boris)
    bed.overrides["group_per_minute"] = 6.0  # a slot every 12 s: past the window
    await bed.restart()
    await asyncio.sleep(bed.services.outbox.pace.wait_for_slot(group.id))
    await bed.services.outbox.pace.slot(group.id)  # the group's next slot is 12 s away
    await _stats_come_in_private(bed, group, ana)


async def test_an_answer_queued_behind_other_calls_past_the_window_goes_private(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.start_bot()
    await bed.idle()
    pace = bed.services.outbox.pace
    dm_before = len(ana.inbox)
    # Enough calls wait for the group's slot that an answer now would go after the window.
    ahead = int(15.0 / pace.spacing) + 2
    waiting = [asyncio.create_task(pace.slot(group.id, URGENT)) for _ in range(ahead)]
    await asyncio.sleep(0)
    try:
        with caplog.at_level(logging.INFO, logger="bot.outbox"):
            await _ask(bed, group, ana, "/balance")
    finally:
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
    assert hidden(bed, group, ana) == []
    assert "Ana: 1,000 chips" in (ana.inbox[dm_before].text or "")
    # Not tried in the group first, to be refused once the window had passed.
    assert not [m for m in caplog.messages if m.startswith("hidden reply")], caplog.messages


async def test_an_ask_telegram_will_not_answer_in_the_group_is_answered_in_private(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await _played(bed, group, ana, boris)
    faults = bed.tg.server.faults
    refused = Fault.bad_request("BOT_NOT_ADMIN")
    faults.fail_next("sendMessage", refused, chat_id=group.id)
    faults.fail_next("sendPhoto", refused, chat_id=group.id)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await _stats_come_in_private(bed, group, ana)
    # The operator's log says which answer Telegram refused, and where.
    said = caplog.messages
    assert any(m.startswith(f"hidden reply to {group.id} refused: ") for m in said), said
    assert any(m.startswith(f"hidden photo to {group.id} refused: ") for m in said), said


async def test_with_his_private_chat_closed_too_the_answer_comes_in_his_topic(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    ana, boris = bed.players("Ana", "Boris")
    forum = bed.tg.world.supergroup("Svara club", members=[ana, boris], admins=[ana],
                                    forum=True, topics=["Cards"])
    cards = forum.topic("Cards")
    await ana.send(forum, "/newgame", topic="Cards")
    await bed.idle()
    live = bed.games.at(forum.id, cards)
    assert live is not None
    await _played_in(bed, forum, live.chat_id, ana, boris, topic="Cards")
    ana.block_bot()  # her private chat is closed to the bot now
    faults = bed.tg.server.faults
    refused = Fault.bad_request("BOT_NOT_ADMIN")
    faults.fail_next("sendMessage", refused, chat_id=forum.id)
    faults.fail_next("sendPhoto", refused, chat_id=forum.id)
    before = len(forum.bot_messages())
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await _ask(bed, forum, ana, "/stats", topic="Cards")
    text, chart = forum.bot_messages()[before:]
    assert (text.text or "").startswith(STATS) and bold(text) == ["Ana"]
    assert chart.photo is not None
    assert text.thread_id == cards and chart.thread_id == cards
    said = caplog.messages
    assert any(m.startswith(f"reply to {ana.id}: blocked") for m in said), said
    assert any(m.startswith(f"photo to {ana.id}: blocked") for m in said), said


async def _played_in(bed: Bed, chat: ChatRecord, chat_id: int, ana: Player, boris: Player,
                     *, topic: str) -> None:
    """Boris joins Ana's table in `topic`, and they play a hand, Ana folding first."""
    for p in (ana, boris):
        await p.start_bot()
        await bed.idle()
    live = next(t for t in bed.games.tables.values() if t.chat_id == chat_id)
    message_id = bed.message_id(live)
    assert message_id is not None
    table = bed.tg.world.find_message(chat, message_id)
    assert table is not None
    for p in (ana, boris):
        await (await p.press(table, "Join")).answer()
        await bed.idle()
    seed, _ = find_seed(replica(live), lambda h: h.dealer == 1)
    bed.seeds.append(seed)
    for label in ("Start", "No blind", "Fold"):
        current = bed.tg.world.find_message(chat, bed.message_id(live) or 0)
        assert current is not None
        await (await ana.press(current, label)).answer()
        await bed.idle()
    assert live.hand is None


async def test_answers_in_a_group_keep_its_pace_and_leave_no_queue_behind(bed: Bed) -> None:
    """Replies to many asks at once never push the group past Telegram's limit (the
    stand-in refuses with 429 past it); once sent, nothing of them is kept."""
    players = bed.players(*(f"P{i}" for i in range(REPLIES_KEPT)))
    group = bed.group(*players)
    outbox = bed.services.outbox
    floods = outbox.delivered["flood waits"]
    await players[0].send(group, "/newgame")  # the table message: one more in the minute
    await bed.idle()
    before = len(group.bot_messages())
    await asyncio.gather(*(p.send(group, "/top") for p in players))  # all at once
    await bed.idle()
    answers = group.bot_messages()[before:]
    assert bed.tg.flood.violations == []  # no minute of the group held more than 20
    assert len(answers) == REPLIES_KEPT and all(m.text == NO_HAND for m in answers)
    assert outbox.replies_dropped == 0
    assert outbox.delivered["flood waits"] == floods  # no 429 from the group's limit
    assert group.id not in outbox._replies


async def test_a_flood_of_asks_keeps_only_the_newest_answers(bed: Bed) -> None:
    """More different asks wait for one group than it keeps: the oldest are dropped (and
    counted), the newest answered."""
    players = bed.players(*(f"P{i}" for i in range(REPLIES_KEPT + 5)))
    group = bed.group(*players)
    outbox = bed.services.outbox
    dropped = outbox.replies_dropped
    merged = outbox.figures()["replies_merged"]
    before = len(group.bot_messages())
    # Other urgent calls hold the group's slot while the asks come in: they queue up.
    holding = [asyncio.create_task(outbox.pace.slot(group.id, URGENT)) for _ in range(3)]
    await asyncio.sleep(0)
    for p in players:
        await p.send(group, "/top")
    await bed.idle()
    await asyncio.gather(*holding)
    await bed.idle()
    answered = group.bot_messages()[before:]
    # The first ask's answer was on its way already; of the rest the newest are kept.
    assert outbox.replies_dropped - dropped == len(players) - REPLIES_KEPT - 1
    # The operator's figure says the same.
    assert outbox.figures()["replies_merged"] - merged == len(players) - REPLIES_KEPT - 1
    assert len(answered) == REPLIES_KEPT + 1 and all(m.text == NO_HAND for m in answered)
    asked = {m.reply_to.sender.id for m in answered if m.reply_to is not None}
    assert asked == {p.id for p in [players[0], *players[-REPLIES_KEPT:]]}
    assert group.id not in outbox._replies


async def test_answers_in_a_group_wait_for_its_pace_and_private_ones_do_not(
        bed: Bed) -> None:
    """Each answer in a group takes one of the group's slots, a second answer waits for
    the next one; an answer in a private chat waits for no group."""
    ana, boris, vera = bed.players("Ana", "Boris", "Vera")
    group = bed.group(ana, boris, vera)
    bed.overrides["group_per_minute"] = 31.0  # a slot every 2 s
    await bed.restart()
    pace = bed.services.outbox.pace
    await ana.start_bot()
    await bed.idle()
    await asyncio.sleep(pace.wait_for_slot(group.id))
    before = len(group.bot_messages())
    await boris.send(group, "/top")
    await vera.send(group, "/top")
    # One answer goes at once; the other waits for the group's next slot.
    await _until(lambda: len(group.bot_messages()) > before)
    assert len(group.bot_messages()) == before + 1
    assert pace.wait_for_slot(group.id) > 0.5
    # Meanwhile a private answer is not held back by the group's pace.
    dm_before = len(ana.inbox)
    await ana.send(ana.dm, "/balance")
    await _until(lambda: len(ana.inbox) > dm_before)
    assert len(group.bot_messages()) == before + 1  # the second still waits
    assert ana.dm.id not in pace._slots  # private chats have no pace of their own
    await bed.idle()
    first, second = group.bot_messages()[before:]
    assert {m.reply_to.sender.id for m in (first, second) if m.reply_to} == {boris.id, vera.id}


async def _until(check: Callable[[], bool]) -> None:
    """Wait (a few seconds at most) until `check` holds."""
    for _ in range(250):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it never happened")


async def _played_then_slow(bed: Bed) -> tuple[ChatRecord, Player, Player, GroupPace]:
    """Ana and Boris after one hand in a group, the bot restarted with a slot every 2 s
    there: the group, Ana, Boris and the group's pace."""
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await _played(bed, group, ana, boris)
    bed.overrides["group_per_minute"] = 31.0
    await bed.restart()
    return group, ana, boris, bed.services.outbox.pace


async def test_a_chart_in_a_group_keeps_its_pace_and_one_in_private_needs_none(
        bed: Bed) -> None:
    """/stats as a reply in the group is for the group to see: the figures, then the chart
    in the group's next slot; in private both come at once."""
    group, ana, boris, pace = await _played_then_slow(bed)
    said = await boris.send(group, "good hand")
    await asyncio.sleep(pace.wait_for_slot(group.id))
    before = len(group.bot_messages())
    await ana.send(group, "/stats", reply_to=said)  # Boris's figures, for everyone
    await _until(lambda: len(group.bot_messages()) > before)
    (text,) = group.bot_messages()[before:]
    assert (text.text or "").startswith("📊 Boris\nHands played 1") and bold(text)[0] == "Boris"
    assert pace.wait_for_slot(group.id) > 0.5  # the chart waits for the next slot
    await bed.idle()
    text, chart = group.bot_messages()[before:]
    assert chart.photo is not None and chart.reply_to is not None
    assert chart.reply_to.sender is ana.record and text.reply_to is chart.reply_to
    # In private: the figures and the chart, neither waiting for a group's pace.
    dm_before = len(ana.inbox)
    await ana.send(ana.dm, "/stats")
    await bed.idle()
    text, chart = ana.inbox[dm_before:]
    assert (text.text or "").startswith(STATS) and chart.photo is not None
    assert ana.dm.id not in pace._slots


async def test_a_hidden_answer_takes_the_groups_slot(bed: Bed) -> None:
    """An answer shown to one member in the group still counts against the group's
    budget: the next message into the group waits for the following slot."""
    group, ana, _, pace = await _played_then_slow(bed)
    await asyncio.sleep(pace.wait_for_slot(group.id))
    await ana.send(group, "/stats")
    await _until(lambda: len(hidden(bed, group, ana)) > 0)
    assert pace.wait_for_slot(group.id) > 0.5  # the text took the slot; the chart waits
    await bed.idle()
    _, chart = hidden(bed, group, ana)
    assert chart.photo is not None
    assert pace.wait_for_slot(group.id) > 0.5  # and the chart took the next one


async def test_an_answer_that_can_go_nowhere_is_logged_by_what_it_was(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    """The operator's log names each answer Telegram refused and where it was going."""
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await _played(bed, group, ana, boris)
    ana.block_bot()
    faults = bed.tg.server.faults
    refused = Fault.bad_request("BOT_NOT_ADMIN")
    for method in ("sendMessage", "sendPhoto"):  # the hidden try, then the group too
        faults.fail_next(method, refused, chat_id=group.id, times=2)
    before = len(group.bot_messages())
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await _ask(bed, group, ana, "/stats")
        faults.fail_next("sendMessage", Fault.bad_request("chat not found"), chat_id=group.id)
        await _ask(bed, group, boris, "/top")
        await boris.start_bot()
        await bed.idle()
        faults.fail_next("sendPhoto", Fault.bad_request("PHOTO_INVALID_DIMENSIONS"),
                         chat_id=boris.id)
        await _ask(bed, boris.dm, boris, "/stats")
    assert len(group.bot_messages()) == before  # nothing got through to the group
    said = caplog.messages
    for line in (f"hidden reply to {group.id} refused: ", f"reply to {ana.id}: blocked",
                 f"reply to {group.id} refused: Bot_not_admin",
                 f"hidden photo to {group.id} refused: ", f"photo to {ana.id}: blocked",
                 f"photo to {group.id} refused: Bot_not_admin",
                 f"reply to {group.id} refused: Chat not found",
                 f"photo to {boris.id} refused: "):
        assert any(m.startswith(line) for m in said), (line, said)
