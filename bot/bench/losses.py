"""Messages the bot failed to deliver, told from the stand-in's transcript: lost, delivered
by a retry, or superseded by a later edit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.sandbox.transcript import Call

MESSAGE_METHODS = frozenset({"sendMessage", "sendPhoto", "editMessageText",
                             "editMessageReplyMarkup"})
"""Calls that put or change a message a person reads."""
PIN_METHODS = frozenset({"pinChatMessage", "unpinChatMessage"})
CUT_OFF = frozenset({0, 429, 500, 502, 503, 504})
"""Answers after which a message may not have arrived: 429, no answer, a server error."""


def _message_key(call: Call) -> tuple[str, int | None, str] | None:
    """What a call put in a chat: a send by its text, an edit, pin or unpin by its message."""
    if call.method in ("sendMessage", "sendPhoto"):
        return (call.method, call.chat_id,
                str(call.params.get("text", call.params.get("caption", ""))))
    if call.method in MESSAGE_METHODS or call.method in PIN_METHODS:
        kind = "edit" if call.method.startswith("edit") else call.method
        return (kind, call.chat_id, str(call.params.get("message_id", "")))
    return None


@dataclass(frozen=True, slots=True)
class Losses:
    """What became of the messages a call failed to deliver."""

    lost: int
    """Never delivered: no later successful call for the same message."""
    retried: int
    """Delivered by a later call with the same content."""
    superseded: int
    """An edit replaced by a later edit of the same message with other content."""


def count_losses(calls: Sequence[Call]) -> Losses:
    """Sort the calls cut off on the way (429, no answer, 5xx) by what came after them.

    A message is counted once however many times it failed.
    """
    delivered: dict[tuple[str, int | None, str], list[str]] = {}
    for call in calls:
        key = _message_key(call)
        if key is not None and call.ok and call.result is not None:
            delivered.setdefault(key, []).append(_content(call))
    lost: set[tuple[str, int | None, str]] = set()
    retried: set[tuple[tuple[str, int | None, str], str]] = set()
    superseded: set[tuple[tuple[str, int | None, str], str]] = set()
    for call in calls:
        key = _message_key(call)
        if key is None or call.ok or call.status not in CUT_OFF:
            continue
        later = delivered.get(key)
        if not later:
            lost.add(key)
        elif _content(call) in later:
            retried.add((key, _content(call)))
        else:
            superseded.add((key, _content(call)))
    return Losses(len(lost), len(retried), len(superseded))


def _content(call: Call) -> str:
    return f"{call.params.get('text', '')}\x00{call.params.get('reply_markup', '')}"
