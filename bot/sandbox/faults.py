"""Fault injection: make the next calls of a method fail the way the network or API can."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.sandbox.errors import ApiError, bad_request, forbidden, too_many_requests


class FaultKind(StrEnum):
    """How an injected fault shows itself to the client."""

    ERROR = "error"  # an API error answer
    TIMEOUT = "timeout"  # the answer is held longer than the client waits
    DROP = "drop"  # the connection is closed without an answer


@dataclass(frozen=True, slots=True)
class Fault:
    """One injected failure; build it with the class methods."""

    kind: FaultKind
    error: ApiError | None = None
    hold: float = 0.0
    applied: bool = False  # timeout only: the call takes effect, only the answer is lost

    @classmethod
    def retry_after(cls, seconds: float) -> Fault:
        """429 Too Many Requests with parameters.retry_after (fractions allowed for speed)."""
        return cls(FaultKind.ERROR, too_many_requests(seconds))

    @classmethod
    def forbidden(cls, text: str = "bot was blocked by the user") -> Fault:
        """403 Forbidden with `text` after the "Forbidden: " prefix."""
        return cls(FaultKind.ERROR, forbidden(text))

    @classmethod
    def bad_request(cls, text: str) -> Fault:
        """400 Bad Request with `text` after the "Bad Request: " prefix."""
        return cls(FaultKind.ERROR, bad_request(text))

    @classmethod
    def timeout(cls, hold: float = 30.0, *, applied: bool = False) -> Fault:
        """Hold the answer `hold` seconds; with `applied` the call still takes effect."""
        return cls(FaultKind.TIMEOUT, hold=hold, applied=applied)

    @classmethod
    def drop(cls) -> Fault:
        """Close the connection without answering."""
        return cls(FaultKind.DROP)


@dataclass(slots=True)
class _Armed:
    method: str
    fault: Fault
    left: int
    chat_id: int | None


@dataclass(slots=True)
class _Loss:
    receiver_id: int | None
    vanish_after: float
    left: int


@dataclass(slots=True)
class Faults:
    """The faults waiting to fire, matched by method (and optionally chat)."""

    _armed: list[_Armed] = field(default_factory=list)
    fired: list[tuple[str, Fault]] = field(default_factory=list)
    _losses: list[_Loss] = field(default_factory=list)

    def lose_ephemeral(
        self, *, receiver_id: int | None = None, vanish_after: float = 0.0, times: int = 1
    ) -> None:
        """Lose the next `times` ephemeral messages (to `receiver_id` if given).

        The send is accepted and answered as usual, and later edits and deletes of the
        message succeed too, but its receiver never sees it (`vanish_after` 0) or sees it
        only for `vanish_after` seconds of the world's clock: Telegram does not guarantee
        their delivery, and an app restart forgets them.
        """
        self._losses.append(_Loss(receiver_id, vanish_after, times))

    def take_ephemeral_loss(self, receiver_id: int) -> float | None:
        """Seconds until this new ephemeral message vanishes, if a loss is armed for it."""
        for loss in self._losses:
            if loss.receiver_id is not None and loss.receiver_id != receiver_id:
                continue
            loss.left -= 1
            if loss.left <= 0:
                self._losses.remove(loss)
            return loss.vanish_after
        return None

    def fail_next(
        self, method: str, fault: Fault, *, times: int = 1, chat_id: int | None = None
    ) -> None:
        """Make the next `times` calls of `method` (in `chat_id` if given) fail with `fault`."""
        self._armed.append(_Armed(method.lower(), fault, times, chat_id))

    def take(self, method: str, chat_id: int | None) -> Fault | None:
        """The fault for this call, if one is armed; it is used up."""
        for armed in self._armed:
            if armed.method != method.lower():
                continue
            if armed.chat_id is not None and armed.chat_id != chat_id:
                continue
            armed.left -= 1
            if armed.left <= 0:
                self._armed.remove(armed)
            self.fired.append((method, armed.fault))
            return armed.fault
        return None

    def clear(self) -> None:
        """Disarm everything."""
        self._armed.clear()
        self._losses.clear()
