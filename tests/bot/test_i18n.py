"""Translations: catalogues in step with the code, plural forms, fallback, HTML safety."""

from __future__ import annotations

import logging
from pathlib import Path
from textwrap import dedent

import pytest

from bot.callback_data import BadCallbackData
from bot.i18n import (
    LOCALES_DIR,
    CatalogError,
    Html,
    Translations,
    Translator,
    catalog_path,
    escape,
    normalize_language,
    read_catalog,
)
from bot.i18n import __main__ as cli
from bot.i18n.catalogs import check, extract, init, keys, parse_keyword, update

HEADER = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Language: {lang}\\n"
"Plural-Forms: {plural}\\n"

"""
CZECH = "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"
BULGARIAN = "nplurals=2; plural=(n != 1);"


def write_po(directory: Path, lang: str, body: str, plural: str = BULGARIAN) -> None:
    path = catalog_path(directory, lang)
    path.parent.mkdir(parents=True)
    path.write_text(HEADER.format(lang=lang, plural=plural) + dedent(body), encoding="utf-8")


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    """English with one reworded message, and a partial Czech catalogue."""
    directory = tmp_path / "locales"
    write_po(
        directory,
        "en",
        """\
        msgid "Hello"
        msgstr "Hello there"

        msgid "Only in English"
        msgstr "Only in English"
        """,
    )
    write_po(
        directory,
        "cs",
        """\
        msgid "Hello"
        msgstr "Ahoj"

        msgid "{count} chip"
        msgid_plural "{count} chips"
        msgstr[0] "{count} žeton"
        msgstr[1] "{count} žetony"
        msgstr[2] "{count} žetonů"

        msgctxt "button"
        msgid "Call"
        msgstr "Dorovnat"

        msgctxt "rank"
        msgid "Call"
        msgstr "Volání"

        #, fuzzy
        msgid "Guessed"
        msgstr "Hádáno"

        msgid "Not yet"
        msgstr ""

        msgid "{n} card"
        msgid_plural "{n} cards"
        msgstr[0] "{n} karta"
        msgstr[1] ""
        msgstr[2] "{n} karet"

        msgid "{player} folds"
        msgstr "{hráč} složil"
        """,
        plural=CZECH,
    )
    return directory


# -- language codes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "language"),
    [
        ("bg", "bg"),
        ("pt-br", "pt"),
        ("pt-BR", "pt"),
        ("zh_Hans", "zh"),
        ("EN", "en"),
        (" cs ", "cs"),
        ("fil", "fil"),
        (None, "en"),
        ("", "en"),
        ("x", "en"),
        ("12", "en"),
        ("ру", "en"),
        ("toolong", "en"),
    ],
)
def test_normalize_language(code: str | None, language: str) -> None:
    assert normalize_language(code) == language


# -- the shipped catalogues -------------------------------------------------------------


def test_shipped_english_loads() -> None:
    translations = Translations.load()
    assert "en" in translations.languages
    tr = translations.get("en-GB")
    assert tr.language == "en"
    assert tr.gettext(BadCallbackData.player_message) == "This button no longer works."
    assert tr.chips(1) == "1 chip"
    assert tr.chips(1250) == "1,250 chips"
    assert tr.seconds(45) == "45 seconds"


def test_english_catalogue_matches_the_code() -> None:
    """Adding a string without running `python -m bot.i18n extract` fails here."""
    english = read_catalog(catalog_path(LOCALES_DIR, "en"), "en")
    in_code = keys(extract())
    in_catalogue = keys(english)
    assert in_code - in_catalogue == set(), "missing: run python -m bot.i18n extract"
    assert in_catalogue - in_code == set(), "obsolete: run python -m bot.i18n extract"
    assert not english.obsolete
    for message in english:
        if message.id:
            assert message.string, f"{message.id!r} has no English text"
            assert not message.fuzzy
    assert check() == []


# -- lookup and fallback ------------------------------------------------------------------


def test_unknown_language_gets_the_default(locales: Path) -> None:
    translations = Translations.load(locales)
    assert translations.languages == ("cs", "en")
    assert translations.get("xx").language == "en"
    assert translations.get(None) is translations.default
    assert "cs-CZ" in translations
    assert "de" not in translations


def test_message_falls_back_to_english_catalogue_then_code(locales: Path) -> None:
    cs = Translations.load(locales).get("cs")
    assert cs.gettext("Hello") == "Ahoj"
    assert cs.gettext("Only in English") == "Only in English"
    assert cs.gettext("Nowhere at all") == "Nowhere at all"
    assert Translations.load(locales).get("en").gettext("Hello") == "Hello there"


def test_fuzzy_and_empty_entries_are_not_used(locales: Path) -> None:
    cs = Translations.load(locales).get("cs")
    assert cs.gettext("Guessed") == "Guessed"
    assert cs.gettext("Not yet") == "Not yet"
    assert "Guessed" not in cs
    assert "Hello" in cs


def test_contexts_are_separate(locales: Path) -> None:
    cs = Translations.load(locales).get("cs")
    assert cs.pgettext("button", "Call") == "Dorovnat"
    assert cs.pgettext("rank", "Call") == "Volání"
    assert cs.gettext("Call") == "Call"
    assert cs.pgettext("other", "Call") == "Call"


def test_without_any_catalogue_the_code_speaks() -> None:
    tr = Translator("en")
    assert tr.gettext("Your turn") == "Your turn"
    assert tr.ngettext("{n} card", "{n} cards", 1) == "{n} card"
    assert tr.ngettext("{n} card", "{n} cards", 0) == "{n} cards"
    assert tr.npgettext("hand", "{n} card", "{n} cards", 3) == "{n} cards"


def test_missing_default_catalogue_still_works(tmp_path: Path) -> None:
    write_po(tmp_path, "bg", 'msgid "Hello"\nmsgstr "Здравей"\n')
    translations = Translations.load(tmp_path)
    assert translations.get("bg").gettext("Hello") == "Здравей"
    assert translations.get("bg").gettext("Bye") == "Bye"
    assert translations.get("en").gettext("Hello") == "Hello"


def test_bad_catalogues_are_reported(tmp_path: Path) -> None:
    with pytest.raises(CatalogError):
        Translations.load(tmp_path / "absent")
    write_po(tmp_path, "cs", 'msgid "a"\nmsgstr "b"\n', plural="nplurals=2; plural=(n ?? 1);")
    with pytest.raises(CatalogError, match="Plural-Forms"):
        Translations.load(tmp_path)


# -- plural forms -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "text"),
    [(1, "1 žeton"), (2, "2 žetony"), (4, "4 žetony"), (5, "5 žetonů"), (0, "0 žetonů")],
)
def test_czech_plural_forms(locales: Path, n: int, text: str) -> None:
    cs = Translations.load(locales).get("cs")
    assert cs.chips(n) == text
    assert cs.ngettext("{count} chip", "{count} chips", n) == text.replace(str(n), "{count}", 1)


def test_negative_counts_use_the_form_of_their_size(locales: Path) -> None:
    cs = Translations.load(locales).get("cs")
    assert cs.ngettext("{count} chip", "{count} chips", -2) == "{count} žetony"


def test_numbers_are_written_the_local_way(locales: Path) -> None:
    cs = Translations.load(locales).get("cs")
    assert cs.chips(1000) == "1\N{NO-BREAK SPACE}000 žetonů"
    assert Translator("en").number(1234567) == "1,234,567"
    assert Translator("qq").number(1234) == "1234"


def test_bulgarian_like_two_forms(tmp_path: Path) -> None:
    write_po(
        tmp_path,
        "bg",
        """\
        msgid "{n} player"
        msgid_plural "{n} players"
        msgstr[0] "{n} играч"
        msgstr[1] "{n} играчи"
        """,
    )
    bg = Translations.load(tmp_path).get("bg")
    assert [bg.nformat("{n} player", "{n} players", n) for n in (1, 2, 5)] == [
        "1 играч",
        "2 играчи",
        "5 играчи",
    ]


def test_incomplete_plural_falls_back_whole(locales: Path) -> None:
    cs = Translations.load(locales).get("cs")
    assert cs.nformat("{n} card", "{n} cards", 1) == "1 card"
    assert cs.nformat("{n} card", "{n} cards", 5) == "5 cards"


# -- HTML ---------------------------------------------------------------------------------


def test_values_are_escaped_for_telegram_html() -> None:
    tr = Translator("en")
    text = tr.format("<b>{player}</b> folds", player='<i>Bob</i> & "Co"')
    assert text == "<b>&lt;i&gt;Bob&lt;/i&gt; &amp; &quot;Co&quot;</b> folds"
    assert isinstance(text, Html)


def test_html_values_and_numbers_pass_through() -> None:
    tr = Translator("en")
    mention = Html('<a href="tg://user?id=7">Ann</a>')
    assert tr.format("{who} bets {amount:,}", who=mention, amount=1500) == (
        '<a href="tg://user?id=7">Ann</a> bets 1,500'
    )
    inner = tr.format("<b>{x}</b>", x="<")
    assert tr.format("say {inner}", inner=inner) == "say <b>&lt;</b>"
    # catalogue text is HTML already: it goes in as it is
    label = tr.gettext("<b>Svara</b> &amp; co")
    assert isinstance(label, Html)
    assert tr.format("{what} starts", what=label) == "<b>Svara</b> &amp; co starts"
    assert isinstance(tr.ngettext("a", "b", 2), Html)
    assert escape(True) == "True"


def test_nformat_offers_n() -> None:
    tr = Translator("en")
    assert tr.nformat("{n} player joined", "{n} players joined", 3) == "3 players joined"
    assert tr.nformat("{who} joined", "{who} and others joined", 1, who="<x>") == "&lt;x&gt; joined"


def test_translators_typo_falls_back_to_english(
    locales: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cs = Translations.load(locales).get("cs")
    with caplog.at_level(logging.WARNING):
        assert cs.format("{player} folds", player="<Eva>") == "&lt;Eva&gt; folds"
    assert "bad fields" in caplog.text


def test_developers_typo_still_raises() -> None:
    with pytest.raises(KeyError):
        Translator("en").format("{player} folds", who="x")


# -- maintenance: extract, update, init, check --------------------------------------------

SOURCE = """\
from bot.i18n import N_

LATER = N_("Marked for later")


def render(tr, n, name):
    # Translators: shown under the table
    tr.gettext("Your turn")
    tr.ngettext("{n} card", "{n} cards", n)
    tr.pgettext("button", "Call")
    tr.format("<b>{name}</b> wins", name=name)
    tr.nformat("{n} player", "{n} players", n)
    "{x}".format(x=name)
    tr.gettext(name)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "babel.cfg").write_text(
        "[ignore: bot/sandbox/**]\n\n[python: bot/**.py]\nkeywords = format nformat:1,2\n"
    )
    (tmp_path / "bot" / "sandbox").mkdir(parents=True)
    (tmp_path / "bot" / "render.py").write_text(SOURCE)
    (tmp_path / "bot" / "sandbox" / "fake.py").write_text('tr.gettext("Not player-facing")\n')
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text('tr.gettext("Not in bot/")\n')
    return tmp_path


def test_extract_finds_every_kind_of_mark(project: Path) -> None:
    template = extract(project)
    assert keys(template) == {
        ("Marked for later", None),
        ("Your turn", None),
        ("{n} card", None),
        ("Call", "button"),
        ("<b>{name}</b> wins", None),
        ("{n} player", None),
    }
    turn = template.get("Your turn")
    assert turn is not None
    assert turn.auto_comments == ["shown under the table"]
    assert template.get(("{n} player", "{n} players")) is not None


def test_update_keeps_english_equal_to_the_code(project: Path) -> None:
    locales = project / "bot" / "locales"
    locales.mkdir()
    changed = update(extract(project), locales)
    assert locales / "messages.pot" in changed
    english = read_catalog(catalog_path(locales, "en"), "en")
    assert english.get("Your turn") is not None
    assert english["Your turn"].string == "Your turn"
    assert english.get(("{n} card", "{n} cards")) is not None
    cards = english.get("{n} card")
    assert cards is not None
    assert cards.string == ("{n} card", "{n} cards")
    assert check(project, locales) == []
    assert update(extract(project), locales) == []  # nothing changes the second time

    init("cs", extract(project), locales)
    czech = read_catalog(catalog_path(locales, "cs"), "cs")
    assert czech.num_plurals >= 3

    source = project / "bot" / "render.py"
    source.write_text(source.read_text().replace("Your turn", "Your move"))
    problems = check(project, locales)
    assert any("missing" in p and "Your move" in p for p in problems)
    assert any("obsolete" in p and "Your turn" in p for p in problems)
    assert "messages.pot is out of date" in problems

    update(extract(project), locales)
    assert check(project, locales) == []
    english_text = catalog_path(locales, "en").read_text()
    assert "Your turn" not in english_text
    assert 'msgstr "Your move"' in english_text
    assert "#~" in catalog_path(locales, "cs").read_text()  # translators keep old work


def test_init_refuses_to_overwrite(project: Path) -> None:
    locales = project / "locales"
    init("bg", extract(project), locales)
    with pytest.raises(CatalogError, match="exists"):
        init("bg", extract(project), locales)


def test_cli(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locales = project / "locales"
    locales.mkdir()
    args = ["--root", str(project), "--locales", str(locales)]
    assert cli.main([*args, "check"]) == 1
    assert "python -m bot.i18n extract" in capsys.readouterr().err
    assert cli.main([*args, "extract"]) == 0
    assert "6 messages" in capsys.readouterr().out
    assert cli.main([*args, "check"]) == 0
    assert cli.main([*args, "init", "bg"]) == 0
    assert cli.main([*args, "init", "bg"]) == 1


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("format", ("format", None)),
        ("nformat:1,2", ("nformat", (1, 2))),
        ("npformat:1c,2,3", ("npformat", ((1, "c"), 2, 3))),
    ],
)
def test_parse_keyword(spec: str, parsed: object) -> None:
    assert parse_keyword(spec) == parsed


@pytest.mark.parametrize("spec", ["", "a b", "f:x", "f:1,"])
def test_parse_keyword_refuses_nonsense(spec: str) -> None:
    with pytest.raises(CatalogError):
        parse_keyword(spec)
