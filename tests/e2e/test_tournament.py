"""A sit-and-go tournament through the stand-in: four players register, the ante rises
with the level, a timeout folds a player, a restart in the middle loses nothing, and the
places are paid exactly from the pool."""

from __future__ import annotations

from collections.abc import Callable

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from bot.seasons import SeasonLength, period_of
from engine import Hand, Phase
from tests.e2e.bed import Bed
from tests.e2e.seeds import find_seed, points_of, replica
from tests.e2e.test_history import reply


def beats(winner: int, loser: int) -> Callable[[Hand], bool]:
    return lambda hand: points_of(hand)[winner] > points_of(hand)[loser]


async def plan(bed: Bed, group: ChatRecord, winner: Player, loser: Player) -> None:
    """The next deal gives `winner` more points than `loser`."""
    live = bed.live(group)
    seat = {s.player: i for i, s in enumerate(live.table.seats)}
    seed, _ = find_seed(replica(live), beats(seat[winner.id], seat[loser.id]))
    bed.seeds.append(seed)


async def play_out(bed: Bed, group: ChatRecord, players: list[Player], *,
                   all_in: tuple[Player, ...], times_out: Player | None = None,
                   restart: bool = False) -> None:
    """The hand in play to its end: no blind; the players of `all_in` go all-in, the
    others fold, `times_out` by letting his turn run out; with `restart` the bot restarts
    after the hand's first step."""
    while True:
        live = bed.games.at(group.id, None)
        hand = None if live is None else live.hand
        if hand is None or hand.is_over:
            return
        to_act = hand.to_act
        assert to_act is not None
        who = next(p for p in players if p.id == hand.seats[to_act].player)
        if hand.phase is Phase.BLIND:
            assert await bed.press(who, group, "No blind") is None
            if restart:
                await bed.restart()
                restart = False
        elif who is times_out:
            await bed.ring(group)
        else:
            table = await bed.table_message(group)
            labels = [lbl for row in table.buttons for lbl in row]
            # All-in, or the call that puts a player all-in.
            full = next(lbl for lbl in labels if lbl.startswith(("All-in", "Call"))) \
                if who in all_in else "Fold"
            assert await bed.press(who, group, full) is None, full


async def balance(bed: Bed, player: Player) -> int:
    return (await bed.store.users.get(player.id)).balance


async def test_four_players_play_a_tournament_to_its_end_and_the_pool_pays_the_places(
        bed: Bed) -> None:
    ana, boris, vera, goran = players = bed.players("Ana", "Boris", "Vera", "Goran")
    group = bed.group(*players)
    # Buy-in 100, a starting stack of 200 tournament chips, the level rises every 2 hands.
    await ana.send(group, "/tournament 100 200 2")
    table = await bed.table_message(group)
    assert "🏆 Tournament · buy-in 100 chips · pool 0 chips" in (table.text or "")
    for p in players:
        await p.start_bot()
        await bed.idle()
        answer = await (await p.press(table, "Join")).answer()
        assert not answer.show_alert, answer.text
    await bed.idle()
    for p in players:  # 1000 to start with, 100 in the pool
        assert await balance(bed, p) == 900
    table = await bed.table_message(group)
    assert "pool 400 chips · 4 players" in (table.text or "")
    assert "Level 1: ante 10 · next level in 2 hands" in (table.text or "")

    # Hand 1, ante 10: Ana (190 behind) and Vera (190) all-in, Ana wins 40 + 380.
    await plan(bed, group, ana, vera)
    await bed.press(ana, group, "Start")
    await play_out(bed, group, players, all_in=(ana, vera))
    stacks = {s.player: s.stack for s in bed.live(group).table.seats}
    assert stacks == {ana.id: 420, boris.id: 190, goran.id: 190}
    table = await bed.table_message(group)
    assert "Places: 4. Vera" in (table.text or "")
    assert "next level in 1 hand" in (table.text or "")

    # Hand 2, ante 10: Ana's turn runs out (a fold); Boris and Goran all-in for 180, Boris
    # wins 30 + 360.
    await plan(bed, group, boris, goran)
    await bed.ring(group)
    await play_out(bed, group, players, all_in=(boris, goran), times_out=ana)
    stacks = {s.player: s.stack for s in bed.live(group).table.seats}
    assert stacks == {ana.id: 410, boris.id: 390}
    table = await bed.table_message(group)
    # Two hands played: the second level, its ante 20, from the next deal.
    assert "Level 2: ante 20" in (table.text or "")
    assert "Places: 3. Goran · 4. Vera" in (table.text or "")
    # A restart between hands keeps the level, the places and the pool.
    await bed.restart()
    text = (await bed.table_message(group)).text or ""
    assert "pool 400 chips" in text and "Level 2: ante 20" in text
    assert "Places: 3. Goran · 4. Vera" in text

    # Hand 3, ante 20, with a restart after its first step: Boris all-in for 370, Ana all-in
    # for 390 (20 of it comes back), Ana wins 40 + 740 and the tournament.
    await plan(bed, group, ana, boris)
    await bed.ring(group)
    hand = bed.live(group).hand
    assert hand is not None and hand.rules.ante == 20
    assert {s.player: s.stack for s in hand.seats} == {ana.id: 390, boris.id: 370}
    await play_out(bed, group, players, all_in=(ana, boris), restart=True)
    await bed.idle()

    # 65/35 of the pool of 400: Ana 260, Boris 140; Goran and Vera nothing.
    assert await balance(bed, ana) == 900 + 260
    assert await balance(bed, boris) == 900 + 140
    assert await balance(bed, goran) == 900
    assert await balance(bed, vera) == 900
    rows = await bed.store.db.fetchall(
        "SELECT user_id, place, prize FROM tournament_places ORDER BY place")
    assert [tuple(r) for r in rows] == [(ana.id, 1, 260), (boris.id, 2, 140),
                                       (goran.id, 3, 0), (vera.id, 4, 0)]
    status = await bed.store.db.fetchall("SELECT status, level FROM tournaments")
    assert [tuple(r) for r in status] == [("finished", 1)]
    closed = [m for m in group.bot_messages() if "the table is closed" in (m.text or "")]
    assert closed and "Places: 1. Ana: 260 chips · 2. Boris: 140 chips · 3. Goran · 4. Vera" \
        in (closed[-1].text or "")
    report = await bed.store.audit()
    assert report.ok, report
    assert report.pools == 0 and report.tournament_issued == 0

    # The winner's badge, with the last hand; the season's points by place: 10, 6, 3.
    badges = await bed.store.db.fetchall(
        "SELECT a.user_id, h.number FROM achievements a JOIN hands h ON h.id = a.hand_id"
        " WHERE a.badge = 'tournament_won'")
    assert [tuple(r) for r in badges] == [(ana.id, 3)]
    assert "🏅 Ana earns 🏆 Tournament won" in (closed[-1].text or "")
    at = (await bed.store.db.fetchall("SELECT max(at) FROM tournament_places"))[0][0]
    board = await bed.store.seasons.standings(group.id, period_of(at, SeasonLength.MONTH))
    assert [(s.user_id, s.points) for s in board] == [(ana.id, 10), (boris.id, 6),
                                                       (goran.id, 3)]
    # Her statement names the buy-in and the prize.
    statement = "\n".join(await reply(bed, ana, ana.dm, "/balance"))
    assert "tournament buy-in" in statement and "tournament prize" in statement, statement


async def test_the_chats_settings_give_a_tournament_its_schedule_and_its_prizes(
        bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    for words in ("tbuyin 50", "tclock minutes", "tlevel 15", "payout winner"):
        await ana.send(group, f"/settings {words}")
        await bed.idle()
    await ana.send(group, "/tournament")
    table = await bed.table_message(group)
    for p in (ana, boris, vera):
        await p.start_bot()
        await bed.idle()
    for p in (ana, boris):
        answer = await (await p.press(table, "Join")).answer()
        assert not answer.show_alert, answer.text
    await bed.press(ana, group, "Start")
    message = await bed.table_message(group)
    text = message.text or ""
    assert "buy-in 50 chips · pool 100 chips · 2 players" in text
    # The minutes left are as many as remain when the message is written; the moment of
    # the rise it names is the start and 15 minutes.
    assert "Level 1: ante 10 · next level in " in text
    rows = await bed.store.db.fetchall(
        "SELECT json_extract(schedule, '$.payout'), json_extract(schedule, '$.clock'),"
        " level_ends - started_at, level_ends FROM tournaments")
    assert [tuple(r)[:3] for r in rows] == [("[100]", "minutes", 900)]
    assert rows[0][3] in [e["unix_time"] for e in message.entities if e["type"] == "date_time"]
    # No late registration by default: the third player is told it is closed.
    answer = await (await vera.press(await bed.table_message(group), "Sit in next hand"))\
        .answer()
    assert answer.show_alert and answer.text == "Registration for this tournament is closed."
    assert await balance(bed, vera) == 1000


async def test_a_player_sitting_out_of_a_tournament_still_pays_the_ante(bed: Bed) -> None:
    ana, _boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    await ana.send(group, "/tournament 100 200 50")
    table = await bed.table_message(group)
    for p in players:
        await p.start_bot()
        await bed.idle()
        answer = await (await p.press(table, "Join")).answer()
        assert not answer.show_alert, answer.text
    for n in range(2):  # Vera's turn runs out in two hands in a row: she sits out
        if n == 0:
            await bed.press(ana, group, "Start")
        else:
            await bed.ring(group)
        bet = False
        while True:
            hand = bed.live(group).hand
            if hand is None or hand.is_over:
                break
            to_act = hand.to_act
            assert to_act is not None
            who = next(p for p in players if p.id == hand.seats[to_act].player)
            if hand.phase is Phase.BLIND:
                assert await bed.press(who, group, "No blind") is None
            elif who is vera:
                await bed.ring(group)
            elif not bet:
                label = bed.button(await bed.table_message(group), "Bet")
                assert await bed.press(who, group, label) is None
                bet = True
            else:
                assert await bed.press(who, group, "Fold") is None
    seat = bed.live(group).table.seat(vera.id)
    assert seat is not None and seat.sitting_out
    before = seat.stack
    await bed.ring(group)
    hand = bed.live(group).hand
    assert hand is not None
    index = hand.seat_of(vera.id)
    assert index is not None and not hand.seats[index].in_round
    assert hand.seats[index].stack == before - 10  # her ante, though she is away
    assert hand.pot == 30
