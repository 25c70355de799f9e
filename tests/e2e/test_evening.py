"""An evening at one table: players go broke and come back the same night, through a
rebuy from the house, a chat admin's gift from the house and a friend's gift, with
every chip accounted for."""

from __future__ import annotations

import asyncio
import random
import re

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from engine import Phase
from tests.e2e.bed import Bed
from tests.e2e.test_history import reply, steady_clock
from tests.e2e.test_rule_holes import sit_out_by_timeouts
from tests.e2e.test_rules_paths import seat_everyone

HANDS = 30
ANTE = 100
REBUY = 500
GIFT = 300
REBUYS = 2


async def play_hand(bed: Bed, group: ChatRecord, players: list[Player],
                    gamblers: set[int], rng: random.Random) -> None:
    """Play the hand in progress to its end: gamblers go all in, the others mostly call
    small and fold to big bets; nobody bets blind or joins a svara."""
    by_id = {p.id: p for p in players}
    live = bed.live(group)
    for _ in range(60):
        hand = live.hand
        if hand is None:
            return
        if hand.phase is Phase.SVARA_JOIN:
            await bed.ring(group)
            continue
        assert hand.to_act is not None
        who = by_id[hand.seats[hand.to_act].player]
        labels = (await bed.table_message(group)).labels
        if hand.phase is Phase.BLIND:
            label = "No blind"
        elif who.id in gamblers and rng.random() < 0.5:
            label = next((x for x in labels if x.startswith("All-in")), None) or next(
                x for x in labels if x.startswith(("Call", "Bet")))
        else:
            calls = [x for x in labels if x.startswith(("Call", "Bet"))]
            small = [x for x in calls if int(x.split()[-1].strip("()")) <= 2 * ANTE]
            label = small[0] if small and rng.random() < 0.8 else (
                "Fold" if "Fold" in labels else calls[0])
        await bed.press(who, group, label)
    raise AssertionError("the hand did not end")


async def private_word(bed: Bed, who: Player, start: str) -> str:
    """The latest private message to `who` that starts with `start` (it is sent without
    holding up the table, so it may come a moment later)."""
    for _ in range(100):
        await bed.idle()
        found = [m.text or "" for m in who.inbox if (m.text or "").startswith(start)]
        if found:
            return found[-1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"{who.name} was not told {start!r}")


def broke(bed: Bed, group: ChatRecord) -> list[int]:
    return [s.player for s in bed.live(group).table.seats if s.stack < ANTE]


async def test_an_evening_of_thirty_hands_in_which_two_go_broke_and_come_back(
        bed: Bed) -> None:
    world = bed.tg.world
    ana, boris, vera, dimo, georgi, petar = people = [
        world.user(n, username=n.lower())
        for n in ("Ana", "Boris", "Vera", "Dimo", "Georgi", "Petar")]
    players = [ana, boris, vera, dimo]
    # Georgi keeps the chat (an admin) and Petar keeps him company: both watch.
    group = world.group("Svara night", members=people, admins=[georgi])
    steady_clock(bed)
    for line in (f"/settings ante {ANTE}", f"/settings rebuy {REBUY}", f"/settings rebuys {REBUYS}",
                 f"/settings allowance {GIFT}"):
        assert len(await reply(bed, georgi, group, line)) == 1
    await reply(bed, petar, group, "/balance")  # Petar has his 1000 chips
    await bed.open_table(group, *players)
    assert await bed.press(ana, group, "Start") is None
    rng = random.Random(11)
    gamblers = {boris.id, vera.id}
    came_back: list[tuple[str, str]] = []
    by_id = {p.id: p for p in people}
    for number in range(1, HANDS + 1):
        await play_hand(bed, group, players, gamblers, rng)
        live = bed.live(group)
        assert live.hand_no == number
        for player_id in broke(bed, group):
            who = by_id[player_id]
            used = [path for _, path in came_back]
            if not came_back:  # the first time: what the broke player is told
                word = await private_word(bed, who, "Svara night: your stack is below")
                assert word == (
                    "Svara night: your stack is below the ante, so you sit out. Send /topup "
                    f"there to bring chips from your balance, or /rebuy to take {REBUY} chips "
                    "from the house."), word
                assert await reply(bed, who, group, "/back") == [
                    f"You are seated, but your stack is below the ante of {ANTE} chips: "
                    "/topup brings chips from your balance."]
            if came_back.count((who.name, "rebuy")) < REBUYS:
                left = REBUYS - 1 - came_back.count((who.name, "rebuy"))
                (answer,) = await reply(bed, who, group, "/rebuy")
                assert answer == (f"{who.name} takes {REBUY} chips from the house: stack "
                                  f"{REBUY}, {left} more rebuys."), answer
                came_back.append((who.name, "rebuy"))
                continue
            (refused,) = await reply(bed, who, group, "/rebuy")
            assert refused.startswith(f"You have taken all {REBUYS} rebuys"), refused
            if "admin" not in used:
                (answer,) = await reply(bed, georgi, group,
                                        f"/give @{who.name.lower()} {GIFT}")
                assert answer == (f"{who.name} gets {GIFT} chips from the house; the chat "
                                  "may give 0 chips more today."), answer
                (again,) = await reply(bed, georgi, group, f"/give @{who.name.lower()} 1")
                assert again.startswith("The house may give 0 chips more today"), again
                came_back.append((who.name, "admin"))
            elif "friend" not in used:
                (answer,) = await reply(bed, petar, group,
                                        f"/give {GIFT} @{who.name.lower()}")
                assert answer == f"{who.name} gets {GIFT} chips from Petar.", answer
                came_back.append((who.name, "friend"))
            else:  # every way back taken: he goes home
                await reply(bed, who, group, "/leave")
                players.remove(who)
                continue
            (topped,) = await reply(bed, who, group, "/topup")
            assert topped == f"Your stack is now {GIFT}.", topped
        assert broke(bed, group) == []
        if number < HANDS:
            await bed.ring(group)  # the pause is over: the next hand
    assert len({name for name, _ in came_back}) >= 2, came_back
    assert {path for _, path in came_back} == {"rebuy", "admin", "friend"}, came_back

    (results,) = await reply(bed, georgi, group, "/endgame")
    assert results.startswith(f"🏁 Svara: results after {HANDS} hands"), results
    rebuys = sum(1 for _, path in came_back if path == "rebuy")
    for name in {name for name, path in came_back if path == "rebuy"}:
        taken = came_back.count((name, "rebuy"))
        shown = "(1 rebuy)" if taken == 1 else f"({taken} rebuys)"
        assert any(line.startswith(f"{name}: ") and line.endswith(shown)
                   for line in results.splitlines()), results
    # Every chip: the starting chips, the rebuys and the house's gift, and no other.
    balances = [await bed.store.users.balance(p.id) for p in people]
    assert sum(balances) == 6 * 1000 + rebuys * REBUY + GIFT
    nets = [int(line.split(": ")[1].split()[0]) for line in results.splitlines()[2:6]]
    # What the table paid out is what was brought to it, rebuys not counted as brought.
    assert sum(nets) == 0, results
    await bed.audit()


async def test_bad_rebuys_and_gifts_get_a_clear_answer_and_move_nothing(bed: Bed) -> None:
    world = bed.tg.world
    ana, boris = [world.user(n, username=n.lower()) for n in ("Ana", "Boris")]
    stranger = world.user("Zed", username="zed")
    group = world.group("Svara night", members=[ana, boris, stranger], admins=[ana])
    steady_clock(bed)
    await bed.open_table(group, ana, boris)
    before = await bed.store.audit()
    assert await reply(bed, boris, group, "/rebuy") == [
        "This table has no rebuys. A chat admin can allow them: /settings rebuy 500."]
    await reply(bed, ana, group, "/settings rebuy 500")
    assert await reply(bed, boris, group, "/rebuy") == [
        "A rebuy is for a player with no chips left: /topup brings more from your balance."]
    usage = ("Give chips like this: /give @name 100, or reply to the player's message with "
             "/give 100.")
    # Nobody named, or no amount: buttons would ask, but Boris has nothing to give.
    assert await reply(bed, boris, group, "/give") == ["You have 0 chips to give."]
    assert await reply(bed, boris, group, "/give @ana") == ["You have 0 chips to give."]
    assert await reply(bed, boris, group, "/give ana 5") == [usage]
    assert await reply(bed, boris, group, "/give @ana -5") == [usage]
    assert await reply(bed, boris, group, "/give @ana 5 6") == [usage]
    assert await reply(bed, boris, group, "/give @zed 5") == [
        "I do not know @zed yet: he needs to write to me once (or reply to his message "
        "with /give 100)."]
    assert await reply(bed, boris, group, "/give @boris 5") == [
        "You cannot give chips to yourself."]
    assert await reply(bed, boris, group, "/give @ana 5") == ["You have 0 chips to give."]
    # Ana is an admin, but the chat has no allowance: her gift is her own, and she has none.
    assert await reply(bed, ana, group, "/give @boris 5") == ["You have 0 chips to give."]
    after = await bed.store.audit()
    assert (after.granted, after.balances, after.stacks) == (
        before.granted, before.balances, before.stacks)
    # As a reply to his message, Zed (who has now written) is found without an @name.
    said = await stranger.send(group, "hello")
    await reply(bed, ana, group, "/settings allowance 100")
    await bed.idle()
    before_send = len(group.bot_messages())
    await ana.send(group, "/give 40", reply_to=said)
    await bed.idle()
    assert [m.text for m in group.bot_messages()[before_send:]] == [
        "Zed gets 40 chips from the house; the chat may give 60 chips more today."]
    assert await bed.store.users.balance(stranger.id) == 1000 + 40
    await stranger.start_bot()
    (statement,) = await reply(bed, stranger, stranger.dm, "/balance")
    assert "+40 gift from the house" in statement, statement
    await bed.audit()


async def test_chips_and_seats_asked_for_during_a_hand_come_at_the_next_one(bed: Bed) -> None:
    ana, boris, vera, dimo = players = bed.players("Ana", "Boris", "Vera", "Dimo")
    group = bed.group(*players)
    steady_clock(bed)
    await reply(bed, ana, group, "/settings buyin 30")  # 300 at the table, 700 kept
    await bed.open_table(group, ana, boris, vera)
    await dimo.start_bot()
    assert await bed.press(ana, group, "Start") is None
    live = bed.live(group)
    assert live.hand is not None and ana.id in live.table.dealt
    await reply(bed, ana, group, "/settings buyin 60")  # from the next hand: 600
    assert await reply(bed, ana, group, "/topup 200") == [
        "+200 chips at the next hand. /topup cancel takes it back."]
    assert await reply(bed, boris, group, "/topup") == [
        "Chips up to the table's maximum at the next hand. /topup cancel takes it back."]
    assert await reply(bed, boris, group, "/topup cancel") == [
        "Cancelled: nothing is added at the next hand."]
    assert await reply(bed, boris, group, "/topup cancel") == [
        "Nothing was waiting for your next hand."]
    assert await reply(bed, vera, group, "/topup 701") == [
        "You can add up to 600 chips now (your balance is 700 chips)."]
    assert await reply(bed, dimo, group, "/join") == ["You sit down at the next hand."]
    assert await bed.store.users.balance(ana.id) == 700  # nothing moved yet
    await play_hand(bed, group, [ana, boris, vera], set(), random.Random(1))
    top_ups = await bed.store.db.fetchall(
        "SELECT user_id, delta FROM ledger WHERE kind = 'top_up' AND account = 'stack'"
        " AND table_id = ?", (live.id,))
    assert [(r[0], r[1]) for r in top_ups] == [(ana.id, 200)]
    assert await bed.store.users.balance(ana.id) == 500
    # His card message folds the proof of his cards away in an expandable quote.
    card = next(m for m in reversed(ana.inbox) if (m.text or "").startswith("🃏 "))
    folded = [e for e in card.entities if e["type"] == "expandable_blockquote"]
    assert len(folded) == 1 and "position|card|salt" in (card.text or "")[
        folded[0]["offset"]:folded[0]["offset"] + folded[0]["length"]]
    first_id = live.hand_id
    await bed.ring(group)  # the next hand: Dimo is dealt in
    assert live.hand is not None and dimo.id in live.table.dealt
    # The first hand stays in a line until the second one's first action.
    text = (await bed.table_message(group)).text or ""
    assert re.search(rf"Last hand: \w+ (won|took) \d+.* · /hand {first_id}$", text, re.M), text
    await bed.audit()


async def test_a_player_left_sitting_out_is_told_privately_how_to_come_back(bed: Bed) -> None:
    group, players = await seat_everyone(bed, "Ana", "Boris", "Vera", blind=False)
    await sit_out_by_timeouts(bed, group, players, players[2])
    word = await private_word(bed, players[2], "Svara night: you sit out")
    assert word == ("Svara night: you sit out, your turn ran out in two hands in a row. "
                    "Press I'm back on the table, or send /back there, to play from the next "
                    "hand.")
    assert not [m for p in players[:2] for m in p.inbox
                if (m.text or "").startswith("Svara night: you sit out")]


async def test_chips_queued_during_a_hand_survive_a_restart(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(*players)
    steady_clock(bed)
    await reply(bed, ana, group, "/settings buyin 60")  # 600 at the table, 400 kept
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    assert await reply(bed, boris, group, "/topup") == [
        "Chips up to the table's maximum at the next hand. /topup cancel takes it back."]
    await bed.restart()
    steady_clock(bed)
    live = bed.live(group)
    while (hand := live.hand) is not None:  # Boris folds (he loses his ante), Ana bets
        assert hand.to_act is not None
        who = players[0] if hand.seats[hand.to_act].player == ana.id else boris
        labels = (await bed.table_message(group)).labels
        label = "No blind" if hand.phase is Phase.BLIND else (
            "Fold" if who is boris else next(x for x in labels if x.startswith("Bet")))
        await bed.press(who, group, label)
        live = bed.live(group)
    rows = await bed.store.db.fetchall(
        "SELECT user_id FROM ledger WHERE kind = 'top_up' AND account = 'stack'")
    assert [r[0] for r in rows] == [boris.id]
    assert live.table.seat(boris.id) is not None
    assert next(s.stack for s in live.table.seats if s.player == boris.id) == 600
    await bed.audit()
