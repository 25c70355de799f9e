"""Bringing a database file up to the schema (`bot.store.schema`), one migration at a time.

``PRAGMA user_version`` holds the number of migrations applied. Each migration runs in
its own transaction together with the bump of that number, so a crash half-way leaves
the previous version intact.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.errors import SchemaTooNew
from bot.store.ledger_table import BANK_KINDS, LEDGER_KINDS, MAX_CHIPS
from bot.store.schema import _STAKES_AS_SEATED, LATEST, MIGRATIONS, Migration
from bot.store.sql import Conn, fetchone


async def schema_version(conn: Conn) -> int:
    """The number of migrations applied to the database behind ``conn``."""
    row = await fetchone(conn, "PRAGMA user_version")
    return int(row[0]) if row is not None else 0


async def migrate(
    conn: Conn,
    *,
    path: str,
    migrations: Sequence[Migration] = MIGRATIONS,
    target: int | None = None,
) -> int:
    """Bring the database up to ``target`` (default: the newest); return the old version.

    ``conn`` must be in autocommit mode (``isolation_level=None``). A database newer than
    ``migrations`` is refused with `SchemaTooNew` before anything is touched.
    """
    for i, m in enumerate(migrations, start=1):
        if m.version != i:
            raise ValueError(f"migration #{i} says it is version {m.version}")
    goal = len(migrations) if target is None else target
    before = await schema_version(conn)
    if before > len(migrations):
        raise SchemaTooNew(path, before, len(migrations))
    for m in migrations[before:goal]:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            if await schema_version(conn) >= m.version:
                await conn.rollback()
                continue
            for step in m.steps:
                if isinstance(step, str):
                    await conn.execute(step)
                else:
                    await step(conn)
            await conn.execute(f"PRAGMA user_version = {m.version}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.rollback()
            raise
    return before


__all__ = ["BANK_KINDS", "LATEST", "LEDGER_KINDS", "MAX_CHIPS", "MIGRATIONS", "_STAKES_AS_SEATED",
           "Migration", "migrate", "schema_version"]
