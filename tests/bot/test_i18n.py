"""Translations: catalogues in step with the code, plural forms, fallback, HTML safety."""

from __future__ import annotations

import logging
from pathlib import Path
from textwrap import dedent

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po as write_catalog

from bot.callback_data import BadCallbackData
from bot.i18n import (
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
from bot.i18n.catalogs import REPO_ROOT, extract, init, native_name, problems, stale, update

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


def test_template_matches_the_code() -> None:
    """Adding a string without running `python -m bot.i18n extract` fails here."""
    assert stale() == [], "run: python -m bot.i18n extract"


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
    assert text == "<b>&lt;i&gt;Bob&lt;/i&gt; &amp; &#34;Co&#34;</b> folds"
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


# -- maintenance: Babel's extract, update, init; our checks -------------------------------

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
    (tmp_path / "babel.cfg").write_text((REPO_ROOT / "babel.cfg").read_text())
    (tmp_path / "bot" / "sandbox").mkdir(parents=True)
    (tmp_path / "bot" / "render.py").write_text(SOURCE)
    (tmp_path / "bot" / "sandbox" / "fake.py").write_text('tr.gettext("Not player-facing")\n')
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text('tr.gettext("Not in bot/")\n')
    return tmp_path


def _ids(path: Path) -> set[object]:
    return {(m.id, m.context) for m in read_catalog(path) if m.id}


def test_extract_finds_every_kind_of_mark(project: Path) -> None:
    template = read_catalog(extract(project))
    assert {(m.id, m.context) for m in template if m.id} == {
        ("Marked for later", None),
        ("Your turn", None),
        (("{n} card", "{n} cards"), None),
        ("Call", "button"),
        ("<b>{name}</b> wins", None),
        (("{n} player", "{n} players"), None),
    }
    turn = template.get("Your turn")
    assert turn is not None
    assert turn.auto_comments == ["shown under the table"]
    assert [path for path, _ in turn.locations] == ["bot/render.py"]


def test_update_keeps_translations_and_marks_changes(project: Path) -> None:
    locales = project / "bot" / "locales"
    template = extract(project)
    init("cs", template, locales)
    czech = read_catalog(catalog_path(locales, "cs"), "cs")
    assert czech.num_plurals == 3
    assert czech.get("Your turn") is not None
    czech["Your turn"].string = "Jste na tahu"
    _write(catalog_path(locales, "cs"), czech)

    source = project / "bot" / "render.py"
    source.write_text(source.read_text().replace("Marked for later", "Marked for much later"))
    assert "messages.pot is out of date" in stale(project, locales)
    update(extract(project), locales)
    assert stale(project, locales) == []
    again = read_catalog(catalog_path(locales, "cs"), "cs")
    kept = again.get("Your turn")
    assert kept is not None and kept.string == "Jste na tahu"
    assert again.get("Marked for later") is None
    assert not again.obsolete


def _write(path: Path, catalog: Catalog) -> None:
    with path.open("wb") as file:
        write_catalog(file, catalog)


def test_init_refuses_to_overwrite(project: Path) -> None:
    locales = project / "locales"
    template = extract(project, project / "messages.pot")
    init("bg", template, locales)
    with pytest.raises(CatalogError, match="exists"):
        init("bg", template, locales)


def _catalog(language: str, entries: list[Message]) -> Catalog:
    catalog = Catalog(locale=language)
    for message in entries:
        catalog[message.id] = message
    return catalog


TEMPLATE = _catalog("en", [
    Message("<b>{name}</b> wins {pot}"),
    Message(("{count} chip", "{count} chips")),
    Message(("one svara", "{count} svaras")),
    Message("Fold"),
])


def test_a_complete_catalogue_has_no_problems() -> None:
    czech = _catalog("cs", [
        Message("<b>{name}</b> wins {pot}", "<b>{name}</b> vyhrává {pot}"),
        Message(("{count} chip", "{count} chips"), ("{count} žeton", "{count} žetony",
                                                    "{count} žetonů")),
        Message(("one svara", "{count} svaras"), ("jedna svara", "{count} svary",
                                                  "{count} svar")),
        Message("Fold", "Pas"),
    ])
    assert problems(czech, TEMPLATE) == []


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (Message("Fold", ""), "not translated"),
        (Message("Fold", "Pas", flags={"fuzzy"}), "fuzzy"),
        (Message("<b>{name}</b> wins {pot}", "<b>{jméno}</b> vyhrává {pot}"),
         "['name'] missing"),
        (Message("<b>{name}</b> wins {pot}", "<b>{name}</b> vyhrává {pot} {x}"),
         "['x'] not in the English"),
        (Message("<b>{name}</b> wins {pot}", "<i>{name}</i> vyhrává {pot}"), "HTML tags"),
        (Message("<b>{name}</b> wins {pot}", "{name} vyhrává {pot}"), "HTML tags"),
        (Message(("{count} chip", "{count} chips"), ("{count} žeton", "", "{count} žetonů")),
         "plural form 1 empty"),
        (Message(("{count} chip", "{count} chips"), ("jeden žeton", "{count} žetony",
                                                     "{count} žetonů")),
         "form 0: field(s) ['count'] missing"),
        (Message(("one svara", "{count} svaras"), ("jedna svara", "svary", "{count} svar")),
         "form 1: field(s) ['count'] missing"),
    ],
)
def test_problems_are_found(entry: Message, problem: str) -> None:
    good = {
        "Fold": Message("Fold", "Pas"),
        "<b>{name}</b> wins {pot}": Message("<b>{name}</b> wins {pot}", "<b>{name}</b> {pot}"),
        "{count} chip": Message(("{count} chip", "{count} chips"), ("{count} a", "{count} b",
                                                                    "{count} c")),
        "one svara": Message(("one svara", "{count} svaras"), ("x", "{count} y", "{count} z")),
    }
    key = entry.id[0] if isinstance(entry.id, tuple) else entry.id
    good[str(key)] = entry
    found = problems(_catalog("cs", list(good.values())), TEMPLATE)
    assert any(problem in line for line in found), found
    assert all(line.endswith(f"in {str(key)!r}") for line in found), found


def test_missing_and_extra_messages_are_found() -> None:
    czech = _catalog("cs", [Message("Fold", "Pas"), Message("Raise", "Zvýšit")])
    found = problems(czech, TEMPLATE)
    assert "cs: obsolete 'Raise'" in found
    assert "cs: missing '<b>{name}</b> wins {pot}'" in found
    assert "cs: missing '{count} chip'" in found


def test_cli(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locales = project / "bot" / "locales"
    args = ["--root", str(project), "--locales", str(locales)]
    assert cli.main([*args, "check"]) == 1
    assert "messages.pot is out of date" in capsys.readouterr().err
    assert cli.main([*args, "extract"]) == 0
    assert "6 messages" in capsys.readouterr().out
    assert cli.main([*args, "check"]) == 0
    assert cli.main([*args, "init", "bg"]) == 0
    assert cli.main([*args, "init", "bg"]) == 1
    capsys.readouterr()
    assert cli.main([*args, "check"]) == 1
    assert "bg: not translated in 'Your turn'" in capsys.readouterr().err
    assert cli.main([*args, "check", "cs"]) == 0


def test_native_names() -> None:
    assert native_name("bg") == "Български"
    assert native_name("cs") == "Čeština"
    assert native_name("hi") == "हिन्दी"
    assert native_name("zu") == "isiZulu"
    assert native_name("ru") == "Русский"
