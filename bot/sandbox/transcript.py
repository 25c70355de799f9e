"""A record of every call the bot made, and the rule breaks the checks look for."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.sandbox.errors import (
    ANSWER_TOO_LONG,
    BUTTON_DATA_INVALID,
    CAPTION_TOO_LONG,
    MARKUP_TOO_LONG,
    METHOD_NOT_FOUND,
    NOT_MODIFIED,
    PARSE_ENTITIES,
    TEXT_EMPTY,
    TEXT_TOO_LONG,
)

# Kinds of rule breaks. The test fixture fails a test on these unless it expects them.
FLOOD = "flood"
UNKNOWN_METHOD = "unknown_method"
HTML = "html"
LENGTH = "length"
MARKUP = "markup"
UNANSWERED = "unanswered_callback"
NOT_MODIFIED_EDIT = "not_modified"
"""An edit that changes nothing: a wasted call the bot could have skipped."""
ANSWERED_TWICE = "answered_twice"
"""A second answerCallbackQuery for one press: Telegram refuses it as too old, and the
presser saw only the first."""
VIOLATION_KINDS = frozenset(
    {FLOOD, UNKNOWN_METHOD, HTML, LENGTH, MARKUP, UNANSWERED, NOT_MODIFIED_EDIT,
     ANSWERED_TWICE}
)


@dataclass(slots=True)
class Call:
    """One request: what was asked and what was answered."""

    seq: int
    method: str
    params: dict[str, Any]
    chat_id: int | None
    at: float  # world clock, seconds
    ok: bool = True
    status: int = 200
    result: Any = None
    description: str | None = None
    fault: str | None = None  # set when an injected fault produced the answer
    violations: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        answer = "ok" if self.ok else f"{self.status} {self.description}"
        return f"<Call #{self.seq} {self.method} chat={self.chat_id} -> {answer}>"


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule the bot broke; `kind` is one of VIOLATION_KINDS."""

    kind: str
    detail: str
    call: Call | None = None


def classify(description: str) -> str | None:
    """The violation kind of an error answer caused by the bot, if it is one."""
    if description.startswith(PARSE_ENTITIES):
        return HTML
    if description in (TEXT_EMPTY, TEXT_TOO_LONG, CAPTION_TOO_LONG, ANSWER_TOO_LONG):
        return LENGTH
    if description in (BUTTON_DATA_INVALID, MARKUP_TOO_LONG):
        return MARKUP
    if description == METHOD_NOT_FOUND:
        return UNKNOWN_METHOD
    if description == NOT_MODIFIED:
        return NOT_MODIFIED_EDIT
    return None


@dataclass(slots=True)
class Transcript:
    """All calls in order, and the violations found while serving them."""

    calls: list[Call] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)

    def start(self, method: str, params: dict[str, Any], chat_id: int | None, at: float) -> Call:
        """Open a record for a call that just arrived."""
        call = Call(len(self.calls) + 1, method, params, chat_id, at)
        self.calls.append(call)
        return call

    def flag(self, kind: str, detail: str, call: Call | None = None) -> None:
        """Remember a violation."""
        self.violations.append(Violation(kind, detail, call))
        if call is not None:
            call.violations.append(kind)

    def of(self, method: str) -> list[Call]:
        """Calls of one method (case-insensitive), in order."""
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def errors(self) -> list[Call]:
        """Calls that were answered with an error."""
        return [c for c in self.calls if not c.ok]

    def methods(self) -> list[str]:
        """The method names in call order, handy for asserting a sequence."""
        return [c.method for c in self.calls]
