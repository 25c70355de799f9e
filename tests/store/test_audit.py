"""The audit and the operator commands: ``audit`` passes a good file, names every fault."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.cli import main
from bot.store.hands import append_action, chip_moves, settle_hand
from bot.store.sql import Conn
from engine import Action, Event, Hand
from engine.simulate import random_action
from tests.store.conftest import Clock, play_hand, seated_table, start_hand


async def _played(store: Store, hands: int = 5) -> None:
    table = await seated_table(store, 3, buy_in=400)
    rng = random.Random(21)
    for n in range(hands):
        await play_hand(store, table, rng, dealer=n)
    await play_hand(store, table, rng, dealer=hands, stop_after=2)  # one left open


def _tamper(db_path: Path, *sql: str) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    for s in sql:
        conn.execute(s)
    conn.close()


async def test_audit_passes_a_good_database(store: Store, db_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    await _played(store)
    report = await store.audit()
    assert report.ok and report.granted == 3000
    assert report.balances + report.stacks + report.open_pots == 3000 and report.open_pots > 0
    assert main(["audit", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("audit ok: granted 3000 = balances") and "1 open" in out


TAMPERS = {
    "cached balance": (["UPDATE users SET balance = balance + 5 WHERE id = 1"],
                       "user 1: cached balance"),
    "cached stack": (["UPDATE seats SET stack = stack + 1 WHERE user_id = 2"],
                     "user 2: cached stack"),
    "cached pot": (["UPDATE hands SET pot = pot + 1 WHERE status = 'open'"], "cached pot"),
    "ledger row": (["DROP TRIGGER ledger_no_update",
                    "UPDATE ledger SET delta = delta + 1 WHERE id = (SELECT max(id) FROM ledger"
                    " WHERE account = 'stack')"],
                   "does not balance"),
    "chips from nowhere": (["INSERT INTO ledger (move, kind, account, user_id, delta, at)"
                            " VALUES (999999, 'win', 'balance', 1, 100, 0),"
                            " (999999, 'win', 'bank', NULL, -100, 0)"],
                           "may not touch the bank"),
    "settled pot not empty": (["DROP TRIGGER ledger_no_update",
                               "UPDATE ledger SET account = 'balance' WHERE id = (SELECT"
                               " max(l.id) FROM ledger l JOIN hands h ON h.id = l.hand_id"
                               " WHERE h.status = 'settled' AND l.account = 'pot'"
                               " AND l.delta < 0)"],
                              "is settled but its pot still holds"),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
async def test_audit_names_a_tampered_row(store: Store, db_path: Path, clock: Clock,
                                          capsys: pytest.CaptureFixture[str],
                                          name: str) -> None:
    await _played(store)
    await store.close()
    sql, expected = TAMPERS[name]
    _tamper(db_path, *sql)
    assert main(["audit", "--db", str(db_path)]) == 1
    out = capsys.readouterr().out
    assert expected in out and "violation: " in out and "audit FAILED" in out


async def test_audit_of_a_missing_file(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "no database" in capsys.readouterr().err


def test_usage_errors_return_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert main(["backup"]) == 2


def _hand_in(path: Path, hand_id: int) -> tuple[str, int, int]:
    """A hand's status, its number of actions and its pot, as the file at ``path`` has them."""
    conn = sqlite3.connect(path)
    try:
        status, pot = conn.execute("SELECT status, pot FROM hands WHERE id = ?",
                                   (hand_id,)).fetchone()
        actions = conn.execute("SELECT count(*) FROM actions WHERE hand_id = ?",
                               (hand_id,)).fetchone()[0]
        return status, actions, pot
    finally:
        conn.close()


async def _copy_during_step(store: Store, db_path: Path, target: Path, hand_id: int,
                            hand: Hand, action: Action, events: Sequence[Event]) -> int:
    """Back up while a unit of work holds the write lock with this step written, uncommitted."""
    inside, release = asyncio.Event(), asyncio.Event()

    async def step(conn: Conn) -> None:
        await append_action(conn, hand_id, action.to_json(), chip_moves(events), seq=None, at=0)
        if hand.is_over:
            await settle_hand(conn, hand_id, hand, at=0)
        inside.set()
        await release.wait()

    writing = asyncio.create_task(store.db.write(step, step=True))
    await inside.wait()
    try:
        return await asyncio.to_thread(main, ["backup", str(target), "--db", str(db_path)])
    finally:
        release.set()
        await writing


async def test_backup_while_the_bot_writes(store: Store, db_path: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Each copy is taken mid-hand while a step holds the write lock with its rows written
    but not committed: it has every committed step, nothing of that one, and audits ok."""
    table = await seated_table(store, 4, chips=10_000, buy_in=2_000)
    rng = random.Random(22)
    hand_id, hand = await start_hand(store, table, rng)
    copies: list[tuple[Path, int, tuple[str, int, int]]] = []
    settles = 0
    for i in range(8):
        if hand.is_over:
            hand_id, hand = await start_hand(store, table, rng, dealer=i)
        committed = ("open", len(hand.actions), hand.pot)
        action = random_action(hand, rng)
        events = hand.apply(action)
        target = tmp_path / f"copy{i}.sqlite3"
        assert await _copy_during_step(store, db_path, target, hand_id, hand, action,
                                       events) == 0
        copies.append((target, hand_id, committed))
        settles += hand.is_over
    assert settles > 0  # some copies were taken while a hand's settle was being written
    out = capsys.readouterr().out
    assert out.count("backup ok:") == len(copies) == 8
    for target, copied_hand, committed in copies:
        assert _hand_in(target, copied_hand) == committed
        assert main(["audit", "--db", str(target)]) == 0
        assert not target.with_name(target.name + "-wal").exists()
    assert (await store.audit()).ok


async def test_backup_refuses_to_overwrite_the_database(store: Store, db_path: Path) -> None:
    await store.users.ensure(1, "A")
    assert main(["backup", str(db_path), "--db", str(db_path)]) == 2
