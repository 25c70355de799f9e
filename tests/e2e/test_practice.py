"""/practice: a table in the private chat against computer players, on practice chips."""

from __future__ import annotations

import asyncio
import random

from bot.practice import Practice, computer_due
from bot.sandbox.players import Player
from bot.store.practice import computer_of, wallet_of
from engine import Act, Action, Phase
from tests.e2e.bed import Bed


def practice(bed: Bed, seed: int = 3) -> Practice:
    """The bot's practice tables, with computers that move at once and a known shuffle."""
    found = bed.app.bot_data["practice"]
    assert isinstance(found, Practice)
    found.delay = 0.0
    found.rng = random.Random(seed)
    return found


async def settle(bed: Bed) -> None:
    """Wait until no computer player's move is due and the bot is quiet."""
    due = practice(bed).due
    for _ in range(20_000):
        await bed.idle()
        if not due:
            await bed.idle()
            if not due:
                return
        await asyncio.sleep(0.005)
    raise AssertionError("the computer players never stopped")


def pick(labels: list[str], *prefixes: str) -> str:
    """The first label that starts with one of `prefixes`, in the order given."""
    for prefix in prefixes:
        for label in labels:
            if label.startswith(prefix):
                return label
    raise AssertionError(f"none of {prefixes} in {labels}")


async def play_out(bed: Bed, me: Player, *prefixes: str, limit: int = 300) -> int:
    """Play `me`'s turns with the first button of `prefixes` until the table closes; let
    the timer deal the next hand. The number of hands dealt."""
    chat = me.dm
    for _ in range(limit):
        await settle(bed)
        live = bed.games.at(chat.id, None)
        if live is None:
            return bed.deals
        hand = live.hand
        seat = None if hand is None else hand.seat_of(me.id)
        due = hand is not None and seat is not None and (
            seat in hand.pending if hand.phase is Phase.SVARA_JOIN else hand.to_act == seat)
        if not due:
            await bed.ring(chat)  # the next deal, or a svara window nobody else is due in
            continue
        table = await bed.table_message(chat)
        label = pick([b for row in table.buttons for b in row], *prefixes)
        assert await bed.press(me, chat, label) is None, label
    raise AssertionError(f"the practice table did not close within {limit} steps")


async def timeouts(bed: Bed) -> int:
    """Turns a timer played for someone: the computers decide, the humans here press."""
    rows = await bed.store.db.fetchall(
        "SELECT count(*) FROM actions WHERE json_extract(action, '$.act') = 'timeout'")
    return int(rows[0][0])


async def practice_rows(bed: Bed, me: Player) -> list[tuple[str, str, int]]:
    """Every ledger row on `me`'s real balance: (kind, memo, delta)."""
    rows = await bed.store.db.fetchall(
        "SELECT kind, ifnull(memo, ''), delta FROM ledger WHERE account = 'balance'"
        " AND user_id = ? ORDER BY id", (me.id,))
    return [(r[0], r[1], int(r[2])) for r in rows]


async def test_a_whole_practice_table_leaves_the_real_balance_alone(bed: Bed) -> None:
    ana = await practising(bed, "/practice 2")
    intro = next(m.text or "" for m in ana.inbox if (m.text or "").startswith("Practice against"))
    assert "Bot Ana (normal), Bot Boris (cautious)" in intro and "1,000 practice chips" in intro
    live = bed.live(ana.dm)
    assert [s.player for s in live.table.seats] == [
        ana.id, computer_of(ana.id, 1), computer_of(ana.id, 2)]
    assert live.hand is not None and live.hand.stacks[ana.id] == 990  # the ante, practice chips
    table = await bed.table_message(ana.dm)
    assert "Bot Ana (normal)" in (table.text or "") and "🃏 Svara · hand 1" in (table.text or "")

    # Ana pushes every chip she may, until the table closes.
    hands = await play_out(bed, ana, "All-in", "Call", "No blind", "Join svara")
    assert bed.games.at(ana.dm.id, None) is None and hands >= 1
    assert await timeouts(bed) == 0
    closed = (await bed.store.tables.get(live.id))
    assert closed.status == "closed" and closed.practice
    # Every practice chip went back to the practice wallets; none to Ana's balance.
    await assert_practice_chips_home(bed, ana)
    await ana.send(ana.dm, "/balance")
    await bed.idle()
    assert "Balance: 1000" in (ana.last_dm.text or "").splitlines()
    assert "At table" not in (ana.last_dm.text or "")


async def assert_practice_chips_home(bed: Bed, ana: Player, computers: int = 2) -> None:
    """A closed practice table of Ana against `computers` computers: her balance never
    moved, the 1,000 practice chips of each seat are all back in the practice wallets, and
    the audit agrees."""
    assert await bed.store.users.balance(ana.id) == 1000
    assert await practice_rows(bed, ana) == [("grant", "starting chips", 1000)]
    owners = [wallet_of(ana.id), *(computer_of(ana.id, n) for n in range(1, computers + 1))]
    wallets = [await bed.store.users.balance(u) for u in owners]
    practised = 1000 * (computers + 1)
    assert sum(wallets) == practised
    report = await bed.store.audit()
    assert report.ok and report.practice_granted == practised, report
    assert report.granted == practised + 1000, report


async def test_a_full_practice_table_against_five_computers(bed: Bed) -> None:
    # Six seats: each computer weighs its cards against five opponents.
    ana = await practising(bed, "/practice 5")
    live = bed.live(ana.dm)
    assert [s.player for s in live.table.seats] == [
        ana.id, *(computer_of(ana.id, n) for n in range(1, 6))]
    hands = await play_out(bed, ana, "All-in", "Call", "No blind", "Join svara")
    assert bed.games.at(ana.dm.id, None) is None and hands >= 1
    assert await timeouts(bed) == 0
    await assert_practice_chips_home(bed, ana, computers=5)


async def test_endgame_closes_the_practice_table_after_the_hand(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    practice(bed)
    await ana.start_bot()
    await bed.idle()
    await ana.send(ana.dm, "/practice")
    await bed.idle()
    chooser = ana.last_dm
    assert chooser.buttons == [["1", "2", "3", "4", "5"]], [m.text for m in ana.inbox]
    press = await ana.press(chooser, "3")
    await press.answer()
    await settle(bed)
    live = bed.live(ana.dm)
    assert len(live.table.seats) == 4 and live.hand is not None
    message_id = bed.message_id(live)
    assert message_id is not None
    await ana.send(ana.dm, "/endgame")
    await bed.idle()
    assert bed.live(ana.dm).closing
    # She folds or declines what she is asked; the computers play the hand to its end.
    await play_out(bed, ana, "Fold", "No blind", "Skip")
    assert bed.games.at(ana.dm.id, None) is None
    assert bed.deals == 1  # no second hand was dealt
    assert await timeouts(bed) == 0
    message = bed.tg.world.find_message(ana.dm, message_id)
    assert message is not None and "The table closed after the hand, as asked" in (
        message.text or "")
    assert await bed.store.users.balance(ana.id) == 1000


async def test_practice_in_a_group_is_refused(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.send(group, "/practice 2")
    await bed.idle()
    assert "private chat with me" in (group.last_bot_message.text or "")
    assert bed.games.at(group.id, None) is None and bed.games.tables == {}


async def test_a_count_out_of_range_is_answered_with_the_range(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    await ana.start_bot()
    await bed.idle()
    for text in ("/practice 9", "/practice 0", "/practice two"):
        await ana.send(ana.dm, text)
        await bed.idle()
        assert "Choose 1 to 5 computer players" in (ana.last_dm.text or ""), text
    assert bed.games.tables == {}


async def test_a_second_practice_while_one_runs_is_answered(bed: Bed) -> None:
    ana = await practising(bed, "/practice 1")
    first = bed.live(ana.dm)
    await ana.send(ana.dm, "/practice 2")
    await bed.idle()
    assert "already at a practice table" in (ana.last_dm.text or "")
    assert bed.live(ana.dm) is first and len(first.table.seats) == 2
    await ana.send(ana.dm, "/practice")
    await bed.idle()
    assert "already at a practice table" in (ana.last_dm.text or "")


async def test_a_computer_due_at_a_restart_moves_after_it(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    practice(bed).delay = 3600.0  # the computers do not get to move before the restart
    await ana.start_bot()
    await bed.idle()
    await ana.send(ana.dm, "/practice 2")
    await bed.idle()
    hand = bed.live(ana.dm).hand
    assert hand is not None
    if hand.seats[hand.to_act or 0].player == ana.id:
        assert await bed.press(ana, ana.dm, "No blind") is None
    assert computer_due(hand) is not None
    before = len(hand.actions)
    await bed.restart()
    practice(bed)
    await settle(bed)
    rows = await bed.store.db.fetchall("SELECT count(*) FROM actions")
    assert int(rows[0][0]) > before and await timeouts(bed) == 0
    await ana.send(ana.dm, "/endgame")
    # The computers carry on after the restart: the hand ends, then the table closes.
    assert await play_out(bed, ana, "Fold", "No blind", "Skip") == 1
    assert await timeouts(bed) == 0
    assert await bed.store.users.balance(ana.id) == 1000



async def practising(bed: Bed, command: str) -> Player:
    """Ana opens the bot and a practice table with `command`; the table settles."""
    (ana,) = bed.players("Ana")
    practice(bed)
    await ana.start_bot()
    await bed.idle()
    await ana.send(ana.dm, command)
    await settle(bed)
    return ana


async def ledger(bed: Bed) -> list[tuple[object, ...]]:
    """Every ledger row, all accounts."""
    return [tuple(r) for r in await bed.store.db.fetchall("SELECT * FROM ledger ORDER BY id")]


async def my_turn(bed: Bed, me: Player) -> int:
    """Decline blinds and svaras until `me` is to bet; his seat."""
    for _ in range(100):
        await settle(bed)
        hand = bed.live(me.dm).hand
        assert hand is not None and not hand.is_over
        seat = hand.seat_of(me.id)
        assert seat is not None
        if hand.to_act == seat and hand.phase is Phase.BETTING:
            return seat
        table = await bed.table_message(me.dm)
        assert await bed.press(me, me.dm, pick(
            [b for row in table.buttons for b in row], "No blind", "Skip")) is None
    raise AssertionError("never my turn to bet")


async def test_leave_at_a_practice_table_folds_and_closes_it_after_the_hand(bed: Bed) -> None:
    ana = await practising(bed, "/practice 2")
    live = bed.live(ana.dm)
    assert live.hand is not None and not live.hand.is_over
    await ana.send(ana.dm, "/leave")
    await settle(bed)
    # The computers play the hand out without her; then the table closes, and says why.
    assert bed.games.at(ana.dm.id, None) is None
    assert bed.deals == 1
    said = [m.text or "" for m in ana.inbox]
    assert said[-2:] == [
        "You left the practice table, so it is closed. Send /practice to play again.",
        said[-1]] and said[-1].startswith("🏁 Svara: results after 1 hand"), said
    closing = [m for m in ana.inbox
              if "The table was closed; every chip went back." in (m.text or "")]
    assert len(closing) == 1 and (closing[0].text or "").startswith("🃏"), said
    assert (closing[0].text or "").endswith("Start a new one with /practice."), closing[0].text
    closed = await bed.store.tables.get(live.id)
    assert closed.status == "closed" and closed.practice
    assert await timeouts(bed) == 0
    # Her practice chips (990 after the ante, and what the hand gave or took) are back
    # with the practice wallets; her balance never moved.
    await assert_practice_chips_home(bed, ana)


async def test_bet_at_a_practice_table(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    practice(bed)
    await ana.start_bot()
    await bed.idle()
    await ana.send(ana.dm, "/practice 1")
    seat = await my_turn(bed, ana)
    live = bed.live(ana.dm)
    hand = live.hand
    assert hand is not None
    before = len(hand.actions)
    for text, answer in (("/bet fifty", "Give a whole number of chips, e.g. /bet 50."),
                         ("/bet 0", "Give a whole number of chips, e.g. /bet 50."),
                         ("/bet 5000", None)):
        await ana.send(ana.dm, text)
        await bed.idle()
        if answer is not None:
            assert ana.last_dm.text == answer, text
        assert len(hand.actions) == before and hand.to_act == seat, text
    practice(bed).delay = 3600.0  # the computer waits before it answers
    await ana.send(ana.dm, "/bet 50")
    await bed.idle()
    assert hand.actions[before:] == [Action(Act.RAISE, seat, 50)]
    assert hand.seats[seat].committed == 50 and hand.seats[seat].stack == 940  # ante 10
    assert hand.to_act is not None and hand.to_act != seat
    # Now the computer is to answer: her next /bet is refused and changes nothing.
    await ana.send(ana.dm, "/bet 80")
    await bed.idle()
    assert ana.last_dm.text == "Not your turn."
    assert len(hand.actions) == before + 1 and hand.seats[seat].stack == 940
    assert await bed.store.users.balance(ana.id) == 1000


async def test_back_at_a_practice_table_keeps_it_open(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    found = practice(bed)
    await ana.start_bot()
    await bed.idle()
    await ana.send(ana.dm, "/practice 1")
    await settle(bed)
    await ana.send(ana.dm, "/back")
    await bed.idle()
    assert ana.last_dm.text == "You are playing."
    # She lets the timer run out on her turn in two hands in a row: she sits out.
    for _ in range(60):
        found.delay = 0.0
        await settle(bed)
        live = bed.live(ana.dm)
        hand = live.hand
        mine = hand is not None and not hand.is_over and hand.phase is Phase.BETTING \
            and hand.to_act == hand.seat_of(ana.id)
        found.delay = 3600.0 if mine else 0.0  # the table does not close before she is back
        await bed.ring(ana.dm)
        if live.table.seat(ana.id).sitting_out:  # type: ignore[union-attr]
            break
    else:
        raise AssertionError("she never sat out")
    live = bed.live(ana.dm)
    assert live.hand is None and live.status == "playing"
    table = await bed.table_message(ana.dm)
    assert "Ana: " in (table.text or "") and "away" in (table.text or "")
    assert await bed.press(ana, ana.dm, "I'm back") is None
    found.delay = 0.0
    await settle(bed)
    assert bed.live(ana.dm) is live
    assert not live.table.seat(ana.id).sitting_out  # type: ignore[union-attr]
    deals = bed.deals
    await bed.ring(ana.dm)  # the next hand deals her in
    assert bed.deals == deals + 1
    hand = live.hand
    assert hand is not None and hand.seat_of(ana.id) is not None
    assert await bed.store.users.balance(ana.id) == 1000


async def test_join_and_topup_at_a_practice_table_are_refused(bed: Bed) -> None:
    ana = await practising(bed, "/practice 2")
    live = bed.live(ana.dm)
    stacks = [(s.player, s.stack) for s in live.table.seats]
    rows = await ledger(bed)
    balance = await bed.store.users.balance(ana.id)
    wallet = await bed.store.users.balance(wallet_of(ana.id))
    for text in ("/join", "/topup", "/topup 100", "/join@svara_bot"):
        await ana.send(ana.dm, text)
        await bed.idle()
        assert ana.last_dm.text == (
            "At a practice table the chips come with the table: close it with /endgame and "
            "send /practice for a new one."), text
        assert await ledger(bed) == rows, text
        assert [(s.player, s.stack) for s in live.table.seats] == stacks, text
        assert await bed.store.users.balance(ana.id) == balance == 1000
        assert await bed.store.users.balance(wallet_of(ana.id)) == wallet
    assert bed.live(ana.dm) is live


async def test_a_practice_table_draws_its_secret_when_it_opens(bed: Bed) -> None:
    """As at a group's table, the secret (and whether it is revealed) is fixed with the
    table, before any seed enters a deal: the bot cannot choose it knowing the seeds."""
    ana = await practising(bed, "/practice 1")
    live = bed.games.at(ana.dm.id, None)
    assert live is not None
    row = await bed.store.db.fetchone(
        "SELECT reveal FROM table_secrets WHERE table_id = ?", (live.id,))
    assert row is not None and row[0] == 1  # drawn with the table, not at its first deal
