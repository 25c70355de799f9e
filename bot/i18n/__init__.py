"""Every word a player sees: gettext catalogues, one ``Translator`` per language.

Group messages are written in the chat's language, private ones in the user's own::

    translations = Translations.load()          # once, at start-up
    tr = translations.get(user.language_code)   # "pt-br" -> "pt"; unknown -> English
    tr.gettext("Not your turn")
    tr.nformat("{count} player joined", "{count} players joined", n)
    tr.format("<b>{player}</b> folds", player=user.full_name)   # values are escaped

The ``.po`` files under ``bot/locales`` are read directly with Babel, so there is no
compile step. ``python -m bot.i18n extract`` collects the marked strings from the
code and brings the template and every catalogue up to date.

Strings are marked by the method name of the call, whatever the object: ``gettext``,
``ngettext``, ``pgettext``, ``npgettext``, ``format``, ``nformat`` (and ``N_`` for
strings defined away from any translator). The first arguments must be literal
strings, or extraction cannot see them (and ``"...".format("literal")`` elsewhere in
``bot/`` would be picked up: use f-strings there).

Messages are Telegram HTML, whether they come from a catalogue or from the code: a
literal ``&``, ``<`` or ``>`` is written ``&amp;``, ``&lt;``, ``&gt;`` in the msgid,
and braces meant literally in a ``format`` message are doubled. Every method returns
``Html``, so a translated piece can be passed as a value to ``format`` without being
escaped twice, while everything else (player names) is escaped.
"""

from __future__ import annotations

import gettext as _gettext
import logging
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Final

import markupsafe
from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LOCALES_DIR",
    "NP_",
    "N_",
    "CatalogError",
    "Html",
    "Translations",
    "Translator",
    "escape",
    "normalize_language",
]

log = logging.getLogger(__name__)

DEFAULT_LANGUAGE: Final = "en"
DOMAIN: Final = "messages"
LOCALES_DIR: Final = Path(__file__).resolve().parent.parent / "locales"

PluralRule = Callable[[int], int]
MessageKey = tuple[str | None, str]
"""(context, msgid); a plural message is keyed by its singular msgid."""
Entries = Mapping[MessageKey, str | tuple[str, ...]]


def N_(msgid: str) -> str:
    """Mark a string for extraction without translating it (translate it later)."""
    return msgid


def NP_(context: str, msgid: str) -> str:
    """``N_`` with a context, for a word that reads differently elsewhere (``pgettext``)."""
    del context
    return msgid


class CatalogError(Exception):
    """A catalogue file that cannot be used."""


class Html(str):
    """Text that is already valid Telegram HTML and must not be escaped again."""

    __slots__ = ()

    def __html__(self) -> str:
        """MarkupSafe's mark of text that is already HTML."""
        return self


def escape(value: object) -> Html:
    """``value`` as text safe inside Telegram HTML (``Html`` passes through unchanged).

    MarkupSafe does the escaping: ``&``, ``<``, ``>`` and both quotes, which Telegram
    reads back as the characters they stand for.
    """
    if isinstance(value, Html):
        return value
    return Html(markupsafe.escape(str(value)))


def normalize_language(code: str | None) -> str:
    """The primary language subtag of a Telegram ``language_code``: "pt-br" -> "pt".

    Anything that is not a 2-3 letter language code gives the default language.
    """
    if not code:
        return DEFAULT_LANGUAGE
    primary = code.strip().replace("_", "-").split("-", 1)[0].lower()
    if 2 <= len(primary) <= 3 and primary.isascii() and primary.isalpha():
        return primary
    return DEFAULT_LANGUAGE


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


class Translator:
    """The messages of one language, falling back to another translator, then to the code."""

    def __init__(
        self,
        language: str,
        entries: Entries | None = None,
        plural: PluralRule = _english_plural,
        fallback: Translator | None = None,
    ) -> None:
        self.language = language
        self._entries: Entries = entries or {}
        self._plural = plural
        self._fallback = fallback

    def __repr__(self) -> str:
        return f"Translator({self.language!r}, {len(self._entries)} messages)"

    def __contains__(self, key: object) -> bool:
        """Whether this catalogue itself translates ``msgid`` or ``(context, msgid)``."""
        if isinstance(key, str):
            key = (None, key)
        return key in self._entries

    # -- messages -----------------------------------------------------------------

    def gettext(self, msgid: str) -> Html:
        """The translation of ``msgid``."""
        return Html(self._single(None, msgid))

    def pgettext(self, context: str, msgid: str) -> Html:
        """The translation of ``msgid`` in ``context`` (for words with several senses)."""
        return Html(self._single(context, msgid))

    def ngettext(self, singular: str, plural: str, n: int) -> Html:
        """The form of a message that fits the number ``n``."""
        return Html(self._plural_form(None, singular, plural, n))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> Html:
        """``ngettext`` with a context."""
        return Html(self._plural_form(context, singular, plural, n))

    def _single(self, context: str | None, msgid: str) -> str:
        entry = self._entries.get((context, msgid))
        if isinstance(entry, str):
            return entry
        if self._fallback is not None:
            return self._fallback._single(context, msgid)
        return msgid

    def _plural_form(self, context: str | None, singular: str, plural: str, n: int) -> str:
        entry = self._entries.get((context, singular))
        if isinstance(entry, tuple):
            # Rules are written for counts; a loss of 5 chips reads like 5 chips.
            index = self._plural(abs(n))
            if 0 <= index < len(entry):
                return entry[index]
        if self._fallback is not None:
            return self._fallback._plural_form(context, singular, plural, n)
        return singular if _english_plural(abs(n)) == 0 else plural

    # -- HTML ---------------------------------------------------------------------

    def format(self, msgid: str, /, **values: object) -> Html:
        """Translate ``msgid`` and fill in ``{name}`` fields, HTML-escaping the values.

        The message itself may hold markup (``<b>``); values may not, unless they
        are ``Html``. Numbers are left as numbers so format specs still apply.
        """
        return self._fill(self.gettext(msgid), msgid, values)

    def nformat(self, singular: str, plural: str, n: int, /, **values: object) -> Html:
        """``ngettext`` then ``format``; ``{n}`` is available unless given otherwise."""
        values.setdefault("n", n)
        source = singular if _english_plural(abs(n)) == 0 else plural
        return self._fill(self.ngettext(singular, plural, n), source, values)

    def _fill(self, text: str, source: str, values: Mapping[str, object]) -> Html:
        safe = {name: _safe_value(value) for name, value in values.items()}
        try:
            return Html(text.format_map(safe))
        except (KeyError, IndexError, ValueError, AttributeError) as err:
            if text == source:
                raise
            # A translator's typo in a field name must not take the table down.
            log.warning("bad fields in %s translation of %r: %r", self.language, source, err)
            return Html(source.format_map(safe))

    # -- common phrases -------------------------------------------------------------

    def number(self, value: int | float) -> str:
        """A number written the way this language writes it (1,000 / 1 000 / 1.000)."""
        try:
            return format_decimal(value, locale=self.language)
        except (UnknownLocaleError, ValueError):
            return str(value)

    def chips(self, count: int) -> Html:
        """A number of chips: "1 chip", "1,250 chips"."""
        return self.nformat("{count} chip", "{count} chips", count, count=self.number(count))

    def points(self, count: int) -> Html:
        """A hand's points: "1 point", "31 points"."""
        return self.nformat("{count} point", "{count} points", count, count=self.number(count))

    def seconds(self, count: int) -> Html:
        """A number of seconds: "1 second", "45 seconds"."""
        return self.nformat("{count} second", "{count} seconds", count, count=self.number(count))


def _safe_value(value: object) -> object:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return escape(value)


class Translations:
    """All loaded languages; ``get`` picks one and never fails."""

    def __init__(self, translators: Mapping[str, Translator], default: str = DEFAULT_LANGUAGE):
        self._translators = dict(translators)
        self.default = self._translators.get(default) or Translator(default)

    @classmethod
    def load(cls, directory: Path = LOCALES_DIR, default: str = DEFAULT_LANGUAGE) -> Translations:
        """Read every ``<directory>/<lang>/LC_MESSAGES/messages.po``.

        Other languages fall back to ``default``, which falls back to the strings in
        the code. Raise ``CatalogError`` for a file that cannot be read.
        """
        files = dict(_catalog_files(directory))
        fallback = (
            _load_translator(default, files.pop(default), None)
            if default in files
            else Translator(default)
        )
        translators = {default: fallback}
        for language, path in files.items():
            translators[language] = _load_translator(language, path, fallback)
        return cls(translators, default)

    @property
    def languages(self) -> tuple[str, ...]:
        """Codes of the loaded languages, sorted."""
        return tuple(sorted(self._translators))

    def get(self, language: str | None) -> Translator:
        """The translator for a language code as Telegram gives it; the default if none."""
        return self._translators.get(normalize_language(language), self.default)

    def __contains__(self, language: object) -> bool:
        return isinstance(language, str) and normalize_language(language) in self._translators


def catalog_path(directory: Path, language: str) -> Path:
    """Where the catalogue of ``language`` lives under ``directory``."""
    return directory / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def _catalog_files(directory: Path) -> Iterator[tuple[str, Path]]:
    if not directory.is_dir():
        raise CatalogError(f"no locales directory at {directory}")
    for child in sorted(directory.iterdir()):
        path = catalog_path(directory, child.name)
        if child.is_dir() and path.is_file():
            yield child.name, path


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    """Parse one ``.po`` or ``.pot`` file."""
    locale = language if language is not None and _known_locale(language) else None
    try:
        with path.open("rb") as file:
            return read_po(file, locale=locale, domain=DOMAIN, abort_invalid=True)
    except (OSError, ValueError, UnknownLocaleError) as err:
        raise CatalogError(f"cannot read {path}: {err}") from err


def _known_locale(language: str) -> bool:
    try:
        Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return False
    return True


def _load_translator(language: str, path: Path, fallback: Translator | None) -> Translator:
    catalog = read_catalog(path, language)
    try:
        plural = _gettext.c2py(catalog.plural_expr)
    except ValueError as err:
        raise CatalogError(f"bad Plural-Forms in {path}: {err}") from err
    return Translator(language, entries_of(catalog), plural, fallback)


def entries_of(catalog: Catalog) -> dict[MessageKey, str | tuple[str, ...]]:
    """The usable translations of a catalogue: no header, fuzzy or empty entries.

    A plural entry with any form missing is left out whole, so the fallback
    language answers instead of a blank.
    """
    entries: dict[MessageKey, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, str):
            if isinstance(message.string, str) and message.string:
                entries[(message.context, message.id)] = message.string
        elif isinstance(message.string, (tuple, list)) and all(message.string):
            entries[(message.context, message.id[0])] = tuple(message.string)
    return entries
