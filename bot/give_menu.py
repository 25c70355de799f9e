"""/give as buttons: the players of the chat by name, then the amounts.

``/give`` (or ``/give N``) with nobody named is answered with one button per player at
the chat's table and per recent player of the chat; without an amount, his button asks
for one with a row of amounts. The menu is one message, edited in place, and it gives
once (`bot.store.gifts.GiveMenu`). Its callback data is signed, so a button nobody was
offered cannot be made up::

    g1:<giver>:<menu>:<receiver>:<amount>:<signature>

Numbers are lower-case base 36 (`bot.callback_data`); ``menu`` is the message id of the
/give command; ``amount`` 0 asks for the amount. The signature is the start of an
HMAC-SHA256, under the bot's link secret, of the chat and every field before it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data import (
    MAX_AMOUNT,
    MAX_BYTES,
    MAX_ID,
    BadCallbackData,
    from_base36,
    to_base36,
)
from bot.i18n import Translator

PREFIX: Final = "g1:"
PATTERN: Final = "^" + re.escape(PREFIX)
MAX_MESSAGE: Final = 2**31 - 1
"""Largest message id Telegram gives."""
MOST_PLAYERS: Final = 12
"""Names a menu offers at most: a full table and a row of recent players."""
PER_ROW: Final = 2
_SIGNATURE_BYTES = 8
_SIGNATURE = re.compile(r"[A-Za-z0-9_-]{11}")


class BadGiveData(ValueError):
    """Callback data this menu did not make, for this chat."""


def _number(text: str, highest: int) -> int:
    try:
        return from_base36(text, "a menu's number", highest)
    except BadCallbackData:
        raise BadGiveData("not a number this menu writes") from None


def _sign(secret: bytes, chat_id: int, body: str) -> str:
    digest = hmac.new(secret, f"give:{chat_id}:{body}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:_SIGNATURE_BYTES]).decode().rstrip("=")


@dataclass(frozen=True, slots=True)
class GivePress:
    """A button of a /give menu: who gives, which menu, to whom, how much (None: ask)."""

    giver: int
    menu: int
    receiver: int
    amount: int | None = None

    def encode(self, secret: bytes, chat_id: int) -> str:
        """The signed callback data (at most 64 bytes)."""
        for value, highest in ((self.giver, MAX_ID), (self.menu, MAX_MESSAGE),
                               (self.receiver, MAX_ID), (self.amount or 0, MAX_AMOUNT)):
            if type(value) is not int or not 0 <= value <= highest:
                raise BadGiveData("a field out of range")
        body = ":".join(to_base36(v) for v in (self.giver, self.menu, self.receiver,
                                             self.amount or 0))
        data = f"{PREFIX}{body}:{_sign(secret, chat_id, body)}"
        assert len(data.encode()) <= MAX_BYTES, data
        return data

    @classmethod
    def decode(cls, data: str, secret: bytes, chat_id: int) -> GivePress:
        """Read callback data; `BadGiveData` for anything not signed by this bot for
        this chat."""
        if not isinstance(data, str) or not data.isascii() or len(data) > MAX_BYTES:
            raise BadGiveData("not menu data")
        if not data.startswith(PREFIX):
            raise BadGiveData("not menu data")
        fields = data[len(PREFIX):].split(":")
        if len(fields) != 5 or _SIGNATURE.fullmatch(fields[4]) is None:
            raise BadGiveData("not menu data")
        body = ":".join(fields[:4])
        if not hmac.compare_digest(_sign(secret, chat_id, body), fields[4]):
            raise BadGiveData("not signed by this bot for this chat")
        giver, menu, receiver, amount = (
            _number(f, highest) for f, highest in zip(
                fields[:4], (MAX_ID, MAX_MESSAGE, MAX_ID, MAX_AMOUNT), strict=True))
        return cls(giver, menu, receiver, amount or None)


def amounts(ante: int, available: int) -> list[int]:
    """The amounts a menu offers: 10, 20, 50 and 100 antes, those the giver may give (or
    all he may give, when that is less than the least of them)."""
    offered = [ante * n for n in (10, 20, 50, 100) if ante * n <= available]
    return offered or ([available] if available > 0 else [])


def players_keyboard(secret: bytes, chat_id: int, giver: int, menu: int,
                     players: list[tuple[int, str]], amount: int | None) -> InlineKeyboardMarkup:
    """One button per player (id, name as shown), two a row."""
    buttons = [InlineKeyboardButton(name, callback_data=GivePress(
                   giver, menu, player, amount).encode(secret, chat_id))
               for player, name in players]
    return InlineKeyboardMarkup([buttons[i:i + PER_ROW]
                                 for i in range(0, len(buttons), PER_ROW)])


def amounts_keyboard(tr: Translator, secret: bytes, chat_id: int, giver: int, menu: int,
                     receiver: int, offered: list[int]) -> InlineKeyboardMarkup:
    """One row of amounts for one receiver."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr.number(n), callback_data=GivePress(
        giver, menu, receiver, n).encode(secret, chat_id)) for n in offered]])


__all__ = ["PATTERN", "BadGiveData", "GivePress", "amounts", "amounts_keyboard",
           "players_keyboard"]
