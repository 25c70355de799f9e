"""The data behind an inline button, bound to one table, hand and turn.

Wire format, at most 64 bytes as Telegram requires::

    v1:<table>:<hand>:<seq>:<button>[:<amount>]

Numbers are lower-case base 36 with no leading zeros. ``seq`` counts the turns of
the hand, so a press on an old message names a turn that is over and the table
refuses it. ``hand`` is 0 for buttons that belong to no hand (the lobby's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from bot.i18n import N_

VERSION: Final = "v1"
PREFIX: Final = VERSION + ":"
PATTERN: Final = "^" + re.escape(PREFIX)
"""Regular expression for PTB's ``CallbackQueryHandler(pattern=...)``."""

MAX_BYTES: Final = 64
MAX_ID: Final = 2**63 - 1
"""Largest table or hand id: SQLite's largest integer."""
MAX_SEQ: Final = 10**9
MAX_AMOUNT: Final = 10**15

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_NUMBER = re.compile(r"0|[1-9a-z][0-9a-z]{0,12}")


class Button(StrEnum):
    """What a button does; the value is its code on the wire."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    FOLD = "fold"
    CALL = "call"
    RAISE = "raise"
    """Raise to ``amount``."""
    ALL_IN = "allin"
    BLIND = "blind"
    """Play blind for ``amount``."""
    NO_BLIND = "noblind"
    SVARA_JOIN = "svjoin"
    SVARA_SKIP = "svskip"
    CARDS = "cards"
    """The "My cards" button: any seated player may press it."""
    BACK = "back"
    """The "I'm back" button: a player marked away returns."""

    @property
    def takes_amount(self) -> bool:
        """Whether a press of this button carries a number of chips."""
        return self in _WITH_AMOUNT


_WITH_AMOUNT = frozenset({Button.RAISE, Button.BLIND})
_BY_CODE = {button.value: button for button in Button}


class BadCallbackData(ValueError):
    """Callback data that this codec did not produce, or from another version."""

    player_message: Final = N_("This button no longer works.")

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def to_base36(number: int) -> str:
    """``number`` (0 or more) in base 36, lower case, as callback data writes numbers."""
    digits = []
    while True:
        number, digit = divmod(number, 36)
        digits.append(_DIGITS[digit])
        if not number:
            return "".join(reversed(digits))


def from_base36(text: str, what: str, highest: int) -> int:
    """The number ``to_base36`` wrote, at most ``highest``; else `BadCallbackData`."""
    # int(text, 36) alone would take "+1", " 1", "1_0", "A" and non-ASCII digits
    if _NUMBER.fullmatch(text) is None:
        raise BadCallbackData(f"{what} is not a base-36 number")
    number = int(text, 36)
    if number > highest:
        raise BadCallbackData(f"{what} is out of range")
    return number


def _check_number(value: object, what: str, lowest: int, highest: int) -> None:
    if type(value) is not int:
        raise BadCallbackData(f"{what} must be an int")
    if not lowest <= value <= highest:
        raise BadCallbackData(f"{what} must be in {lowest}..{highest}")


@dataclass(frozen=True, slots=True)
class Press:
    """One press of an inline button: which table, hand and turn it was made for."""

    table: int
    hand: int
    seq: int
    button: Button
    amount: int | None = None

    def __post_init__(self) -> None:
        _check_number(self.table, "table", 0, MAX_ID)
        _check_number(self.hand, "hand", 0, MAX_ID)
        _check_number(self.seq, "seq", 0, MAX_SEQ)
        if not isinstance(self.button, Button):
            raise BadCallbackData("button must be a Button")
        if self.button.takes_amount:
            _check_number(self.amount, "amount", 1, MAX_AMOUNT)
        elif self.amount is not None:
            raise BadCallbackData(f"{self.button.value} takes no amount")

    def encode(self) -> str:
        """The callback data string for this press (at most 64 bytes)."""
        fields = [
            VERSION,
            to_base36(self.table),
            to_base36(self.hand),
            to_base36(self.seq),
            self.button.value,
        ]
        if self.amount is not None:
            fields.append(to_base36(self.amount))
        return ":".join(fields)

    @classmethod
    def table_of(cls, data: str) -> int | None:
        """The table a press is for, or None when the data is not a valid press."""
        try:
            return cls.decode(data).table
        except BadCallbackData:
            return None

    @classmethod
    def decode(cls, data: str) -> Press:
        """Read callback data; raise ``BadCallbackData`` for anything ``encode`` cannot give."""
        if not isinstance(data, str):
            raise BadCallbackData("callback data must be a string")
        if not data.isascii():
            raise BadCallbackData("callback data is not ASCII")
        if len(data) > MAX_BYTES:
            raise BadCallbackData("callback data is longer than 64 bytes")
        fields = data.split(":")
        if fields[0] != VERSION:
            raise BadCallbackData("unknown callback data version")
        if len(fields) not in (5, 6):
            raise BadCallbackData(f"expected 5 or 6 fields, got {len(fields)}")
        button = _BY_CODE.get(fields[4])
        if button is None:
            raise BadCallbackData("unknown button")
        if button.takes_amount != (len(fields) == 6):
            raise BadCallbackData(
                f"{button.value} {'needs' if button.takes_amount else 'takes no'} amount"
            )
        amount = from_base36(fields[5], "amount", MAX_AMOUNT) if len(fields) == 6 else None
        return cls(
            table=from_base36(fields[1], "table", MAX_ID),
            hand=from_base36(fields[2], "hand", MAX_ID),
            seq=from_base36(fields[3], "seq", MAX_SEQ),
            button=button,
            amount=amount,
        )
