"""The bot tells people what is happening: whose turn it is (a private reminder), what
the pressed button did, the results when a table closes, where the table went (/table),
and what it is when it joins a group; all within the group's budget."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from bot.callback_data import Button, Press
from bot.clock import REMIND_ALARM
from bot.pacing import URGENT
from bot.sandbox.faults import Fault
from bot.sandbox.limits import FloodMode
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from bot.table_settings import TableSettings
from tests.e2e.bed import TIME_SCALE, Bed

STARTING_CHIPS = 1000
"""What a new player gets (the operator's default)."""


async def configure(bed: Bed, group: ChatRecord, **values: Any) -> None:
    settings = {"turn_timeout": 30.0, "blind_timeout": 30.0, "svara_join_timeout": 30.0,
                "next_hand_delay": 30.0, "nudge_after": 0.0, **values}
    TableSettings.model_validate(settings)
    await bed.store.chats.set_settings(group.id, settings)


def reminders(player: Player) -> list[MessageRecord]:
    return [m for m in player.inbox if (m.text or "").startswith("Your turn at ")]


def nudge_job(bed: Bed, group: ChatRecord) -> Any:
    jobs = bed.app.job_queue.get_jobs_by_name(REMIND_ALARM.format(table=bed.live(group).id))
    assert len(jobs) == 1, jobs
    return jobs[0]


def to_act(bed: Bed, group: ChatRecord, players: list[Player]) -> Player:
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    return next(p for p in players if p.id == hand.seats[hand.to_act].player)


async def first_turn_with_reminders(bed: Bed) -> tuple[ChatRecord, list[Player], Player]:
    """Ana and Boris in a supergroup that reminds a turn after 10 s, their first hand dealt;
    the group, the players and the one to act."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.tg.world.supergroup("Svara night", members=players, admins=(ana,))
    await configure(bed, group, nudge_after=10.0)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    return group, players, to_act(bed, group, players)


async def test_a_waiting_turn_is_reminded_privately_once_its_delay_runs_out(bed: Bed) -> None:
    group, players, first = await first_turn_with_reminders(bed)
    ana, boris = players
    job = nudge_job(bed, group)
    # Not before the delay: the turn is open, and nobody was reminded.
    assert reminders(ana) == reminders(boris) == []

    await job.run(bed.app)  # the delay ran out
    await bed.idle()
    [nudge] = reminders(first)
    assert reminders(ana if first is boris else boris) == []
    assert re.fullmatch(r"Your turn at Svara night: blind or not · \d+ s left", nudge.text or "")
    live = bed.live(group)
    internal = -group.id - 1_000_000_000_000
    link = nudge.button("Open the table")["url"]
    assert link == f"https://t.me/c/{internal}/{bed.message_id(live)}"

    # The turn is over: its reminder is taken away, and if it rang late it says nothing.
    await bed.press(first, group, "No blind")
    await job.run(bed.app)
    await bed.idle()
    assert reminders(first) == []
    assert nudge.deleted
    # The next turn has a reminder of its own, for whoever acts now.
    second = to_act(bed, group, players)
    await nudge_job(bed, group).run(bed.app)
    await bed.idle()
    assert re.fullmatch(r"Your turn at Svara night: (blind or not|.*fold) · \d+ s left",
                        reminders(second)[-1].text or "")
    assert len(reminders(second)) == 1


async def test_no_reminder_after_notify_off_and_again_after_notify_on(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await configure(bed, group, nudge_after=5.0)
    await bed.open_table(group, ana, boris)
    for p in players:
        await p.send(p.dm, "/notify off")
    await bed.idle()
    assert "No more turn reminders." in (ana.last_dm.text or "")
    await bed.press(ana, group, "Start")
    first = to_act(bed, group, players)
    await nudge_job(bed, group).run(bed.app)
    await bed.idle()
    assert reminders(first) == []

    await first.send(first.dm, "/notify on")
    await bed.idle()
    await nudge_job(bed, group).run(bed.app)
    await bed.idle()
    [nudge] = reminders(first)
    # A basic group without a public name has no link to open: no button.
    assert nudge.buttons == []


async def test_no_reminder_job_when_the_setting_is_zero(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await configure(bed, group, nudge_after=0.0)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    assert not bed.app.job_queue.get_jobs_by_name(REMIND_ALARM.format(table=bed.live(group).id))


async def test_a_press_behind_the_groups_budget_is_answered_with_what_it_did(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await configure(bed, group)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    outbox = bed.services.outbox
    outbox.lag_note = 0.0
    table = await bed.table_message(group)
    # The group's next slot is taken: whatever the press does shows a slot later.
    await outbox.pace.slot(group.id, URGENT)
    press = await to_act(bed, group, players).press(table, "No blind")
    assert (await press.answer()).text == "No blind"
    await bed.idle()
    table = await bed.table_message(group)
    bet = bed.button(table, "Bet")
    await outbox.pace.slot(group.id, URGENT)
    press = await to_act(bed, group, players).press(table, bet)
    answer = await press.answer()
    assert answer.text == bet and not answer.show_alert
    await bed.idle()
    table = await bed.table_message(group)
    raised = bed.button(table, "Raise to")
    await outbox.pace.slot(group.id, URGENT)
    press = await to_act(bed, group, players).press(table, raised)
    assert (await press.answer()).text == raised.replace("Raise to", "Raised to")
    await bed.idle()


async def test_the_results_message_adds_up_to_the_ledger(bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    await configure(bed, group)
    await bed.open_table(group, ana, boris, vera)
    await bed.press(ana, group, "Start")
    live = bed.live(group)
    for hand_no in (1, 2):
        while live.hand is not None and live.hand_no == hand_no:
            table = await bed.table_message(group)
            label = next(b for row in table.buttons for b in row
                         if b.startswith(("No blind", "Call", "Bet")))
            await bed.press(to_act(bed, group, players), group, label)
        if hand_no == 1:
            await bed.ring(group)  # the next deal
    await ana.send(group, "/endgame")
    await bed.idle()
    [results] = [m for m in group.bot_messages() if (m.text or "").startswith("🏁")]
    lines = (results.text or "").splitlines()
    assert lines[0] == "🏁 Svara: results after 2 hands"
    nets = {}
    for line in lines[1:]:
        m = re.fullmatch(r"(\w+): ([+-]?\d+)", line)
        if m:
            nets[m[1]] = int(m[2])
    balances = {p.name: await bed.store.users.balance(p.id) for p in players}
    assert nets == {name: b - STARTING_CHIPS for name, b in balances.items()}
    assert sum(nets.values()) == 0 and any(nets.values())
    biggest = next(line for line in lines if line.startswith("Biggest pot: "))
    rows = await bed.store.db.fetchall(
        "SELECT l.user_id, h.number, sum(l.delta) AS won FROM ledger l JOIN hands h"
        " ON h.id = l.hand_id WHERE l.kind = 'win' AND l.account = 'stack'"
        " GROUP BY l.hand_id, l.user_id ORDER BY won DESC")
    top = rows[0]
    winner = next(p.name for p in players if p.id == top["user_id"])
    assert biggest == f"Biggest pot: {top['won']}, taken by {winner} in hand {top['number']}."


async def test_table_moves_the_table_down_and_the_old_buttons_are_expired(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.tg.world.group("Svara night", members=players, admins=(ana,), bot_admin=True)
    await configure(bed, group)
    await bed.open_table(group, ana, boris)
    lobby = await bed.table_message(group)
    # The bot may pin here: the table message is pinned from the lobby on, before any
    # turn needs the group's slots.
    assert group.pinned == [lobby.message_id]
    await bed.press(ana, group, "Start")
    old = await bed.table_message(group)
    assert old.message_id == lobby.message_id
    assert group.pinned == [old.message_id]
    old_data = old.button("My cards")["callback_data"]

    await boris.send(group, "/table")
    new = await bed.table_message(group)
    assert new.message_id > old.message_id
    assert new.buttons and "hand 1" in (new.text or "")
    moved = bed.tg.world.find_message(group, old.message_id)
    assert moved is not None and moved.buttons == []
    # Read as HTML: "Svara" in bold, no tag left in the text.
    assert moved.text == "🃏 Svara: the table moved down ⬇️ (/table brings it back)."
    assert [e["type"] for e in moved.entities] == ["bold"]
    assert group.pinned == [new.message_id]
    # The old message is pointed down in the group's pace, after the new one went out.
    sent, pointed = (next(c for c in bed.tg.transcript.of(method) if c.chat_id == group.id
                          and str(c.params.get("message_id", new.message_id)) == str(which))
                     for method, which in (("sendMessage", new.message_id),
                                           ("editMessageText", old.message_id)))
    assert pointed.at - sent.at >= bed.services.outbox.pace.spacing * 0.9
    # A client that still shows the old keyboard gets "expired", and nothing moves.
    live = bed.live(group)
    hand = live.hand
    assert hand is not None
    actions = len(hand.actions)
    stale = Press(live.id, live.hand_id, actions, Button.NO_BLIND).encode()
    for data in (str(old_data), stale):
        press = await to_act(bed, group, players).press_data(moved, data)
        assert (await press.answer()).text == "This button has expired."
    await bed.idle()
    assert len(hand.actions) == actions

    await ana.send(group, "/endgame")
    await bed.idle()
    assert group.pinned == [new.message_id]  # the hand in play is played out first
    while live.hand is not None:
        table = await bed.table_message(group)
        label = "No blind" if "No blind" in table.labels else "Fold"
        await bed.press(to_act(bed, group, players), group, label)
    await bed.idle()
    assert live.status == "closed" and group.pinned == []


async def test_table_points_the_old_message_down_in_the_groups_language_or_logs_why_not(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await configure(bed, group)
    await ana.send(group, "/language bg")
    await ana.send(group, "/newgame")  # the lobby is enough
    first = await bed.table_message(group)
    await boris.send(group, "/table")
    await bed.idle()
    moved = bed.tg.world.find_message(group, first.message_id)
    assert moved is not None
    assert moved.text == "🃏 Свара: масата се премести надолу ⬇️ (/table я връща)."
    second = await bed.table_message(group)
    bed.tg.faults.fail_next("editMessageText", Fault.bad_request("message can't be edited"),
                            chat_id=group.id)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await boris.send(group, "/table")
        await bed.idle()
    live = bed.live(group)
    assert any(line.startswith(f"table {live.id}: could not point the old message down: ")
               and "can't be edited" in line.lower() for line in caplog.messages), caplog.messages
    third = await bed.table_message(group)
    assert third.message_id > second.message_id and third.buttons


async def test_a_group_that_adds_the_bot_is_told_how_to_start(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    bed.tg.world.push_member_change(group, ana.record, "left", "member")
    await bed.idle()
    [hello] = group.bot_messages()
    text = hello.text or ""
    assert "/newgame" in text and "no admin rights" in text and "privacy mode" in text
    # A change that is not an arrival says nothing more.
    bed.tg.world.push_member_change(group, ana.record, "member", "left")
    await bed.idle()
    assert len(group.bot_messages()) == 1


async def test_a_long_game_stays_within_the_groups_budget(bed: Bed) -> None:
    bed.tg.flood.mode = FloodMode.ENFORCE
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.tg.world.group("Svara night", members=players, admins=(ana,), bot_admin=True)
    await configure(bed, group)
    await bed.open_table(group, ana, boris, vera)
    await bed.press(ana, group, "Start")
    live = bed.live(group)
    presses = 0
    while live.hand_no <= 4 and presses < 120:
        if live.hand is None:
            await bed.ring(group)
            continue
        table = await bed.table_message(group)
        label = next(b for row in table.buttons for b in row
                     if b.startswith(("No blind", "Call", "Bet", "Raise to")))
        press = await to_act(bed, group, players).press(table, label)
        assert not (await press.answer()).show_alert
        presses += 1
        await bed.idle()
    await ana.send(group, "/endgame")
    await bed.idle()
    assert live.hand_no == 5 and presses < 120
    calls = [c for c in bed.tg.transcript.calls if c.chat_id == group.id]
    assert [c for c in calls if c.status == 429] == []
    assert bed.tg.flood.violations == []
    # New messages stay few: the table message, the reply to /endgame's table, the results.
    sent = [c for c in calls if c.method == "sendMessage" and c.ok]
    assert len(sent) <= 3, [c.params.get("text", "")[:40] for c in sent]
    # At most 20 group calls in any minute of the scaled clock (the stand-in's is real).
    writes = sorted(c.at * TIME_SCALE for c in calls if c.method in (
        "sendMessage", "editMessageText", "pinChatMessage", "unpinChatMessage"))
    assert len(writes) > 20
    for i, start in enumerate(writes):
        assert len([t for t in writes[i:] if t < start + 60]) <= 20


async def _reminded(bed: Bed, title: str = "Svara night", *,
                    language: str | None = None) -> tuple[ChatRecord, Player, MessageRecord]:
    """Ana and Boris (his Telegram in `language`) in a supergroup, Boris's turn reminded:
    the group, Boris, and his reminder."""
    ana = bed.tg.world.user("Ana")
    boris = bed.tg.world.user("Boris", language_code=language)
    players = [ana, boris]
    group = bed.tg.world.supergroup(title, members=players, admins=(ana,))
    await configure(bed, group, nudge_after=10.0)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    for label in ("No blind", "Bet 10"):  # Ana acts until the turn is Boris's
        if to_act(bed, group, players) is ana:
            assert await bed.press(ana, group, label) is None
    assert to_act(bed, group, players) is boris
    await nudge_job(bed, group).run(bed.app)
    await bed.idle()
    (nudge,) = [m for m in boris.inbox if not m.deleted and m.buttons]
    return group, boris, nudge


async def test_a_reminder_names_the_group_as_it_is_called(bed: Bed) -> None:
    group, _, nudge = await _reminded(bed, "Tom & Jerry <3")
    # The name as the group shows it (not escaped twice, nor read as markup).
    assert (nudge.text or "").startswith("Your turn at Tom & Jerry <3: "), nudge.text
    internal = -group.id - 1_000_000_000_000
    assert nudge.button("Open the table")["url"] == (
        f"https://t.me/c/{internal}/{bed.message_id(bed.live(group))}")


async def test_a_reminder_speaks_the_players_language(bed: Bed) -> None:
    _, _, nudge = await _reminded(bed, language="bg")
    assert re.fullmatch(r"Твой ред е в Svara night: .+ · остават \d+ с",
                        nudge.text or ""), nudge.text


async def test_a_reminder_to_a_player_who_blocked_the_bot_marks_him_unreachable(
        bed: Bed, caplog: Any) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.tg.world.supergroup("Svara night", members=players, admins=(ana,))
    await configure(bed, group, nudge_after=10.0)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    first = to_act(bed, group, players)
    first.block_bot()
    assert (await bed.store.users.get(first.id)).private_chat
    with caplog.at_level("INFO", logger="bot.outbox"):
        await nudge_job(bed, group).run(bed.app)
        await bed.idle()
    assert reminders(first) == []
    assert not (await bed.store.users.get(first.id)).private_chat
    assert any(m.startswith(f"reminder to {first.id}: blocked") for m in caplog.messages)


async def test_a_reminder_that_cannot_be_taken_away_is_logged(bed: Bed, caplog: Any) -> None:
    group, first, nudge = await _reminded(bed)
    bed.tg.server.faults.fail_next("deleteMessage",
                                   Fault.bad_request("message to delete not found"),
                                   chat_id=first.id)
    with caplog.at_level("INFO", logger="bot.outbox"):
        assert await bed.press(first, group, "Fold") is None
        await bed.idle()
    assert not nudge.deleted
    assert any(m.startswith(f"reminder removal to {first.id} refused: ")
               for m in caplog.messages), caplog.messages


async def test_the_welcome_speaks_the_language_of_who_added_the_bot_and_is_formatted(
        bed: Bed) -> None:
    vera = bed.tg.world.user("Vera", language_code="bg")
    group = bed.group(vera)
    bed.tg.world.push_member_change(group, vera.record, "left", "member")
    await bed.idle()
    [hello] = group.bot_messages()
    assert (hello.text or "").startswith("🃏 Здравейте! Аз раздавам Свара, българската игра")
    assert [e["type"] for e in hello.entities if e["type"] == "bold"] == ["bold"]


async def test_a_welcome_telegram_refuses_is_logged_once(
        bed: Bed, caplog: Any) -> None:
    """Added to a group that does not let the bot write: the welcome is refused once and
    the operator's log says where."""
    vera = bed.tg.world.user("Vera")
    group = bed.group(vera)
    bed.tg.faults.fail_next("sendMessage", Fault.forbidden("bot is not a member of the "
                                                           "supergroup chat"), chat_id=group.id)
    with caplog.at_level("INFO", logger="bot.outbox"):
        bed.tg.world.push_member_change(group, vera.record, "left", "member")
        await bed.idle()
    assert group.bot_messages() == []
    assert any(line.startswith(f"welcome to {group.id}: blocked") for line in caplog.messages), \
        caplog.messages
    assert len([c for c in bed.tg.transcript.of("sendMessage") if c.chat_id == group.id]) == 1


async def test_the_results_of_a_table_in_a_topic_come_in_that_topic_in_its_language(
        bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    forum = bed.tg.world.supergroup("Svara club", members=[ana, boris], admins=[ana],
                                    forum=True, topics=["Cards", "Chat"])
    cards = forum.topic("Cards")
    await ana.send(forum, "/language bg", topic="Cards")
    await ana.send(forum, "/newgame", topic="Cards")
    await bed.idle()
    live = bed.games.at(forum.id, cards)
    assert live is not None and live.language == "bg"
    for p in (ana, boris):
        await p.start_bot()
        await bed.idle()
        message = bed.tg.world.find_message(forum, bed.message_id(live) or 0)
        assert message is not None
        await (await p.press(message, message.labels[0])).answer()  # Join, in Bulgarian
        await bed.idle()
    message = bed.tg.world.find_message(forum, bed.message_id(live) or 0)
    assert message is not None
    await (await ana.press(message, "Старт")).answer()
    await bed.idle()
    while live.hand is not None:
        hand = live.hand
        assert hand.to_act is not None
        actor = ana if hand.seats[hand.to_act].player == ana.id else boris
        message = bed.tg.world.find_message(forum, bed.message_id(live) or 0)
        assert message is not None
        await (await actor.press(message, message.labels[0])).answer()
        await bed.idle()
    await ana.send(forum, "/endgame", topic="Cards")
    await bed.idle()
    (results,) = [m for m in forum.bot_messages() if (m.text or "").startswith("🏁")]
    assert results.thread_id == cards
    assert (results.text or "").startswith("🏁 Свара: ")
    assert [e["type"] for e in results.entities][:1] == ["bold"]


async def test_a_pin_that_cannot_be_taken_away_at_the_close_is_logged(
        bed: Bed, caplog: Any) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.tg.world.supergroup("Svara night", members=[ana, boris], admins=[ana],
                                    bot_admin=True)
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    assert group.pinned == [bed.message_id(live)]  # the lobby is pinned
    bed.tg.server.faults.fail_next("unpinChatMessage",
                                   Fault.bad_request("message to unpin not found"))
    with caplog.at_level("INFO", logger="bot.outbox"):
        await ana.send(group, "/endgame")
        await bed.idle()
    assert any(m.startswith(f"table {live.id}: could not unpin its message: ")
               for m in caplog.messages), caplog.messages
