"""A table's screens as the stand-in's transcript holds them: where each state of the table
message stood in the game, and when a press was first shown. Pure functions of recorded
calls, used by the real-limits and Mini App benches."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.callback_data import BadCallbackData, Press
from bot.sandbox.transcript import Call

SCREEN_METHODS = frozenset({"sendMessage", "editMessageText"})

LATER = 1 << 62
"""The seq of a screen with no turn buttons: the hand is over, after every turn of it."""

Position = tuple[int, int]
"""Where a screen is in a table's game: (hand id, turn seq)."""


def max_in_window(times: Sequence[float], width: float) -> int:
    """The most of `times` (sorted) that fall within any window `width` long.

    A window is half-open like the stand-in's: two events `width` apart are in different
    windows.
    """
    best = 0
    start = 0
    for end, at in enumerate(times):
        while times[start] <= at - width:
            start += 1
        best = max(best, end - start + 1)
    return best


def press_of(data: str) -> Press | None:
    """The decoded callback data, or None for data the bot's codec did not produce."""
    try:
        return Press.decode(data)
    except BadCallbackData:
        return None


def markup_data(markup: Any) -> list[str]:
    """The callback data of every button of a reply_markup as the bot sent it."""
    if not isinstance(markup, dict):
        return []
    return [str(b["callback_data"]) for row in markup.get("inline_keyboard", [])
            for b in row if isinstance(b, dict) and "callback_data" in b]


def turn_position(markup: Any) -> Position | None:
    """(hand, seq) of a keyboard's hand buttons; None when it has none (no hand running)."""
    found = [(p.hand, p.seq) for p in map(press_of, markup_data(markup))
             if p is not None and p.hand > 0]
    return max(found, default=None)


@dataclass(frozen=True, slots=True)
class Sent:
    """A message the stand-in stored in a group: a new one, or an edit."""

    at: float
    new: bool
    message_id: int
    markup: Any


def table_screens(sent: Iterable[Sent]) -> list[tuple[float, Position]]:
    """The states of a group's table message, in order, each with where its game stood.

    The table message is the newest message sent with the bot's buttons; edits of others
    (an old table message, a results message) are not screens. A screen with no hand
    buttons comes after every turn of the last hand shown (the hand is over).
    """
    out: list[tuple[float, Position]] = []
    current: int | None = None
    last_hand = 0
    for s in sent:
        if s.new:
            if not markup_data(s.markup):
                continue
            current = s.message_id
        elif s.message_id != current:
            continue
        position = turn_position(s.markup)
        if position is None:
            position = (last_hand, LATER)
        else:
            last_hand = max(last_hand, position[0])
        out.append((s.at, position))
    return out


def first_showing(pressed_at: float, position: Position,
                  screens: Sequence[tuple[float, Position]]) -> float | None:
    """When the first screen stored after the press showed its effect or a later state."""
    start = bisect.bisect_right(screens, pressed_at, key=lambda s: s[0])
    for at, shown in screens[start:]:
        if shown > position:
            return at
    return None


def sent_in(calls: Iterable[Call], chat_id: int) -> list[Sent]:
    """The messages the stand-in stored in one chat, from its transcript."""
    out = []
    for c in calls:
        if c.chat_id != chat_id or c.method not in SCREEN_METHODS or not c.ok:
            continue
        if not isinstance(c.result, dict):
            continue  # still in flight
        if "ephemeral_message_id" in c.result:
            continue  # one member's own message (his cards), not the table's screen
        message_id = int(c.result.get("message_id", 0))
        out.append(Sent(c.at, c.method == "sendMessage", message_id,
                        c.params.get("reply_markup")))
    return out
