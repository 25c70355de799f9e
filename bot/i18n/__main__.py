"""Catalogue maintenance: ``python -m bot.i18n extract | check [LANG...] | init LANG``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.i18n import LOCALES_DIR, CatalogError, catalog_path, read_catalog
from bot.i18n.catalogs import (
    REPO_ROOT,
    TEMPLATE_NAME,
    catalogues,
    extract,
    init,
    problems,
    stale,
    update,
)

USAGE = """\
extract      pybabel extract (per babel.cfg) into bot/locales/messages.pot,
             then pybabel update of every catalogue
check [LANG] exit 1 if the template lags behind the code, or a catalogue has a
             message missing, empty or fuzzy, or fields or tags unlike the English
init LANG    pybabel init: start the catalogue of a new language, e.g. init bg
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
    check = commands.add_parser("check", help="what is missing or wrong, per language")
    check.add_argument("languages", nargs="*", help="only these languages")
    new = commands.add_parser("init", help="start a new language")
    new.add_argument("language", help="language code, e.g. bg")
    args = parser.parse_args(argv)
    template = args.locales / TEMPLATE_NAME
    try:
        if args.command == "check":
            found = stale(args.root, args.locales)
            base = read_catalog(template) if template.is_file() else None
            for language, catalog in catalogues(args.locales).items():
                if base is not None and (not args.languages or language in args.languages):
                    found += problems(catalog, base)
            for problem in found:
                print(problem, file=sys.stderr)
            if found:
                print(f"{len(found)} problems", file=sys.stderr)
            return 1 if found else 0
        if args.command == "init":
            print(f"created {init(args.language, template, args.locales)}")
            return 0
        extract(args.root, template)
        update(template, args.locales)
    except CatalogError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"{len(read_catalog(template))} messages in {template}")
    for language in sorted(d.name for d in args.locales.iterdir() if d.is_dir()):
        if catalog_path(args.locales, language).is_file():
            print(f"updated {language}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
