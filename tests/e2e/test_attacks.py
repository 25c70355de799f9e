"""Holes found by attacking the bot, second round: odd digits, oversized echoes, practice
play in the statistics, namesakes and look-alikes. Each test is named after its hole."""

from __future__ import annotations

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.test_history import steady_clock

HAND_USAGE = "Use /hand NUMBER, e.g. /hand 12 (numbers are in /history)."


async def answers(bed: Bed, player: Player, chat: ChatRecord, text: str) -> list[str]:
    """Every new message of the bot in `chat` after `player` typed `text`."""
    await bed.idle()
    before = len(chat.bot_messages())
    await player.send(chat, text)
    await bed.idle()
    return [m.text or m.caption or "" for m in chat.bot_messages()[before:]]


# --------------------------------------------------------------------- D. clean refusals


async def test_d_hand_with_a_digit_int_refuses_gets_the_usage(bed: Bed) -> None:
    ana = bed.players("Ana")[0]
    group = bed.group(ana)
    steady_clock(bed)
    for odd in ("²", "#³", "١٢", "1²", "#", "##1"):
        assert await answers(bed, ana, group, f"/hand {odd}") == [HAND_USAGE], odd


async def test_d_oversized_unknown_setting_is_echoed_cut(bed: Bed) -> None:
    admin = bed.players("Admin")[0]
    group = bed.group(admin)
    steady_clock(bed)
    name = "<" * 4050
    answer = await answers(bed, admin, group, f"/settings {name} 1")
    assert len(answer) == 1
    assert answer[0].startswith("Unknown setting " + "<" * 31 + "…. Known: ante, ")
    # A number past a float's range is refused by its bound, cut too.
    value = "9" * 4000
    answer = await answers(bed, admin, group, f"/settings ante {value}")
    assert answer == ["ante " + "9" * 31 + "… is not accepted: the most is 1000000000."]
