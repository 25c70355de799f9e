"""Flood control like Telegram's: per private chat, per group, and for the whole bot."""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum


class FloodMode(StrEnum):
    """What the stand-in does when the bot sends too fast."""

    RECORD = "record"  # let it through and remember the violation (tests never sleep)
    ENFORCE = "enforce"  # answer 429 with retry_after, as Telegram does
    OFF = "off"


# Methods that put or change a message in a chat; edits count against limits in practice.
MESSAGE_METHODS = frozenset(
    {
        "sendmessage",
        "sendphoto",
        "senddocument",
        "sendanimation",
        "sendsticker",
        "sendmediagroup",
        "sendpoll",
        "senddice",
        "copymessage",
        "forwardmessage",
        "editmessagetext",
        "editmessagecaption",
        "editmessagereplymarkup",
        "editmessagemedia",
        # Ephemeral messages are sent by the methods above; their edits count like any
        # edit (whether Telegram counts them is not documented: the cautious reading).
        "editephemeralmessagetext",
        "editephemeralmessagecaption",
        "editephemeralmessagereplymarkup",
        "editephemeralmessagemedia",
    }
)
PIN_METHODS = frozenset({"pinchatmessage", "unpinchatmessage", "unpinallchatmessages"})
"""Pins and unpins change a group for all to see and count against its limit too."""
FLOOD_METHODS = MESSAGE_METHODS | PIN_METHODS

WINDOW = 60.0
"""Telegram's group limit counts calls over any sliding minute."""


@dataclass(frozen=True, slots=True)
class FloodRules:
    """The limits; defaults follow the Bots FAQ."""

    private_per_second: float = 1.0
    private_burst: int = 3  # short bursts pass in a private chat
    group_per_minute: int = 20
    global_per_second: int = 30


@dataclass(frozen=True, slots=True)
class FloodViolation:
    """One call that broke a limit."""

    rule: str  # "private" | "group" | "global"
    chat_id: int
    method: str
    retry_after: int
    at: float


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


@dataclass(slots=True)
class FloodControl:
    """Counts sends per chat and overall and judges each new one."""

    clock: Callable[[], float]
    mode: FloodMode = FloodMode.RECORD
    rules: FloodRules = field(default_factory=FloodRules)
    violations: list[FloodViolation] = field(default_factory=list)
    _private: dict[int, _Bucket] = field(default_factory=dict)
    _groups: dict[int, deque[float]] = field(default_factory=dict)
    _global: deque[float] = field(default_factory=deque)
    group_peak: dict[int, int] = field(default_factory=dict)
    """Per group: the most calls the bot made into it in any 60 s window, answered 429 or
    not (every mode, off included)."""
    group_calls: Counter[int] = field(default_factory=Counter)
    """Per group: every call the bot made into it that counts against its limit."""
    _tried: dict[int, deque[float]] = field(default_factory=dict)

    def refused_by_method(self) -> Counter[str]:
        """How many calls of each method were over a limit (429s in enforce mode)."""
        return Counter(v.method for v in self.violations)

    def refused_by_rule(self) -> Counter[str]:
        """How many calls broke each limit: "group", "global", "private"."""
        return Counter(v.rule for v in self.violations)

    def _tally(self, chat_id: int, now: float) -> None:
        """Count one call into a group in its sliding minute and keep the busiest."""
        tried = self._tried.setdefault(chat_id, deque())
        while tried and tried[0] <= now - WINDOW:
            tried.popleft()
        tried.append(now)
        self.group_calls[chat_id] += 1
        if len(tried) > self.group_peak.get(chat_id, 0):
            self.group_peak[chat_id] = len(tried)

    def check(self, method: str, chat_id: int, private: bool) -> FloodViolation | None:
        """Count one send; return the violation if it broke a limit.

        In enforce mode a violating send is not counted, since Telegram rejected it; it
        still counts in `group_peak`, which tells how hard the bot pressed on a group.
        """
        now = self.clock()
        if not private:
            self._tally(chat_id, now)
        if self.mode is FloodMode.OFF:
            return None
        violation = self._judge(method, chat_id, private, now)
        if violation is not None:
            self.violations.append(violation)
            if self.mode is FloodMode.ENFORCE:
                return violation
        self._count(chat_id, private, now)
        return violation

    def _judge(self, method: str, chat_id: int, private: bool, now: float) -> FloodViolation | None:
        window = self._global
        while window and window[0] <= now - 1.0:
            window.popleft()
        if len(window) >= self.rules.global_per_second:
            wait = window[0] + 1.0 - now
            return FloodViolation("global", chat_id, method, _seconds(wait), now)
        if private:
            bucket = self._refill(chat_id, now)
            if bucket.tokens < 1.0:
                wait = (1.0 - bucket.tokens) / self.rules.private_per_second
                return FloodViolation("private", chat_id, method, _seconds(wait), now)
            return None
        sent = self._groups.setdefault(chat_id, deque())
        while sent and sent[0] <= now - WINDOW:
            sent.popleft()
        if len(sent) >= self.rules.group_per_minute:
            wait = sent[0] + WINDOW - now
            return FloodViolation("group", chat_id, method, _seconds(wait), now)
        return None

    def _refill(self, chat_id: int, now: float) -> _Bucket:
        burst = float(self.rules.private_burst)
        bucket = self._private.setdefault(chat_id, _Bucket(tokens=burst, stamp=now))
        gained = (now - bucket.stamp) * self.rules.private_per_second
        bucket.tokens = min(burst, bucket.tokens + gained)
        bucket.stamp = now
        return bucket

    def _count(self, chat_id: int, private: bool, now: float) -> None:
        self._global.append(now)
        if private:
            bucket = self._refill(chat_id, now)
            bucket.tokens -= 1.0  # may go negative in record mode: debt is remembered
        else:
            self._groups.setdefault(chat_id, deque()).append(now)


def _seconds(wait: float) -> int:
    """Telegram's retry_after is whole seconds and at least one."""
    return max(1, math.ceil(wait))
