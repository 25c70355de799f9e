"""The HTML parse mode and the entities of typed messages, without a server."""

from __future__ import annotations

import pytest

from bot.sandbox.errors import ApiError
from bot.sandbox.text import detect_entities, parse_html, prepare_text, utf16_len


def test_offsets_are_utf16_units() -> None:
    parsed = parse_html("🂡 <b>ace</b>")
    assert parsed.text == "🂡 ace"
    assert parsed.entities == [{"type": "bold", "offset": 3, "length": 3}]
    assert utf16_len("🂡") == 2


def test_nested_tags_and_attributes() -> None:
    parsed = parse_html(
        "<b>a<i>b</i></b> <a href='https://t.me/a?x=1&amp;y=2'>l</a>"
        ' <pre><code class="language-python">x</code></pre>'
        ' <blockquote expandable>q</blockquote> <tg-emoji emoji-id="5">👍</tg-emoji>'
    )
    by_type = {e["type"]: e for e in parsed.entities}
    assert by_type["bold"] == {"type": "bold", "offset": 0, "length": 2}
    assert by_type["italic"] == {"type": "italic", "offset": 1, "length": 1}
    assert by_type["text_link"]["url"] == "https://t.me/a?x=1&y=2"
    assert by_type["pre"]["language"] == "python"
    assert "expandable_blockquote" in by_type
    assert by_type["custom_emoji"]["custom_emoji_id"] == "5"


def test_tags_are_case_insensitive_and_empty_ones_vanish() -> None:
    assert parse_html("<B>x</B><i></i>").entities == [{"type": "bold", "offset": 0, "length": 1}]


def test_lenient_entities_keep_a_bare_ampersand() -> None:
    assert parse_html("Tom & Jerry", strict_entities=False).text == "Tom & Jerry"


def test_surrounding_whitespace_is_trimmed_with_entities() -> None:
    parsed = prepare_text("  <b> hi</b>  ", "HTML", None)
    assert parsed.text == "hi"
    assert parsed.entities == [{"type": "bold", "offset": 0, "length": 2}]


def test_length_counts_characters_not_bytes() -> None:
    assert prepare_text("я" * 4096, None, None).text == "я" * 4096
    with pytest.raises(ApiError) as raised:
        prepare_text("я" * 4097, None, None)
    assert raised.value.description == "Bad Request: message is too long"


def test_unknown_parse_mode() -> None:
    with pytest.raises(ApiError, match="unsupported parse_mode"):
        prepare_text("x", "BBCode", None)


def test_typed_commands_and_mentions() -> None:
    assert detect_entities("/join@svara_test_bot now, @alice_k") == [
        {"type": "bot_command", "offset": 0, "length": 20},
        {"type": "mention", "offset": 26, "length": 8},
    ]
    assert detect_entities("a/b and https://x.y/z") == []
    assert detect_entities("go /fold") == [{"type": "bot_command", "offset": 3, "length": 5}]


@pytest.mark.parametrize(
    ("html", "error"),
    [
        ("x <b", "Unclosed start tag at byte offset 2"),
        ('<a href="x"', "Unclosed start tag at byte offset 0"),
        ("<b/>", 'Unsupported start tag "b/" at byte offset 0'),
        ("</b>", "Unexpected end tag at byte offset 0"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ("é<b>x</i>", 'Unmatched end tag at byte offset 6, expected "</b>", found "</i>"'),
    ],
)
def test_error_texts_and_byte_offsets(html: str, error: str) -> None:
    with pytest.raises(ApiError) as raised:
        parse_html(html)
    assert raised.value.description == "Bad Request: can't parse entities: " + error


def test_anonymous_end_tag_and_code_inside_pre() -> None:
    assert parse_html("<b>x</>").entities == [{"type": "bold", "offset": 0, "length": 1}]
    parsed = parse_html('<pre><code class="language-go">x</code></pre>')
    assert parsed.entities == [{"type": "pre", "offset": 0, "length": 1, "language": "go"}]
