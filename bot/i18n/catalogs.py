"""Keeping the catalogues in step with the code (a developer's tool, not run by the bot).

``extract`` reads ``babel.cfg`` and collects the marked strings; ``update`` merges
them into ``messages.pot`` and every ``messages.po``. English is the source language:
its new entries are filled with the msgid and its obsolete ones dropped, so the
English catalogue always matches the code exactly (``check`` verifies that).
"""

from __future__ import annotations

import configparser
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import write_po

from bot.i18n import DEFAULT_LANGUAGE, DOMAIN, LOCALES_DIR, CatalogError, catalog_path, read_catalog

REPO_ROOT: Final = LOCALES_DIR.parent.parent
CONFIG_FILE: Final = "babel.cfg"
TEMPLATE_NAME: Final = f"{DOMAIN}.pot"
PROJECT: Final = "svara-bot"
COMMENT_TAG: Final = "Translators:"
HEADER_COMMENT: Final = """\
# Messages of PROJECT, the Svara bot.
# Translate the msgstr lines; msgids come from the code via `python -m bot.i18n extract`.
#"""

Keyword = tuple[int | tuple[int, str], ...] | None
MessageKey = tuple[str, str | None]

# Header lines that change on every run without any message changing.
_VOLATILE = re.compile(
    r'^"(POT-Creation-Date|PO-Revision-Date|Generated-By|Project-Id-Version): .*$\n?',
    re.MULTILINE,
)


@dataclass(frozen=True)
class ExtractConfig:
    """What ``babel.cfg`` says: which files, by which method, with which keywords."""

    method_map: list[tuple[str, str]]
    options_map: dict[str, dict[str, str]]
    keywords: dict[str, Keyword] = field(default_factory=dict)


def parse_keyword(spec: str) -> tuple[str, Keyword]:
    """A pybabel ``-k`` spec: ``name``, ``name:1,2`` or ``name:1c,2`` (1c = context)."""
    name, _, arguments = spec.partition(":")
    if not name.isidentifier():
        raise CatalogError(f"bad keyword {spec!r}")
    if not arguments:
        return name, None
    positions: list[int | tuple[int, str]] = []
    for argument in arguments.split(","):
        text = argument.strip()
        try:
            positions.append((int(text[:-1]), "c") if text.endswith("c") else int(text))
        except ValueError as err:
            raise CatalogError(f"bad keyword {spec!r}") from err
    return name, tuple(positions)


def read_config(path: Path) -> ExtractConfig:
    """Parse a Babel mapping file, including our per-section ``keywords`` option."""
    parser = configparser.RawConfigParser()
    try:
        with path.open(encoding="utf-8") as file:
            parser.read_file(file, str(path))
    except (OSError, configparser.Error) as err:
        raise CatalogError(f"cannot read {path}: {err}") from err
    method_map: list[tuple[str, str]] = []
    options_map: dict[str, dict[str, str]] = {}
    keywords: dict[str, Keyword] = {}
    for section in parser.sections():
        method, sep, pattern = section.partition(":")
        if not sep or not pattern.strip():
            raise CatalogError(f"{path}: section [{section}] is not [method: pattern]")
        pattern = pattern.strip()
        options = dict(parser.items(section))
        for spec in options.pop("keywords", "").split():
            name, positions = parse_keyword(spec)
            keywords[name] = positions
        method_map.append((pattern, method.strip()))
        options_map[pattern] = options
    return ExtractConfig(method_map, options_map, keywords)


def _directory_filter(root: Path, config: ExtractConfig) -> Callable[[str], bool]:
    # Only walk the top-level folders the patterns name (not venv/, build/ ...).
    tops = {
        pattern.split("/", 1)[0]
        for pattern, method in config.method_map
        if method != "ignore" and "/" in pattern and "*" not in pattern.split("/", 1)[0]
    }
    wide = any(
        method != "ignore" and ("/" not in pattern or "*" in pattern.split("/", 1)[0])
        for pattern, method in config.method_map
    )

    def keep(path: str) -> bool:
        relative = Path(path).relative_to(root)
        if any(part.startswith((".", "_")) for part in relative.parts):
            return False
        return wide or relative.parts[0] in tops

    return keep


def extract(root: Path = REPO_ROOT, config_file: Path | None = None) -> Catalog:
    """The template catalogue: every marked string under ``root``, per ``babel.cfg``."""
    config = read_config(config_file or root / CONFIG_FILE)
    keywords: dict[str, Keyword] = {**DEFAULT_KEYWORDS, **config.keywords}  # type: ignore[dict-item]
    template = _new_catalog(None)
    found = extract_from_dir(
        root,
        method_map=config.method_map,
        options_map=config.options_map,
        keywords=keywords,
        comment_tags=(COMMENT_TAG,),
        strip_comment_tags=True,
        directory_filter=_directory_filter(root.resolve(), config),
    )
    for filename, lineno, message, comments, context in found:
        template.add(
            message,
            None,
            [(filename, lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def _new_catalog(language: str | None) -> Catalog:
    try:
        version = metadata.version(PROJECT)
    except metadata.PackageNotFoundError:
        version = "0"
    return Catalog(
        locale=language,
        header_comment=HEADER_COMMENT,
        domain=DOMAIN,
        project=PROJECT,
        version=version,
        copyright_holder=f"the {PROJECT} authors",
        charset="utf-8",
        fuzzy=False,
    )


def keys(messages: Iterable[object]) -> set[MessageKey]:
    """(msgid, context) of each message; a plural message by its singular."""
    found: set[MessageKey] = set()
    for message in messages:
        msgid = getattr(message, "id", None)
        context = getattr(message, "context", None)
        if isinstance(msgid, (tuple, list)):
            msgid = msgid[0]
        if isinstance(msgid, str) and msgid:
            found.add((msgid, context))
    return found


def render(catalog: Catalog, *, keep_obsolete: bool = True) -> str:
    """The text of a catalogue as we store it: locations without line numbers."""
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=100,
        include_lineno=False,
        ignore_obsolete=not keep_obsolete,
    )
    return buffer.getvalue().decode("utf-8")


def _write_if_changed(path: Path, text: str) -> bool:
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old is not None and _VOLATILE.sub("", old) == _VOLATILE.sub("", text):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def fill_source_language(catalog: Catalog) -> None:
    """Make English say what the code says where it says nothing yet; drop the obsolete."""
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = message.string if isinstance(message.string, (tuple, list)) else ()
            if len(forms) != 2 or not all(forms):
                message.string = (message.id[0], message.id[1])
        elif not message.string:
            message.string = message.id
        message.flags.discard("fuzzy")
    catalog.obsolete.clear()


def update(
    template: Catalog,
    locales: Path = LOCALES_DIR,
    source_language: str = DEFAULT_LANGUAGE,
) -> list[Path]:
    """Write ``messages.pot`` and merge it into each language; return the files changed."""
    changed = []
    pot = locales / TEMPLATE_NAME
    if _write_if_changed(pot, render(template)):
        changed.append(pot)
    if not catalog_path(locales, source_language).exists():
        init(source_language, template, locales)
        changed.append(catalog_path(locales, source_language))
    for language_dir in sorted(p for p in locales.iterdir() if p.is_dir()):
        path = catalog_path(locales, language_dir.name)
        if not path.exists():
            continue
        is_source = language_dir.name == source_language
        catalog = read_catalog(path, language_dir.name)
        catalog.update(template, no_fuzzy_matching=is_source, update_creation_date=False)
        if is_source:
            fill_source_language(catalog)
        if _write_if_changed(path, render(catalog)) and path not in changed:
            changed.append(path)
    return changed


def init(language: str, template: Catalog, locales: Path = LOCALES_DIR) -> Path:
    """Start the catalogue of a new language (Plural-Forms come from Babel's CLDR data)."""
    path = catalog_path(locales, language)
    if path.exists():
        raise CatalogError(f"{path} exists already; use extract to update it")
    try:
        catalog = _new_catalog(language)
    except ValueError as err:
        raise CatalogError(f"unknown language {language!r}: {err}") from err
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    if language == DEFAULT_LANGUAGE:
        fill_source_language(catalog)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(catalog), encoding="utf-8")
    return path


def check(
    root: Path = REPO_ROOT,
    locales: Path = LOCALES_DIR,
    source_language: str = DEFAULT_LANGUAGE,
) -> list[str]:
    """What is out of step between the code, the template and the source catalogue."""
    wanted = keys(extract(root))
    problems = []
    english_path = catalog_path(locales, source_language)
    if not english_path.exists():
        return [f"no catalogue at {english_path}", "run: python -m bot.i18n extract"]
    english = read_catalog(english_path, source_language)
    have = keys(english)
    for msgid, context in sorted(wanted - have, key=str):
        problems.append(
            f"missing from {english_path.name} ({source_language}): {msgid!r}"
            + (f" [{context}]" if context else "")
        )
    for msgid, context in sorted(have - wanted, key=str):
        problems.append(
            f"obsolete in {source_language}: {msgid!r}" + (f" [{context}]" if context else "")
        )
    if english.obsolete:
        problems.append(f"{len(english.obsolete)} commented-out (#~) entries in {source_language}")
    for message in english:
        if message.id and message.fuzzy:
            problems.append(f"fuzzy in {source_language}: {message.id!r}")
    pot = locales / TEMPLATE_NAME
    if not pot.exists() or keys(read_catalog(pot)) != wanted:
        problems.append(f"{pot.name} is out of date")
    if problems:
        problems.append("run: python -m bot.i18n extract")
    return problems
