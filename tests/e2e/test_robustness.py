"""Bad input gets a clear answer and changes nothing; Telegram errors never stop a table.

Every test checks what the player is told (popup, reply, private message) and that the
table did not move: the table message, the hand's action log, the stacks and balances.
The chip audit and the card-leak check run at teardown (the `bed` fixture).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.callback_data import Button, Press
from bot.live import Live
from bot.metrics import Metrics
from bot.sandbox import Fault, MessageRecord, Player
from bot.sandbox.harness import Sandbox
from bot.sandbox.models import ChatRecord
from engine import Hand, Phase, format_hand
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, find_seed, points_of, replica

EXPIRED = "This button has expired."
NOT_YOUR_TURN = "Not your turn."
NOT_AT_TABLE = "You are not playing at this table."
NO_TABLE = "There is no table here. Open one with /newgame."
GROUP_ONLY = "Tables are played in groups: add me to a group and send /newgame there."
BAD_NUMBER = "Give a whole number of chips, e.g. /bet 50."
ONLY_CREATOR = "Only the table's creator or a chat admin can do that."
JOINED_DM = "You are at the table. Your cards will come here; good luck!"
REFUNDED = "The table was closed; every chip went back."
CLOSING = "🔚 Closing after this hand: then every stack goes back."
CLOSED_AFTER = "The table closed after the hand, as asked; every stack went back."
CLOSES_AFTER_HAND = "This table closes after the hand in progress."
START = 1000
"""Chips every new player gets (the bot's default)."""
QUIET = 0.03
"""Seconds without any traffic after which the bot counts as done."""


# --------------------------------------------------------------------- the story


async def settle(bed: Bed) -> None:
    """As `Bed.idle`, with a shorter quiet period: wait until the bot has nothing to do."""
    app = bed.app
    while True:
        await bed.tg.world.wait_idle(quiet=QUIET)
        if app.update_processor.current_concurrent_updates == 0 and app.update_queue.empty() \
                and not bed.screens_due():
            return
        await asyncio.sleep(0.01)


async def table_now(bed: Bed, group: ChatRecord) -> MessageRecord:
    """The table message once the bot is done."""
    await settle(bed)
    return current(bed, group)


def current(bed: Bed, group: ChatRecord) -> MessageRecord:
    """The table message as the group sees it now (no waiting)."""
    message_id = bed.message_id(bed.live(group))
    message = None if message_id is None else bed.tg.world.find_message(group, message_id)
    assert message is not None
    return message


async def tap(bed: Bed, player: Player, group: ChatRecord, label: str) -> str | None:
    """Press a button of the table message; the popup (or toast) text, if any."""
    press = await player.press(await table_now(bed, group), label)
    answer = await press.answer()
    await settle(bed)
    return answer.text


async def open_table(bed: Bed, group: ChatRecord, creator: Player, *joiners: Player) -> None:
    """/newgame, then everyone starts the bot in private and presses Join."""
    await creator.send(group, "/newgame")
    table = await table_now(bed, group)
    for p in (creator, *joiners):
        await p.start_bot()
    await settle(bed)
    for p in (creator, *joiners):
        answer = await (await p.press(table, "Join")).answer()
        assert not answer.show_alert and answer.url is None, answer
    await settle(bed)


async def seated(bed: Bed, *names: str, watchers: tuple[Player, ...] = ()
                 ) -> tuple[ChatRecord, list[Player]]:
    """A group where the first player opened a table and everyone sat down."""
    players = bed.players(*names)
    group = bed.group(*players, *watchers)
    await open_table(bed, group, *players)
    return group, players


def plan(bed: Bed, group: ChatRecord, wanted: Callable[[Hand], bool]) -> Hand:
    """Queue the seed of the next deal so that it tells the story `wanted` asks for."""
    seed, hand = find_seed(replica(bed.live(group)), wanted)
    bed.seeds.append(seed)
    return hand


async def dealt(bed: Bed, *names: str, watchers: tuple[Player, ...] = (),
                dealer: int | None = None) -> tuple[ChatRecord, list[Player]]:
    """As `seated`, and the creator pressed Start: the first hand waits for a blind.

    With `dealer`, that seat (in the order of `names`) deals it.
    """
    group, players = await seated(bed, *names, watchers=watchers)
    if dealer is not None:
        plan(bed, group, lambda h: h.dealer == dealer)
    assert await tap(bed, players[0], group, "Start") is None
    assert bed.live(group).hand is not None
    return group, players


def hand_of(bed: Bed, group: ChatRecord) -> Live:
    live = bed.live(group)
    assert live.hand is not None
    return live


def the_hand(bed: Bed, group: ChatRecord) -> Hand:
    """The hand in play at the group's table."""
    hand = bed.live(group).hand
    assert hand is not None
    return hand


def to_act(bed: Bed, group: ChatRecord, players: list[Player]) -> Player:
    """The player whose turn it is."""
    hand = hand_of(bed, group).hand
    assert hand is not None and hand.to_act is not None
    uid = hand.seats[hand.to_act].player
    return next(p for p in players if p.id == uid)


def others(players: list[Player], *but: Player) -> list[Player]:
    return [p for p in players if p not in but]


async def past_blind(bed: Bed, group: ChatRecord, players: list[Player]) -> Player:
    """The first player declines the blind; the cards are dealt. Who acts now."""
    assert await tap(bed, to_act(bed, group, players), group, "No blind") is None
    return to_act(bed, group, players)


def data_of(message: MessageRecord, label: str) -> str:
    """The callback data of a button as the message shows it now."""
    return str(message.button(label)["callback_data"])


async def ask(player: Player, message: MessageRecord, data: str) -> tuple[str | None, bool]:
    """Press arbitrary data; (popup text, show_alert)."""
    answer = await (await player.press_data(message, data)).answer()
    return answer.text, answer.show_alert


async def replies(bed: Bed, command: MessageRecord) -> list[str]:
    """The texts the bot sent in reply to `command` (in private: everything after it)."""
    await settle(bed)
    chat = command.chat
    if chat.type != "private":  # in groups the bot quotes the command
        return [m.text or "" for m in chat.bot_messages()
                if m.reply_to is not None and m.reply_to.message_id == command.message_id]
    texts = []
    for m in chat.messages[chat.messages.index(command) + 1:]:
        if not m.sender.is_bot:
            break
        texts.append(m.text or "")
    return texts


async def reply(bed: Bed, command: MessageRecord) -> str:
    texts = await replies(bed, command)
    assert len(texts) == 1, texts
    return texts[0]


def group_writes(tg: Sandbox, chat: ChatRecord) -> int:
    """Messages sent to or edited in `chat` so far (answered or not)."""
    return sum(1 for c in tg.transcript.calls
               if c.chat_id == chat.id and c.method in ("sendMessage", "editMessageText"))


@dataclass(frozen=True)
class Snapshot:
    """What a refused request must leave as it was."""

    text: str | None
    buttons: list[list[str]]
    actions: int | None
    pot: int | None
    to_act: int | None
    stacks: dict[int, int]
    balances: dict[int, int]


def without_deadline(text: str | None) -> str:
    return "\n".join(line for line in (text or "").splitlines() if not line.startswith("⌛"))


async def snapshot(bed: Bed, group: ChatRecord, players: list[Player]) -> Snapshot:
    message = await table_now(bed, group)
    live = bed.live(group)
    hand = live.hand
    seats = await bed.store.tables.seats(live.id)
    return Snapshot(
        text=message.text,
        buttons=message.buttons,
        actions=None if hand is None else len(hand.actions),
        pot=None if hand is None else hand.pot,
        to_act=None if hand is None else hand.to_act,
        stacks={s.user_id: s.stack for s in seats},
        balances={p.id: await bed.store.users.balance(p.id) for p in players},
    )


async def chips(bed: Bed, *players: Player) -> int:
    """Balances plus stacks at tables, over `players` (nothing may be in a pot)."""
    total = 0
    for p in players:
        holdings = await bed.store.users.holdings(p.id)
        total += holdings.balance + sum(t.stack for t in holdings.tables)
    return total


async def ring(bed: Bed, group: ChatRecord) -> None:
    """Let the table's timer ring now (as the job queue would when it runs out)."""
    live = bed.live(group)
    wait = live.wait
    assert wait is not None
    await bed.games.on_timer(live.id, wait)
    await settle(bed)


def cards_text(bed: Bed, group: ChatRecord, player: Player) -> str:
    """What the "My cards" popup must say to `player`."""
    hand = hand_of(bed, group).hand
    assert hand is not None
    seat = hand.seat_of(player.id)
    assert seat is not None
    return f"Your cards: {format_hand(hand.cards(seat))} ({hand.points(seat)} points)"


# --------------------------------------------------------------------- joining


async def test_join_without_a_private_chat_goes_through_the_deep_link(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.send(group, "/newgame")
    table = await table_now(bed, group)
    before = table.text

    answer = await (await boris.press(table, "Join")).answer()

    assert answer.url is not None and not answer.show_alert and answer.text is None
    link = r"https://t\.me/svara_test_bot\?start=j[0-9a-f]+_[A-Za-z0-9_-]{16}"
    assert re.fullmatch(link, answer.url), answer.url
    await settle(bed)
    assert table.text == before
    assert bed.live(group).table.seat(boris.id) is None
    assert await bed.store.users.balance(boris.id) == START

    await boris.open_link(answer.url)
    await settle(bed)
    assert boris.last_dm.text == JOINED_DM
    assert "Boris" in (table.text or "")
    assert bed.live(group).table.seat(boris.id) is not None
    assert await bed.store.users.balance(boris.id) == 0
    # A second tap of Join is refused now that he sits.
    answer = await (await boris.press(table, "Join")).answer()
    assert (answer.text, answer.show_alert) == ("You are already at this table.", True)


async def test_join_command_without_a_private_chat_offers_the_bot(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.send(group, "/newgame")
    table = await table_now(bed, group)

    command = await boris.send(group, "/join")
    await settle(bed)
    answers = [m for m in group.bot_messages()
               if m.reply_to is not None and m.reply_to.message_id == command.message_id]
    assert len(answers) == 1
    assert answers[0].text == "Open a private chat with me first, so I can send you your cards."
    url = str(answers[0].button("Open the bot")["url"])
    assert "Boris" not in (table.text or "")

    await boris.open_link(url)
    await settle(bed)
    assert boris.last_dm.text == JOINED_DM
    assert "Boris" in (table.text or "")


async def test_deep_links_to_no_table_are_answered(bed: Bed) -> None:
    (boris,) = bed.players("Boris")
    await boris.start_bot()
    await settle(bed)
    for payload in ("jzz", "j", "j7fffffffffff", "jffffffffffffffffffffffff"):
        start = await boris.start_bot(payload)
        assert await reply(bed, start) == NO_TABLE
    assert await bed.store.users.balance(boris.id) == START


# --------------------------------------------------------------------- buttons


async def test_turn_buttons_of_another_player_and_stale_turns_are_refused(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris", "Carol")
    table = await table_now(bed, group)
    first = to_act(bed, group, players)
    old_no_blind = data_of(table, "No blind")
    old_blind = data_of(table, "Blind 10")

    for intruder in others(players, first):
        before = await snapshot(bed, group, players)
        assert await tap(bed, intruder, group, "No blind") == NOT_YOUR_TURN
        assert await tap(bed, intruder, group, "Blind 10") == NOT_YOUR_TURN
        assert await snapshot(bed, group, players) == before

    nxt = await past_blind(bed, group, players)
    before = await snapshot(bed, group, players)
    writes = group_writes(bed.tg, group)
    # The buttons of the turn that is over: by the one who pressed them and by the one to act.
    for who in (first, nxt):
        assert await ask(who, table, old_no_blind) == (EXPIRED, True)
        assert await ask(who, table, old_blind) == (EXPIRED, True)
    await settle(bed)
    assert await snapshot(bed, group, players) == before
    assert group_writes(bed.tg, group) == writes


async def test_a_double_tap_acts_once(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    table = await table_now(bed, group)
    first = to_act(bed, group, players)
    data = data_of(table, "No blind")
    taps = [await first.press_data(table, data) for _ in range(2)]
    answers = [await t.answer() for t in taps]
    await settle(bed)
    assert sorted((a.text or "", a.show_alert) for a in answers) == [("", False), (EXPIRED, True)]
    assert len(the_hand(bed, group).actions) == 1


async def test_buttons_of_an_earlier_hand_are_expired(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    table = await table_now(bed, group)
    hand1 = {label: data_of(table, label) for label in ("No blind", "Blind 10", "My cards")}
    actor = await past_blind(bed, group, players)
    table = await table_now(bed, group)
    hand1["Fold"] = data_of(table, "Fold")
    assert await tap(bed, actor, group, "Fold") is None
    assert "🏆" in (table.text or "")

    # Between hands: nothing of hand 1 works, and nothing changes.
    before = await snapshot(bed, group, players)
    for who in players:
        for data in hand1.values():
            assert await ask(who, table, data) == (EXPIRED, True)
    assert await snapshot(bed, group, players) == before

    await ring(bed, group)  # the next hand is dealt
    assert bed.live(group).hand_no == 2
    second = to_act(bed, group, players)
    before = await snapshot(bed, group, players)
    for who in players:
        for data in hand1.values():
            assert await ask(who, table, data) == (EXPIRED, True)
    await settle(bed)
    assert await snapshot(bed, group, players) == before
    # The new hand's own buttons work.
    assert await tap(bed, second, group, "No blind") is None
    assert len(the_hand(bed, group).actions) == 1


async def test_forged_callback_data_is_answered_and_changes_nothing(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    actor = await past_blind(bed, group, players)
    other = others(players, actor)[0]
    live = hand_of(bed, group)
    hand = live.hand
    assert hand is not None
    legal = hand.legal()
    assert legal is not None and legal.raise_to is not None
    low, high = legal.raise_to
    t, h, s = live.id, live.hand_id, len(hand.actions)

    def press(button: Button, amount: int | None = None, *, table: int = t, hand_id: int = h,
              seq: int = s) -> str:
        return Press(table, hand_id, seq, button, amount).encode()

    expired = [
        "",
        "garbage",
        "v2:1:1:0:fold",
        "V1:1:1:0:fold",
        "v1:",
        "v1:1:1:0",
        "v1::::",
        "v1:1:1:0:fold:5",
        "v1:1:1:0:nope",
        f"v1:{t:x}:{h:x}:{s:x}:raise",
        f"v1:{t:x}:{h:x}:{s:x}:raise:-5",
        f"v1:{t:x}:{h:x}:{s:x}:raise:+5",
        f"v1:{t:x}:{h:x}:{s:x}:raise:0",
        f"v1:{t:x}:{h:x}:{s:x}:raise:zzzzzzzzzzzz",
        f"v1:{t:x}:{h:x}:{s:x}:raise:zzzzzzzzzzzzzzzzzzzzzzzzzz",
        f"v1:zzzzzzzzzzzzz:{h:x}:{s:x}:fold",
        f"v1:{t:x}:zzzzzzzzzzzzz:{s:x}:fold",
        f"v1:{t:x}:{h:x}:zzzzzzzzzzzz:fold",
        f"v1:0{t:x}:{h:x}:{s:x}:fold",
        f"v1:{t:x}:{h:x}:{s:x}:fold" + ":" * 60,
        "v1:" + "1" * 200,
        press(Button.FOLD, table=t + 1),
        press(Button.FOLD, table=2**63 - 1),
        press(Button.FOLD, hand_id=h + 1),
        press(Button.FOLD, hand_id=2**63 - 1),
        press(Button.FOLD, seq=s + 1),
        press(Button.FOLD, seq=10**9),
        press(Button.CARDS, hand_id=h + 1),
        press(Button.FOLD, hand_id=0),
        press(Button.CALL, hand_id=0),
    ]
    before = await snapshot(bed, group, players)
    writes = group_writes(bed.tg, group)
    table = await table_now(bed, group)
    for data in expired:
        for who in (actor, other):
            assert await ask(who, table, data) == (EXPIRED, True), data

    # Well-formed presses for this very turn, refused by the table or the engine.
    refused = {
        (other, press(Button.FOLD)): NOT_YOUR_TURN,
        (other, press(Button.RAISE, low)): NOT_YOUR_TURN,
        (actor, press(Button.RAISE, low - 1)): f"The amount must be between {low} and {high}.",
        (actor, press(Button.RAISE, high + 1)): f"The amount must be between {low} and {high}.",
        (actor, press(Button.RAISE, 10**15)): f"The amount must be between {low} and {high}.",
        (actor, press(Button.BLIND, low)): "You cannot do that now.",
        (actor, press(Button.NO_BLIND)): "You cannot do that now.",
        (actor, press(Button.SVARA_JOIN)): "You cannot do that now.",
        (actor, press(Button.CALL)): "There is no bet to call yet: bet or fold.",
        (actor, press(Button.START, hand_id=0, seq=0)): "The game has already started.",
        (actor, press(Button.JOIN, hand_id=0, seq=0)): "You are already at this table.",
    }
    for (who, data), text in refused.items():
        assert await ask(who, table, data) == (text, True), data
    await settle(bed)
    assert await snapshot(bed, group, players) == before
    assert group_writes(bed.tg, group) == writes
    # After all that, the real buttons still work.
    assert await tap(bed, actor, group, f"Bet {low}") is None
    assert len(the_hand(bed, group).actions) == s + 1


async def test_a_button_naming_another_chats_table_is_refused(bed: Bed) -> None:
    group_a, players_a = await dealt(bed, "Ana", "Boris")
    dan, eve = bed.players("Dan", "Eve")
    group_b = bed.tg.world.group("Other night", members=[dan, eve, *players_a], admins=[dan])
    await open_table(bed, group_b, dan, eve)
    assert await tap(bed, dan, group_b, "Start") is None
    live_a = hand_of(bed, group_a)
    hand = live_a.hand
    assert hand is not None
    actor = to_act(bed, group_a, players_a)
    # The blind button of table A, pressed on table B's message (by A's player to act).
    data = data_of(await table_now(bed, group_a), "No blind")
    before = await snapshot(bed, group_a, players_a)
    table_b = await table_now(bed, group_b)
    text_b = table_b.text
    assert await ask(actor, table_b, data) == (EXPIRED, True)
    await settle(bed)
    assert await snapshot(bed, group_a, players_a) == before
    assert table_b.text == text_b


async def test_spectators_and_strangers_are_told_they_do_not_play(bed: Bed) -> None:
    (zoe,) = bed.players("Zoe")
    group, players = await dealt(bed, "Ana", "Boris", watchers=(zoe,))
    await past_blind(bed, group, players)
    before = await snapshot(bed, group, players)
    assert await tap(bed, zoe, group, "My cards") == NOT_AT_TABLE
    assert await tap(bed, zoe, group, "Fold") == NOT_AT_TABLE
    table = await table_now(bed, group)
    assert await tap(bed, zoe, group, bed.button(table, "Bet")) == NOT_AT_TABLE
    assert await snapshot(bed, group, players) == before


async def test_only_the_creator_or_an_admin_starts(bed: Bed) -> None:
    group, players = await seated(bed, "Ana", "Boris")
    before = await snapshot(bed, group, players)
    assert await tap(bed, players[1], group, "Start") == ONLY_CREATOR
    assert await snapshot(bed, group, players) == before
    assert bed.live(group).status == "lobby"


# --------------------------------------------------------------------- commands


async def test_commands_in_the_wrong_chat_are_answered(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    await ana.start_bot()
    await settle(bed)
    for command in ("/newgame", "/join", "/bet 20", "/endgame"):
        sent = await ana.send(ana.dm, command)
        assert await reply(bed, sent) == GROUP_ONLY, command
    group = bed.group(ana)
    for command in ("/join", "/leave", "/bet 20", "/endgame"):
        sent = await ana.send(group, command)
        assert await reply(bed, sent) == NO_TABLE, command
    assert bed.games.tables == {}
    assert await bed.store.users.balance(ana.id) == START


async def test_newgame_addressed_to_the_bot_opens_one_table(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.send(group, "/newgame@svara_test_bot")
    table = await table_now(bed, group)
    assert "Svara" in (table.text or "") and "Join" in table.labels
    again = await boris.send(group, "/newgame@svara_test_bot")
    assert await reply(bed, again) == "A table is already open here."
    await boris.send(group, "/newgame@some_other_bot")
    await settle(bed)
    assert len(bed.games.tables) == 1
    assert [m.message_id for m in group.bot_messages() if m.reply_to is None] == [table.id]


BAD_AMOUNTS = ("", "abc", "-5", "0", "+5", "5.5", "20 30", "99999999999999999999", "9" * 16)


async def test_bet_with_a_bad_amount_changes_nothing(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    actor = await past_blind(bed, group, players)
    before = await snapshot(bed, group, players)
    for args in BAD_AMOUNTS:
        sent = await actor.send(group, f"/bet {args}".strip())
        assert await reply(bed, sent) == BAD_NUMBER, args
    assert await snapshot(bed, group, players) == before


async def test_bet_with_a_unicode_digit_is_refused(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    actor = await past_blind(bed, group, players)
    before = await snapshot(bed, group, players)
    sent = await actor.send(group, "/bet ²")
    assert await reply(bed, sent) == BAD_NUMBER
    assert await snapshot(bed, group, players) == before


async def test_bet_out_of_turn_or_out_of_range_changes_nothing(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    first = to_act(bed, group, players)
    before = await snapshot(bed, group, players)
    sent = await first.send(group, "/bet 50")
    assert await reply(bed, sent) == "You cannot do that now."  # blind first
    assert await snapshot(bed, group, players) == before

    actor = await past_blind(bed, group, players)
    other = others(players, actor)[0]
    legal = the_hand(bed, group).legal()
    assert legal is not None and legal.raise_to is not None
    low, high = legal.raise_to
    before = await snapshot(bed, group, players)
    sent = await other.send(group, f"/bet {low}")
    assert await reply(bed, sent) == NOT_YOUR_TURN
    for amount in (low - 1, high + 1, 10**14):
        sent = await actor.send(group, f"/bet {amount}")
        assert await reply(bed, sent) == f"The amount must be between {low} and {high}."
    assert await snapshot(bed, group, players) == before

    sent = await actor.send(group, f"/bet {low + 5}")
    assert await replies(bed, sent) == []
    hand = hand_of(bed, group).hand
    assert hand is not None and hand.level == low + 5


async def test_bet_with_no_hand_in_play_says_so(bed: Bed) -> None:
    group, players = await seated(bed, "Ana", "Boris")
    before = await snapshot(bed, group, players)
    sent = await players[0].send(group, "/bet 20")
    assert await reply(bed, sent) == "No hand is being played right now."
    assert await snapshot(bed, group, players) == before


# --------------------------------------------------------------------- Telegram errors


async def until(bed: Bed, check: Callable[[], bool], what: str) -> None:
    """Wait until `check()` holds (the bot retries on its own timers); no time is asserted,
    the timeout only keeps a broken bot from hanging the suite."""
    await bed.tg.world.wait_for(check, timeout=20, what=what)


def shows_turn(message: MessageRecord, player: Player) -> bool:
    """The table message prompts `player` with betting buttons."""
    return f"{player.name} to act." in (message.text or "") and "Fold" in message.labels


async def test_cards_reach_a_player_whose_dm_fails_again_or_through_my_cards(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris", "Carol")
    ana, boris, carol = players
    for player, fault in ((boris, Fault.forbidden("bot can't initiate conversation with a user")),
                          (carol, Fault.drop())):
        bed.tg.faults.fail_next("sendMessage", fault, chat_id=player.id)
    inboxes = {p.id: len(p.inbox) for p in players}

    actor = await past_blind(bed, group, players)

    assert "Points" in (ana.last_dm.text or "")
    assert len(ana.inbox) == inboxes[ana.id] + 1
    # A dropped connection is tried again: Carol's cards arrive. Boris blocked the bot.
    assert len(carol.inbox) == inboxes[carol.id] + 1 and "Points" in (carol.last_dm.text or "")
    assert len(boris.inbox) == inboxes[boris.id]
    for player in (boris, carol):
        assert await tap(bed, player, group, "My cards") == cards_text(bed, group, player)
    # The bot no longer counts on Boris's private chat; the hand goes on.
    assert not (await bed.store.users.get(boris.id)).private_chat
    assert await tap(bed, actor, group, "Bet 10") is None
    assert len(the_hand(bed, group).actions) == 2


async def test_a_player_who_blocks_the_bot_still_plays(bed: Bed) -> None:
    # Ana deals: Boris decides on the blind and opens, Carol answers, Ana acts last.
    group, players = await dealt(bed, "Ana", "Boris", "Carol", dealer=0)
    ana, boris, carol = players
    carol.block_bot()
    inbox = len(carol.inbox)
    assert await past_blind(bed, group, players) is boris
    assert len(carol.inbox) == inbox
    expected = cards_text(bed, group, carol)
    assert await tap(bed, carol, group, "My cards") == expected
    assert await tap(bed, boris, group, "Bet 10") is None
    # Her turn: she is prompted on the table message and her press counts.
    table = await table_now(bed, group)
    assert shows_turn(table, carol)
    actions = len(the_hand(bed, group).actions)
    assert await tap(bed, carol, group, "Call 10") is None
    assert len(the_hand(bed, group).actions) == actions + 1
    assert shows_turn(await table_now(bed, group), ana)
    assert await tap(bed, carol, group, "My cards") == expected


async def test_a_flood_wait_on_the_table_edit_delays_the_table_but_never_stops_it(
    bed: Bed,
) -> None:
    group, players = await seated(bed, "Ana", "Boris")
    ana, boris = players
    hand = plan(bed, group, lambda h: h.dealer == 0 and best(points_of(h)) is not None)
    winner = best(points_of(hand))
    assert winner is not None
    assert await tap(bed, ana, group, "Start") is None
    table = await table_now(bed, group)
    # Four 429s in a row: each answer is a wait, and the table message is shown later.
    bed.tg.faults.fail_next("editMessageText", Fault.retry_after(0.2), times=4, chat_id=group.id)
    answer = await (await boris.press(table, "No blind")).answer(timeout=5)
    assert (answer.text, answer.show_alert, answer.url) == (None, False, None)
    assert len(the_hand(bed, group).actions) == 1
    await until(bed, lambda: shows_turn(table, boris), "Boris's turn shown")
    assert len(bed.tg.faults.fired) == 4
    bed.tg.faults.fail_next("editMessageText", Fault.retry_after(0.3), chat_id=group.id)
    assert await tap(bed, boris, group, "Bet 20") is None
    await until(bed, lambda: shows_turn(table, ana), "Ana's turn shown")
    assert len(bed.tg.faults.fired) == 5
    assert await tap(bed, ana, group, "Call 20") is None
    await until(bed, lambda: "is over" in (table.text or ""), "the end of the hand shown")
    screen = [line.strip() for line in (table.text or "").splitlines()]
    assert screen[0] == "🃏 Svara · hand 1 is over"
    assert f"🏆 {players[winner].name} wins 60 with {points_of(hand)[winner]} points" in screen
    stacks = {p.name: 970 for p in players}
    stacks[players[winner].name] = 1030
    assert [f"{name}: {stack}" in screen for name, stack in stacks.items()] == [True, True]
    assert {s.user_id: s.stack for s in await bed.store.tables.seats(bed.live(group).id)} \
        == {p.id: stacks[p.name] for p in players}


async def test_a_lost_table_message_is_sent_again(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    old = await table_now(bed, group)
    first = to_act(bed, group, players)
    stale = data_of(old, "No blind")
    bed.tg.faults.fail_next("editMessageText", Fault.bad_request("message to edit not found"),
                            chat_id=group.id)
    assert await tap(bed, first, group, "No blind") is None
    await until(bed, lambda: bed.message_id(bed.live(group)) not in (None, old.id),
                "a new table message")
    table = await table_now(bed, group)
    actor = to_act(bed, group, players)
    assert shows_turn(table, actor)
    assert await ask(actor, old, stale) == (EXPIRED, True)
    assert await tap(bed, actor, group, "Bet 10") is None
    assert len(the_hand(bed, group).actions) == 2


async def test_an_unexpected_bad_request_on_the_edit_does_not_strand_the_table(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    first = to_act(bed, group, players)
    bed.tg.faults.fail_next("editMessageText", Fault.bad_request("MESSAGE_ID_INVALID"),
                            chat_id=group.id)
    assert await tap(bed, first, group, "No blind") is None
    actor = to_act(bed, group, players)
    assert len(the_hand(bed, group).actions) == 1
    await until(bed, lambda: shows_turn(current(bed, group), actor), "the edit made again")
    # The refused edit was made again: a refused edit, then a good one, in that order.
    edits = [c for c in bed.tg.transcript.calls
             if c.method == "editMessageText" and c.chat_id == group.id]
    assert [c.status for c in edits[-2:]] == [400, 200], edits[-2:]
    assert await tap(bed, actor, group, "Bet 10") is None
    assert len(the_hand(bed, group).actions) == 2


async def test_an_edit_refused_twice_gives_the_table_a_fresh_message(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    """Telegram refuses the table message's edit for an unknown reason: it is tried once
    more, then the table is posted anew (the old message's buttons expire), so nobody is
    left with the buttons of a turn that is over. Once a screen got through, the count
    starts again: a later refusal is one more try of the edit, not a new message."""
    group, players = await dealt(bed, "Ana", "Boris")
    old = await table_now(bed, group)
    first = to_act(bed, group, players)
    stale = data_of(old, "No blind")
    bed.tg.faults.fail_next("editMessageText", Fault.bad_request("MESSAGE_ID_INVALID"),
                            chat_id=group.id, times=2)
    live = bed.live(group)
    with caplog.at_level(logging.WARNING, logger="bot.outbox"):
        assert await tap(bed, first, group, "No blind") is None
        await until(bed, lambda: bed.message_id(live) not in (None, old.message_id),
                    "a new table message")
    refused = [line for line in caplog.messages if "Telegram refused the table message" in line]
    assert [line.split("(")[1][:2] for line in refused] == ["1)", "2)"], refused
    assert refused[0].startswith(f"table {live.id}: ")
    assert all(line.lower().endswith(": message_id_invalid") for line in refused), refused
    actor = to_act(bed, group, players)
    table = await table_now(bed, group)
    assert shows_turn(table, actor)
    assert await ask(actor, old, stale) == (EXPIRED, True)

    bed.tg.faults.fail_next("editMessageText", Fault.bad_request("MESSAGE_ID_INVALID"),
                            chat_id=group.id)
    assert await tap(bed, actor, group, "Bet 10") is None
    after = to_act(bed, group, players)
    await until(bed, lambda: shows_turn(current(bed, group), after), "the edit made again")
    assert bed.message_id(live) == table.message_id  # edited in place, no third message


async def test_a_dropped_connection_on_the_edit_is_retried(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    table = await table_now(bed, group)
    first = to_act(bed, group, players)
    bed.tg.faults.fail_next("editMessageText", Fault.drop(), chat_id=group.id)
    assert await tap(bed, first, group, "No blind") is None
    actor = to_act(bed, group, players)
    await until(bed, lambda: shows_turn(table, actor), "the edit made again")
    # The dropped edit was made again: a faulted edit, then a good one, in that order.
    edits = [c for c in bed.tg.transcript.calls
             if c.method == "editMessageText" and c.chat_id == group.id]
    assert [c.fault is not None for c in edits[-2:]] == [True, False], edits[-2:]
    assert await tap(bed, actor, group, "Bet 10") is None
    assert len(the_hand(bed, group).actions) == 2


async def test_a_dropped_connection_when_opening_a_table_is_retried(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    bed.tg.faults.fail_next("sendMessage", Fault.drop(), chat_id=group.id)
    await ana.send(group, "/newgame")
    await until(bed, lambda: bool(group.bot_messages()), "the table sent again")
    await settle(bed)
    sends = [c for c in bed.tg.transcript.calls
             if c.method == "sendMessage" and c.chat_id == group.id]
    assert [c.fault is not None for c in sends] == [True, False], sends
    assert [m.id for m in group.bot_messages()] == [bed.message_id(bed.live(group))]
    table = await table_now(bed, group)
    for p in (ana, boris):
        await p.start_bot()
        await settle(bed)
        assert (await (await p.press(table, "Join")).answer()).text is None
    assert await tap(bed, ana, group, "Start") is None
    assert bed.live(group).hand is not None


async def test_a_timed_out_edit_that_landed_is_not_a_problem(
    bed: Bed, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bot's HTTP client gives up after 1 s instead of 5, to keep the test short.
    monkeypatch.setattr(bed.tg, "request", functools.partial(Sandbox.request, read_timeout=1.0))
    await bed.restart()
    group, players = await dealt(bed, "Ana", "Boris")
    table = await table_now(bed, group)
    first = to_act(bed, group, players)
    second = others(players, first)[0]
    bed.tg.faults.fail_next("editMessageText", Fault.timeout(2.0, applied=True),
                            chat_id=group.id)
    bed.tg.faults.fail_next("sendMessage", Fault.timeout(2.0), chat_id=second.id)
    inbox = len(second.inbox)
    answer = await (await first.press(table, "No blind")).answer(timeout=5)
    assert answer.text is None
    actor = to_act(bed, group, players)
    assert shows_turn(await table_now(bed, group), actor)
    # The cards that did not arrive in private are one tap away.
    assert len(second.inbox) == inbox
    assert await tap(bed, second, group, "My cards") == cards_text(bed, group, second)
    assert await tap(bed, actor, group, "Bet 10") is None
    other = to_act(bed, group, players)
    assert shows_turn(await table_now(bed, group), other)
    assert len(the_hand(bed, group).actions) == 2


# --------------------------------------------------------------------- restarts and refunds


async def step(bed: Bed, group: ChatRecord, players: list[Player], *, fold: bool = False) -> None:
    """The player to act declines the blind, calls, or opens with the smallest bet (or folds)."""
    live = bed.live(group)
    hand = live.hand
    assert hand is not None
    if hand.phase is Phase.SVARA_JOIN:
        await ring(bed, group)  # nobody else joins: the tied players play on
        return
    who = to_act(bed, group, players)
    table = await table_now(bed, group)
    labels = table.labels
    if "No blind" in labels:
        label = "No blind"
    elif fold:
        label = "Fold"
    else:
        label = next((x for x in labels if x.startswith(("Call", "Bet", "All-in"))), "Fold")
    assert await tap(bed, who, group, label) is None, (who, label)


async def play_out(bed: Bed, group: ChatRecord, players: list[Player]) -> None:
    """Call everything down to the end of the hand."""
    for _ in range(40):
        live = bed.games.at(group.id, None)
        if live is None or live.hand is None:
            return
        await step(bed, group, players)
    raise AssertionError("the hand did not end")


async def test_item17_a_restart_mid_hand_resumes_it_with_working_buttons(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris", "Carol")
    actor = await past_blind(bed, group, players)
    assert await tap(bed, actor, group, "Bet 20") is None
    live = hand_of(bed, group)
    hand = live.hand
    assert hand is not None
    before = await snapshot(bed, group, players)
    message_id, hand_id, hand_no = bed.message_id(live), live.hand_id, live.hand_no
    popups = {p.id: cards_text(bed, group, p) for p in players}
    writes = group_writes(bed.tg, group)

    await bed.restart()

    live = hand_of(bed, group)
    assert (bed.message_id(live), live.hand_id, live.hand_no) == (message_id, hand_id, hand_no)
    after = await snapshot(bed, group, players)
    # The turn's timer starts again with the bot, so only its deadline may have moved.
    assert replace(after, text=without_deadline(after.text)) == \
        replace(before, text=without_deadline(before.text))
    assert len([m for m in group.bot_messages() if m.reply_to is None]) == 1
    # Nothing else changed while the bot was down: at most the deadline is edited.
    assert group_writes(bed.tg, group) - writes <= 1
    for p in players:
        assert await tap(bed, p, group, "My cards") == popups[p.id]
    assert await tap(bed, others(players, to_act(bed, group, players))[0], group,
                           "Fold") == NOT_YOUR_TURN
    await play_out(bed, group, players)
    table = await table_now(bed, group)
    assert "🏆" in (table.text or ""), table.text
    assert bed.live(group).hand is None
    assert await chips(bed, *players) == 3 * START


async def test_item17_a_restart_shows_a_move_the_table_message_missed(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    table = await table_now(bed, group)
    first = to_act(bed, group, players)
    before = table.text
    # The move is saved, but every edit of the table message fails until the bot stops.
    bed.tg.faults.fail_next("editMessageText", Fault.drop(), times=1000, chat_id=group.id)
    assert await tap(bed, first, group, "No blind") is None
    assert len(the_hand(bed, group).actions) == 1
    assert table.text == before
    await bed.stop()
    bed.tg.faults.clear()
    calls = len(bed.tg.transcript.calls)

    await bed.start()
    await settle(bed)

    edits = [c for c in bed.tg.transcript.calls[calls:]
             if c.method == "editMessageText" and c.chat_id == group.id]
    assert [(c.ok, int(c.params["message_id"])) for c in edits] == [(True, table.id)]
    actor = to_act(bed, group, players)
    assert shows_turn(table, actor)
    assert await tap(bed, actor, group, "Bet 10") is None
    assert len(the_hand(bed, group).actions) == 2


async def test_endgame_mid_hand_closes_after_the_hand_and_only_the_creator_or_admin_may(
    bed: Bed,
) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    ana, boris = players
    await play_out(bed, group, players)  # hand 1 moves some chips
    await ring(bed, group)  # hand 2
    actor = await past_blind(bed, group, players)
    assert await tap(bed, actor, group, "Bet 20") is None
    assert the_hand(bed, group).pot == 40

    before = await snapshot(bed, group, players)
    sent = await boris.send(group, "/endgame")
    assert await reply(bed, sent) == ONLY_CREATOR
    assert await snapshot(bed, group, players) == before

    sent = await ana.send(group, "/endgame")
    assert await replies(bed, sent) == [CLOSING]
    table = await table_now(bed, group)
    assert CLOSING in (table.text or "")
    # The hand in progress is not refunded: it is played to its end, then the table closes.
    now = await snapshot(bed, group, players)
    assert (now.actions, now.pot, now.to_act, now.stacks, now.balances) == (
        before.actions, before.pot, before.to_act, before.stacks, before.balances)
    stale = data_of(table, "My cards")
    await play_out(bed, group, players)
    await settle(bed)
    assert CLOSED_AFTER in (table.text or "") and table.buttons == []
    assert bed.games.at(group.id, None) is None
    holdings = [await bed.store.users.holdings(p.id) for p in players]
    assert [h.tables for h in holdings] == [(), ()]
    assert sum(h.balance for h in holdings) == 2 * START
    assert sorted(h.balance for h in holdings) != [START] * 2
    # The table is gone: its buttons and commands say so.
    assert await ask(boris, table, stale) == (EXPIRED, True)
    sent = await boris.send(group, "/join")
    assert await reply(bed, sent) == NO_TABLE


async def test_a_chat_admin_who_does_not_play_may_end_the_table(bed: Bed) -> None:
    ana, boris, olga = bed.players("Ana", "Boris", "Olga")
    group = bed.group(olga, ana, boris, admins=(olga,))
    await open_table(bed, group, ana, boris)
    assert await tap(bed, ana, group, "Start") is None
    await past_blind(bed, group, [ana, boris])
    sent = await olga.send(group, "/endgame")
    assert await replies(bed, sent) == [CLOSING]
    assert CLOSING in ((await table_now(bed, group)).text or "")
    await play_out(bed, group, [ana, boris])
    assert bed.games.at(group.id, None) is None
    assert [await bed.store.users.balance(p.id) for p in (ana, boris)] != [START, START]
    assert sum([await bed.store.users.balance(p.id) for p in (ana, boris)]) == 2 * START


async def test_no_chip_is_created_or_lost(bed: Bed) -> None:
    (dan,) = bed.players("Dan")
    group, players = await dealt(bed, "Ana", "Boris", "Carol", watchers=(dan,))
    ana, boris, carol = players
    everyone = [*players, dan]
    total = len(everyone) * START

    # Hand 1: Dan joins while it runs; he is dealt from the next hand.
    actor = await past_blind(bed, group, players)
    await dan.start_bot()
    await settle(bed)
    sent = await dan.send(group, "/join")
    assert await replies(bed, sent) == ["You sit down at the next hand."]
    assert the_hand(bed, group).seat_of(dan.id) is None
    assert await tap(bed, actor, group, "Bet 10") is None
    await play_out(bed, group, players)
    assert await chips(bed, *everyone) == total

    # Hand 2: Boris leaves in the middle (he folds and goes when it ends).
    await ring(bed, group)
    seated = [*players, dan]
    hand = hand_of(bed, group).hand
    assert hand is not None and hand.seat_of(dan.id) is not None
    await step(bed, group, seated)
    await step(bed, group, seated)
    sent = await boris.send(group, "/leave")
    assert await replies(bed, sent) == []
    await play_out(bed, group, seated)
    live = bed.live(group)
    assert live.table.seat(boris.id) is None
    assert not (await bed.store.users.holdings(boris.id)).tables
    assert await chips(bed, *everyone) == total

    # Hand 3: a restart in the middle, then the creator ends the table.
    await ring(bed, group)
    seated = [ana, carol, dan]
    await step(bed, group, seated)
    await step(bed, group, seated)
    await bed.restart()
    await step(bed, group, seated)
    sent = await ana.send(group, "/endgame")
    assert await replies(bed, sent) == [CLOSING]
    await play_out(bed, group, seated)
    assert bed.games.at(group.id, None) is None
    assert await chips(bed, *everyone) == total
    assert sum([await bed.store.users.balance(p.id) for p in everyone]) == total


async def test_commands_racing_endgame_are_answered(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    ana, boris = players
    await past_blind(bed, group, players)
    first = await ana.send(group, "/endgame")
    again = await ana.send(group, "/endgame")
    leave = await boris.send(group, "/leave")
    assert await replies(bed, first) == []
    assert await replies(bed, again) == [CLOSES_AFTER_HAND]
    # Boris leaving folds him: the hand ends, and with it the table.
    assert await replies(bed, leave) == []
    assert bed.games.at(group.id, None) is None
    assert await chips(bed, *players) == 2 * START
    late = await boris.send(group, "/leave")
    assert await replies(bed, late) == [NO_TABLE]


async def test_a_flood_wait_at_one_table_does_not_hold_up_presses(bed: Bed) -> None:
    group_a, players_a = await dealt(bed, "Ana", "Boris")
    carol, dan = bed.players("Carol", "Dan")
    group_b = bed.tg.world.group("Other night", members=[carol, dan], admins=[carol])
    await open_table(bed, group_b, carol, dan)
    assert await tap(bed, carol, group_b, "Start") is None
    table_a, table_b = await table_now(bed, group_a), await table_now(bed, group_b)
    # Table A's edits are refused with a flood wait until the test lifts it.
    bed.tg.faults.fail_next("editMessageText", Fault.retry_after(1.0), times=1000,
                            chat_id=group_a.id)
    press_a = await to_act(bed, group_a, players_a).press(table_a, "No blind")
    await until(bed, lambda: bool(bed.tg.faults.fired), "table A's edit refused")
    press_b = await carol.press(table_b, "My cards")
    answers = await asyncio.gather(press_a.answer(timeout=5), press_b.answer(timeout=5))
    # Both presses were answered while table A still waited out its flood wait.
    assert answers[1].text == "No cards yet: they are dealt after the blind."
    assert answers[0].text is None
    actor = to_act(bed, group_a, players_a)
    assert not shows_turn(current(bed, group_a), actor)
    # Table A still catches up once Telegram lets it.
    bed.tg.faults.clear()
    await until(bed, lambda: shows_turn(current(bed, group_a), actor), "table A caught up")


async def test_the_operators_figures_show_a_screen_held_back_and_the_messages_sent(
        bed: Bed) -> None:
    """What /metrics reads of the outbox while Telegram holds a table message back with a
    flood wait: one screen waiting; the card messages counted as sent."""
    group, players = await dealt(bed, "Ana", "Boris")
    first = to_act(bed, group, players)
    metrics = Metrics()
    metrics.outbox = bed.services.outbox.figures

    def figures() -> dict[str, float]:
        return {sample.name: sample.value
                for family in text_string_to_metric_families(metrics.render().decode())
                for sample in family.samples
                if sample.name.startswith("svara_outbox_") and not sample.labels
                and not sample.name.endswith("_created")}

    before = figures()
    assert before["svara_outbox_screens_waiting"] == 0.0
    assert before["svara_outbox_replies_waiting"] == 0.0
    bed.tg.faults.fail_next("editMessageText", Fault.retry_after(3), chat_id=group.id)
    await first.press(await table_now(bed, group), "No blind")
    await until(bed, lambda: bool(bed.tg.faults.fired), "the flood wait met")
    await until(bed, lambda: figures()["svara_outbox_screens_waiting"] == 1.0,
                "the screen counted as waiting")
    # The cards went out privately meanwhile: two messages sent, none lost.
    now = figures()
    assert now["svara_outbox_messages_sent_total"] == before[
        "svara_outbox_messages_sent_total"] + 2
    assert now["svara_outbox_messages_lost_total"] == 0.0
    # Once the flood wait is over the screen is shown, and no longer counted as waiting (the
    # count drops when the edit leaves, before Telegram has answered it).
    await until(bed, lambda: shows_turn(current(bed, group), to_act(bed, group, players)),
                "the screen shown")
    await until(bed, lambda: figures()["svara_outbox_screens_waiting"] == 0.0,
                "the screen no longer counted as waiting")


async def test_an_edit_telegram_calls_not_modified_counts_as_shown_and_play_goes_on(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    """Telegram answers a table message's edit with "message is not modified" (it shows
    that screen already): the bot takes the screen as shown, and the next turn's screen
    comes as usual."""
    group, players = await dealt(bed, "Ana", "Boris")
    message_id = bed.message_id(bed.live(group))
    bed.tg.faults.fail_next("editMessageText", Fault.bad_request(
        "message is not modified: specified new message content and reply markup are "
        "exactly the same"), chat_id=group.id)
    edits = len(bed.tg.transcript.of("editMessageText"))
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        await to_act(bed, group, players).press(await table_now(bed, group), "No blind")
        await until(bed, lambda: bool(bed.tg.faults.fired), "the edit answered not modified")
        await settle(bed)
    # No refusal: nothing to try again or to post anew.
    assert len(bed.tg.transcript.of("editMessageText")) == edits + 1
    assert not any("refused the table message" in line for line in caplog.messages)
    # The group still reads the blind's screen (the stand-in kept it); the player to act
    # presses the button of his turn as his client knew it from the edit.
    live = bed.live(group)
    hand = live.hand
    assert hand is not None
    fold = Press(live.id, live.hand_id, len(hand.actions), Button.FOLD).encode()
    press = await to_act(bed, group, players).press_data(current(bed, group), fold)
    assert (await press.answer()).text is None
    await until(bed, lambda: "hand 1 is over" in (current(bed, group).text or ""),
                "the hand's end shown")
    assert bed.message_id(bed.live(group)) == message_id  # edited in place, not posted anew


async def test_a_table_message_telegram_cannot_edit_is_posted_anew(bed: Bed) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    old = bed.message_id(bed.live(group))
    bed.tg.faults.fail_next("editMessageText", Fault.bad_request("message can't be edited"),
                            chat_id=group.id)
    await to_act(bed, group, players).press(await table_now(bed, group), "No blind")
    await until(bed, lambda: bed.message_id(bed.live(group)) not in (None, old),
                "the table posted anew")
    await until(bed, lambda: shows_turn(current(bed, group), to_act(bed, group, players)),
                "the new message shows the turn")


async def test_a_group_that_shuts_the_bot_out_of_its_table_is_logged_with_both_ids(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    group, players = await dealt(bed, "Ana", "Boris")
    live = bed.live(group)
    bed.tg.faults.fail_next("editMessageText", Fault.forbidden("bot was kicked from the group "
                                                               "chat"), chat_id=group.id)
    with caplog.at_level(logging.WARNING, logger="bot.outbox"):
        await to_act(bed, group, players).press(await table_now(bed, group), "No blind")
        await until(bed, lambda: bool(bed.tg.faults.fired), "the edit refused")
        await settle(bed)
    assert any(line.startswith(f"table {live.id}: cannot write to chat {group.id}: ")
               and "kicked" in line.lower() for line in caplog.messages), caplog.messages
