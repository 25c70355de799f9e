"""Catalogue maintenance: ``python -m bot.i18n extract | check | init LANG``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.i18n import LOCALES_DIR, CatalogError
from bot.i18n.catalogs import REPO_ROOT, check, extract, init, update

USAGE = """\
extract   collect the marked strings from the code (per babel.cfg), rewrite
          bot/locales/messages.pot and merge it into every messages.po
          (English entries are filled with the source text)
check     exit 1 if the English catalogue or the template lags behind the code
init LANG start the catalogue of a new language, e.g. init bg
"""


def main(argv: list[str] | None = None) -> int:
    """Run one maintenance command; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.i18n",
        description="Keep the translation catalogues in step with the code.",
        epilog=USAGE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="repository root")
    parser.add_argument("--locales", type=Path, default=LOCALES_DIR, help="catalogue folder")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("extract", help="update the template and catalogues")
    commands.add_parser("check", help="verify the English catalogue matches the code")
    new = commands.add_parser("init", help="start a new language")
    new.add_argument("language", help="language code, e.g. bg")
    args = parser.parse_args(argv)

    try:
        if args.command == "check":
            problems = check(args.root, args.locales)
            for problem in problems:
                print(problem, file=sys.stderr)
            return 1 if problems else 0
        template = extract(args.root)
        if args.command == "init":
            print(f"created {init(args.language, template, args.locales)}")
            print("now run: python -m bot.i18n extract")
            return 0
        changed = update(template, args.locales)
    except CatalogError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for path in changed:
        print(f"updated {path}")
    print(f"{len(template)} messages; {len(changed) or 'no'} files changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
