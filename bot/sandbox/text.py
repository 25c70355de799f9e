"""Message text rules: HTML parse mode, length limits, and entities of typed messages."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.sandbox.errors import PARSE_ENTITIES, TEXT_EMPTY, TEXT_TOO_LONG, ApiError, bad_request

MAX_TEXT = 4096
MAX_CAPTION = 1024

# tag -> entity type; the set the Bot API documents for parse_mode=HTML
_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "span": "spoiler",
    "tg-spoiler": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
    "tg-time": "date_time",
}
_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")
"""The `date_time` entity's formats: relative ("in 25 seconds"), or any of the day of the
week, a short or long date and a short or long time (empty: the text as written)."""
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]*);")
_ATTR = re.compile(r"\s*([a-zA-Z][a-zA-Z0-9_-]*)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>\"']+))?")
_COMMAND = re.compile(r"(?<!\S)/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,32}))?(?![\w@/])")
_MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9_]{4,32})\b")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's entity offsets."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True, slots=True)
class Parsed:
    """Plain text and its entities after parsing."""

    text: str
    entities: list[dict[str, Any]]


@dataclass(slots=True)
class _Open:
    tag: str
    start: int  # utf-16 offset in the output
    attrs: dict[str, str]


def _fail(detail: str) -> ApiError:
    return ApiError(400, PARSE_ENTITIES + detail)


def _byte_offset(source: str, index: int) -> int:
    return len(source[:index].encode("utf-8"))


def _decode_entity(source: str, index: int, strict: bool) -> tuple[str, int]:
    """Decode the entity at `source[index] == "&"`; return its text and the next index."""
    match = _ENTITY.match(source, index)
    if match:
        body = match.group(1)
        if body.startswith("#"):
            code = int(body[2:], 16) if body[1:2] in ("x", "X") else int(body[1:])
            if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                return chr(code), match.end()
        elif body in _NAMED:
            return _NAMED[body], match.end()
    if strict:
        # The real server keeps an unknown "&..." as literal text; a strict stand-in
        # rejects it, because it nearly always means the bot forgot to escape.
        raise _fail(f"Unsupported HTML entity at byte offset {_byte_offset(source, index)}")
    return "&", index + 1


def _parse_attrs(
    source: str, index: int, tag: str, at: int, strict: bool
) -> tuple[dict[str, str], int]:
    attrs: dict[str, str] = {}
    while True:
        while index < len(source) and source[index].isspace():
            index += 1
        if index >= len(source):
            raise _fail(f"Unclosed start tag at byte offset {at}")
        if source[index] == ">":
            return attrs, index + 1
        match = _ATTR.match(source, index)
        if not match or match.end() == index:
            raise _fail(
                f'Empty attribute name in the tag "{tag}" at byte offset'
                f" {_byte_offset(source, index)}"
            )
        raw = match.group(2) or ""
        if raw[:1] in ('"', "'"):
            raw = raw[1:-1]
        attrs[match.group(1).lower()] = _unescape(raw, strict)
        index = match.end()


def _unescape(raw: str, strict: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        if raw[i] == "&":
            piece, i = _decode_entity(raw, i, strict)
            out.append(piece)
        else:
            out.append(raw[i])
            i += 1
    return "".join(out)


def _entity_for(opened: _Open, length: int) -> dict[str, Any] | None:
    kind = _TAGS[opened.tag]
    entity: dict[str, Any] = {"type": kind, "offset": opened.start, "length": length}
    if opened.tag == "a":
        href = opened.attrs.get("href", "")
        if not href:
            return None
        if href.startswith("tg://user?id="):
            entity = {"type": "text_mention", "offset": opened.start, "length": length}
            entity["user"] = {"id": int(href.split("=", 1)[1]), "is_bot": False, "first_name": ""}
        else:
            entity["url"] = href
    elif opened.tag == "pre" and "language" in opened.attrs:
        entity["language"] = opened.attrs["language"]
    elif opened.tag == "blockquote" and "expandable" in opened.attrs:
        entity["type"] = "expandable_blockquote"
    elif opened.tag == "tg-emoji":
        entity["custom_emoji_id"] = opened.attrs["emoji-id"]
    elif opened.tag == "tg-time":
        entity["unix_time"] = int(opened.attrs["unix"])
        entity["date_time_format"] = opened.attrs.get("format", "")
    return entity


def _name_end(source: str, index: int) -> int:
    """Where a tag name ends: like the real parser, at whitespace, ">" or the end."""
    while index < len(source) and not source[index].isspace() and source[index] != ">":
        index += 1
    return index


class _HtmlParser:
    """One pass over the source; the error texts and their order follow the real server."""

    def __init__(self, source: str, strict_entities: bool) -> None:
        self.source = source
        self.strict = strict_entities
        self.out: list[str] = []
        self.out_len = 0  # utf-16 units emitted so far
        self.stack: list[_Open] = []
        self.entities: list[dict[str, Any]] = []

    def emit(self, piece: str) -> None:
        self.out.append(piece)
        self.out_len += utf16_len(piece)

    def run(self) -> Parsed:
        source, i = self.source, 0
        while i < len(source):
            if source[i] == "&":
                piece, i = _decode_entity(source, i, self.strict)
                self.emit(piece)
            elif source[i] != "<":
                self.emit(source[i])
                i += 1
            elif source.startswith("</", i):
                i = self.end_tag(i)
            else:
                i = self.start_tag(i)
        if self.stack:
            raise _fail(f'Can\'t find end tag corresponding to start tag "{self.stack[-1].tag}"')
        self.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return Parsed(text="".join(self.out), entities=self.entities)

    def start_tag(self, begin: int) -> int:
        source, at = self.source, _byte_offset(self.source, begin)
        name_end = _name_end(source, begin + 1)
        if name_end >= len(source):
            raise _fail(f"Unclosed start tag at byte offset {at}")
        tag = source[begin + 1 : name_end].lower()
        if tag not in _TAGS:
            raise _fail(f'Unsupported start tag "{tag}" at byte offset {at}')
        attrs, after = _parse_attrs(source, name_end, tag, at, self.strict)
        if tag == "span" and attrs.get("class") != "tg-spoiler":
            raise _fail(f'Tag "span" must have class "tg-spoiler" at byte offset {at}')
        if tag == "tg-emoji" and "emoji-id" not in attrs:
            raise _fail(f'Tag "tg-emoji" must have attribute "emoji-id" at byte offset {at}')
        if tag == "tg-time" and not (attrs.get("unix", "").isdigit()
                                     and _TIME_FORMAT.fullmatch(attrs.get("format", ""))):
            raise _fail(f'Tag "tg-time" must have a valid attribute "unix" and "format" at'
                        f" byte offset {at}")
        if tag == "code" and self.stack and self.stack[-1].tag == "pre" and "class" in attrs:
            # <pre><code class="language-x"> sets the language of the pre block
            self.stack[-1].attrs["language"] = attrs["class"].removeprefix("language-")
        self.stack.append(_Open(tag=tag, start=self.out_len, attrs=attrs))
        return after

    def end_tag(self, begin: int) -> int:
        source, at = self.source, _byte_offset(self.source, begin)
        if not self.stack:
            raise _fail(f"Unexpected end tag at byte offset {at}")
        name_end = _name_end(source, begin + 2)
        name = source[begin + 2 : name_end].lower()
        close = name_end
        while close < len(source) and source[close].isspace():
            close += 1
        if close >= len(source) or source[close] != ">":
            raise _fail(f"Unclosed end tag at byte offset {at}")
        top = self.stack.pop()
        if name and name != top.tag:  # "</>" closes whatever is open
            raise _fail(
                f'Unmatched end tag at byte offset {at}, expected "</{top.tag}>",'
                f' found "</{name}>"'
            )
        length = self.out_len - top.start
        inside_pre = top.tag == "code" and self.stack and self.stack[-1].tag == "pre"
        entity = _entity_for(top, length) if length > 0 and not inside_pre else None
        if entity is not None:
            self.entities.append(entity)
        return close + 1


def parse_html(source: str, *, strict_entities: bool = True) -> Parsed:
    """Parse `source` as the Bot API's HTML parse mode or raise the 400 Telegram answers."""
    return _HtmlParser(source, strict_entities).run()


def _strip(parsed: Parsed) -> Parsed:
    """Trim surrounding whitespace as the server does, moving entities with the text."""
    text = parsed.text
    head = len(text) - len(text.lstrip())
    stripped = text.strip()
    shift = utf16_len(text[:head])
    end = utf16_len(stripped)
    entities: list[dict[str, Any]] = []
    for entity in parsed.entities:
        start = max(entity["offset"] - shift, 0)
        stop = min(entity["offset"] + entity["length"] - shift, end)
        if stop > start:
            entities.append({**entity, "offset": start, "length": stop - start})
    return Parsed(text=stripped, entities=entities)


def prepare_text(
    text: str | None,
    parse_mode: str | None,
    entities: list[dict[str, Any]] | None,
    *,
    limit: int = MAX_TEXT,
    too_long: str = TEXT_TOO_LONG,
    allow_empty: bool = False,
    strict_entities: bool = True,
) -> Parsed:
    """Apply parse mode, trimming and the length limit to an outgoing text or caption."""
    raw = text or ""
    mode = (parse_mode or "").lower()
    if mode == "html":
        parsed = parse_html(raw, strict_entities=strict_entities)
    elif mode in ("", "none"):
        parsed = Parsed(text=raw, entities=list(entities or []))
    elif mode in ("markdown", "markdownv2"):
        # Markdown is not modelled: the text is kept as sent so limits still apply.
        parsed = Parsed(text=raw, entities=[])
    else:
        raise bad_request("unsupported parse_mode")
    parsed = _strip(parsed)
    if not parsed.text and not allow_empty:
        raise ApiError(400, TEXT_EMPTY)
    if len(parsed.text) > limit:
        raise ApiError(400, too_long)
    return parsed


def detect_entities(text: str) -> list[dict[str, Any]]:
    """Entities a Telegram client attaches to a typed message: bot commands and mentions."""
    found: list[dict[str, Any]] = []
    for match in _COMMAND.finditer(text):
        found.append(_span("bot_command", text, match.start(), match.end()))
    for match in _MENTION.finditer(text):
        found.append(_span("mention", text, match.start(), match.end()))
    found.sort(key=lambda e: e["offset"])
    return found


def _span(kind: str, text: str, start: int, end: int) -> dict[str, Any]:
    offset = utf16_len(text[:start])
    return {"type": kind, "offset": offset, "length": utf16_len(text[start:end])}


def entity_text(text: str, entity: dict[str, Any]) -> str:
    """The part of `text` an entity covers (offsets are in UTF-16 units)."""
    encoded = text.encode("utf-16-le")
    start, length = entity["offset"] * 2, entity["length"] * 2
    return encoded[start : start + length].decode("utf-16-le")


def command_target(text: str, entity: dict[str, Any]) -> tuple[str, str | None]:
    """Split a bot_command entity into its command and the bot it names, if any."""
    command, _, bot = entity_text(text, entity)[1:].partition("@")
    return command, bot or None
