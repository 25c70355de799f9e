"""Holes found by attacking the bot: hostile names and settings, a full disk under timers,
commands and buttons. Each test is named after the hole it closes."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.live import Live
from bot.sandbox import Fault
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from bot.table_settings import SETTING_NAMES
from engine import Act, Phase, format_hand
from tests.e2e.bed import Bed
from tests.e2e.test_rules_paths import configure

STORE_FAILED = "I could not save that, so nothing changed. Please try again later."
WRITTEN = ("users", "chats", "tables", "seats", "hands", "actions", "ledger")


@contextmanager
def disk_full(db: Path) -> Iterator[None]:
    """Every write to the bot's database fails, as on a full disk, until the block ends.

    Triggers added from a second connection make SQLite refuse each insert and update with
    the disk-full message; the bot's own connection sees them at its next statement.
    """
    conn = sqlite3.connect(db, isolation_level=None)
    names = []
    try:
        for table in WRITTEN:
            for op in ("INSERT", "UPDATE"):
                name = f"test_full_{table}_{op.lower()}"
                conn.execute(f"CREATE TRIGGER {name} BEFORE {op} ON {table} "
                             "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
                names.append(name)
        yield
    finally:
        for name in names:
            conn.execute(f"DROP TRIGGER IF EXISTS {name}")
        conn.close()


async def reply_to(bed: Bed, command: MessageRecord) -> str:
    """The one message the bot sent in reply to `command` in a group (shown to its sender
    alone where the command was an ephemeral one)."""
    await bed.idle()
    hidden = [r for r in bed.tg.world.ephemeral.all(command.chat) if r.sender.is_bot]
    texts = [m.text or "" for m in [*command.chat.bot_messages(), *hidden]
             if m.reply_to is command or (m.reply_to is not None and command.message_id
                                          and m.reply_to.message_id == command.message_id)]
    assert len(texts) == 1, texts
    return texts[0]


async def two_at_a_table(bed: Bed, **settings: float) -> tuple[ChatRecord, list[Player]]:
    players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await configure(bed, group, **settings)
    await bed.open_table(group, *players)
    return group, players


# --------------------------------------------------------------------- item 11


async def test_item11_settings_escapes_what_the_admin_typed(bed: Bed) -> None:
    admin = bed.players("Admin")[0]
    group = bed.group(admin)
    bold = await admin.send(group, "/settings <b>x</b> 1")
    assert await reply_to(bed, bold) == \
        "Unknown setting <b>x</b>. Known: " + ", ".join(SETTING_NAMES) + "."
    sent = [c for c in bed.tg.transcript.calls
            if c.method == "sendMessage" and c.chat_id == group.id]
    assert "&lt;b&gt;x&lt;/b&gt;" in str(sent[-1].params["text"])
    tag = await admin.send(group, "/settings ante <foo>")
    assert await reply_to(bed, tag) == "ante: give a number."
    odd = await admin.send(group, "/settings <foo> 1")
    assert (await reply_to(bed, odd)).startswith("Unknown setting <foo>. Known: ")


# --------------------------------------------------------------------- item 12


async def test_item12_whitespace_and_invisible_names_are_normalised(bed: Bed) -> None:
    blank = bed.tg.world.user("\u3000\u3000")
    twin_a = bed.tg.world.user("Ivan")
    twin_b = bed.tg.world.user("Iv\u200ban\u202e")
    group = bed.group(blank, twin_a, twin_b)
    await configure(bed, group)
    await bed.open_table(group, blank, twin_a, twin_b)
    live = bed.live(group)
    assert live.names == {blank.id: f"Player {blank.id % 10_000}", twin_a.id: "Ivan",
                          twin_b.id: "Ivan 2"}
    text = (await bed.table_message(group)).text or ""
    assert "\u200b" not in text and "\u202e" not in text
    assert f"Player {blank.id % 10_000}" in text and "Ivan 2" in text
    # /start works for him every time, not only the first.
    again = await blank.start_bot()
    assert again.text


# --------------------------------------------------------------------- item 13


def to_act(bed: Bed, group: ChatRecord, *players: Player) -> Player:
    """The player whose turn it is."""
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    owner = hand.seats[hand.to_act].player
    return next(p for p in players if p.id == owner)


async def past_the_blind(bed: Bed, group: ChatRecord, *players: Player) -> None:
    """Everyone asked declines the blind."""
    hand = bed.live(group).hand
    assert hand is not None
    while hand.phase is Phase.BLIND:
        await act(bed, to_act(bed, group, *players), group, "No blind")


async def act(bed: Bed, player: Player, group: ChatRecord, label: str) -> None:
    popup = await bed.press(player, group, label)
    assert popup is None, popup


async def ring(bed: Bed, live: Live) -> None:
    """The table's timer rings now (as the job queue would make it)."""
    wait = live.wait
    assert wait is not None
    await bed.games.on_timer(live.id, wait)


async def test_item13_next_deal_timer_that_cannot_write_rings_again(bed: Bed) -> None:
    group, players = await two_at_a_table(bed)
    live = bed.live(group)
    await act(bed, players[0], group, "Start")
    await past_the_blind(bed, group, *players)
    await act(bed, to_act(bed, group, *players), group, "Fold")
    first = live.hand_id
    assert live.hand is None and live.wait is not None and live.wait.kind == "next"
    with disk_full(bed.db):
        await ring(bed, live)
        assert live.hand is None and live.hand_id == first
        assert live.wait is not None and (live.wait.kind, live.wait.attempt) == ("next", 1)
    await bed.tg.world.wait_for(lambda: True if live.hand_id != first else None,
                                timeout=10, what="the next hand, dealt once the disk has room")
    await bed.idle()
    assert live.hand is not None and live.hand_no == 2


async def test_item13_turn_timer_that_cannot_write_rings_again(bed: Bed) -> None:
    group, players = await two_at_a_table(bed)
    live = bed.live(group)
    await act(bed, players[0], group, "Start")
    await past_the_blind(bed, group, *players)
    assert live.hand is not None and live.wait is not None and live.wait.kind == "turn"
    acted = len(live.hand.actions)
    hand_id = live.hand_id
    with disk_full(bed.db):
        await ring(bed, live)
        assert live.hand is not None and len(live.hand.actions) == acted
        assert live.wait is not None and (live.wait.kind, live.wait.attempt) == ("turn", 1)
    await bed.tg.world.wait_for(lambda: True if live.hand is None else None,
                                timeout=10, what="the timeout applied once the disk has room")
    await bed.idle()
    logged = await bed.store.hands.actions(hand_id)
    assert len(logged) == acted + 1 and logged[-1]["act"] == Act.TIMEOUT.value, logged


# --------------------------------------------------------------------- item 14


async def test_item14_every_command_and_button_is_answered_when_storage_fails(bed: Bed) -> None:
    group, (ana, boris) = await two_at_a_table(bed)
    dan = bed.tg.world.user("Dan")
    other = bed.group(dan)
    live = bed.live(group)
    balances = [await bed.store.users.balance(p.id) for p in (ana, boris)]
    stacks = {s.player: s.stack for s in live.table.seats}
    with disk_full(bed.db):
        newgame = await dan.send(other, "/newgame")
        assert await reply_to(bed, newgame) == STORE_FAILED
        assert bed.games.at(other.id, None) is None
        balance = await dan.send(other, "/balance")
        assert await reply_to(bed, balance) == STORE_FAILED
        leave = await boris.send(group, "/leave")
        assert await reply_to(bed, leave) == STORE_FAILED
        assert await bed.press(boris, group, "Leave") == STORE_FAILED
        assert await bed.press(ana, group, "Start") == STORE_FAILED
        end = await ana.send(group, "/endgame")
        assert await reply_to(bed, end) == STORE_FAILED
    assert live.status == "lobby" and live.hand is None
    assert {s.player: s.stack for s in live.table.seats} == stacks
    assert [await bed.store.users.balance(p.id) for p in (ana, boris)] == balances
    # Once the disk has room again, the same commands go through.
    await act(bed, ana, group, "Start")
    assert live.hand is not None


# --------------------------------------------------------------------- item 7


async def test_item7_the_join_link_seats_only_members_of_that_group(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    stranger = bed.tg.world.user("Stranger")
    group = bed.group(ana, boris)
    await configure(bed, group)
    await ana.send(group, "/newgame")
    table = await bed.table_message(group)
    live = bed.live(group)
    # Boris has no private chat yet: Join answers with the signed deep link.
    answer = await (await boris.press(table, "Join")).answer()
    assert answer.url is not None
    payload = answer.url.split("?start=", 1)[1]
    assert payload.startswith(f"j{live.id:x}_") and len(payload) <= 64
    # The old guessable form, a forged signature and another table's number all fail.
    for forged in (f"j{live.id:x}", f"j{live.id:x}_AAAAAAAAAAAAAAAA",
                   payload.replace(f"j{live.id:x}_", f"j{live.id + 1:x}_")):
        await stranger.start_bot(forged)
        await bed.idle()
        assert stranger.last_dm.text == "There is no table here. Open one with /newgame.", forged
    # The genuine link, forwarded to someone outside the group, does not seat him.
    await stranger.open_link(answer.url)
    await bed.idle()
    assert stranger.last_dm.text == "Only members of that group can sit at its table."
    assert live.table.seat(stranger.id) is None
    # Boris, a member, is seated by it.
    await boris.open_link(answer.url)
    await bed.idle()
    assert boris.last_dm.text == "You are at the table. Your cards will come here; good luck!"
    assert live.table.seat(boris.id) is not None


# --------------------------------------------------------------------- item 16


async def folded_out(bed: Bed, group: ChatRecord, players: list[Player]) -> None:
    """Start, decline the blinds, and the first to bet folds: the hand is over."""
    await act(bed, players[0], group, "Start")
    await past_the_blind(bed, group, *players)
    await act(bed, to_act(bed, group, *players), group, "Fold")


async def test_item16_a_restart_between_hands_keeps_the_last_result(bed: Bed) -> None:
    group, players = await two_at_a_table(bed)
    await folded_out(bed, group, players)
    shown = (await bed.table_message(group)).text or ""
    assert "🏆" in shown, shown
    await bed.restart()
    await bed.idle()
    # The next deal's timer starts again after a restart, so only its deadline may differ.
    after = (await bed.table_message(group)).text or ""
    assert [x for x in after.splitlines() if not x.startswith("⌛")] == \
        [x for x in shown.splitlines() if not x.startswith("⌛")]


async def test_item16_a_showdown_the_kill_kept_from_the_chat_is_shown_after_restart(
    bed: Bed,
) -> None:
    group, players = await two_at_a_table(bed)
    await act(bed, players[0], group, "Start")
    await past_the_blind(bed, group, *players)
    # The fold is saved and the hand settled, but the process dies before the edit.
    bed.tg.faults.fail_next("editMessageText", Fault.drop(), times=1000, chat_id=group.id)
    await act(bed, to_act(bed, group, *players), group, "Fold")
    assert "🏆" not in ((await bed.table_message(group)).text or "")
    await bed.stop()
    bed.tg.faults.clear()
    await bed.start()
    await bed.idle()
    assert "🏆" in ((await bed.table_message(group)).text or "")


async def test_item16_cards_dealt_but_not_sent_before_a_kill_are_sent_after_restart(
    bed: Bed,
) -> None:
    group, players = await two_at_a_table(bed)
    await act(bed, players[0], group, "Start")
    await past_the_blind(bed, group, *players)
    live = bed.live(group)
    hand = live.hand
    assert hand is not None
    inboxes = [len(p.inbox) for p in players]
    # As if the process had died after the deal was saved and before the cards went out.
    with sqlite3.connect(bed.db) as conn:
        conn.execute("UPDATE hands SET cards_sent = 0 WHERE id = ?", (live.hand_id,))
    live.cards_due = 0  # what the dead process knew is gone with it
    await bed.restart()
    await bed.idle()
    for player, before in zip(players, inboxes, strict=True):
        new = [m.text or "" for m in player.inbox[before:]]
        seat = hand.seat_of(player.id)
        assert seat is not None
        cards = format_hand(hand.seats[seat].cards)
        assert len(new) == 1 and cards in new[0], new
    # Sent once: a second restart sends nothing more.
    inboxes = [len(p.inbox) for p in players]
    await bed.restart()
    await bed.idle()
    assert [len(p.inbox) for p in players] == inboxes
