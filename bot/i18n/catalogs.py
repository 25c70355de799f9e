"""Keeping the catalogues in step with the code, and checking what translators wrote.

The work is done by Babel's own commands, configured by ``babel.cfg``::

    pybabel extract -F babel.cfg -c Translators: -s --add-location=file --sort-by-file \\
        -w 100 -o bot/locales/messages.pot .
    pybabel update -i bot/locales/messages.pot -d bot/locales -w 100 --ignore-obsolete
    pybabel init -i bot/locales/messages.pot -d bot/locales -l bg -w 100

``python -m bot.i18n extract`` runs the first two with exactly these options, and
``python -m bot.i18n check`` says what a translator still has to do. English is the
source language: the code's strings are the English text, so it has no catalogue.

``problems`` checks a catalogue against the template: every message translated and
not fuzzy, the same ``{fields}`` and the same HTML tags as the English source, and a
plural message with all the forms its language has.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import string
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from gettext import c2py
from pathlib import Path
from typing import Final

from babel.core import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface

from bot.i18n import DEFAULT_LANGUAGE, DOMAIN, LOCALES_DIR, CatalogError, catalog_path, read_catalog

__all__ = [
    "LANGUAGES",
    "REPO_ROOT",
    "TEMPLATE_NAME",
    "catalogues",
    "extract",
    "fields",
    "init",
    "native_name",
    "problems",
    "pybabel",
    "stale",
    "tags",
    "update",
]

REPO_ROOT: Final = LOCALES_DIR.parent.parent
CONFIG_FILE: Final = "babel.cfg"
TEMPLATE_NAME: Final = f"{DOMAIN}.pot"
WIDTH: Final = "100"

LANGUAGES: Final = ("en", "bg", "cs", "id", "hi", "zu", "ru")
"""The languages the bot ships, English (the source) first."""

_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?)>")
_FORMATTER = string.Formatter()


def pybabel(*args: str) -> None:
    """Run one ``pybabel`` command in this process; raise ``CatalogError`` if it fails."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    babel_log = logging.getLogger("babel")
    babel_log.addHandler(handler)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]
    except SystemExit as err:  # the option parser exits on bad options
        status = err.code if isinstance(err.code, int) else 1
    except Exception as err:
        raise CatalogError(f"pybabel {args[0]} failed: {err}") from err
    finally:
        babel_log.removeHandler(handler)
    if status:
        raise CatalogError(f"pybabel {args[0]} failed: {out.getvalue().strip()}")


def extract(root: Path = REPO_ROOT, output: Path | None = None) -> Path:
    """Collect the marked strings under ``root`` (per its ``babel.cfg``) into a template."""
    target = (output or root / "bot" / "locales" / TEMPLATE_NAME).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.chdir(root):  # locations are written relative to the input folder
        pybabel(
            "extract", "-F", CONFIG_FILE, "-c", "Translators:", "-s",
            "--add-location=file", "--sort-by-file", "-w", WIDTH,
            "--project=svara-bot", "--copyright-holder=the svara-bot authors",
            "-o", str(target), ".",
        )
    return target


def update(template: Path, locales: Path = LOCALES_DIR) -> None:
    """Merge the template into every catalogue (new messages empty, changed ones fuzzy)."""
    if any(catalog_path(locales, d.name).is_file() for d in _language_dirs(locales)):
        pybabel("update", "-i", str(template), "-d", str(locales), "-D", DOMAIN, "-w", WIDTH,
                "--ignore-obsolete", "--ignore-pot-creation-date")


def init(language: str, template: Path, locales: Path = LOCALES_DIR) -> Path:
    """Start the catalogue of a new language (Plural-Forms from Babel's CLDR data)."""
    path = catalog_path(locales, language)
    if path.exists():
        raise CatalogError(f"{path} exists already; use extract to update it")
    pybabel("init", "-i", str(template), "-d", str(locales), "-D", DOMAIN, "-l", language,
            "-w", WIDTH)
    return path


def _language_dirs(locales: Path) -> Iterator[Path]:
    return (d for d in sorted(locales.iterdir()) if d.is_dir()) if locales.is_dir() else iter(())


def native_name(language: str) -> str:
    """The language's name in that language, as a button shows it: "Български"."""
    name = Locale.parse(language).get_display_name(language) or language
    if name.islower():  # "čeština" starts a menu line capitalised; "isiZulu" stays itself
        name = name[:1].upper() + name[1:]
    return name


def catalogues(locales: Path = LOCALES_DIR) -> dict[str, Catalog]:
    """Every shipped catalogue but English (the source), by language."""
    found = {}
    for language in LANGUAGES:
        path = catalog_path(locales, language)
        if language != DEFAULT_LANGUAGE and path.is_file():
            found[language] = read_catalog(path, language)
    return found


# -- checks ------------------------------------------------------------------------------

Key = tuple[str, str | None]


def _key(message: Message) -> Key:
    msgid = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
    return str(msgid), message.context


def _keys(catalog: Iterable[Message]) -> set[Key]:
    return {_key(m) for m in catalog if m.id}


def fields(text: str) -> set[str]:
    """The ``{fields}`` of a format string (``{net:+d}`` counts as ``net``)."""
    try:
        return {
            name.split(".", 1)[0].split("[", 1)[0]
            for _, name, _, _ in _FORMATTER.parse(text)
            if name is not None
        }
    except ValueError:
        return {"<unbalanced braces>"}


def tags(text: str) -> Counter[str]:
    """The HTML tags of a message, with their attributes, counted."""
    return Counter(match.group(0) for match in _TAG.finditer(text))


def stale(root: Path = REPO_ROOT, locales: Path = LOCALES_DIR) -> list[str]:
    """What makes the template or a catalogue lag behind the code."""
    with tempfile.TemporaryDirectory() as scratch:
        wanted = _keys(read_catalog(extract(root, Path(scratch) / TEMPLATE_NAME)))
    pot = locales / TEMPLATE_NAME
    found: list[str] = []
    if not pot.is_file() or _keys(read_catalog(pot)) != wanted:
        found.append(f"{pot.name} is out of date")
    for directory in _language_dirs(locales):
        path = catalog_path(locales, directory.name)
        if path.is_file():
            have = _keys(read_catalog(path, directory.name))
            found += [f"{directory.name}: missing {msgid!r}" for msgid, _ in sorted(wanted - have)]
            found += [f"{directory.name}: obsolete {msgid!r}" for msgid, _ in sorted(have - wanted)]
    return found


def problems(catalog: Catalog, template: Catalog) -> list[str]:
    """What a translator still has to fix in ``catalog`` (empty when it is complete)."""
    language = str(catalog.locale) if catalog.locale else "?"
    found: list[str] = []
    wanted = {_key(m): m for m in template if m.id}
    have = {_key(m): m for m in catalog if m.id}
    found += [f"{language}: missing {k[0]!r}" for k in wanted if k not in have]
    found += [f"{language}: obsolete {k[0]!r}" for k in have if k not in wanted]
    if catalog.obsolete:
        found.append(f"{language}: {len(catalog.obsolete)} commented-out (#~) entries")
    single = _single_forms(catalog)
    for key, message in have.items():
        if key in wanted:
            found += [f"{language}: {p} in {key[0]!r}"
                      for p in _entry_problems(message, single, catalog.num_plurals)]
    return found


def _single_forms(catalog: Catalog) -> set[int]:
    """Plural forms used for exactly n = 1, which may say "one" instead of the number."""
    rule = c2py(catalog.plural_expr)
    uses: dict[int, set[int]] = {}
    for n in range(0, 1001):
        uses.setdefault(rule(n), set()).add(n)
    return {form for form, numbers in uses.items() if numbers == {1}}


def _entry_problems(message: Message, single: set[int], count: int) -> Iterator[str]:
    if message.fuzzy:
        yield "fuzzy"
    if isinstance(message.id, (tuple, list)):
        singular, plural = str(message.id[0]), str(message.id[1])
        forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        every = fields(singular) | fields(plural)
        counter = fields(plural) - fields(singular)
        if len(forms) != count:
            yield f"{len(forms)} plural forms instead of {count}"
        for index, form in enumerate(forms):
            if not form:
                yield f"plural form {index} empty"
                continue
            need = every - counter if index in single else every
            yield from _compare(str(form), plural, need, every, f"form {index}: ")
        return
    text = message.string if isinstance(message.string, str) else ""
    if not text:
        yield "not translated"
        return
    source = str(message.id)
    yield from _compare(text, source, fields(source), fields(source), "")


def _compare(text: str, source: str, need: set[str], allowed: set[str],
             where: str) -> Iterator[str]:
    have = fields(text)
    if need - have:
        yield f"{where}field(s) {sorted(need - have)} missing"
    if have - allowed:
        yield f"{where}field(s) {sorted(have - allowed)} not in the English"
    if tags(text) != tags(source):
        yield f"{where}HTML tags {sorted(tags(text).elements())} differ from the English"
