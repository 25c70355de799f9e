"""Who a request comes from: a session token signed by the bot, and how often each user
may press or open the page (on the monotonic clock; expiry alone is on the wall clock, as
a token outlives a restart)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass

from bot.miniapp.responses import refused
from bot.ratelimit import Limit

KEPT = 10_000
"""Users whose presses are counted at once; past that every count starts again."""


@dataclass(frozen=True, slots=True)
class Session:
    user: int
    name: str
    language: str | None
    table: int
    expires: int


class Tokens:
    """Sessions written into tokens the page holds, signed with a key of the bot's own."""

    def __init__(self, bot_token: str) -> None:
        self._key = hmac.new(bot_token.encode(), b"svara mini app sessions",
                             hashlib.sha256).digest()

    def make(self, s: Session) -> str:
        body = base64.urlsafe_b64encode(json.dumps(
            [s.user, s.name, s.language, s.table, s.expires],
            ensure_ascii=False, separators=(",", ":")).encode()).decode().rstrip("=")
        sig = hmac.new(self._key, body.encode(), hashlib.sha256).digest()[:18]
        return body + "." + base64.urlsafe_b64encode(sig).decode()

    def read(self, token: object, clock: Callable[[], float]) -> Session:
        """The session `token` holds, refused (401) unless signed here and unexpired by
        the wall clock `clock`."""
        if not isinstance(token, str) or len(token) > 1024 or "." not in token:
            raise refused(401, "no session")
        body, _, sig = token.rpartition(".")
        want = base64.urlsafe_b64encode(
            hmac.new(self._key, body.encode(), hashlib.sha256).digest()[:18]).decode()
        if not hmac.compare_digest(want.encode(), sig.encode()):
            raise refused(401, "no session")
        try:
            user, name, language, table, expires = json.loads(
                base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except (ValueError, TypeError):
            raise refused(401, "no session") from None
        if expires < clock():
            raise refused(401, "session expired")
        return Session(int(user), str(name), language, int(table), int(expires))


class PerUser:
    """Each user's bucket: `burst` at once, then `rate` a second."""

    def __init__(self, burst: int, rate: float, clock: Callable[[], float]) -> None:
        self._limit: Limit[int] = Limit.bucket(burst, rate, clock=clock)

    def allow(self, user: int) -> bool:
        """One more from `user` within his bucket (used up), or none (nothing changes)."""
        if user not in self._limit and len(self._limit) > KEPT:
            self._limit.clear()
        return self._limit.take(user) == 0.0
