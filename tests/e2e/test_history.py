"""/history, /hand N with its fairness proof, /daily, /top and /stats through the stand-in."""

from __future__ import annotations

import base64
import hashlib
import itertools
import re
import struct

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from engine import Hand, Phase
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, cards_of, find_seed, points_of, replica

OPENING = re.compile(r"\d+\|[0-9TJQKA][cdhs]\|[0-9a-f]{32}")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def play_showdown(bed: Bed, group: ChatRecord, players: list[Player],
                        folder: int) -> Hand:
    """One hand: everyone declines the blind, `folder` folds, the other two show."""
    others = [i for i in range(len(players)) if i != folder]
    seed, dealt = find_seed(replica(bed.live(group)),
                        lambda h: best(points_of(h), others) is not None)
    bed.seeds.append(seed)
    await bed.press(players[0], group, "Start")
    while True:
        hand = bed.live(group).hand
        if hand is None or hand.is_over:
            return dealt
        seat = hand.to_act
        assert seat is not None
        who = next(p for p in players if p.id == hand.seats[seat].player)
        table = await bed.table_message(group)
        if hand.phase is Phase.BLIND:
            label = "No blind"
        elif players.index(who) == folder:
            label = "Fold"
        else:
            label = next(lbl for row in table.buttons for lbl in row
                         if lbl.startswith(("Call", "Bet")))
        assert await bed.press(who, group, label) is None, label


def steady_clock(bed: Bed) -> None:
    """Every command a few seconds after the last: none is a too-fast repeat."""
    ticks = itertools.count(1_000_000, 5)
    bed.app.bot_data["clock"] = lambda: float(next(ticks))


async def reply(bed: Bed, player: Player, chat: ChatRecord, text: str) -> list[str]:
    """What the bot answers to `text` (every new message of the bot that `player` sees in
    that chat)."""
    await bed.idle()
    before = len(bed.seen(chat, player))
    await player.send(chat, text)
    await bed.idle()
    return [m.text or m.caption or "" for m in bed.seen(chat, player)[before:]]


async def test_hand_proof_opens_shown_cards_only_and_checks_with_hashlib(bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    await bed.open_table(group, ana, boris, vera)
    dealt = cards_of(await play_showdown(bed, group, players, folder=2))
    last = await bed.store.hands.last(bed.live(group).id)
    assert last is not None and last.status == "settled"
    number = last.number
    folded = {c.ascii for c in dealt[2]}
    shown = {c.ascii for c in dealt[0] + dealt[1]}

    history = await reply(bed, ana, group, "/history")
    assert len(history) == 1 and f"#{number} · " in history[0], history

    answer = await reply(bed, boris, group, f"/hand {number}")
    assert len(answer) == 2, answer
    story, proof = answer
    assert story.splitlines()[0].startswith(f"📜 Hand {number} · ")
    assert "Vera folds" in story
    # The proof in full is folded into the message, as the checking page reads it.
    message = bed.seen(group, boris)[-1]
    assert "expandable_blockquote" in {e.get("type") for e in message.entities}
    lines = proof.splitlines()
    fields = dict(part.split("=", 1)
                  for part in lines[lines.index("For the checking page:") + 1].split("&"))
    root = fields["c1"]
    raw = base64.urlsafe_b64decode(fields["h1"] + "=" * (-len(fields["h1"]) % 4))
    hashes = [raw[q:q + 32].hex() for q in range(0, len(raw), 32)]
    assert f"Deck seal: {root[:8]}…, the same as on your card message" in proof
    opened = [item.split("-") for item in fields["o1"].split(".")]
    # Recomputed here from the text alone.
    assert len(hashes) == 32 and sha(" ".join(hashes)) == root
    assert all(sha(f"{p}|{c}|{s}") == hashes[int(p) - 1] for p, c, s in opened)
    assert {c for _, c, _ in opened} == shown and not folded & {c for _, c, _ in opened}
    # The root is the one every player got with his cards before the deal.
    for player, seat in ((ana, 0), (boris, 1), (vera, 2)):
        dm = next(m.text or "" for m in player.inbox if "Points:" in (m.text or ""))
        assert f"🔐 Deck: {root}" in dm.splitlines()
        own = [line.split("|") for line in dm.splitlines() if OPENING.fullmatch(line)]
        assert len(own) == 3
        assert {c for _, c, _ in own} == {c.ascii for c in dealt[seat]}
        assert all(sha(f"{p}|{c}|{s}") == hashes[int(p) - 1] for p, c, s in own)

    other = bed.tg.world.group("Other", members=[ana], admins=[ana])
    assert await reply(bed, ana, other, f"/hand {number}") == [
        f"No hand {number} was played in this chat."]
    for bad in ("/hand", "/hand -3", "/hand abc", "/hand 1 2"):
        assert await reply(bed, ana, group, bad) == [
            "Use /hand NUMBER, e.g. /hand 12 (numbers are in /history)."], bad
    assert await reply(bed, ana, ana.dm, f"/hand {number}") == ["/hand works in a group."]


async def test_daily_once_a_day_on_the_bot_clock_and_repeats_answered_once(bed: Bed) -> None:
    ana = bed.players("Ana")[0]
    group = bed.group(ana)
    now = [1_000_000.0]
    bed.app.bot_data["clock"] = lambda: now[0]
    first = await reply(bed, ana, group, "/daily")
    assert first == ["🎁 Ana: +200 chips. Balance: 1200. Come back in 24 h."]
    now[0] += 2
    assert await reply(bed, ana, group, "/daily") == ["Your next bonus comes in 23 h 59 min."]
    # Twice within the same second: one answer.
    now[0] += 5 * 3600
    await ana.send(group, "/daily")
    again = await reply(bed, ana, group, "/daily")
    assert again == [] and (await bed.store.users.get(ana.id)).balance == 1200
    now[0] = 1_000_000 + 24 * 3600
    assert await reply(bed, ana, group, "/daily") == [
        "🎁 Ana: +200 chips. Balance: 1400. Come back in 24 h."]
    bonuses = await bed.store.db.fetchall(
        "SELECT delta FROM ledger WHERE kind = 'bonus' AND account = 'balance'")
    assert [int(r[0]) for r in bonuses] == [200, 200]
    now[0] += 10
    assert await reply(bed, ana, group, "/daily 5") == ["/daily takes no arguments."]


async def test_top_and_stats_match_the_ledger_and_the_chart_is_a_png(bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    await bed.open_table(group, ana, boris, vera)
    await play_showdown(bed, group, players, folder=2)
    rows = await bed.store.db.fetchall(
        "SELECT user_id, sum(delta) FROM ledger WHERE account = 'stack'"
        " AND hand_id IS NOT NULL GROUP BY user_id")
    by_id = {int(r[0]): int(r[1]) for r in rows}
    nets = {p.name: by_id[p.id] for p in players}
    assert sum(nets.values()) == 0 and sorted(nets.values())[-1] > 0
    ranked = sorted(players, key=lambda p: -nets[p.name])
    top = await reply(bed, vera, group, "/top")
    assert len(top) == 1
    lines = top[0].splitlines()
    assert lines[0] == "Leaderboard of this chat"
    for rank, p in enumerate(ranked, start=1):
        won = 1 if rank == 1 else 0
        assert lines[rank].startswith(
            f"{rank}. {p.name}: {nets[p.name]:+d} · 1 hand, {won} won · biggest pot "), lines
    assert await reply(bed, vera, group, "/top nonsense") == [
        "Use /top, or /top all for every chat."]

    stats = await reply(bed, vera, group, "/stats")
    assert stats[0].splitlines()[:2] == [
        "📊 Vera", f"Hands played 1, won 0 · net {nets['Vera']:+d}"]
    photo = bed.seen(group, vera)[-1].photo
    assert photo is not None
    data = photo.data
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and 5_000 < len(data) < 500_000
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (960, 600)


async def test_stats_group_draws_the_chat_and_refuses_where_it_has_nothing(bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    now = [1_000_000.0]
    bed.app.bot_data["clock"] = lambda: now[0]
    assert await reply(bed, ana, group, "/stats group") == [
        "No hand has been played here in the last 30 days."]
    await bed.open_table(group, ana, boris, vera)
    await play_showdown(bed, group, players, folder=2)
    (last,) = await bed.store.db.fetchall("SELECT max(at) FROM hand_players")
    ended = int(last[0])

    now[0] = ended + 29 * 24 * 3600
    assert await reply(bed, boris, group, "/stats group") == [""]  # the photo, no text
    photo = bed.seen(group, boris)[-1].photo
    assert photo is not None
    data = photo.data
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and 5_000 < len(data) < 500_000
    assert struct.unpack(">II", data[16:24]) == (960, 780)

    now[0] = ended + 30 * 24 * 3600 + 1
    assert await reply(bed, boris, group, "/stats group") == [
        "No hand has been played here in the last 30 days."]
    await ana.start_bot()
    assert await reply(bed, ana, ana.dm, "/stats group") == ["/stats group works in a group."]
    now[0] += 5  # not a repeat of the same command within a second
    assert await reply(bed, ana, group, "/stats everyone") == [
        "Use /stats, or reply /stats to a player's message."]
    (help_text,) = await reply(bed, ana, group, "/help")
    lines = help_text.splitlines()
    at = lines.index("/stats: Your figures and chart (reply to see a player's)")
    assert lines[at + 1] == ("/stats group: This chat's chart: each regular's net over the last"
                             " 30 days")
