"""Validation of reply_markup: inline keyboards as strict as the real server."""

from __future__ import annotations

from typing import Any

from bot.sandbox.errors import BUTTON_DATA_INVALID, MARKUP_TOO_LONG, ApiError, bad_request

MAX_ROW = 8
MAX_BUTTONS = 100
MAX_CALLBACK_BYTES = 64

# An inline button must carry exactly one of these.
_ACTIONS = (
    "callback_data",
    "url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "login_url",
    "web_app",
    "callback_game",
    "pay",
    "copy_text",
)
_NOT_OBJECT = "can't parse inline keyboard button: InlineKeyboardButton must be an Object"
_URL_PREFIXES = ("http://", "https://", "tg://", "t.me/", "telegram.me/")


def validate_markup(markup: Any, *, private: bool = True) -> dict[str, Any] | None:
    """Check a reply_markup and return it cleaned of nulls; raise the server's 400 if bad.

    Only inline keyboards are stored on messages; reply keyboards are accepted and dropped.
    A ``web_app`` button is refused outside private chats (`private` False), as Telegram
    refuses it.
    """
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        rows = _inline_rows(markup["inline_keyboard"])
        if not private and any("web_app" in button for row in rows for button in row):
            raise bad_request("BUTTON_TYPE_INVALID")
        return {"inline_keyboard": rows}
    if any(key in markup for key in ("keyboard", "remove_keyboard", "force_reply")):
        return None
    raise bad_request("can't parse reply keyboard markup JSON object")


def _inline_rows(rows: Any) -> list[list[dict[str, Any]]]:
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(_NOT_OBJECT)
    if any(len(row) > MAX_ROW for row in rows) or sum(len(row) for row in rows) > MAX_BUTTONS:
        raise ApiError(400, MARKUP_TOO_LONG)
    return [[_button(button) for button in row] for row in rows]


def _button(button: Any) -> dict[str, Any]:
    if not isinstance(button, dict):
        raise bad_request(_NOT_OBJECT)
    clean = {key: value for key, value in button.items() if value is not None}
    text = clean.get("text")
    if not isinstance(text, str) or not text.strip():
        raise bad_request("can't parse inline keyboard button: Text must be non-empty")
    actions = [key for key in _ACTIONS if key in clean]
    if not actions:
        raise bad_request("text buttons are unallowed in the inline keyboard")
    if len(actions) > 1:
        raise bad_request("can't parse inline keyboard button: more than one action is specified")
    if "callback_data" in clean:
        data = clean["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_BYTES:
            raise ApiError(400, BUTTON_DATA_INVALID)
    if "url" in clean:
        url = clean["url"]
        if not isinstance(url, str) or not url.lower().startswith(_URL_PREFIXES):
            raise bad_request("BUTTON_URL_INVALID")
    return clean
