"""What the operator reads from ``audit``: the summary of a database with real, practice and
tournament play under way, and the exact line each fault prints.

Every figure below is counted by hand from the play that `_everything` writes:

* a real table (table 1, chat -1001): users 1, 2, 3 granted 1000 each, buy in 500 each;
  hand 1 takes the antes (10 each) and ends when two players fold; hand 2 is open with
  its antes in the pot. Balances 1500, stacks 1470, open pot 30.
* Ana (user 7), granted 1000 real chips, and her practice table (table 2): her wallet
  (user -56) and computers -57 and -58 are granted 500 practice chips each and buy in;
  she stands up (500 back to the wallet) and sits again with 200. Hand 3 takes the antes
  and is aborted (refunded); hand 4 is open with its antes. Practice: wallets 300, stacks
  190 + 490 + 490 = 1170, open pot 30; granted 1500.
* a tournament (table 3, chat -1002, buy-in 100, stack 300): users 11, 12, 13 granted
  1000 each enter; it begins and hand 5 is open with its antes. Balances 2700, pool 300;
  tournament chips issued 900, stacks 870, open pot 30.

So 9400 granted = balances 1500 + 1000 + 300 + 2700 = 5500, + stacks 1470 + 1170 + 870 =
3510, + open pots 90, + pools 300. Ten users (3, Ana, her wallet and two computers, 3).
Movements, two ledger rows each: real 3 grants + 3 buy-ins + 3 antes + 1 win + 3 antes =
13; Ana's grant 1; practice 3 grants + 3 buy-ins + 1 cash-out + 1 buy-in + 3 antes +
3 refunds + 3 antes = 17; tournament 3 grants + 3 entries + 3 issues + 3 antes = 12: 43
movements, 86 rows.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.cli import main
from bot.store.practice import computer_of, wallet_of
from bot.tournament import LevelClock, Schedule
from engine import Act, Action, Phase, Rules
from tests.store.conftest import RULES, seated_table, start_hand

ANA = 7
SCHEDULE = Schedule(buy_in=100, stack=300, antes=(10, 20, 40), every=5,
                    clock=LevelClock.MINUTES)
SUMMARY = ("audit ok: granted 9400 = balances 5500 + stacks 3510 + open pots 90 + pools 300;"
           " 10 users, 1 aborted, 3 open, 1 settled, 86 ledger rows; of these, practice chips:"
           " granted 1500 = wallets 300 + stacks 1170 + open pots 30; of these, tournament"
           " chips: issued 900 = stacks 870 + open pots 30")


async def _everything(store: Store) -> None:
    rng = random.Random(3)
    real = await seated_table(store, 3)
    hand_id, hand = await start_hand(store, real, rng)
    while not hand.is_over:  # nobody posts a blind; everybody folds to the last player
        legal = hand.legal()
        assert legal is not None
        action = Action(Act.NO_BLIND if legal.phase is Phase.BLIND else Act.FOLD, legal.seat)
        events = hand.apply(action)
        if hand.is_over:
            await store.hands.settle(hand_id, hand, action=action, events=events)
        else:
            await store.hands.record(hand_id, action, events)
    await start_hand(store, real, rng, dealer=1)

    await store.users.ensure(ANA, "Ana", starting_chips=1000)
    practice = await store.tables.open_practice(
        ANA, [(computer_of(ANA, k), f"Bot {k}") for k in (1, 2)], rules=RULES.to_json(),
        buy_in=500, wallet_name="Ana's practice chips")
    await store.tables.leave(practice.id, ANA)
    await store.tables.join(practice.id, ANA, 200)
    aborted, _ = await start_hand(store, practice, rng)
    await store.hands.abort(aborted, "a test")
    await start_hand(store, practice, rng, dealer=1)

    for u in (11, 12, 13):
        await store.users.ensure(u, f"player {u}", starting_chips=1000)
    cup = await store.tables.open(-1002, creator=11, rules=Rules(ante=10).to_json(),
                                  tournament=SCHEDULE)
    for u in (11, 12, 13):
        await store.tournaments.enter(cup.id, u)
    await store.tournaments.begin(cup.id)
    await start_hand(store, await store.tables.get(cup.id), rng)
    assert (real.id, practice.id, cup.id, wallet_of(ANA)) == (1, 2, 3, -56)
    hands = await store.db.fetchall("SELECT id, table_id, status, pot FROM hands ORDER BY id")
    assert [tuple(h) for h in hands] == [(1, 1, "settled", 0), (2, 1, "open", 30),
                                         (3, 2, "aborted", 0), (4, 2, "open", 30),
                                         (5, 3, "open", 30)]



def _row(row_id: int, move: int, kind: str, account: str, delta: int, *, user: int | None = None,
         table: int | None = None, hand: int | None = None) -> str:
    """SQL for one ledger row with its id, as a tampering hand would write it."""
    values = ", ".join("NULL" if v is None else repr(v)
                       for v in (row_id, move, kind, account, user, table, hand, delta))
    return ("INSERT INTO ledger (id, move, kind, account, user_id, table_id, hand_id, delta, at)"
            f" VALUES ({values}, 0)")


def _tamper(db_path: Path, *sql: str) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        for s in sql:
            conn.execute(s)
    finally:
        conn.close()


ZED = "INSERT INTO users (id, name, balance, created_at, updated_at) VALUES (20, 'Zed', 0, 0, 0)"
"""A user with no ledger rows (and so no chips)."""
UNCHECKED = "PRAGMA ignore_check_constraints = ON"
MIXED = ": practice chips and real chips mixed"

FAULTS: dict[str, tuple[list[str], list[str]]] = {
    "a movement that does not balance": (
        [_row(1001, 900, "gift", "balance", 5, user=1)],
        ["movement 900 does not balance: its rows sum to 5",
         "chips do not add up: balances 5505 + stacks 3510 + open pots 90 + pools 300 = 9405,"
         " granted 9400"]),
    "a kind that may not take from the bank": (
        [_row(1001, 901, "win", "balance", 100, user=1), _row(1002, 901, "win", "bank", -100)],
        ["ledger row 1002: a win may not touch the bank"]),
    "gifts and rebuys to the wrong accounts": (
        [_row(1001, 902, "gift", "balance", -10, user=1),
         _row(1002, 902, "gift", "stack", 10, user=1, table=1),
         _row(1003, 903, "house_gift", "bank", -10),
         _row(1004, 903, "house_gift", "stack", 10, user=2, table=1),
         _row(1005, 904, "rebuy", "bank", -10),
         _row(1006, 904, "rebuy", "balance", 10, user=3),
         # and one of each as it should be: not named
         _row(1007, 905, "gift", "balance", -10, user=1),
         _row(1008, 905, "gift", "balance", 10, user=2),
         _row(1009, 906, "house_gift", "bank", -10),
         _row(1010, 906, "house_gift", "balance", 10, user=3),
         "INSERT INTO house_gifts (move, chat_id, giver, amount, at) VALUES (906, -1001, 1, 10, 0)",
         _row(1011, 907, "rebuy", "bank", -10),
         _row(1012, 907, "rebuy", "stack", 10, user=3, table=1)],
        ["ledger row 1002: a gift or rebuy may not touch a stack",
         "ledger row 1004: a gift or rebuy may not touch a stack",
         "ledger row 1006: a gift or rebuy may not touch a balance"]),
    "house gifts the ledger did not move": (
        ["INSERT INTO house_gifts (move, chat_id, giver, amount, at) VALUES"
         " (950, -1001, 1, 50, 0), (951, -1001, 1, 20, 0), (952, -1001, 1, 15, 0)",
         _row(1001, 950, "house_gift", "bank", -40),
         _row(1002, 950, "house_gift", "balance", 40, user=2),
         _row(1003, 952, "house_gift", "bank", -15),
         _row(1004, 952, "house_gift", "balance", 15, user=3)],
        ["house gift 950 of 50 chips: the ledger moved 40",
         "house gift 951 of 20 chips: the ledger moved 0"]),
    "chips in the pot of an aborted hand": (
        [_row(1001, 908, "bet", "stack", -5, user=ANA, table=2),
         _row(1002, 908, "bet", "pot", 5, user=ANA, table=2, hand=3)],
        ["practice chips do not add up: wallets 300 + stacks 1165 + open pots 30 = 1495,"
         " granted 1500",
         "chips do not add up: balances 5500 + stacks 3505 + open pots 90 + pools 300 = 9395,"
         " granted 9400",
         "hand 3 is aborted but its pot still holds 5"]),
    "cached balances": (
        ["UPDATE users SET balance = balance + 5 WHERE id = 2",
         ZED.replace("'Zed', 0", "'Zed', 7")],
        ["user 2: cached balance 505, ledger says 500",
         "user 20: cached balance 7, ledger says 0"]),
    "cached stacks": (
        ["UPDATE seats SET stack = stack + 1 WHERE user_id = 11", ZED,
         "INSERT INTO seats (table_id, user_id, join_order, stack, joined_at)"
         " VALUES (1, 20, 4, 4, 0)"],
        ["table 1, user 20: cached stack 4, ledger says 0",
         "table 3, user 11: cached stack 291, ledger says 290"]),
    "a stack without a seat": (
        [f"DELETE FROM seats WHERE table_id = 2 AND user_id = {computer_of(ANA, 1)}"],
        ["table 2, user -57: no seat, but the ledger leaves 490 chips in his stack"]),
    "a cached pot": (
        ["UPDATE hands SET pot = pot + 1 WHERE id = 5"],
        ["hand 5: cached pot 31, ledger says 30"]),
    "a negative balance": (
        [UNCHECKED, ZED, _row(1001, 909, "gift", "balance", -30, user=20),
         _row(1002, 909, "gift", "balance", 30, user=1)],
        ["user 20: negative balance -30", "user 20: negative balance -30"]),
    "a negative stack": (
        [UNCHECKED, ZED,
         "INSERT INTO seats (table_id, user_id, join_order, stack, joined_at)"
         " VALUES (1, 20, 4, 0, 0)",
         _row(1001, 910, "top_up", "stack", -30, user=20, table=1),
         _row(1002, 910, "top_up", "balance", 30, user=20)],
        ["table 1, user 20: negative stack -30", "table 1, user 20: negative stack -30"]),
    "a negative pot": (
        [UNCHECKED, _row(1001, 911, "win", "pot", -40, user=11, table=3, hand=5),
         _row(1002, 911, "win", "stack", 40, user=11, table=3)],
        ["hand 5: negative pot -10"]),
    "a ledger row of a hand at another table": (
        [_row(1001, 912, "bet", "stack", -5, user=1, table=1),
         _row(1002, 912, "bet", "pot", 5, user=1, table=1, hand=5)],
        ["tournament chips do not add up: stacks 870 + open pots 35 = 905, issued 900",
         "ledger row 1002 names hand 5 but another table"]),
    "practice chips mixed with real ones": (
        ["DROP TRIGGER ledger_practice_apart",
         _row(1001, 913, "cash_out", "stack", -100, user=ANA, table=2),
         _row(1002, 913, "cash_out", "balance", 100, user=ANA, table=2),
         _row(1003, 914, "cash_out", "stack", -50, user=1, table=1),
         _row(1004, 914, "cash_out", "balance", 50, user=wallet_of(ANA), table=1)],
        [f"ledger row 1002: a cash_out joins the balance of user 7 and table 2{MIXED}",
         f"ledger row 1004: a cash_out joins the balance of user -56 and table 1{MIXED}",
         "practice chips do not add up: wallets 350 + stacks 1070 + open pots 30 = 1450,"
         " granted 1500"]),
    "tournament chips and pools in the wrong accounts": (
        [_row(1001, 915, "tournament_chips", "bank", -20, table=3),
         _row(1002, 915, "tournament_chips", "balance", 20, user=11, table=3),
         _row(1003, 916, "tournament_chips", "bank", -20, table=1),
         _row(1004, 916, "tournament_chips", "stack", 20, user=1, table=1),
         _row(1005, 917, "entry", "balance", -10, user=12),
         _row(1006, 917, "entry", "stack", 10, user=12, table=3),
         _row(1007, 918, "bet", "pool", 10, table=3),
         _row(1008, 918, "bet", "stack", -10, user=13, table=3),
         _row(1009, 919, "entry", "balance", -10, user=1),
         _row(1010, 919, "entry", "pool", 10, table=1)],
        ["ledger row 1002: a tournament_chips may not touch a balance there",
         "ledger row 1003: a tournament_chips may not touch a bank there",
         "ledger row 1004: a tournament_chips may not touch a stack there",
         "ledger row 1006: a entry may not touch a stack there",
         "ledger row 1007: a bet may not touch a pool there",
         "ledger row 1010: a entry may not touch a pool there",
         "tournament chips do not add up: stacks 870 + open pots 30 = 900, issued 940"]),
    "real chips at a tournament table": (
        [_row(1001, 920, "top_up", "balance", -50, user=11),
         _row(1002, 920, "top_up", "stack", 50, user=11, table=3),
         _row(1003, 921, "top_up", "balance", -10, user=1),  # at the real table: fine
         _row(1004, 921, "top_up", "stack", 10, user=1, table=1)],
        ["ledger row 1002: a top_up of real chips at the tournament of table 3",
         "tournament chips do not add up: stacks 920 + open pots 30 = 950, issued 900"]),
    "a negative pool": (
        [_row(1001, 922, "entry_refund", "pool", -400, table=3),
         _row(1002, 922, "entry_refund", "balance", 400, user=11)],
        ["the pool of the tournament of table 3 is negative: -100"]),
    "a finished tournament with chips in its pool": (
        ["UPDATE tournaments SET status = 'finished' WHERE table_id = 3"],
        ["the tournament of table 3 is finished but its pool still holds 300"]),
    "prizes the pool did not pay": (
        ["INSERT INTO tournament_places (table_id, user_id, place, prize, chat_id, at) VALUES"
         " (3, 11, 3, 50, -1002, 0), (3, 12, 2, 25, -1002, 0), (3, 13, 1, 0, -1002, 0)",
         _row(1001, 923, "prize", "pool", -20, table=3),
         _row(1002, 923, "prize", "balance", 20, user=12, table=3)],
        ["tournament of table 3, user 11: prize 50, the pool paid 0",
         "tournament of table 3, user 12: prize 25, the pool paid 20"]),
    "a row that points to a missing user": (
        [_row(1001, 924, "gift", "balance", -5, user=1),
         _row(1002, 924, "gift", "balance", 5, user=99)],
        ["foreign key: row 1002 of ledger points to a missing users"]),
    # (A read-only connection's quick check does not read CHECK constraints, and the
    # negative figures above pass it: its NOT NULL constraints it does read.)
    "a NULL where the schema says NOT NULL": (
        ["PRAGMA writable_schema = ON",
         "UPDATE sqlite_master SET sql = replace(sql, 'finished_at INTEGER',"
         " 'finished_at INTEGER NOT NULL') WHERE name = 'tournaments'"],
        ["sqlite quick_check: NULL value in tournaments.finished_at"]),
}


async def test_the_summary_of_real_practice_and_tournament_play_with_open_pots(
        store: Store, db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    await _everything(store)
    await store.close()
    assert main(["audit", "--db", str(db_path)]) == 0
    assert capsys.readouterr().out == SUMMARY + "\n"


@pytest.mark.parametrize("name", list(FAULTS))
async def test_each_fault_prints_its_own_lines(store: Store, db_path: Path, name: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    await _everything(store)
    await store.close()
    sql, lines = FAULTS[name]
    _tamper(db_path, *sql)
    assert main(["audit", "--db", str(db_path)]) == 1
    *printed, last = capsys.readouterr().out.splitlines()
    # Within one check the rows come in no promised order.
    assert sorted(printed) == sorted(f"violation: {line}" for line in lines)
    assert last == f"audit FAILED: {len(lines)} violation(s)"


async def test_at_most_fifty_lines_of_one_fault(store: Store, db_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    await _everything(store)
    await store.close()
    _tamper(db_path, *(f"INSERT INTO users (id, name, balance, created_at, updated_at)"
                       f" VALUES ({u}, 'Zed', 1, 0, 0)" for u in range(100, 160)))
    assert main(["audit", "--db", str(db_path)]) == 1
    *printed, last = capsys.readouterr().out.splitlines()
    assert len(set(printed)) == 50 and last == "audit FAILED: 50 violation(s)"
    assert set(printed) <= {f"violation: user {u}: cached balance 1, ledger says 0"
                            for u in range(100, 160)}


async def test_the_summary_of_an_empty_database(store: Store, db_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    await store.close()
    assert main(["audit", "--db", str(db_path)]) == 0
    assert capsys.readouterr().out == (
        "audit ok: granted 0 = balances 0 + stacks 0 + open pots 0; 0 users, no hands,"
        " 0 ledger rows\n")


async def test_a_database_older_than_gifts_and_tournaments(
        store: Store, db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Users 1, 2, 3 granted 1000, bought in 500, and a hand open with its antes: 9
    movements. The copy has no house_gifts nor tournaments tables to read."""
    await start_hand(store, await seated_table(store, 3), random.Random(3))
    await store.close()
    _tamper(db_path, "DROP TABLE tournament_places", "DROP TABLE tournaments",
            "DROP TABLE house_gifts")
    assert main(["audit", "--db", str(db_path)]) == 0
    assert capsys.readouterr().out == (
        "audit ok: granted 3000 = balances 1500 + stacks 1470 + open pots 30; 3 users, 1 open,"
        " 18 ledger rows\n")
