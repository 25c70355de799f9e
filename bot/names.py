"""Display names: what a Telegram name becomes before anyone sees it at a table.

Telegram lets a first name be nothing but spaces, or carry invisible characters:
zero-width joiners that make two names look the same, bidi controls that flip the rest
of a line. A name here keeps its letters, marks, digits, symbols and punctuation, with
every run of space of any kind folded into one; if nothing is left, the player is called
"Player" and the last digits of his id. Two players with the same name at one table are
told apart by a number after the second one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_NAME = 64
"""Longest display name kept (Telegram allows 64 characters for first and last name each)."""

_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}
"""Control, format (zero-width, bidi), surrogate, private-use and unassigned characters."""
_SPACE = {"Zs", "Zl", "Zp"}


def display_name(raw: str, user_id: int) -> str:
    """``raw`` cleaned for display; "Player 1234" when nothing visible is left."""
    kept = []
    for char in raw:
        category = unicodedata.category(char)
        if category in _SPACE or char.isspace():
            kept.append(" ")
        elif category not in _DROPPED:
            kept.append(char)
    name = " ".join("".join(kept).split())[:MAX_NAME].strip()
    return name or f"Player {abs(user_id) % 10_000}"


def distinct(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` with the smallest number ≥ 2 that no other player uses."""
    used = {n.casefold() for n in taken}
    if name.casefold() not in used:
        return name
    number = 2
    while f"{name} {number}".casefold() in used:
        number += 1
    return f"{name} {number}"
