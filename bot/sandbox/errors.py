"""Errors of the stand-in: API errors answered to the bot, and misuse errors raised in tests."""

from __future__ import annotations

from typing import Any

# Texts the real server answers with (see shared/TELEGRAM.md); kept in one place so the
# tests of the stand-in and the handlers cannot drift apart.
CHAT_NOT_FOUND = "Bad Request: chat not found"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
PARSE_ENTITIES = "Bad Request: can't parse entities: "
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup"
    " are exactly the same as a current content and reply markup of the message"
)
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
ANSWER_TOO_LONG = "Bad Request: MESSAGE_TOO_LONG"
METHOD_NOT_FOUND = "Not Found: method not found"
CONFLICT_WEBHOOK = (
    "Conflict: can't use getUpdates method while webhook is active;"
    " use deleteWebhook to delete the webhook first"
)
CONFLICT_POLLER = (
    "Conflict: terminated by other getUpdates request;"
    " make sure that only one bot instance is running"
)
# Ephemeral messages (Bot API 10.2/10.3). Telegram does not document these refusals; the
# stand-in answers in its error style, and bot/ephemeral_api.py matches the same texts.
EPHEMERAL_CHAT_INVALID = "Bad Request: EPHEMERAL_CHAT_INVALID"
"""An ephemeral message to a private chat: only groups and supergroups have them."""
EPHEMERAL_BOT_NOT_ADMIN = "Bad Request: BOT_NOT_ADMIN"
"""A bot that is not a chat admin sent one with no eligible action in the last 15 s."""
EPHEMERAL_NOT_PARTICIPANT = "Bad Request: USER_NOT_PARTICIPANT"
"""The receiver is not a member of the group."""
EPHEMERAL_RECEIVER_BOT = "Bad Request: USER_BOT_INVALID"
"""The receiver is a bot."""
EPHEMERAL_REPLACE_INVALID = "Bad Request: REPLACE_CALLBACK_QUERY_MESSAGE_INVALID"
"""replace_callback_query_message without a press, or for a press on an ephemeral message."""


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status, description and optional parameters."""

    def __init__(
        self, status: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        """The body Telegram sends for this error."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(text: str) -> ApiError:
    """A 400 answer; `text` is given without the "Bad Request: " prefix."""
    return ApiError(400, f"Bad Request: {text}")


def forbidden(text: str) -> ApiError:
    """A 403 answer; `text` is given without the "Forbidden: " prefix."""
    return ApiError(403, f"Forbidden: {text}")


def too_many_requests(retry_after: float) -> ApiError:
    """A 429 answer carrying `parameters.retry_after` like the real flood control."""
    shown = int(retry_after) if float(retry_after).is_integer() else retry_after
    return ApiError(
        429, f"Too Many Requests: retry after {shown}", {"retry_after": shown}
    )


class SandboxError(AssertionError):
    """A test did something a real user could not do (press a missing button, ...).

    It subclasses AssertionError so pytest reports it as a failed expectation.
    """
