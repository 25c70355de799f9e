"""The sandbox page's own words (the bot's messages come translated already).

The page fills them in by key: ``data-word="send"`` sets an element's text,
``data-word-placeholder`` and ``data-word-title`` its attributes; ``{name}``, ``{chat}``
and ``{bot}`` are filled in by the page.
"""

from __future__ import annotations

import html
from typing import Final

from bot.i18n import N_, Translator

WORDS: Final[dict[str, str]] = {
    "title": N_("Svara sandbox"),
    "seats": N_("Seats"),
    "group_chat": N_("Group chat"),
    "private_chat": N_("Private chat"),
    "group_placeholder": N_("Message or /command, e.g. /newgame"),
    "private_placeholder": N_("Message the bot, e.g. /balance"),
    "send": N_("Send"),
    "ok": N_("OK"),
    "edited": N_("edited"),
    "photo": N_("Chart"),
    "computer": N_("computer"),
    "play_seat": N_("Play this seat"),
    "reply": N_("Reply"),
    "replying_to": N_("Reply to {name}"),
    "you_are": N_("{chat} — you are {name}"),
    "private_with": N_("{bot} — private chat with {name}"),
}


def page_words(tr: Translator) -> dict[str, str]:
    """Every word of the page in ``tr``'s language, as plain text (no HTML escapes)."""
    return {key: html.unescape(tr.gettext(msgid)) for key, msgid in WORDS.items()}
