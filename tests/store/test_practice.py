"""Practice tables in the store: practice chips come from the bank and never meet real ones."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.store import Store, StoreError, Table
from bot.store.practice import computer_of, wallet_of
from tests.store.conftest import RULES, play_hand

ANA = 7


async def _practice(store: Store, computers: int = 2) -> Table:
    await store.users.ensure(ANA, "Ana", starting_chips=1000)
    table = await store.tables.open_practice(
        ANA, [(computer_of(ANA, k), f"Bot {k}") for k in range(1, computers + 1)],
        rules=RULES.to_json(), buy_in=500, wallet_name="Ana's practice chips")
    assert table.practice and table.chat_id == ANA
    return table


async def test_a_practice_table_plays_on_practice_chips_only(store: Store) -> None:
    table = await _practice(store)
    seats = await store.tables.seats(table.id)
    assert [(s.user_id, s.stack) for s in seats] == [
        (ANA, 500), (computer_of(ANA, 1), 500), (computer_of(ANA, 2), 500)]
    assert await store.users.balance(ANA) == 1000
    assert await store.users.balance(wallet_of(ANA)) == 0
    rng = random.Random(5)
    for n in range(3):
        await play_hand(store, table, rng, dealer=n)
    at_table = {s.user_id: s.stack for s in await store.tables.seats(table.id)}
    # His practice stack is not his: neither /balance nor his history shows it.
    holdings = await store.users.holdings(ANA)
    assert holdings.tables == () and holdings.balance == 1000
    assert [m.kind for m in await store.users.history(ANA)] == ["grant"]

    await store.tables.close(table.id)
    assert await store.users.balance(ANA) == 1000
    assert await store.users.balance(wallet_of(ANA)) == at_table[ANA]
    report = await store.audit()
    assert report.ok, report.violations
    assert report.practice_granted == 1500 and report.granted == 2500
    assert report.practice_wallets == 1500 and report.practice_stacks == 0
    assert "practice chips: granted 1500 = wallets 1500" in report.summary()


async def test_the_second_practice_table_tops_the_wallet_up_to_the_buy_in(store: Store) -> None:
    await store.tables.close((await _practice(store, computers=1)).id)
    assert await store.users.balance(wallet_of(ANA)) == 500
    table = await _practice(store, computers=1)
    assert [s.stack for s in await store.tables.seats(table.id)] == [500, 500]
    report = await store.audit()
    assert report.ok and report.practice_granted == 1000  # nothing granted the second time


async def test_one_live_practice_table_per_user(store: Store) -> None:
    await _practice(store)
    with pytest.raises(StoreError):
        await _practice(store)


async def test_a_real_balance_never_pays_into_a_practice_table(store: Store) -> None:
    table = await _practice(store)
    await store.tables.leave(table.id, ANA)
    # Even a direct join takes from the practice wallet, not from his 1000.
    seat = await store.tables.join(table.id, ANA, 500, min_buy_in=10)
    assert seat.stack == 500 and await store.users.balance(ANA) == 1000


async def test_the_trigger_and_the_audit_refuse_mixed_chips(store: Store, db_path: Path) -> None:
    table = await _practice(store)
    await store.close()
    conn = sqlite3.connect(db_path, isolation_level=None)
    mixed = ("INSERT INTO ledger (move, kind, account, user_id, table_id, delta, at)"
             f" VALUES (999999, 'cash_out', 'balance', {ANA}, {table.id}, 100, 0),"
             f" (999999, 'cash_out', 'stack', {ANA}, {table.id}, -100, 0)")
    with pytest.raises(sqlite3.IntegrityError, match="never mix"):
        conn.execute(mixed)
    conn.execute("DROP TRIGGER ledger_practice_apart")
    conn.execute(mixed)
    conn.close()
    reopened = await Store.open(db_path)
    try:
        report = await reopened.audit()
    finally:
        await reopened.close()
    assert any("practice chips and real chips mixed" in v for v in report.violations), report
    assert any(v.startswith("practice chips do not add up") for v in report.violations)
