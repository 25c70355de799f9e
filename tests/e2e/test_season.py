"""Seasons through the stand-in: hands won in a group score in /season, the season's end
announces its champion once in the group (after a restart too), /season last lists him,
a lost announcement is sent again, and neither a practice table nor a chat whose seasons
are off gets any.

The hands are played on the real clock (the record's time of a hand); the seasons are read
by a clock the story moves."""

from __future__ import annotations

import asyncio
import calendar
import datetime as dt
import time
from collections.abc import Callable

import pytest

from bot.sandbox.faults import Fault
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from bot.season_close import SeasonCloser
from engine import Hand, Phase
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, find_seed, points_of, replica
from tests.e2e.test_history import reply, steady_clock
from tests.e2e.test_practice import play_out, practising

CHAMPION = "🏆 The season "
USED: set[bytes] = set()


def closer(bed: Bed) -> SeasonCloser:
    found = bed.app.bot_data["seasons"]
    assert isinstance(found, SeasonCloser)
    return found


def this_month() -> tuple[str, str, int]:
    """Today's month as the season's first and last day, and the moment the next begins;
    a story that would straddle the month's end waits for the next month instead."""
    now = dt.datetime.now(dt.UTC)
    last = calendar.monthrange(now.year, now.month)[1]
    if (now.day, now.hour, now.minute) >= (last, 23, 50):
        pytest.skip("the hands would be played across the end of the month")
    nxt = dt.datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=dt.UTC)
    return (f"{now.year:04d}-{now.month:02d}-01", f"{now.year:04d}-{now.month:02d}-{last:02d}",
            int(nxt.timestamp()))


def plain(winner: int, loser: int) -> Callable[[Hand], bool]:
    """Seat `winner` beats seat `loser` at the showdown."""
    return lambda hand: best(points_of(hand), (winner, loser)) == winner


def svara(winner: int, loser: int) -> Callable[[Hand], bool]:
    """Seats `winner` and `loser` tie, and `winner` wins the svara between them."""
    def wanted(hand: Hand) -> bool:
        points = points_of(hand)
        return points[winner] == points[loser] and best(
            points_of(hand, 2, (winner, loser))) == winner
    return wanted


async def play(bed: Bed, group: ChatRecord, players: list[Player], story: Callable[
        [int, int], Callable[[Hand], bool]], *, winner: Player, folder: Player,
               first: bool) -> None:
    """One planned hand: nobody blinds, `folder` folds, `winner` beats the other at the
    showdown (or in the svara nobody joins). The first hand is started, the next ones dealt
    by their timer."""
    live = bed.live(group)
    seat = {s.player: i for i, s in enumerate(live.table.seats)}
    loser = next(p for p in players if p not in (winner, folder))
    wanted = story(seat[winner.id], seat[loser.id])
    # A deck not dealt before: a later hand's folded cards must not read as shown ones.
    seed, dealt = find_seed(replica(live), lambda h: h.seed not in USED and wanted(h))
    USED.add(dealt.seed)
    bed.seeds.append(seed)
    if first:
        await bed.press(players[0], group, "Start")
    else:
        await bed.ring(group)
    while True:
        hand = bed.live(group).hand
        if hand is None or hand.is_over:
            return
        if hand.phase is Phase.SVARA_JOIN:
            pending = min(hand.pending)
            who = next(p for p in players if p.id == hand.seats[pending].player)
            assert await bed.press(who, group, "Skip") is None
            continue
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


def announcements(group: ChatRecord) -> list[str]:
    return [m.text or "" for m in group.bot_messages() if (m.text or "").startswith(CHAMPION)]


async def test_a_month_of_hands_crowns_its_champion_once_and_keeps_him(bed: Bed) -> None:
    first, last, next_month = this_month()
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    await bed.open_table(group, ana, boris, vera)
    # Ana wins two hands (2 points); Boris wins one, in a svara (1 + 1 = 2 points); Vera
    # wins one (1 point). Ana and Boris tie on points: Ana has won more hands.
    await play(bed, group, players, plain, winner=ana, folder=vera, first=True)
    await play(bed, group, players, svara, winner=boris, folder=vera, first=False)
    await play(bed, group, players, plain, winner=ana, folder=boris, first=False)
    await play(bed, group, players, plain, winner=vera, folder=ana, first=False)
    svaras = await bed.store.db.fetchall(
        "SELECT user_id FROM hand_players WHERE svara_won = 1")
    assert [r[0] for r in svaras] == [boris.id]

    answer = await reply(bed, vera, group, "/season")
    assert answer[0].splitlines() == [
        f"🏆 This season: {first} – {last}",
        f"It ends {dt.datetime.fromtimestamp(next_month, dt.UTC):%Y-%m-%d} 00:00 UTC.",
        "",
        "1. Ana: 2 points · 2 won",
        "2. Boris: 2 points · 1 won",
        "3. Vera: 1 point · 1 won",
        "",
        "Points: 1 for each hand won, 1 more for each svara won; a tournament's 1st, 2nd "
        "and 3rd place: 10, 6 and 3.",
    ]
    # The chart of their points follows, as /stats sends its chart.
    photos = [m for m in group.bot_messages() if m.photo]
    assert len(photos) == 1 and len(answer) == 2

    # The month ends: Ana is announced, once.
    closer(bed).clock = lambda: float(next_month + 30)
    await closer(bed).tick()
    await bed.idle()
    assert announcements(group) == [
        f"🏆 The season {first} – {last} is over. Its champion: Ana, 2 points, hands won: 2.\n"
        "A new season begins now: /season shows the standings."]
    (news,) = [m for m in group.bot_messages() if (m.text or "").startswith(CHAMPION)]
    # Read as HTML (the champion in bold), with no link preview under it.
    assert [e["type"] for e in news.entities] == ["bold"] and news.previews is False
    await closer(bed).tick()
    await bed.idle()
    assert len(announcements(group)) == 1
    answer = await reply(bed, boris, group, "/season")
    assert "Nobody has points yet this season: win a hand here to score." in answer[0]

    # After a restart she is still the champion, and nobody is announced again.
    await bed.restart()
    steady_clock(bed)
    closer(bed).clock = lambda: float(next_month + 90)
    await closer(bed).tick()
    await bed.idle()
    assert len(announcements(group)) == 1
    answer = await reply(bed, boris, group, "/season last")
    assert answer == [f"🏆 Champions of the past seasons\n{first} – {last}: Ana, 2 points"]
    rows = await bed.store.db.fetchall(
        "SELECT chat_id, length, champion, points, won, announce_due FROM seasons")
    assert [tuple(r) for r in rows] == [(group.id, "month", ana.id, 2, 2, 0)]


async def test_a_lost_announcement_is_sent_by_the_job_after_a_restart(bed: Bed) -> None:
    _, _, next_month = this_month()
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    await bed.open_table(group, ana, boris, vera)
    await play(bed, group, players, plain, winner=boris, folder=vera, first=True)
    # Every try of the announcement meets a flood wait: it is lost, still due.
    bed.tg.faults.fail_next("sendMessage", Fault.retry_after(0.01), chat_id=group.id, times=8)
    closer(bed).clock = lambda: float(next_month + 30)
    await closer(bed).tick()
    await bed.idle()
    assert announcements(group) == []
    assert [s.champion for s in await bed.store.seasons.due()] == [boris.id]
    # The bot stops before its next run: the job's first run after the start sends it.
    await bed.restart()
    sent = await bed.tg.world.wait_for(lambda: announcements(group) or None, timeout=5,
                                       what="the champion's announcement")
    await bed.idle()
    assert len(sent) == 1 and "Boris, 1 point" in sent[0]
    # The job's run marks it sent after Telegram took it: it may still be finishing.
    for _ in range(500):
        if not await bed.store.seasons.due():
            break
        await asyncio.sleep(0.01)
    assert await bed.store.seasons.due() == []


async def test_a_chat_whose_seasons_are_off_has_no_standings_and_no_champion(
        bed: Bed) -> None:
    _, _, next_month = this_month()
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    answer = await reply(bed, ana, group, "/settings season off")
    assert answer[0].startswith("Saved."), answer
    settings = await reply(bed, boris, group, "/settings")
    assert "Season length: no seasons · season" in settings[0], settings
    await bed.open_table(group, ana, boris, vera)
    await play(bed, group, players, plain, winner=ana, folder=vera, first=True)
    answer = await reply(bed, boris, group, "/season")
    assert answer == ["This chat has no seasons (a chat admin turns them on: /settings "
                      "season month)."]
    closer(bed).clock = lambda: float(next_month + 30)
    await closer(bed).tick()
    await bed.idle()
    assert announcements(group) == []
    assert await bed.store.db.fetchall("SELECT * FROM seasons") == []


async def test_a_practice_table_earns_no_season_points(bed: Bed) -> None:
    _, _, next_month = this_month()
    ana = await practising(bed, "/practice 1")
    table_id = bed.live(ana.dm).id
    await play_out(bed, ana, "All-in", "Call", "No blind", "Join svara")
    wins = await bed.store.db.fetchall(
        "SELECT count(*) FROM hands WHERE table_id = ? AND status = 'settled'", (table_id,))
    assert int(wins[0][0]) > 0
    answer = await reply(bed, ana, ana.dm, "/season")
    assert answer == ["/season works in a group."]
    closer(bed).clock = lambda: float(next_month + 30)
    await closer(bed).tick()
    await bed.idle()
    assert await bed.store.db.fetchall("SELECT * FROM seasons") == []
    assert not any((m.text or "").startswith(CHAMPION) for m in ana.dm.bot_messages())
    assert time.time() < next_month


async def test_an_admin_chooses_weekly_seasons_in_the_settings_menu(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris, admins=(ana,))
    steady_clock(bed)
    await ana.send(group, "/settings")
    await bed.idle()
    menu = group.last_bot_message
    assert "Season length: a month" in [label for row in menu.buttons for label in row]
    await (await ana.press(menu, "Season length: a month")).answer()
    await bed.idle()
    assert menu.buttons == [["✅ a month", "a week", "a quarter", "no seasons"],
                            ["« All settings"]]
    saved = await (await ana.press(menu, "a week")).answer()
    assert saved.text == "Saved. Season length: a week."
    # Thursday 3 December 2026: the week began on Monday 30 November and ends on Sunday.
    closer(bed).clock = lambda: float(dt.datetime(2026, 12, 3, 13, tzinfo=dt.UTC).timestamp())
    answer = await reply(bed, boris, group, "/season")
    assert answer[0].splitlines()[:2] == ["🏆 This season: 2026-11-30 – 2026-12-06",
                                          "It ends 2026-12-07 00:00 UTC."]
    answer = await reply(bed, boris, group, "/season 2025")
    assert answer == ["Use /season for this season's standings, /season last for the champions "
                      "of the seasons before."]
