"""What a sent or edited message carries, checked as Telegram checks it: its text or
caption, its photo and whether its keyboard changed."""

from __future__ import annotations

import hashlib
import struct
from typing import Any

from bot.sandbox.api_common import Ctx
from bot.sandbox.errors import CAPTION_TOO_LONG, bad_request
from bot.sandbox.models import FileRecord
from bot.sandbox.text import MAX_CAPTION, Parsed, prepare_text


def _entities(ctx: Ctx, name: str) -> list[dict[str, Any]] | None:
    value = ctx.params.raw(name)
    return value if isinstance(value, list) else None


def message_text(ctx: Ctx) -> Parsed:
    """The text of a sendMessage or editMessageText, checked as Telegram checks it."""
    return prepare_text(
        ctx.params.get_str("text"),
        ctx.params.get_str("parse_mode"),
        _entities(ctx, "entities"),
        strict_entities=ctx.world.strict_html_entities,
    )


def caption_text(ctx: Ctx) -> Parsed:
    """The caption of a sendPhoto (or an edit of it), checked as Telegram checks it."""
    return prepare_text(
        ctx.params.get_str("caption"),
        ctx.params.get_str("parse_mode"),
        _entities(ctx, "caption_entities"),
        limit=MAX_CAPTION,
        too_long=CAPTION_TOO_LONG,
        allow_empty=True,
        strict_entities=ctx.world.strict_html_entities,
    )


def _photo_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG; other formats get a plausible square."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return 320, 320


def photo_from(ctx: Ctx) -> FileRecord:
    """The photo a sendPhoto names: an upload, a known file_id or a URL."""
    files = ctx.world.files
    ref = ctx.params.get_str("photo")
    upload = ctx.params.uploads.get("photo")
    if ref and ref.startswith("attach://"):
        upload = ctx.params.uploads.get(ref.removeprefix("attach://"))
    if upload is not None:
        digest = hashlib.sha1(upload.data).hexdigest()[:16]
        width, height = _photo_size(upload.data)
        record = FileRecord(
            file_id=f"AgAC{digest}{len(files)}",
            file_unique_id=f"AQAD{digest}",
            data=upload.data,
            path=f"photos/file_{len(files)}.jpg",
            width=width,
            height=height,
        )
        files[record.file_id] = record
        return record
    if ref and ref in files:
        return files[ref]
    if ref and ref.lower().startswith(("http://", "https://")):
        # Telegram would fetch the URL; the stand-in keeps the address as the content.
        record = FileRecord(f"AgACurl{len(files)}", f"AQADurl{len(files)}", ref.encode(), "")
        files[record.file_id] = record
        return record
    if not ref:
        raise bad_request("there is no photo in the request")
    raise bad_request("wrong file identifier/HTTP URL specified")


def same_markup(new: dict[str, Any] | None, old: dict[str, Any] | None) -> bool:
    """Whether two reply markups show the same inline keyboard (an edit to it is no edit)."""
    def rows(markup: dict[str, Any] | None) -> Any:
        return (markup or {}).get("inline_keyboard") or []

    return bool(rows(new) == rows(old))
