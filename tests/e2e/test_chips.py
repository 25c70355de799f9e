"""/balance as a bank statement, and the way to /daily wherever chips run short."""

from __future__ import annotations

import re

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.test_history import reply, steady_clock

DAY = r"\d{4}-\d{2}-\d{2}"


async def fold_one_hand(bed: Bed, group: ChatRecord, players: list[Player]) -> None:
    """Start; the first to act declines the blind and folds: the other takes the antes."""
    assert await bed.press(players[0], group, "Start") is None
    hand = bed.live(group).hand
    assert hand is not None
    first = hand.seats[hand.to_act or 0].player
    actor = next(p for p in players if p.id == first)
    assert await bed.press(actor, group, "No blind") is None
    assert await bed.press(actor, group, "Fold") is None


async def test_balance_is_a_statement_with_each_stay_on_one_line(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    friday = bed.tg.world.group("Friday game", members=[ana, boris], admins=[boris])
    steady_clock(bed)
    await bed.open_table(group, ana, boris)
    await fold_one_hand(bed, group, players)
    (results,) = await reply(bed, ana, group, "/endgame")  # the table's results message
    assert results.startswith("🏁 Svara: results after "), results
    after = await bed.store.users.balance(ana.id)
    assert after in (990, 1010)
    await bed.open_table(friday, boris, ana)
    stack = next(s.stack for s in bed.live(friday).table.seats if s.player == ana.id)
    assert stack == after  # all of it: below the table's maximum of 1000

    (text,) = await reply(bed, ana, ana.dm, "/balance")
    lines = text.splitlines()
    assert lines[:4] == [f"🏦 Ana: {after} chips", "Balance: 0",
                         f"At the table of Friday game: {after}", ""]
    assert lines[4] == "Recent movements"
    assert re.fullmatch(f"{DAY} · Friday game: buy-in {after}, still playing", lines[5])
    assert re.fullmatch(f"{DAY} · Svara night: buy-in 1000, cash-out {after} · "
                        f"{after - 1000:+d}", lines[6])
    assert re.fullmatch(f"{DAY} · \\+1000 starting chips", lines[7])
    assert len(lines) == 8

    kept = await bed.store.users.balance(boris.id)
    assert await reply(bed, boris, group, "/balance") == [
        f"Boris: {kept:,} chips, {2000 - after - kept:,} chips at tables. /balance in private"
        " for the statement."]


HINT = "Short of chips? /daily gives you free chips once a day."
WAYS = "A friend can /give you chips, and /daily gives you free chips now."


async def test_short_of_chips_at_join_and_topup_is_pointed_to_daily(bed: Bed) -> None:
    ana, boris, cyril = players = bed.players("Ana", "Boris", "Cyril")
    group = bed.group(ana, boris, cyril, admins=(ana,))
    steady_clock(bed)
    await bed.store.chats.set_settings(group.id, {"max_buy_in_antes": 200})
    await bed.open_table(group, ana, boris)
    # The stack is the whole balance (1000 of 2000 possible): the balance stops a top-up.
    assert await reply(bed, ana, group, "/topup 5") == [
        f"Your balance is empty: /topup has no chips to bring. {WAYS}"]
    await fold_one_hand(bed, group, players[:2])
    (results,) = await reply(bed, ana, group, "/endgame")  # the table's results message
    assert results.startswith("🏁 Svara: results after "), results

    # A new table at an ante above his chips: the Join popup points him to /daily.
    assert await reply(bed, ana, group, "/settings ante 1500") != []
    await cyril.send(group, "/newgame")
    await cyril.start_bot()
    answer = await (await cyril.press(await bed.table_message(group), "Join")).answer()
    assert answer.show_alert
    assert answer.text == (f"You need at least 1,500 chips to sit at this table (you have "
                           f"1,000 chips). {WAYS}")
    assert await reply(bed, cyril, group, "/join") == [answer.text]
    assert await bed.store.users.balance(cyril.id) == 1000


async def test_a_topup_stopped_by_the_tables_maximum_does_not_mention_daily(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris, admins=(ana,))
    steady_clock(bed)
    await bed.store.chats.set_settings(group.id, {"max_buy_in_antes": 50})
    await bed.open_table(group, ana, boris)
    assert await reply(bed, ana, group, "/topup 5") == [
        "You can add up to 0 chips now (your balance is 500 chips)."]
