"""One word per thing in every catalogue: the pot, the house (which pays rebuys and gifts)
and the ante each have their own word, the one docs/glossary.md gives; and the /settings
menu names every setting in plain words, never by the word an admin types."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from babel.messages.catalog import Message

from bot.i18n import Translations
from bot.i18n.catalogs import LANGUAGES, catalogues
from bot.settings_menu import choices, main_keyboard, values_keyboard
from bot.table_settings import DECLARED, SETTING_NAMES, TableSettings, saved_note

ALL = Translations.load()
TRANSLATED = [language for language in LANGUAGES if language != "en"]


@dataclass(frozen=True)
class Terms:
    """The stems a language's catalogue writes for three things (docs/glossary.md)."""

    pot: str
    house: str
    ante: str
    not_ante: tuple[str, ...] = ()
    """Other words for the ante that must not appear at all."""


GLOSSARY = {
    "bg": Terms(pot="банк", house="кас", ante="вход", not_ante=("анте",)),
    "cs": Terms(pot="bank", house="kas", ante="ante"),
    "hi": Terms(pot="पॉट", house="बैंक", ante="बूट"),
    "id": Terms(pot="pot", house="bandar", ante="ante"),
    "zu": Terms(pot="pot", house="bhange", ante="ante"),
    "ru": Terms(pot="банк", house="казн", ante="анте"),
}

_FIELD = re.compile(r"\{[^}]*\}|<[^>]*>")


def _english(message: Message) -> str:
    """The English a player reads in a message, without its fields and tags."""
    ids = (message.id,) if isinstance(message.id, str) else message.id
    return " ".join(_FIELD.sub(" ", text) for text in ids).lower()


def _forms(message: Message) -> list[str]:
    strings = (message.string,) if isinstance(message.string, str) else message.string or ()
    return [_FIELD.sub(" ", text).lower() for text in strings]


def _messages(language: str, word: str) -> list[Message]:
    """The messages whose English names `word` (or its plural)."""
    pattern = re.compile(rf"\b{word}s?\b")
    return [m for m in catalogues()[language] if m.id and pattern.search(_english(m))]


def test_every_translated_language_has_its_glossary() -> None:
    assert sorted(GLOSSARY) == sorted(TRANSLATED)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_house_has_its_own_word_never_the_pots(language: str) -> None:
    terms = GLOSSARY[language]
    found = _messages(language, "house")
    assert len(found) >= 6
    wrong = [(m.id, text) for m in found for text in _forms(m)
             if terms.house not in text or terms.pot in text]
    assert not wrong, wrong


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_pot_has_its_own_word_never_the_houses(language: str) -> None:
    terms = GLOSSARY[language]
    found = _messages(language, "pot")
    assert len(found) >= 6
    wrong = [(m.id, text) for m in found for text in _forms(m)
             if terms.pot not in text or terms.house in text]
    assert not wrong, wrong


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_ante_has_one_word(language: str) -> None:
    terms = GLOSSARY[language]
    found = _messages(language, "ante")
    assert len(found) >= 10
    wrong = [(m.id, text) for m in found for text in _forms(m) if terms.ante not in text]
    assert not wrong, wrong
    other = [(m.id, text) for m in catalogues()[language] if m.id for text in _forms(m)
             if any(word in text for word in terms.not_ante)]
    assert not other, other


def test_bulgarian_never_calls_the_house_banka() -> None:
    """The pot is "банка" (and all-in "ва банк"); the house is "касата", everywhere."""
    said = [text for m in _messages("bg", "house") for text in _forms(m)]
    assert said and all("банк" not in text and "каса" in text for text in said), said


# The words an admin types after /settings that are also the word a language itself uses
# for the thing: the ante in Czech, Indonesian and Zulu, a limit in Czech, the blind in
# Zulu (as its published rules say), and the name of 7♣.
OWN_WORDS = {"cs": {"ante", "limit"}, "id": {"ante", "chechak"},
             "zu": {"ante", "blind", "chechak"}}


def _menu_texts(language: str) -> list[str]:
    """Every button of the /settings menu and every note it answers a press with."""
    tr = ALL.get(language)
    settings = TableSettings()
    texts = [b.text for row in main_keyboard(tr, settings).inline_keyboard for b in row]
    for d in DECLARED:
        word = d.setting.word
        texts += [b.text for row in values_keyboard(tr, word, settings).inline_keyboard
                  for b in row]
        for value in choices(d):
            changed = settings.model_copy(update={d.field: d.parse(value)})
            texts.append(saved_note(tr, changed, word))
    return texts


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_settings_menu_shows_no_typed_setting_name(language: str) -> None:
    typed = set(SETTING_NAMES) - OWN_WORDS.get(language, set())
    texts = _menu_texts(language)
    assert len(texts) > 60
    shown = [(text, word) for text in texts for word in re.findall(r"[a-z]+", text.lower())
             if word in typed]
    assert not shown, shown


def test_the_menus_note_names_the_setting_as_its_button_does() -> None:
    tr = ALL.get("bg")
    changed = TableSettings().model_copy(update={"rebuy": 500})
    assert saved_note(tr, changed, "rebuy") == "Записано. Ребай от касата: 500 чипа."
    english = ALL.get("en")
    assert saved_note(english, changed, "rebuy") == "Saved. Rebuy from the house: 500 chips."
