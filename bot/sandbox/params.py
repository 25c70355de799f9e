"""Reading Bot API parameters from form, JSON, multipart and query-string bodies."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.sandbox.errors import ApiError, bad_request

# Parameters whose value is a JSON object or array. Form and multipart bodies carry
# them JSON-encoded; PTB's JSON bodies do too (it encodes every non-string value).
JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "allowed_updates",
        "commands",
        "scope",
        "message_ids",
        "entities",
        "caption_entities",
        "reply_parameters",
        "link_preview_options",
        "results",
        "button",
        "result",
        "ephemeral_message_parameters",
    }
)


@dataclass(frozen=True, slots=True)
class Upload:
    """A file sent in a multipart body."""

    filename: str
    content_type: str
    data: bytes


@dataclass(slots=True)
class Params:
    """The parameters of one call, decoded to Python values."""

    values: dict[str, Any] = field(default_factory=dict)
    uploads: dict[str, Upload] = field(default_factory=dict)

    def raw(self, name: str) -> Any:
        """The decoded value or None when absent."""
        return self.values.get(name)

    def has(self, name: str) -> bool:
        """Whether the parameter was sent."""
        return name in self.values or name in self.uploads

    def get_int(self, name: str, default: int | None = None) -> int | None:
        """An integer parameter; Telegram accepts numbers sent as strings."""
        value = self.values.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            raise bad_request(f'field "{name}" must be of type Integer')
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request(f'field "{name}" must be of type Integer') from None

    def need_int(self, name: str) -> int:
        """A required integer parameter."""
        value = self.get_int(name)
        if value is None:
            raise bad_request(f"{name} is empty")
        return value

    def get_str(self, name: str) -> str | None:
        """A string parameter (numbers are turned back into text)."""
        value = self.values.get(name)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        raise bad_request(f'field "{name}" must be of type String')

    def get_bool(self, name: str, default: bool = False) -> bool:
        """A boolean parameter ("true"/"false"/"1"/"0" or a JSON boolean)."""
        value = self.values.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value != 0
        if isinstance(value, str) and value.lower() in ("true", "1"):
            return True
        if isinstance(value, str) and value.lower() in ("false", "0", ""):
            return False
        raise bad_request(f'field "{name}" must be of type Boolean')

    def get_float(self, name: str, default: float) -> float:
        """A numeric parameter that may be fractional."""
        value = self.values.get(name)
        if value is None or value == "":
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f'field "{name}" must be of type Number') from None


def _decode(name: str, value: Any) -> Any:
    if name in JSON_FIELDS and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            if name == "reply_markup":
                raise bad_request("can't parse reply keyboard markup JSON object") from None
            raise bad_request(f"can't parse {name} JSON object") from None
    return value


async def read_params(request: web.Request) -> Params:
    """Decode the query string and body of `request` whatever its content type."""
    params = Params()
    for key, value in request.query.items():
        params.values[key] = _decode(key, value)
    if request.method != "POST" or not request.can_read_body:
        return params
    content_type = request.content_type
    if content_type == "application/json":
        try:
            body = await request.json()
        except ValueError:
            raise ApiError(400, "Bad Request: can't parse JSON object") from None
        if not isinstance(body, dict):
            raise ApiError(400, "Bad Request: can't parse JSON object")
        for key, value in body.items():
            params.values[key] = _decode(key, value)
        return params
    if content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        form = await request.post()
        for key, part in form.items():
            if isinstance(part, web.FileField):
                params.uploads[key] = Upload(
                    filename=part.filename,
                    content_type=part.content_type,
                    data=part.file.read(),
                )
            elif isinstance(part, str):
                params.values[key] = _decode(key, part)
            else:
                # multipart parts without a filename may arrive as bytes
                params.values[key] = _decode(key, bytes(part).decode("utf-8"))
        return params
    return params
