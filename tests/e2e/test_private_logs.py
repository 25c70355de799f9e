"""Debug logging never shows cards: with every logger at DEBUG, a hand is played and the
"My cards" popup pressed, and the whole log holds no private message's text.

The second test takes the filter off and plays the same story: the cards are then in the
log, which proves the first test looks in the right place and that the filter is what
hides them.
"""

from __future__ import annotations

import io
import re

from bot.http import HIDDEN, hide_private_texts, show_private_texts
from tests.e2e.bed import Bed

PRIVATE_METHODS = ("sendMessage", "editMessageText", "answerCallbackQuery")
DM_CARDS = re.compile(r"Hand \d+: <b>([^<]+)</b>")
POPUP_CARDS = re.compile(r"Your cards: (.+) \(\d+ points\)")


async def play_a_hand_and_look_at_the_cards(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    hand = bed.live(group).hand
    assert hand is not None
    first = ana if hand.seats[hand.to_act or 0].player == ana.id else boris
    await bed.press(first, group, "No blind")
    for player in (ana, boris):
        popup = await bed.press(player, group, "My cards")
        assert popup is not None and "Your cards" in popup


def private_texts(bed: Bed) -> list[str]:
    """The text of every private message and popup the bot sent (each holds cards)."""
    found = []
    for call in bed.tg.transcript.calls:
        if call.method not in PRIVATE_METHODS:
            continue
        if call.method != "answerCallbackQuery" and int(call.params.get("chat_id", 0)) < 0:
            continue
        text = str(call.params.get("text") or "")
        if DM_CARDS.search(text) or POPUP_CARDS.search(text):
            found.append(text)
    return found


async def test_item10_debug_logs_hold_no_private_text(bed: Bed, debug_log: io.StringIO) -> None:
    await play_a_hand_and_look_at_the_cards(bed)
    log = debug_log.getvalue()
    texts = private_texts(bed)
    assert len(texts) >= 4  # two hands by DM and two popups
    assert "Calling Bot API endpoint `answerCallbackQuery`" in log  # DEBUG was on
    assert HIDDEN in log
    for text in texts:
        assert text not in log
    hands = _cards_in(texts)
    assert len(hands) >= 2
    for cards in hands:
        assert cards not in log, f"{cards!r} is in the log"


async def test_item10_without_the_filter_the_cards_are_in_the_log(
    bed: Bed, debug_log: io.StringIO
) -> None:
    show_private_texts()
    try:
        await play_a_hand_and_look_at_the_cards(bed)
    finally:
        hide_private_texts()
    log = debug_log.getvalue()
    hands = _cards_in(private_texts(bed))
    assert hands
    assert any(cards in log for cards in hands)
    assert HIDDEN not in log


def _cards_in(texts: list[str]) -> set[str]:
    """The card strings in DM texts ("Hand 1: <b>A♠ K♠ 7♣</b>") and popups."""
    found = set()
    for text in texts:
        for pattern in (DM_CARDS, POPUP_CARDS):
            match = pattern.search(text)
            if match:
                found.add(match.group(1))
    return found
