"""Who opened the Mini App: Telegram's signed ``initData``, checked as Telegram documents.

The page hands the server the query string Telegram gave it. The server drops ``hash``,
sorts the other ``key=value`` pairs by key, joins them with newlines (the data-check
string) and compares ``hex(HMAC_SHA256(secret, data_check_string))`` with ``hash``, where
``secret = HMAC_SHA256(key="WebAppData", msg=bot_token)``. Data older than the operator's
bound is refused. The Login Widget's key (SHA-256 of the token) is another thing and never
accepted here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

MAX_LENGTH = 4096
"""Longest initData accepted (Telegram's are a few hundred characters)."""
FUTURE_SLACK = 60.0
"""Seconds an auth_date may lie ahead of our clock (clocks drift)."""


class BadInitData(ValueError):
    """initData that is not Telegram's for this bot, or too old; `reason` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The user Telegram vouches for, and what else the signed data says."""

    id: int
    name: str
    language: str | None
    auth_date: int
    start_param: str | None
    chat_type: str | None


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def sign(fields: dict[str, str], token: str) -> str:
    """initData as Telegram would hand it to the page (the sandbox and tests sign their own)."""
    digest = hmac.new(secret_key(token), data_check_string(fields).encode(), hashlib.sha256)
    return urlencode({**fields, "hash": digest.hexdigest()})


def user_fields(user_id: int, first_name: str, *, language: str | None = None,
                auth_date: int, start_param: str | None = None,
                chat_type: str | None = None) -> dict[str, str]:
    """The fields Telegram sends for a user who opened the app (before signing)."""
    user: dict[str, object] = {"id": user_id, "first_name": first_name}
    if language:
        user["language_code"] = language
    fields = {"user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
              "auth_date": str(auth_date)}
    if start_param is not None:
        fields["start_param"] = start_param
    if chat_type is not None:
        fields["chat_type"] = chat_type
        fields["chat_instance"] = "1"
    return fields


def check(raw: str, token: str, *, now: float, max_age: float) -> WebAppUser:
    """The user of `raw` initData if Telegram signed it for `token` within `max_age` s."""
    if not raw or len(raw) > MAX_LENGTH:
        raise BadInitData("missing or too long")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True,
                          max_num_fields=32)
    except ValueError:
        raise BadInitData("not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise BadInitData("a field given twice")
    given = fields.get("hash", "")
    digest = hmac.new(secret_key(token), data_check_string(fields).encode(),
                      hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), digest.encode()):
        raise BadInitData("bad signature")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = user["id"]
        first = user.get("first_name", "")
        last = user.get("last_name", "")
        language = user.get("language_code")
    except (KeyError, ValueError, TypeError, AttributeError):
        raise BadInitData("no user") from None
    if type(user_id) is not int or not isinstance(first, str) or not isinstance(last, str) \
            or not (language is None or isinstance(language, str)):
        raise BadInitData("no user")
    if auth_date < now - max_age:
        raise BadInitData("expired")
    if auth_date > now + FUTURE_SLACK:
        raise BadInitData("from the future")
    name = " ".join(p for p in (first, last) if p) or str(user_id)
    return WebAppUser(user_id, name, language, auth_date, fields.get("start_param"),
                      fields.get("chat_type"))
