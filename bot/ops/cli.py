"""Operator commands next to ``audit`` and ``backup``: ``restore`` and ``status``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bot.ops.restore import restore
from bot.ops.status import status


def _default_db() -> Path:
    return Path(os.environ.get("SVARA_DATABASE") or "svara.sqlite3")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot")
    sub = parser.add_subparsers(dest="command", required=True)
    back = sub.add_parser("restore", help="put a backup in place of the database (bot stopped)")
    back.add_argument("backup", type=Path, help="the backup file")
    back.add_argument("--db", type=Path, default=_default_db(),
                      help="database file (default: SVARA_DATABASE or svara.sqlite3)")
    show = sub.add_parser("status", help="how the bot on a database file is")
    show.add_argument("--db", type=Path, default=_default_db(),
                      help="database file (default: SVARA_DATABASE or svara.sqlite3)")
    return parser


def main(argv: list[str]) -> int:
    """Run one command; ``argv`` starts with its name."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if args.command == "restore":
        return restore(args.backup, args.db, out=sys.stdout, err=sys.stderr)
    return status(args.db, out=sys.stdout)
