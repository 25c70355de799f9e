"""Operator commands next to ``audit`` and ``backup``: ``restore`` and ``status``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.ops.restore import restore
from bot.ops.status import status
from bot.store.cli import add_target_options
from bot.store.where import announce, resolve


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot")
    sub = parser.add_subparsers(dest="command", required=True)
    back = sub.add_parser("restore", help="put a backup in place of the database (bot stopped)")
    back.add_argument("backup", type=Path, help="the backup file")
    add_target_options(back)
    show = sub.add_parser("status", help="how the bot on a database file is")
    add_target_options(show)
    return parser


def main(argv: list[str]) -> int:
    """Run one command; ``argv`` starts with its name."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    target = resolve(args.db, args.env_file, sys.stderr)
    if target is None:
        return 2
    announce(target, sys.stderr)
    if args.command == "restore":
        return restore(args.backup, target.path, out=sys.stdout, err=sys.stderr)
    settings = target.settings
    live_url = None
    if settings is not None and settings.health_port is not None:
        host = settings.health_listen if settings.health_listen not in ("0.0.0.0", "::", "") \
            else "127.0.0.1"
        live_url = f"http://{host}:{settings.health_port}/livez"
    return status(target.path, out=sys.stdout, live_url=live_url)
