"""Users: identity, language, private chat flag, grants, the daily bonus, holdings."""

from __future__ import annotations

import pytest

from bot.store import BadAmount, BadInput, BonusNotDue, Store, UnknownUser
from tests.store.conftest import Clock, seated_table


async def test_ensure_creates_once_with_starting_chips(store: Store) -> None:
    user, created = await store.users.ensure(42, "  Ivan  ", language="bg", starting_chips=1000)
    assert created and user.name == "Ivan" and user.language == "bg" and user.balance == 1000
    again, created = await store.users.ensure(42, "Ivan P.", language="en", starting_chips=1000)
    assert not created
    # The name and the client's language follow Telegram; no second grant.
    assert again.name == "Ivan P." and again.language == "en" and again.balance == 1000
    unchanged, _ = await store.users.ensure(42, "Ivan P.")
    assert unchanged.language == "en"


async def test_ensure_sets_language_when_unknown(store: Store) -> None:
    await store.users.ensure(1, "A")
    user, _ = await store.users.ensure(1, "A", language="ru")
    assert user.language == "ru" and user.speaks == "ru"


async def test_a_chosen_language_wins_over_the_client(store: Store) -> None:
    await store.users.ensure(1, "A", language="en")
    await store.users.choose_language(1, "zu")
    user, _ = await store.users.ensure(1, "A", language="hi")
    assert (user.language, user.chosen_language, user.speaks) == ("hi", "zu", "zu")
    await store.users.choose_language(1, None)
    assert (await store.users.get(1)).speaks == "hi"


async def test_get_and_find(store: Store) -> None:
    assert await store.users.find(5) is None
    with pytest.raises(UnknownUser, match="no user 5"):
        await store.users.get(5)
    await store.users.ensure(5, "E")
    assert (await store.users.get(5)).id == 5


async def test_language_and_private_chat(store: Store) -> None:
    await store.users.ensure(1, "A")
    await store.users.choose_language(1, "en")
    await store.users.set_private_chat(1)
    user = await store.users.get(1)
    assert user.chosen_language == "en" and user.private_chat
    await store.users.set_private_chat(1, False)
    await store.users.choose_language(1, None)
    user = await store.users.get(1)
    assert user.chosen_language is None and not user.private_chat
    with pytest.raises(UnknownUser):
        await store.users.choose_language(2, "en")
    with pytest.raises(BadInput):
        await store.users.choose_language(1, "x" * 40)


async def test_grants_are_ledger_movements(store: Store) -> None:
    await store.users.ensure(1, "A", starting_chips=100)
    assert await store.users.grant(1, 50) == 150
    assert await store.users.operator_grant(1, 7, memo="lost in an outage") == 157
    history = await store.users.history(1)
    assert [(m.kind, m.delta) for m in history] == [
        ("operator_grant", 7), ("grant", 50), ("grant", 100)]
    assert history[0].memo == "lost in an outage"
    with pytest.raises(BadInput):
        await store.users.operator_grant(1, 7, memo="")


@pytest.mark.parametrize("amount", [0, -1, 10**15 + 1, 1.5, True, "10"])
async def test_grant_refuses_bad_amounts(store: Store, amount: object) -> None:
    await store.users.ensure(1, "A")
    with pytest.raises(BadAmount):
        await store.users.grant(1, amount)  # type: ignore[arg-type]
    assert await store.users.balance(1) == 0


async def test_balance_stays_in_bounds(store: Store) -> None:
    await store.users.ensure(1, "A", starting_chips=10**15)
    with pytest.raises(BadAmount, match="balance after"):
        await store.users.grant(1, 1)


async def test_daily_bonus_once_per_period(store: Store, clock: Clock) -> None:
    await store.users.ensure(1, "A")
    assert await store.users.daily_bonus(1, 100) == 100
    with pytest.raises(BonusNotDue) as info:
        await store.users.daily_bonus(1, 100)
    assert info.value.due_at == int(clock.now) + 86400
    clock.now += 86400
    assert await store.users.daily_bonus(1, 100) == 200
    assert [m.kind for m in await store.users.history(1)] == ["bonus", "bonus"]
    with pytest.raises(UnknownUser):
        await store.users.daily_bonus(9, 100)


async def test_holdings_show_balance_and_stacks(store: Store) -> None:
    table = await seated_table(store, 2, chips=1000, buy_in=300)
    holdings = await store.users.holdings(1)
    assert holdings.balance == 700 and holdings.total == 1000
    assert [(t.table_id, t.stack) for t in holdings.tables] == [(table.id, 300)]
    moves = await store.users.history(1, limit=2)
    assert [(m.kind, m.account, m.delta) for m in moves] == [
        ("buy_in", "stack", 300), ("buy_in", "balance", -300)]


async def test_history_limit_is_checked(store: Store) -> None:
    await store.users.ensure(1, "A")
    with pytest.raises(BadInput):
        await store.users.history(1, limit=0)
    with pytest.raises(UnknownUser):
        await store.users.history(2)


async def test_ensure_keeps_the_private_chat_in_its_own_write(store: Store) -> None:
    commits = store.db.commits
    await store.users.ensure(1, "A", private_chat=True)
    assert (await store.users.get(1)).private_chat
    await store.users.ensure(1, "A", private_chat=True)  # nothing new: nothing written
    await store.users.ensure(1, "A")
    assert store.db.commits == commits + 1
    await store.users.ensure(1, "A", private_chat=False)
    assert not (await store.users.get(1)).private_chat
    assert store.db.commits == commits + 2
    await store.users.ensure(2, "B")
    assert not (await store.users.get(2)).private_chat
