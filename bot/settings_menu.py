"""/settings as buttons: a chat admin clicks a setting, then one of its values.

Everything here follows from the declarations in `bot.table_settings`: one button per
setting, and for each its accepted words (one per value) or, for a number, its presets.
The menu is one message, edited in place. Its callback data has its own prefix and
parser, strict like the table's (`bot.callback_data`)::

    s1:m                   the list of settings
    s1:o:<setting>         the values of one setting
    s1:v:<setting>:<value> set it (only a value its button offers)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.table_settings import DECLARED, Declared, TableSettings, value_text

PREFIX: Final = "s1:"
PATTERN: Final = "^" + re.escape(PREFIX)
MAX_BYTES: Final = 64
_BY_WORD = {d.setting.word: d for d in DECLARED}
_TOKEN = re.compile(r"[a-z0-9]{1,16}")


class BadMenuData(ValueError):
    """Callback data the menu did not make."""


def choices(declared: Declared) -> tuple[str, ...]:
    """The values a setting's buttons offer: one word per value, or its presets."""
    if declared.setting.words:
        seen: list[object] = []
        words: list[str] = []
        for word, value in declared.setting.words.items():
            if value not in seen:
                seen.append(value)
                words.append(word)
        return tuple(words)
    return declared.setting.presets


@dataclass(frozen=True, slots=True)
class MenuPress:
    """What a menu button asks: the list (no setting), a setting's values, or a value."""

    setting: str | None = None
    value: str | None = None

    def encode(self) -> str:
        if self.setting is None:
            data = PREFIX + "m"
        elif self.value is None:
            data = f"{PREFIX}o:{self.setting}"
        else:
            data = f"{PREFIX}v:{self.setting}:{self.value}"
        assert len(data.encode()) <= MAX_BYTES, data
        return data

    @classmethod
    def decode(cls, data: str) -> MenuPress:
        """Read callback data; `BadMenuData` for anything `encode` could not have made."""
        if not isinstance(data, str) or not data.isascii() or len(data) > MAX_BYTES:
            raise BadMenuData("not menu data")
        if not data.startswith(PREFIX):
            raise BadMenuData("not menu data")
        fields = data[len(PREFIX):].split(":")
        if fields == ["m"]:
            return cls()
        if not all(_TOKEN.fullmatch(f) for f in fields[1:]):
            raise BadMenuData("bad field")
        declared = _BY_WORD.get(fields[1]) if len(fields) >= 2 else None
        if fields[0] == "o" and len(fields) == 2 and declared is not None:
            return cls(fields[1])
        if (fields[0] == "v" and len(fields) == 3 and declared is not None
                and fields[2] in choices(declared)):
            return cls(fields[1], fields[2])
        raise BadMenuData("unknown menu button")


def _current(declared: Declared, settings: TableSettings) -> str:
    return declared.word_of(getattr(settings, declared.field))


def main_keyboard(tr: Translator, settings: TableSettings) -> InlineKeyboardMarkup:
    """One button per setting, its plain name and value; two a row."""
    buttons = [InlineKeyboardButton(f"{tr.gettext(d.setting.label)}: {value_text(tr, d, settings)}",
                                    callback_data=MenuPress(d.setting.word).encode())
               for d in DECLARED]
    return InlineKeyboardMarkup([buttons[i:i + 2] for i in range(0, len(buttons), 2)])


def values_keyboard(tr: Translator, word: str, settings: TableSettings) -> InlineKeyboardMarkup:
    """The values of one setting, the current one marked, and the way back."""
    declared = _BY_WORD[word]
    now = _current(declared, settings)
    buttons = [InlineKeyboardButton(("✅ " if value == now else "") + _plain_choice(
                                        tr, declared, value),
                                    callback_data=MenuPress(word, value).encode())
               for value in choices(declared)]
    rows = [buttons[i:i + 4] for i in range(0, len(buttons), 4)]
    rows.append([InlineKeyboardButton(tr.gettext(BACK), callback_data=MenuPress().encode())])
    return InlineKeyboardMarkup(rows)


def _plain_choice(tr: Translator, declared: Declared, word: str) -> str:
    """A value button in plain words: "no limit" for ``none``, "20 seconds" for ``20``."""
    value = declared.parse(word)
    shown = TableSettings().model_copy(update={declared.field: value})
    return value_text(tr, declared, shown)


BACK = N_("« All settings")

__all__ = ["PATTERN", "BadMenuData", "MenuPress", "choices", "main_keyboard",
           "values_keyboard"]
