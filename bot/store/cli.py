"""Operator commands: ``audit [--db PATH]``, ``backup PATH [--db PATH]``,
``grant USER AMOUNT --reason TEXT [--db PATH]`` and ``users [NAME] [--db PATH]``.

``python -m bot audit`` and ``python -m bot backup`` dispatch here (so does
``python -m bot.store.cli``). They all work while the bot is running: the audit reads one
consistent snapshot, and the backup copies one with SQLite's online backup API. Without
``--db`` they act on the bot's own database (``SVARA_DATABASE`` from the environment or
``.env``, see `bot.store.where`), and say which file that is.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.audit import audit_file
from bot.store.db import create_private
from bot.store.errors import StoreError
from bot.store.migrations import schema_version
from bot.store.schema import LATEST
from bot.store.sql import fetchone, read_only_uri
from bot.store.where import announce, resolve

T = TypeVar("T")

DB_HELP = "database file (default: the bot's SVARA_DATABASE, from the environment or .env)"
ENV_HELP = "read the settings from this file as well as the environment (default: .env)"


def add_target_options(command: argparse.ArgumentParser) -> None:
    """``--db`` and ``--env-file``, the same on every operator command."""
    command.add_argument("--db", type=Path, default=None, help=DB_HELP)
    command.add_argument("--env-file", type=Path, default=None, metavar="PATH", help=ENV_HELP)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    audit = sub.add_parser("audit", help="check that every chip is accounted for")
    add_target_options(audit)
    backup = sub.add_parser("backup", help="copy the database safely while the bot runs")
    backup.add_argument("path", type=Path, help="where to write the copy")
    add_target_options(backup)
    grant = sub.add_parser("grant", help="give a player chips (written to the ledger)")
    grant.add_argument("user", help="the player's Telegram user id (python -m bot users NAME "
                                    "finds it)")
    grant.add_argument("amount", type=int, help="chips to give (a positive whole number)")
    grant.add_argument("--reason", required=True, help="why; kept with the ledger row")
    add_target_options(grant)
    users = sub.add_parser("users", help="players whose name contains NAME, with their ids")
    users.add_argument("name", nargs="?", default="", help="part of the name (any case)")
    add_target_options(users)
    return parser


def grant(db: Path, user_id: int, amount: int, reason: str) -> int:
    """Write one ``operator_grant`` row; print the new balance. Bad input changes nothing."""
    problem = _check_source(db)
    if problem:
        print(f"grant: {problem}", file=sys.stderr)
        return 2
    if user_id <= 0:
        # Telegram's user ids are positive; the store keeps practice wallets and computer
        # players under negative ones, which no operator may fill.
        print(f"grant: {user_id} is not a Telegram user id (those are positive numbers; "
              "python -m bot users NAME lists the players)", file=sys.stderr)
        return 2
    if amount <= 0 or not reason.strip():
        print("grant: the amount must be positive and the reason not empty", file=sys.stderr)
        return 2

    async def job() -> int:
        from bot.store.store import Store

        async with await Store.open(db) as store:
            return await store.users.operator_grant(user_id, amount, memo=reason.strip()[:500])

    try:
        balance = run_sync(job())
    except StoreError as err:
        print(f"grant: refused: {err}", file=sys.stderr)
        return 2
    print(f"grant ok: user {user_id} +{amount}, balance {balance}")
    return 0


def run_sync(job: Coroutine[Any, Any, T]) -> T:
    """Run ``job`` to its end from plain code, even when this thread runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(job)
    with ThreadPoolExecutor(1, thread_name_prefix="store-cli") as pool:
        return pool.submit(asyncio.run, job).result()


def _check_source(db: Path) -> str | None:
    if not db.is_file():
        return f"no database at {db} (use --db PATH)"
    return None


def audit(db: Path) -> int:
    """Print the audit of ``db``: ``audit ok: ...`` (0) or every violation (1)."""
    problem = _check_source(db)
    if problem:
        print(f"audit: {problem}", file=sys.stderr)
        return 2
    try:
        report = run_sync(audit_file(db))
    except sqlite3.Error as err:
        print(f"audit: cannot read {db}: {err}", file=sys.stderr)
        return 2
    for violation in report.violations:
        print(f"violation: {violation}")
    print(report.summary())
    return 0 if report.ok else 1


def backup(db: Path, target: Path) -> int:
    """Copy ``db`` to ``target`` as one consistent snapshot; verify the copy."""
    problem = _check_source(db)
    if problem:
        print(f"backup: {problem}", file=sys.stderr)
        return 2
    if target.exists() and target.resolve() == db.resolve():
        print("backup: the copy must not overwrite the database itself", file=sys.stderr)
        return 2
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        check, version = run_sync(_copy(db, partial))
    except sqlite3.Error as err:
        partial.unlink(missing_ok=True)
        print(f"backup: failed: {err}", file=sys.stderr)
        return 1
    if check != "ok":
        partial.unlink(missing_ok=True)
        print(f"backup: the copy failed its integrity check: {check}", file=sys.stderr)
        return 1
    os.replace(partial, target)
    report = run_sync(audit_file(target))
    print(f"backup ok: {target} ({target.stat().st_size} bytes, schema {version}/{LATEST}); "
          f"{report.summary()}")
    return 0


async def _copy(db: Path, partial: Path) -> tuple[str, int]:
    """Copy ``db`` into the new file ``partial``; its integrity check and schema version."""
    source = aiosqlite.connect(read_only_uri(db), uri=True)
    create_private(partial)
    # The backup runs on the source's thread and writes through this connection.
    copy = aiosqlite.connect(partial, check_same_thread=False)
    async with source, copy:
        await source.execute("PRAGMA busy_timeout = 5000")
        # pages=-1: the whole database in one step, i.e. inside one read transaction, so
        # commits the bot makes meanwhile cannot tear the copy.
        await source.backup(copy, pages=-1)
        # A single self-contained file: no -wal next to the copy.
        await copy.execute("PRAGMA journal_mode = DELETE")
        row = await fetchone(copy, "PRAGMA integrity_check")
        return str(row[0] if row is not None else "no answer"), await schema_version(copy)


USERS_LIMIT = 50
_USERS = """
SELECT id, name, balance, updated_at FROM users
WHERE id > 0 AND instr(lower(name), lower(?)) > 0
ORDER BY updated_at DESC, id LIMIT ?
"""


def users(db: Path, name: str) -> int:
    """List the players whose name contains ``name`` (any case): id, balance, last seen."""
    problem = _check_source(db)
    if problem:
        print(f"users: {problem}", file=sys.stderr)
        return 2

    def read() -> list[tuple[int, str, int, int]]:
        conn = sqlite3.connect(read_only_uri(db), uri=True)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            return [(int(r[0]), str(r[1]), int(r[2]), int(r[3]))
                    for r in conn.execute(_USERS, (name, USERS_LIMIT + 1))]
        finally:
            conn.close()

    try:
        found = read()
    except sqlite3.Error as err:
        print(f"users: cannot read {db}: {err}", file=sys.stderr)
        return 2
    if not found:
        print(f"no player's name contains {name!r}" if name else "no players yet")
        return 1
    print(f"{'id':>12}  {'balance':>10}  {'last seen (UTC)':<16}  name")
    for user_id, user_name, balance, seen in found[:USERS_LIMIT]:
        when = datetime.fromtimestamp(seen, UTC).strftime("%Y-%m-%d %H:%M")
        print(f"{user_id:>12}  {balance:>10}  {when:<16}  {user_name}")
    if len(found) > USERS_LIMIT:
        print(f"(the {USERS_LIMIT} seen most recently; give more of the name to narrow it)")
    return 0


def _user_id(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def main(argv: list[str]) -> int:
    """Run one operator command; ``argv`` starts with the command name."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    target = resolve(args.db, args.env_file, sys.stderr)
    if target is None:
        return 2
    announce(target, sys.stderr)
    if args.command == "audit":
        return audit(target.path)
    if args.command == "users":
        return users(target.path, args.name)
    if args.command == "grant":
        user_id = _user_id(args.user)
        if user_id is None:
            print(f"grant: {args.user!r} is not a user id; python -m bot users NAME lists "
                  "the players with their ids", file=sys.stderr)
            return 2
        return grant(target.path, user_id, args.amount, args.reason)
    return backup(target.path, args.path)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
