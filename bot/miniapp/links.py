"""The signed payload that names a table in a Mini App link (``startapp=...``).

Like the join links (`bot.handling.join_payload`), signed with the install's link secret,
so nobody can make one up for another table: ``t<table id in hex>_<signature>``, within
the 64 characters of ``A-Z a-z 0-9 _ -`` Telegram allows.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

APP_PAYLOAD = "t"


def app_payload(secret: bytes, table_id: int) -> str:
    digest = hmac.new(secret, f"app:{table_id}".encode(), hashlib.sha256).digest()
    signature = base64.urlsafe_b64encode(digest[:12]).decode().rstrip("=")
    return f"{APP_PAYLOAD}{table_id:x}_{signature}"


def app_table(secret: bytes, payload: str) -> int | None:
    """The table a payload names, if its signature is ours."""
    if not payload.startswith(APP_PAYLOAD) or len(payload) > 64:
        return None
    number, _, _ = payload[len(APP_PAYLOAD):].partition("_")
    if not 1 <= len(number) <= 12:
        return None
    try:
        table_id = int(number, 16)
    except ValueError:
        return None
    return table_id if hmac.compare_digest(app_payload(secret, table_id), payload) else None


def group_link(username: str, payload: str) -> str:
    """The direct link that opens the bot's main Mini App on the table (works in groups)."""
    return f"https://t.me/{username}?startapp={payload}"


def page_url(public_url: str, payload: str) -> str:
    """The page itself, for a ``web_app`` button (private chats only)."""
    return f"{public_url}/app/?t={payload}"
