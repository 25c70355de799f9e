"""Badges through the stand-in: announced in one line of the hand's result on the table
message, listed in /stats, earned once, and never at a practice table."""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from engine import Hand, Phase
from tests.e2e.bed import Bed
from tests.e2e.seeds import find_seed, points_of, replica
from tests.e2e.test_history import reply, steady_clock
from tests.e2e.test_practice import play_out, practising

FIRST_POT = "🏅 Ana earns 🥇 First pot"


def plain_win(winner: int, loser: int, used: set[bytes]) -> Callable[[Hand], bool]:
    """A deal where seat `winner` beats seat `loser` with points that earn no badge of the
    cards: more than 11, less than 30, against less than 30 (and a deck not dealt yet)."""
    def wanted(hand: Hand) -> bool:
        points = points_of(hand)
        return hand.seed not in used and 11 < points[winner] < 30 \
            and points[loser] < points[winner]
    return wanted




async def play(bed: Bed, group: ChatRecord, players: list[Player], *, winner: Player,
               folder: Player, first: bool, used: set[bytes]) -> None:
    """One planned hand: nobody blinds, `folder` folds, `winner` beats the other at the
    showdown with plain points. The first hand is started, the next one dealt by its timer."""
    live = bed.live(group)
    seat = {s.player: i for i, s in enumerate(live.table.seats)}
    loser = next(p for p in players if p not in (winner, folder))
    seed, dealt = find_seed(replica(live), plain_win(seat[winner.id], seat[loser.id], used))
    used.add(dealt.seed)
    bed.seeds.append(seed)
    if first:
        await bed.press(players[0], group, "Start")
    else:
        await bed.ring(group)
    while True:
        hand = bed.live(group).hand
        if hand is None or hand.is_over:
            return
        to_act = hand.to_act
        assert to_act is not None
        who = next(p for p in players if p.id == hand.seats[to_act].player)
        table = await bed.table_message(group)
        if hand.phase is Phase.BLIND:
            label = "No blind"
        elif who is folder:
            label = "Fold"
        else:
            label = next(lbl for row in table.buttons for lbl in row
                         if lbl.startswith(("Call", "Bet")))
        assert await bed.press(who, group, label) is None, label


def badge_lines(text: str | None) -> list[str]:
    return [line for line in (text or "").splitlines() if line.startswith("🏅")]


async def test_a_first_pot_is_announced_on_the_table_listed_in_stats_and_earned_once(
        bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    await bed.open_table(group, ana, boris, vera)
    used: set[bytes] = set()
    await play(bed, group, players, winner=ana, folder=vera, first=True, used=used)
    table = await bed.table_message(group)
    lines = (table.text or "").splitlines()
    # One line, in the hand's result, under who won it and above its proof.
    assert badge_lines(table.text) == [FIRST_POT]
    at = lines.index(FIRST_POT)
    assert lines[at - 1].startswith("🏆 Ana wins ") and lines[at + 1] == "🔐 fairness: /hand 1"
    rows = await bed.store.db.fetchall(
        "SELECT a.user_id, a.badge, a.chat_id, h.number FROM achievements a"
        " JOIN hands h ON h.id = a.hand_id")
    assert [tuple(r) for r in rows] == [(ana.id, "first_pot", group.id, 1)]
    # Her seat carries it (the Mini App draws it from there).
    assert [s.badges for s in bed.live(group).view(0).seats] == [("first_pot",), (), ()]

    # A restart keeps the announcement on the table between hands.
    messages = len(group.bot_messages())
    await bed.restart()
    assert badge_lines((await bed.table_message(group)).text) == [FIRST_POT]

    # Ana wins again: no second first pot, and nothing else to announce.
    await play(bed, group, players, winner=ana, folder=vera, first=False, used=used)
    table = await bed.table_message(group)
    assert "🏆 Ana wins " in (table.text or "") and badge_lines(table.text) == []
    assert "hand 2 is over" in (table.text or "")
    count = await bed.store.db.fetchall("SELECT count(*) FROM achievements")
    assert int(count[0][0]) == 1
    # The announcements took no message of their own in the group.
    assert len(group.bot_messages()) == messages

    stats = await reply(bed, ana, group, "/stats")
    assert stats[0].splitlines()[-2:] == [
        "🏅 Badges: 1 of 16", "🥇 First pot: win a pot for the first time"]
    others = await reply(bed, boris, group, "/stats")
    assert "🏅" not in others[0]


async def test_a_practice_table_earns_no_badge(bed: Bed) -> None:
    ana = await practising(bed, "/practice 1")
    table_id = bed.live(ana.dm).id
    await play_out(bed, ana, "All-in", "Call", "No blind", "Join svara")
    rows = await bed.store.db.fetchall(
        "SELECT result FROM hands WHERE table_id = ? AND status = 'settled'", (table_id,))
    nets = [json.loads(r[0])["net"][str(ana.id)] for r in rows]
    assert any(net > 0 for net in nets), nets  # she won pots there
    assert await bed.store.db.fetchall("SELECT * FROM achievements") == []
    assert not any("🏅" in text for m in ana.dm.bot_messages()
                   for text in [*m.history, m.text] if text)
