"""Inline mode: "@bot 7c Kh Kd" in any chat offers the hand's points and the rule behind them.

The expected points and reasons are written from the rules (README "Rules", docs/RULES.md):
7♣ K♥ K♦ is 31, 7♣ A♥ K♥ is 32, three of a kind three times the card, two sevens 23,
three sevens 34, two aces 22, otherwise the cards of one suit added up.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.sandbox.models import InlineAnswer
from bot.sandbox.players import Player
from tests.e2e.bed import Bed

USAGE_TITLE = "Svara points of three cards"
USAGE = "Type three cards after my name, e.g. 7c Kh Kd or 7♣ K♥ K♦ (T or 10 for a ten)."

HANDS = [
    # (typed, cards as shown, points, the rule's line)
    ("7c Kh Kd", "7♣ K♥ K♦", 31, "7♣ counts 11 and joins K♥ K♦ (a pair): K♥ K♦ 7♣ = 31"),
    ("7♣ K♥ K♦", "7♣ K♥ K♦", 31, "7♣ counts 11 and joins K♥ K♦ (a pair): K♥ K♦ 7♣ = 31"),
    ("7♣,A♥,K♥", "7♣ A♥ K♥", 32,
     "7♣ counts 11 and joins A♥ K♥ (the same suit): A♥ K♥ 7♣ = 32"),
    ("7C KH KD", "7♣ K♥ K♦", 31, "7♣ counts 11 and joins K♥ K♦ (a pair): K♥ K♦ 7♣ = 31"),
    ("8h8d8s", "8♥ 8♦ 8♠", 24, "three of a kind: 3 × 8 = 24"),
    ("7h, 7d, 9s", "7♥ 7♦ 9♠", 23, "two sevens = 23"),
    ("7c 7d 7h", "7♣ 7♦ 7♥", 34, "three sevens = 34, the best hand"),
    ("ah ad ks", "A♥ A♦ K♠", 22, "2 aces = 22"),
    ("10h Jh 8s", "10♥ J♥ 8♠", 20, "the cards of one suit added up: 10♥ J♥ = 20"),
    ("th jh 8s", "10♥ J♥ 8♠", 20, "the cards of one suit added up: 10♥ J♥ = 20"),
    ("9♥\ufe0f 8♦\ufe0f K♠", "9♥ 8♦ K♠", 10,
     "no two cards share a suit: the highest counts, K♠ = 10"),
]

BAD = ["", "   ", "7c Kh", "7c Kh Kd Ah", "7c 7c Kd", "2c Kh Kd", "7x Kh Kd", "hello there",
       "7c Kh Kd1", "1h Kh Kd", "7♣ K♥ K"]


async def ask(bed: Bed, who: Player, text: str) -> InlineAnswer:
    typed = await who.inline(text)
    answer = await typed.answer()
    await bed.idle()
    return answer


async def test_a_hand_gets_its_points_and_rule_in_either_notation(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    for typed, shown, points, rule in HANDS:
        answer = await ask(bed, ana, typed)
        (result,) = answer.results
        assert result.title == f"{shown}: {points} points", typed
        assert result.description == rule, typed
        assert result.text == f"{shown}: {points} points\n{rule}", typed
        assert result.entities == [{"type": "bold", "offset": 0, "length": len(shown)}], typed
        assert 0 < answer.cache_time <= 60
    assert len(bed.tg.transcript.of("answerInlineQuery")) == len(HANDS)


@pytest.mark.parametrize(("language", "title"), [
    ("bg", "7♣ K♥ K♦: 31 точки"),
    ("hi-IN", "7♣ K♥ K♦: 31 पॉइंट"),
    ("de", "7♣ K♥ K♦: 31 points"),
    (None, "7♣ K♥ K♦: 31 points"),
])
async def test_each_user_gets_his_language(bed: Bed, language: str | None, title: str) -> None:
    ana = bed.tg.world.user("Ana", language_code=language)
    answer = await ask(bed, ana, "7c Kh Kd")
    (result,) = answer.results
    assert result.title == title
    # Telegram must not offer this user's answer to another user typing the same text.
    assert answer.is_personal


async def test_bad_input_gets_the_usage_line(bed: Bed) -> None:
    (ana,) = bed.players("Ana")
    for typed in BAD:
        (result,) = (await ask(bed, ana, typed)).results
        assert (result.title, result.description, result.text) == (USAGE_TITLE, USAGE, USAGE), \
            typed


async def test_inline_queries_leave_the_database_alone(
        bed: Bed, monkeypatch: pytest.MonkeyPatch) -> None:
    """One query per keystroke: nothing is written, and nobody becomes a player by typing."""
    writes: list[Any] = []
    real_write = bed.store.db.write

    async def counted(work: Any, **kwargs: Any) -> Any:
        writes.append(work)
        return await real_write(work, **kwargs)

    monkeypatch.setattr(bed.store.db, "write", counted)
    (ana,) = bed.players("Ana")
    for text in ("7", "7c", "7c K", "7c Kh", "7c Kh K", "7c Kh Kd"):
        await ask(bed, ana, text)
    assert writes == []
    assert await bed.store.users.find(ana.id) is None
    assert bed.tg.transcript.methods().count("answerInlineQuery") == 6
    assert "sendMessage" not in bed.tg.transcript.methods()
