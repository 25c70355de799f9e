"""The shipped catalogues: complete, faithful to the English's fields and tags, and
within Telegram's limits whatever the names, in every language."""

from __future__ import annotations

import random
import string
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Message

from bot import errors
from bot.callback_data import Press
from bot.i18n import LOCALES_DIR, Translations, Translator, read_catalog
from bot.i18n.catalogs import LANGUAGES, TEMPLATE_NAME, catalogues, problems
from bot.records import TableStatus
from bot.render.cards import cards_popup, outcome_of, press_toast
from bot.render.table import render_table
from bot.render.views import SeatView, TableView
from bot.sandbox.errors import ApiError
from bot.sandbox.text import parse_html
from bot.table_settings import TableSettings
from engine import Hand, Rules, SeatIn
from engine.simulate import random_action

TRANSLATED = [language for language in LANGUAGES if language != "en"]
TRANSLATIONS = Translations.load()
TEMPLATE = read_catalog(LOCALES_DIR / TEMPLATE_NAME)
HOSTILE = "<b>&amp;\"'Ω🂡\u202e</a>"
"""A name written to break HTML: tags, entities, quotes, a right-to-left override."""
LIMIT_TEXT = 4096
LIMIT_POPUP = 200
LIMIT_LABEL = 24


def hostile_name(i: int) -> str:
    return (HOSTILE * 8)[:62] + f"{i:02d}"


def test_every_shipped_language_has_a_catalogue() -> None:
    assert sorted(catalogues()) == sorted(TRANSLATED)
    assert sorted(TRANSLATIONS.languages) == sorted(LANGUAGES)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_is_complete_and_faithful(language: str) -> None:
    """Nothing missing, empty or fuzzy; the same {fields} and HTML tags as the English."""
    assert problems(catalogues()[language], TEMPLATE) == []


def _values(text: str, name: str) -> dict[str, object]:
    """A value for every field: a number where the field has a format spec (or is a
    count), a hostile name otherwise."""
    values: dict[str, object] = {}
    for _, field, spec, _ in string.Formatter().parse(text):
        if field is None:
            continue
        numeric = bool(spec) or field in {"n", "count", "id", "rank", "seconds", "days"}
        values[field] = 987_654 if numeric else name
    return values


def _messages() -> Iterator[Message]:
    return (m for m in TEMPLATE if m.id)


def _render(tr: Translator, message: Message, n: int, name: str) -> str:
    if isinstance(message.id, tuple):
        singular, plural = str(message.id[0]), str(message.id[1])
        values = _values(singular + plural, name)
        values.pop("n", None)
        if message.context:
            return tr.npgettext(message.context, singular, plural, n).format_map(values)
        return tr.nformat(singular, plural, n, **values)
    msgid = str(message.id)
    if message.context:
        return tr.pgettext(message.context, msgid)
    if "python-brace-format" not in message.flags:
        return tr.gettext(msgid)
    return tr.format(msgid, **_values(msgid, name))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_with_hostile_values_is_valid_telegram_html(language: str) -> None:
    tr = TRANSLATIONS.get(language)
    for message in _messages():
        source = "".join(message.id) if isinstance(message.id, tuple) else str(message.id)
        named = any(isinstance(v, str) for v in _values(source, "").values())
        for n in (0, 1, 2, 5, 21, 1_000_000):
            name = hostile_name(n % 10)
            text = _render(tr, message, n, name)
            try:
                parsed = parse_html(text)
            except ApiError as err:
                pytest.fail(f"{language}: {message.id!r} -> {text!r}: {err}")
            assert len(parsed.text) <= LIMIT_TEXT
            # The name reads as the text it is, not as markup.
            assert not named or name in parsed.text, (language, message.id, parsed.text)


def _refusals() -> Iterator[type[errors.BotError]]:
    found: list[type[errors.BotError]] = [errors.BotError]
    while found:
        kind = found.pop()
        yield kind
        found += kind.__subclasses__()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_fits_in_a_popup(language: str) -> None:
    tr = TRANSLATIONS.get(language)
    assert errors.LanguageOnlyAdmins in set(_refusals())
    for kind in _refusals():
        text = tr.format(kind.msgid, **_values(kind.msgid, "x" * 64)) if "{" in kind.msgid \
            else tr.gettext(kind.msgid)
        assert len(parse_html(text).text) <= LIMIT_POPUP, (language, kind.msgid, text)


def _view(hand: Hand | None, names: dict[int, str],
          status: TableStatus = TableStatus.PLAYING) -> TableView:
    seats = tuple(SeatView(p, n, 10**6) for p, n in names.items())
    return TableView(table_id=2**62, status=status, settings=TableSettings(), seats=seats,
                     names=names, hand=hand, hand_id=2**62, hand_no=10**6, wait_seconds=45)


def _check_screen(language: str, text: str,
                  buttons: tuple[tuple[tuple[str, str], ...], ...]) -> None:
    parsed = parse_html(text)
    assert 0 < len(parsed.text) <= LIMIT_TEXT, (language, len(parsed.text))
    for row in buttons:
        assert 0 < len(row) <= 8
        for label, data in row:
            assert 0 < len(label) <= LIMIT_LABEL, (language, label)
            assert len(data.encode()) <= 64
            Press.decode(data)


@pytest.mark.parametrize("language", LANGUAGES)
def test_ten_hostile_names_at_a_table_fit_in_every_language(language: str) -> None:
    tr = TRANSLATIONS.get(language)
    names = {1000 + i: hostile_name(i) for i in range(10)}
    english = TRANSLATIONS.get("en")
    for status in (TableStatus.LOBBY, TableStatus.CLOSED):
        screen = render_table(_view(None, names, status), tr)
        _check_screen(language, screen.text, screen.buttons)
    for seed in (b"one", b"two", b"three"):
        rng = random.Random(seed)
        hand = Hand.start(Rules(), [SeatIn(p, 10**6) for p in names], 3, seed)
        while not hand.is_over:
            screen = render_table(_view(hand, names), tr)
            _check_screen(language, screen.text, screen.buttons)
            # The buttons do the same in every language: only their words differ.
            same = render_table(_view(hand, names), english)
            assert [[d for _, d in row] for row in screen.buttons] == \
                [[d for _, d in row] for row in same.buttons]
            for seat in range(len(names)):
                assert len(cards_popup(tr, hand, seat)) <= LIMIT_POPUP
            events_before = len(hand.events)
            actor = hand.to_act
            hand.apply(random_action(hand, rng))
            toast = press_toast(tr, tuple(hand.events[events_before:]), actor or 0)
            assert toast is None or len(toast) <= LIMIT_POPUP
        finished = TableView(table_id=1, status=TableStatus.PLAYING, settings=TableSettings(),
                             seats=tuple(SeatView(p, n, 10**6) for p, n in names.items()),
                             names=names, hand_no=10**6, outcome=outcome_of(hand))
        screen = render_table(finished, tr)
        _check_screen(language, screen.text, screen.buttons)
