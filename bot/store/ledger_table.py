"""The ledger's table: the kinds of movement and the accounts it admits, the bound on an
amount, and the SQL that creates it.

SQLite cannot alter a CHECK, so a new kind needs a migration that builds the table again
(`ledger_kinds_again`); `bot.store.schema` holds the migrations that use both.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.sql import Conn

MAX_CHIPS = 10**15
"""No single amount may exceed this (the engine uses the same bound)."""

LEDGER_KINDS = (
    "grant", "bonus", "operator_grant",  # chips created: bank -> balance
    "buy_in", "top_up", "cash_out",  # balance <-> table stack
    "ante", "blind", "bet", "svara_join",  # stack -> pot
    "win", "return", "refund",  # pot -> stack (or balance, for a refund to a gone seat)
    "rebuy",  # chips created: bank -> the stack of a broke player, as the table allows
    "house_gift",  # chips created: bank -> balance, a chat admin's /give
    "gift",  # balance -> balance, a player's /give of his own chips
    "entry", "entry_refund", "prize",  # balance <-> a tournament's pool (real chips)
    "tournament_chips", "tournament_out",  # bank <-> stack: a tournament's own chips
)
BANK_KINDS = ("grant", "bonus", "operator_grant", "rebuy", "house_gift",
              "tournament_chips", "tournament_out")
"""The kinds that may take chips from the bank: every chip in play came through one."""
TOURNAMENT_CHIP_KINDS = ("tournament_chips", "tournament_out")
"""The kinds that issue and withdraw a tournament's chips (never real chips)."""
POOL_KINDS = ("entry", "entry_refund", "prize")
"""The kinds that move real chips between a balance and a tournament's pool."""
ACCOUNTS = ("bank", "balance", "stack", "pot", "pool")


def _quoted(values: Sequence[str]) -> str:
    return ", ".join(f"'{v}'" for v in values)


_LEDGER = """
    CREATE TABLE ledger (
        id       INTEGER PRIMARY KEY,
        move     INTEGER NOT NULL,
        kind     TEXT    NOT NULL CHECK (kind IN ({kinds})),
        account  TEXT    NOT NULL CHECK (account IN ({accounts})),
        user_id  INTEGER REFERENCES users(id),
        table_id INTEGER REFERENCES tables(id),
        hand_id  INTEGER REFERENCES hands(id),
        seq      INTEGER,
        delta    INTEGER NOT NULL CHECK (delta != 0 AND abs(delta) <= {most}),
        memo     TEXT,
        at       INTEGER NOT NULL,
        CHECK (account != 'balance' OR user_id IS NOT NULL),
        CHECK (account != 'stack' OR (user_id IS NOT NULL AND table_id IS NOT NULL)),
        CHECK (account != 'pot' OR hand_id IS NOT NULL),
        CHECK (account != 'pool' OR table_id IS NOT NULL)
    )
"""
"""The ledger table's SQL, for `ledger_table`."""


def ledger_table(kinds: Sequence[str], name: str = "ledger") -> str:
    return _LEDGER.replace("CREATE TABLE ledger", f"CREATE TABLE {name}").format(
        kinds=_quoted(kinds), accounts=_quoted(ACCOUNTS), most=MAX_CHIPS)


async def ledger_kinds_again(conn: Conn) -> None:
    """Rebuild the ledger under a CHECK that knows today's kinds (SQLite cannot alter one).

    The rows are copied as they are; the indexes and triggers of the old table are
    written again from their own SQL, so the append-only guard and the cached sums hold
    before and after.
    """
    rows = await conn.execute_fetchall(
        "SELECT sql FROM sqlite_master WHERE tbl_name = 'ledger'"
        " AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name")
    again = [str(r[0]) for r in rows]
    await conn.execute(ledger_table(LEDGER_KINDS, "ledger_new"))
    await conn.execute("INSERT INTO ledger_new SELECT id, move, kind, account, user_id,"
                       " table_id, hand_id, seq, delta, memo, at FROM ledger ORDER BY id")
    await conn.execute("DROP TABLE ledger")
    await conn.execute("ALTER TABLE ledger_new RENAME TO ledger")
    for sql in again:
        await conn.execute(sql)
