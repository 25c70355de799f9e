"""Inline queries and answerInlineQuery: once, in time, at most 50 results with valid ids."""

from __future__ import annotations

import pytest
from telegram import InlineQueryResultArticle, InputTextMessageContent
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot.sandbox.errors import SandboxError
from bot.sandbox.harness import Sandbox
from bot.sandbox.world import World
from tests.sandbox.helpers import exactly

TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


def article(result_id: str, text: str = "31 points", title: str = "31") -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        result_id, title, InputTextMessageContent(text, parse_mode=ParseMode.HTML),
        description="a pair of kings and the Chechak")


async def test_inline_query_reaches_the_bot_and_its_answer_is_recorded(tg: Sandbox) -> None:
    bob = tg.world.user("Bob", language_code="bg")
    typed = await bob.inline("7c Kh Kd", chat_type="group")
    async with tg.bot() as bot:
        (update,) = await bot.get_updates()
        query = update.inline_query
        assert query is not None
        assert (query.query, query.chat_type, query.offset) == ("7c Kh Kd", "group", "")
        assert (query.from_user.first_name, query.from_user.language_code) == ("Bob", "bg")
        await query.answer([article("r1", "<b>31</b> points")], cache_time=5)
    answer = await typed.answer()
    (result,) = answer.results
    assert (result.id, result.title, result.text) == ("r1", "31", "31 points")
    assert result.description == "a pair of kings and the Chechak"
    assert result.entities == [{"type": "bold", "offset": 0, "length": 2}]
    assert (answer.cache_time, answer.is_personal) == (5, False)
    (call,) = tg.transcript.of("answerInlineQuery")
    assert call.ok and call.params["results"][0]["id"] == "r1"


async def test_unknown_answered_and_late_query_ids_are_refused(tg: Sandbox) -> None:
    now = [1000.0]
    tg.world.clock = lambda: now[0]
    bob = tg.world.user("Bob")
    first = await bob.inline("7c")
    late = await bob.inline("7c Kh")
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await bot.answer_inline_query("12345", [article("r1")])
        await bot.answer_inline_query(first.query.id, [article("r1")])
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await bot.answer_inline_query(first.query.id, [article("r2")])
        now[0] += 15.5
        with pytest.raises(BadRequest, match=exactly(TOO_OLD)):
            await bot.answer_inline_query(late.query.id, [article("r1")])
    assert first.answered and not late.answered
    assert [r.id for r in (await first.answer()).results] == ["r1"]


async def test_result_ids_are_1_to_64_bytes_and_unique(tg: Sandbox) -> None:
    bob = tg.world.user("Bob")
    typed = await bob.inline("Kh")
    async with tg.bot() as bot:
        for bad in ("", "é" * 33):
            with pytest.raises(BadRequest, match=exactly("RESULT_ID_INVALID")):
                await bot.answer_inline_query(typed.query.id, [article(bad)])
        with pytest.raises(BadRequest, match=exactly("RESULT_ID_DUPLICATE")):
            await bot.answer_inline_query(typed.query.id, [article("a"), article("a")])
        assert not typed.answered
        await bot.answer_inline_query(typed.query.id, [article("é" * 32), article("a")])
    assert [r.id for r in (await typed.answer()).results] == ["é" * 32, "a"]


async def test_at_most_50_results(tg: Sandbox) -> None:
    bob = tg.world.user("Bob")
    typed = await bob.inline("Kh")
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=exactly("RESULTS_TOO_MUCH")):
            await bot.answer_inline_query(typed.query.id, [article(str(i)) for i in range(51)])
        await bot.answer_inline_query(typed.query.id, [article(str(i)) for i in range(50)])
    assert len((await typed.answer()).results) == 50


async def test_message_text_is_checked_like_a_sent_message(tg: Sandbox) -> None:
    tg.expect("html", "length")
    bob = tg.world.user("Bob")
    typed = await bob.inline("Kh")
    async with tg.bot() as bot:
        with pytest.raises(BadRequest, match=r"^Can.t parse entities: "):
            await bot.answer_inline_query(typed.query.id, [article("a", "7 < 8 <b>x")])
        with pytest.raises(BadRequest, match=exactly("message text is empty")):
            await bot.answer_inline_query(typed.query.id, [article("a", "<b> </b>")])
        with pytest.raises(BadRequest, match=exactly("message is too long")):
            await bot.answer_inline_query(typed.query.id, [article("a", "&amp;" * 4097)])
        await bot.answer_inline_query(typed.query.id, [article("a", "&amp;" * 4096)])
    assert (await typed.answer()).results[0].text == "&" * 4096
    assert sorted(v.kind for v in tg.violations()) == ["html", "length", "length"]


async def test_a_bot_without_inline_mode_gets_no_queries() -> None:
    world = World(inline_mode=False)
    with pytest.raises(SandboxError, match="/setinline"):
        await world.user("Bob").inline("7c")
    assert world.updates.pending == 0


async def test_a_prepared_inline_message_is_kept_for_its_user_as_telegram_answers_it(
        tg: Sandbox) -> None:
    bob = tg.world.user("Bob")
    async with tg.bot() as bot:
        prepared = await bot.save_prepared_inline_message(
            bob.id, article("h1", "🏆 <b>Bob</b> wins 40"), allow_user_chats=True,
            allow_group_chats=True)
        # A user Telegram does not know, and a result no Mini App could send, are refused.
        with pytest.raises(BadRequest, match="User not found"):
            await bot.save_prepared_inline_message(999, article("h2"), allow_user_chats=True)
        with pytest.raises(BadRequest, match="Result_id_invalid"):
            await bot.save_prepared_inline_message(bob.id, article("x" * 65))
    kept = tg.world.prepared[prepared.id]
    assert (kept.user_id, kept.result.text) == (bob.id, "🏆 Bob wins 40")
    assert kept.chat_types == {"users", "groups"}
    assert prepared.expiration_date.timestamp() > tg.world.wall()
    assert len(tg.world.prepared) == 1
