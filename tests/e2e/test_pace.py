"""A table that keeps up with people under Telegram's limits: presses are answered before
the screen moves, superseded screens are never sent, and a group never sees a 429."""

from __future__ import annotations

from bot.callback_data import Button, Press
from bot.live import Live
from bot.sandbox.limits import FloodMode
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from bot.sandbox.transcript import Call
from engine import Hand
from tests.e2e.bed import Bed
from tests.e2e.test_rules_paths import configure


def group_writes(calls: list[Call], group: ChatRecord) -> list[Call]:
    return [c for c in calls if c.chat_id == group.id
            and c.method in ("sendMessage", "editMessageText")]


async def test_ten_joins_in_one_second_are_each_answered_before_the_screen_shows_them(
    bed: Bed,
) -> None:
    players = bed.players(*(f"Player{i}" for i in range(10)))
    group = bed.group(*players)
    await configure(bed, group)
    await players[0].send(group, "/newgame")
    table = await bed.table_message(group)
    for p in players:
        await p.start_bot()
    await bed.idle()
    before = len(bed.tg.transcript.calls)
    presses = [await p.press(table, "Join") for p in players]
    answers = [await press.answer(timeout=10) for press in presses]
    await bed.idle()
    assert [a.text for a in answers] == [None] * 10
    assert len(bed.live(group).table.seats) == 10
    calls = bed.tg.transcript.calls[before:]
    answered = {c.params["callback_query_id"]: c.seq for c in calls
                if c.method == "answerCallbackQuery"}
    writes = group_writes(calls, group)
    for player, press in zip(players, presses, strict=True):
        showing = [c.seq for c in writes if f"{player.name}:" in str(c.params.get("text"))]
        assert showing, f"{player.name} never shown"
        assert answered[press.query.id] < showing[0], player.name


async def dealt(bed: Bed) -> tuple[ChatRecord, list[Player], Live, Hand]:
    """Ana and Boris at a table whose first hand has been dealt."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    await configure(bed, group)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    live = bed.live(group)
    assert live.hand is not None
    return group, players, live, live.hand


async def test_screens_superseded_while_the_table_waits_are_never_sent(bed: Bed) -> None:
    group, players, live, hand = await dealt(bed)
    first = to_act(hand, players)
    table = await bed.table_message(group)
    before = len(bed.tg.transcript.calls)
    async with bed.services.outbox.hold(live.id):
        press = await first.press(table, "No blind")
        assert (await press.answer()).text is None
        # A fast client bets on the old message, before any screen showed his turn.
        data = Press(live.id, live.hand_id, len(hand.actions), Button.RAISE, 10).encode()
        fast = await to_act(hand, players).press_data(table, data)
        assert (await fast.answer()).text is None
    await bed.idle()
    assert len(hand.actions) == 2
    edits = group_writes(bed.tg.transcript.calls[before:], group)
    # Two changes while the screen waited: only the newest is sent, once.
    assert len(edits) == 1, edits
    assert turn_on_screen(await bed.table_message(group)) == (live.hand_id, 2)


async def test_a_table_played_at_speed_never_gets_a_429_and_ends_on_the_latest_state(
    bed: Bed,
) -> None:
    bed.tg.flood.mode = FloodMode.ENFORCE
    group, players, live, hand = await dealt(bed)
    for _ in range(30):
        player = to_act(hand, players)
        table = await bed.table_message(group)
        label = next((b for row in table.buttons for b in row
                      if b.startswith(("No blind", "Raise to", "Bet"))), None)
        assert label is not None, table.buttons
        press = await player.press(table, label)
        assert (await press.answer()).text is None
    await bed.idle()
    assert [c for c in bed.tg.transcript.calls if c.status == 429] == []
    assert bed.tg.flood.violations == []
    assert turn_on_screen(await bed.table_message(group)) == (live.hand_id, 30)
    assert live.hand is hand and len(hand.actions) == 30


def to_act(hand: Hand | None, players: list[Player]) -> Player:
    assert hand is not None and hand.to_act is not None
    return next(p for p in players if p.id == hand.seats[hand.to_act].player)


def turn_on_screen(message: MessageRecord) -> tuple[int, int]:
    """The hand and turn the buttons of the table message are for (its betting buttons)."""
    data = [str(message.button(label)["callback_data"]) for label in message.labels]
    # Not My cards, nor the seat a latecomer takes (it belongs to no turn).
    turns = {(press.hand, press.seq) for press in map(Press.decode, data)
             if press.button is not Button.CARDS and press.hand != 0}
    assert len(turns) == 1, turns
    return turns.pop()
