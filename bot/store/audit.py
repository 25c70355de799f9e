"""The audit: proves the chip invariants of RULES.md §4 from the ledger alone.

Checks, each reported separately:

* every movement sums to zero (double entry);
* only grants, bonuses, rebuys and the house's gifts take chips from the bank, and a
  player's gift moves between balances only;
* balances + table stacks + chips in open pots + tournament pools = every chip ever
  granted;
* tournament chips stay apart: they are issued to and withdrawn from stacks at
  tournament tables only, no real chip reaches such a stack, the chips issued are exactly
  the stacks and open pots of tournament tables, a pool moves only to and from balances,
  an ended tournament's pool is empty and each place's prize is what the pool paid;
* the ledger of every settled or aborted hand sums to zero (its pot was emptied);
* every cached balance, stack and pot equals its ledger sum (a stack without a seat is 0);
* practice chips stay apart: no movement joins a practice table and a real balance, or a
  practice wallet (a negative user id) and a real table, and the chips granted for
  practice are exactly the practice wallets + practice stacks + open practice pots;
* no balance, stack or pot is negative;
* SQLite's own quick check and foreign key check pass.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

from bot.store.ledger_table import BANK_KINDS, POOL_KINDS, TOURNAMENT_CHIP_KINDS
from bot.store.sql import Conn, fetchall, fetchone, read_only_uri


@dataclass(slots=True)
class AuditReport:
    violations: list[str] = field(default_factory=list)
    users: int = 0
    granted: int = 0
    balances: int = 0
    stacks: int = 0
    open_pots: int = 0
    hands: dict[str, int] = field(default_factory=dict)
    rows: int = 0
    practice_granted: int = 0
    """The part of `granted` that is practice chips (bot.store.practice), never real."""
    practice_wallets: int = 0
    practice_stacks: int = 0
    practice_pots: int = 0
    pools: int = 0
    """Real chips in tournaments' pools (bot.store.tournaments)."""
    tournament_issued: int = 0
    """The part of `granted` that is tournament chips still out, never real."""
    tournament_stacks: int = 0
    tournament_pots: int = 0

    @property
    def ok(self) -> bool:
        return not self.violations

    def summary(self) -> str:
        """``audit ok: ...`` with the totals, or ``audit FAILED: n violations``."""
        if not self.ok:
            return f"audit FAILED: {len(self.violations)} violation(s)"
        hands = ", ".join(f"{n} {s}" for s, n in sorted(self.hands.items())) or "no hands"
        pools = f" + pools {self.pools}" if self.pools else ""
        return (
            f"audit ok: granted {self.granted} = balances {self.balances} + stacks "
            f"{self.stacks} + open pots {self.open_pots}{pools}; {self.users} users, {hands}, "
            f"{self.rows} ledger rows"
        ) + self._practice() + self._tournaments()

    def _tournaments(self) -> str:
        if not self.tournament_issued:
            return ""
        return (f"; of these, tournament chips: issued {self.tournament_issued} = stacks "
                f"{self.tournament_stacks} + open pots {self.tournament_pots}")

    def _practice(self) -> str:
        if not self.practice_granted:
            return ""
        return (f"; of these, practice chips: granted {self.practice_granted} = wallets "
                f"{self.practice_wallets} + stacks {self.practice_stacks} + open pots "
                f"{self.practice_pots}")


async def _scalar(conn: Conn, sql: str) -> int:
    row = await fetchone(conn, sql)
    return int(row[0] or 0) if row is not None else 0


async def run_audit(conn: Conn, *, limit: int = 50) -> AuditReport:
    """Audit the database behind ``conn`` (call it inside one read transaction).

    At most ``limit`` violations of each kind are listed.
    """
    r = AuditReport()
    bad = r.violations

    async def each(sql: str, message: str) -> None:
        for row in await fetchall(conn, f"{sql} LIMIT {int(limit)}"):
            bad.append(message.format(*row))

    for (line,) in await fetchall(conn, "PRAGMA quick_check"):
        if line != "ok":
            bad.append(f"sqlite quick_check: {line}")
    for row in await fetchall(conn, "PRAGMA foreign_key_check"):
        bad.append(f"foreign key: row {row[1]} of {row[0]} points to a missing {row[2]}")

    r.rows = await _scalar(conn, "SELECT count(*) FROM ledger")
    r.users = await _scalar(conn, "SELECT count(*) FROM users")
    r.granted = -await _scalar(conn, "SELECT sum(delta) FROM ledger WHERE account = 'bank'")
    r.balances = await _scalar(conn, "SELECT sum(delta) FROM ledger WHERE account = 'balance'")
    r.stacks = await _scalar(conn, "SELECT sum(delta) FROM ledger WHERE account = 'stack'")
    r.open_pots = await _scalar(
        conn, "SELECT sum(l.delta) FROM ledger l JOIN hands h ON h.id = l.hand_id"
              " WHERE l.account = 'pot' AND h.status = 'open'")
    r.hands = {s: n for s, n in await fetchall(conn, "SELECT status, count(*) FROM hands"
                                                     " GROUP BY 1")}

    r.pools = await _scalar(conn, "SELECT sum(delta) FROM ledger WHERE account = 'pool'")

    await _practice(conn, r, each)
    await _tournaments(conn, r, each)

    await each("SELECT move, sum(delta) FROM ledger GROUP BY move HAVING sum(delta) != 0",
         "movement {0} does not balance: its rows sum to {1}")
    bank_kinds = ", ".join(f"'{k}'" for k in BANK_KINDS)
    await each(f"SELECT id, kind FROM ledger WHERE account = 'bank'"
               f" AND kind NOT IN ({bank_kinds})",
               "ledger row {0}: a {1} may not touch the bank")
    await each("SELECT id, account FROM ledger WHERE (kind = 'gift' AND account != 'balance')"
               " OR (kind = 'house_gift' AND account NOT IN ('bank', 'balance'))"
               " OR (kind = 'rebuy' AND account NOT IN ('bank', 'stack'))",
               "ledger row {0}: a gift or rebuy may not touch a {1}")
    gifts = await fetchone(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                                 " AND name = 'house_gifts'")
    if gifts is not None:  # a copy of a database older than the gifts has none to check
        await each("SELECT g.move, g.amount, ifnull(sum(l.delta), 0) FROM house_gifts g"
                   " LEFT JOIN ledger l ON l.move = g.move AND l.account = 'balance'"
                   " AND l.kind = 'house_gift' GROUP BY g.move"
                   " HAVING g.amount != ifnull(sum(l.delta), 0)",
                   "house gift {0} of {1} chips: the ledger moved {2}")
    held = r.balances + r.stacks + r.open_pots + r.pools
    if held != r.granted:
        bad.append(
            f"chips do not add up: balances {r.balances} + stacks {r.stacks} + open pots "
            f"{r.open_pots} + pools {r.pools} = {held}, granted {r.granted}"
        )
    await each("SELECT h.id, h.status, sum(l.delta) FROM hands h JOIN ledger l"
         " ON l.hand_id = h.id AND l.account = 'pot' WHERE h.status != 'open'"
         " GROUP BY h.id HAVING sum(l.delta) != 0",
         "hand {0} is {1} but its pot still holds {2}")
    await each("SELECT u.id, u.balance, ifnull(sum(l.delta), 0) FROM users u LEFT JOIN ledger l"
         " ON l.user_id = u.id AND l.account = 'balance' GROUP BY u.id"
         " HAVING u.balance != ifnull(sum(l.delta), 0)",
         "user {0}: cached balance {1}, ledger says {2}")
    await each("SELECT s.table_id, s.user_id, s.stack, ifnull(sum(l.delta), 0) FROM seats s"
         " LEFT JOIN ledger l ON l.account = 'stack' AND l.user_id = s.user_id"
         " AND l.table_id = s.table_id GROUP BY s.table_id, s.user_id"
         " HAVING s.stack != ifnull(sum(l.delta), 0)",
         "table {0}, user {1}: cached stack {2}, ledger says {3}")
    await each("SELECT l.table_id, l.user_id, sum(l.delta) FROM ledger l LEFT JOIN seats s"
         " ON s.table_id = l.table_id AND s.user_id = l.user_id WHERE l.account = 'stack'"
         " AND s.user_id IS NULL GROUP BY l.table_id, l.user_id HAVING sum(l.delta) != 0",
         "table {0}, user {1}: no seat, but the ledger leaves {2} chips in his stack")
    await each("SELECT h.id, h.pot, ifnull(sum(l.delta), 0) FROM hands h LEFT JOIN ledger l"
         " ON l.hand_id = h.id AND l.account = 'pot' GROUP BY h.id"
         " HAVING h.pot != ifnull(sum(l.delta), 0)",
         "hand {0}: cached pot {1}, ledger says {2}")
    await each("SELECT user_id, sum(delta) FROM ledger WHERE account = 'balance'"
         " GROUP BY user_id HAVING sum(delta) < 0",
         "user {0}: negative balance {1}")
    await each("SELECT table_id, user_id, sum(delta) FROM ledger WHERE account = 'stack'"
         " GROUP BY table_id, user_id HAVING sum(delta) < 0",
         "table {0}, user {1}: negative stack {2}")
    await each("SELECT hand_id, sum(delta) FROM ledger WHERE account = 'pot'"
         " GROUP BY hand_id HAVING sum(delta) < 0",
         "hand {0}: negative pot {1}")
    await each("SELECT id, balance FROM users WHERE balance < 0", "user {0}: negative balance {1}")
    await each("SELECT table_id, user_id, stack FROM seats WHERE stack < 0",
         "table {0}, user {1}: negative stack {2}")
    await each("SELECT l.id, l.hand_id FROM ledger l JOIN hands h ON h.id = l.hand_id"
         " WHERE l.table_id IS NOT h.table_id",
         "ledger row {0} names hand {1} but another table")
    return r


async def _practice(conn: Conn, r: AuditReport,
                    each: Callable[[str, str], Awaitable[None]]) -> None:
    """Practice chips, counted on their own: they come from the bank and stay apart."""
    practice_tables = "SELECT id FROM tables WHERE practice = 1"
    r.practice_granted = await _scalar(
        conn, "SELECT sum(delta) FROM ledger WHERE account = 'balance' AND user_id < 0"
              " AND kind IN ('grant', 'bonus', 'operator_grant')")
    r.practice_wallets = await _scalar(
        conn, "SELECT sum(delta) FROM ledger WHERE account = 'balance' AND user_id < 0")
    r.practice_stacks = await _scalar(
        conn, f"SELECT sum(delta) FROM ledger WHERE account = 'stack'"
              f" AND table_id IN ({practice_tables})")
    r.practice_pots = await _scalar(
        conn, f"SELECT sum(l.delta) FROM ledger l JOIN hands h ON h.id = l.hand_id"
              f" WHERE l.account = 'pot' AND h.status = 'open' AND h.table_id IN"
              f" ({practice_tables})")
    await each("SELECT l.id, l.kind, l.user_id, l.table_id FROM ledger l JOIN tables t"
               " ON t.id = l.table_id WHERE l.account = 'balance'"
               " AND (l.user_id < 0) != t.practice",
               "ledger row {0}: a {1} joins the balance of user {2} and table {3}: practice"
               " chips and real chips mixed")
    held = r.practice_wallets + r.practice_stacks + r.practice_pots
    if held != r.practice_granted:
        r.violations.append(
            f"practice chips do not add up: wallets {r.practice_wallets} + stacks "
            f"{r.practice_stacks} + open pots {r.practice_pots} = {held}, granted "
            f"{r.practice_granted}")


async def _tournaments(conn: Conn, r: AuditReport,
                       each: Callable[[str, str], Awaitable[None]]) -> None:
    """Tournament chips, counted on their own, and the pools of real chips."""
    found = await fetchone(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                                 " AND name = 'tournaments'")
    if found is None:  # a copy of a database older than the tournaments has none
        return
    tables = "SELECT table_id FROM tournaments"
    chips = ", ".join(f"'{k}'" for k in TOURNAMENT_CHIP_KINDS)
    pool_kinds = ", ".join(f"'{k}'" for k in POOL_KINDS)
    r.tournament_issued = -await _scalar(
        conn, f"SELECT sum(delta) FROM ledger WHERE account = 'bank' AND kind IN ({chips})")
    r.tournament_stacks = await _scalar(
        conn, f"SELECT sum(delta) FROM ledger WHERE account = 'stack' AND table_id IN ({tables})")
    r.tournament_pots = await _scalar(
        conn, f"SELECT sum(l.delta) FROM ledger l JOIN hands h ON h.id = l.hand_id"
              f" WHERE l.account = 'pot' AND h.status = 'open' AND h.table_id IN ({tables})")
    await each(f"SELECT id, kind, account FROM ledger WHERE (kind IN ({chips})"
               f" AND (account NOT IN ('bank', 'stack') OR table_id NOT IN ({tables})))"
               f" OR (kind IN ({pool_kinds}) AND account NOT IN ('balance', 'pool'))"
               f" OR (account = 'pool' AND kind NOT IN ({pool_kinds}))"
               f" OR (account = 'pool' AND table_id NOT IN ({tables}))",
               "ledger row {0}: a {1} may not touch a {2} there")
    await each(f"SELECT id, kind, table_id FROM ledger WHERE account = 'stack'"
               f" AND table_id IN ({tables})"
               f" AND kind IN ('buy_in', 'top_up', 'cash_out', 'rebuy')",
               "ledger row {0}: a {1} of real chips at the tournament of table {2}")
    await each("SELECT table_id, sum(delta) FROM ledger WHERE account = 'pool'"
               " GROUP BY table_id HAVING sum(delta) < 0",
               "the pool of the tournament of table {0} is negative: {1}")
    await each("SELECT t.table_id, t.status, sum(l.delta) FROM tournaments t JOIN ledger l"
               " ON l.account = 'pool' AND l.table_id = t.table_id"
               " WHERE t.status IN ('finished', 'cancelled') GROUP BY t.table_id"
               " HAVING sum(l.delta) != 0",
               "the tournament of table {0} is {1} but its pool still holds {2}")
    await each("SELECT p.table_id, p.user_id, p.prize, ifnull(sum(l.delta), 0)"
               " FROM tournament_places p LEFT JOIN ledger l ON l.kind = 'prize'"
               " AND l.account = 'balance' AND l.table_id = p.table_id"
               " AND l.user_id = p.user_id GROUP BY p.table_id, p.user_id"
               " HAVING p.prize != ifnull(sum(l.delta), 0)",
               "tournament of table {0}, user {1}: prize {2}, the pool paid {3}")
    held = r.tournament_stacks + r.tournament_pots
    if held != r.tournament_issued:
        r.violations.append(
            f"tournament chips do not add up: stacks {r.tournament_stacks} + open pots "
            f"{r.tournament_pots} = {held}, issued {r.tournament_issued}")


async def audit_file(path: str | Path) -> AuditReport:
    """Audit a database file, read-only, on one consistent snapshot."""
    async with aiosqlite.connect(read_only_uri(path), uri=True, isolation_level=None) as conn:
        await conn.execute("PRAGMA busy_timeout = 5000")
        await conn.execute("BEGIN")
        try:
            return await run_audit(conn)
        finally:
            await conn.rollback()
