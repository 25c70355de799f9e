"""The house's chips cannot be minted by a chat's own admin, and the small answers around
them: /daily at the ceiling of chips, a second /seed within a second."""

from __future__ import annotations

import logging

import pytest

from bot.store.migrations import MAX_CHIPS
from engine import seed_hash
from tests.e2e.bed import Bed
from tests.e2e.test_history import reply, steady_clock


async def test_an_admin_raising_the_stakes_in_his_lobby_takes_nothing_from_the_house(
        bed: Bed) -> None:
    """Seated with 1000, an admin sets a rebuy of 10⁹, 100 rebuys and an ante of 5000:
    his /rebuy is refused, and /leave gives him back his own 1000, no more."""
    mira, boris = bed.players("Mira", "Boris")
    group = bed.group(mira, boris, admins=(mira,))
    steady_clock(bed)
    await bed.open_table(group, mira, boris)
    before = await bed.store.audit()
    for line in ("/settings rebuy 1000000000", "/settings rebuys 100",
                 "/settings ante 5000"):
        assert len(await reply(bed, mira, group, line)) == 1
    assert await reply(bed, mira, group, "/rebuy") == [
        "A rebuy is for a player with no chips left: /topup brings more from your balance."]
    await reply(bed, mira, group, "/leave")
    assert await bed.store.users.balance(mira.id) == 1000
    # Now she is short of the ante she set: the rebuy she would sit down with is more
    # than the house gives one player in a day, so she gets none of it.
    answer = await (await mira.press(await bed.table_message(group), "Join")).answer()
    assert answer.show_alert
    assert answer.text == ("The house gives one player only so many chips a day, in all "
                           "chats together: 10,000 chips more for you today.")
    assert await bed.store.users.balance(mira.id) == 1000
    after = await bed.store.audit()
    assert after.ok, after.violations
    assert after.granted == before.granted
    await bed.audit()


async def test_daily_at_the_ceiling_of_chips_is_answered_clearly(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    ana = bed.players("Ana")[0]
    await ana.start_bot()
    steady_clock(bed)
    await reply(bed, ana, ana.dm, "/balance")  # Ana has her starting chips
    await bed.store.users.operator_grant(ana.id, MAX_CHIPS - 1000 - 10, memo="a test")
    with caplog.at_level(logging.WARNING):
        assert await reply(bed, ana, ana.dm, "/daily") == [
            "You have as many chips as one player may hold: spend some first."]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert await bed.store.users.balance(ana.id) == MAX_CHIPS - 10
    await bed.audit()


async def test_a_second_seed_within_a_second_is_set_too(bed: Bed) -> None:
    ana = bed.players("Ana")[0]
    await ana.start_bot()
    bed.app.bot_data["clock"] = lambda: 1_000_000.0  # both in the same second
    for seed in ("first words", "second words"):
        assert await reply(bed, ana, ana.dm, f"/seed {seed}") == [
            f"Your seed is now {seed} ({seed_hash(seed)[:8]}… in /hand). It counts at every "
            "table where you have not been dealt a hand yet; where you have, your seed stays "
            "until the table closes. Best: set it after a table opens, before its first deal."]
    assert await bed.store.fairness.seed(ana.id) == "second words"
