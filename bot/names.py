"""Display names: what a Telegram name becomes before anyone sees it at a table.

Telegram lets a first name be nothing but spaces, or carry invisible characters:
zero-width joiners that make two names look the same, bidi controls that flip the rest
of a line. A name here keeps its letters, marks, digits, symbols and punctuation, with
every run of space of any kind folded into one; if nothing is left, the player is called
"Player" and the last digits of his id. Group titles are cleaned the same way.

Two players whose names read the same at one table are told apart by a number after the
second one: the same name in another case, or a look-alike written with other letters
(Latin "Ana" and Cyrillic "Аna", compared by their `skeleton`). Lists of played hands and
leaderboards name players as they were stored, so there two people called alike get the
last digits of their ids (`told_apart`), the same in every list.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

MAX_NAME = 64
"""Longest display name kept (Telegram allows 64 characters for first and last name each)."""
MAX_TITLE = 128
"""Longest group title kept (Telegram allows 128 characters)."""

_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}
"""Control, format (zero-width, bidi), surrogate, private-use and unassigned characters."""
_SPACE = {"Zs", "Zl", "Zp"}

_LOOK_ALIKES = str.maketrans({
    # Cyrillic letters drawn like Latin ones.
    "а": "a", "е": "e", "ё": "ë", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
    "і": "i", "ї": "ï", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h",
    "ӏ": "l",
    "А": "A", "В": "B", "Е": "E", "Ё": "Ë", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "І": "I", "Ї": "Ï", "Ј": "J",
    "Ѕ": "S", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Һ": "H", "Ӏ": "l", "Ү": "Y",
    # Greek letters drawn like Latin ones.
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "υ": "u", "ι": "i", "χ": "x",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})
"""Letters of other scripts that look like Latin letters in a phone's font: a small part of
Unicode's confusables, the part that lets a Cyrillic or Greek name pass for a Latin one
(small в, к, м, н, т are drawn like small capitals, unlike any Latin small letter)."""


def clean(raw: str, limit: int = MAX_NAME) -> str:
    """`raw` without invisible characters, each run of space one space, at most `limit`
    characters; "" when nothing visible is left."""
    kept = []
    for char in raw:
        category = unicodedata.category(char)
        if category in _SPACE or char.isspace():
            kept.append(" ")
        elif category not in _DROPPED:
            kept.append(char)
    return " ".join("".join(kept).split())[:limit].strip()


def display_name(raw: str, user_id: int) -> str:
    """``raw`` cleaned for display; "Player 1234" when nothing visible is left."""
    return clean(raw) or f"Player {abs(user_id) % 10_000}"


def group_title(raw: str | None) -> str:
    """A group's title cleaned for display as names are; "" when nothing visible is left."""
    return clean(raw or "", MAX_TITLE)


def skeleton(name: str) -> str:
    """What `name` looks like: two names with the same skeleton read the same."""
    folded = unicodedata.normalize("NFKC", name).translate(_LOOK_ALIKES).casefold()
    return unicodedata.normalize("NFC", folded)


def distinct(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` with the smallest number ≥ 2 that makes it read unlike every
    other player's name."""
    used = {skeleton(n) for n in taken}
    if skeleton(name) not in used:
        return name
    number = 2
    while skeleton(f"{name} {number}") in used:
        number += 1
    return f"{name} {number}"


def told_apart(names: Mapping[int, str]) -> dict[int, str]:
    """`names` (by user id), each name that reads like another user's followed by the last
    digits of its user's id, as many as tell them apart (four at least): "Ana (4821)"."""
    alike: dict[str, list[int]] = {}
    for user_id, name in names.items():
        alike.setdefault(skeleton(name), []).append(user_id)
    shown = dict(names)
    for users in alike.values():
        if len(users) < 2:
            continue
        digits = 4
        while len({abs(u) % 10 ** digits for u in users}) < len(users):
            digits += 1
        for user_id in users:
            shown[user_id] = f"{names[user_id]} ({abs(user_id) % 10 ** digits:0{digits}d})"
    return shown
