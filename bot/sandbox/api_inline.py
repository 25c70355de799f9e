"""answerInlineQuery: the results a user is offered after typing the bot's name; and
savePreparedInlineMessage: one such result kept for a user's Mini App to share.

Only article results carrying a text message are modelled (what a bot without media
needs); every other result type is refused, so a test cannot pass on an unchecked one.
"""

from __future__ import annotations

from typing import Any

from bot.sandbox.api_common import Ctx, Handler
from bot.sandbox.errors import QUERY_TOO_OLD, ApiError, bad_request
from bot.sandbox.markup import validate_markup
from bot.sandbox.models import InlineAnswer, InlineResult, PreparedRecord
from bot.sandbox.text import prepare_text

MAX_RESULTS = 50
MAX_RESULT_ID_BYTES = 64
MAX_NEXT_OFFSET_BYTES = 64

RESULTS_TOO_MUCH = "RESULTS_TOO_MUCH"
RESULT_ID_INVALID = "RESULT_ID_INVALID"
RESULT_ID_DUPLICATE = "RESULT_ID_DUPLICATE"


async def answer_inline_query(ctx: Ctx) -> Any:
    """answerInlineQuery: once per query, in time, at most 50 valid results."""
    world = ctx.world
    params = ctx.params
    # The results are read before the query id is looked at, as the real server parses
    # the request before it asks Telegram: a broken result fails even on a stale query.
    raw = params.raw("results")
    if not isinstance(raw, list):
        raise bad_request("can't parse inline query results JSON object")
    if len(raw) > MAX_RESULTS:
        raise bad_request(RESULTS_TOO_MUCH)
    results = [_result(ctx, item) for item in raw]
    ids = [r.id for r in results]
    if len(set(ids)) != len(ids):
        raise bad_request(RESULT_ID_DUPLICATE)
    offset = params.get_str("next_offset") or ""
    if len(offset.encode()) > MAX_NEXT_OFFSET_BYTES:
        raise bad_request("NEXT_OFFSET_INVALID")
    cache_time = params.get_int("cache_time", 300)
    if cache_time is None or cache_time < 0:
        raise bad_request("CACHE_TIME_INVALID")
    query = world.inline_queries.get(params.get_str("inline_query_id") or "")
    if (
        query is None
        or query.answer is not None
        or world.clock() - query.created > world.callback_timeout
    ):
        raise ApiError(400, QUERY_TOO_OLD)
    query.answer = InlineAnswer(tuple(results), cache_time, params.get_bool("is_personal"))
    query.answered.set()
    world.touch()
    return True


def _result(ctx: Ctx, item: Any) -> InlineResult:
    """One result checked as the server checks it (the stand-in words the shape errors)."""
    if not isinstance(item, dict):
        raise bad_request("can't parse inline query result: InlineQueryResult must be an Object")
    result_id = item.get("id")
    if not isinstance(result_id, str) or not 1 <= len(result_id.encode()) <= MAX_RESULT_ID_BYTES:
        raise bad_request(RESULT_ID_INVALID)
    kind = item.get("type")
    if kind != "article":
        raise bad_request(f'unsupported inline query result type "{kind}"')
    title = item.get("title")
    if not isinstance(title, str) or not title:
        raise bad_request('can\'t parse inline query result: Field "title" must be of type String')
    description = item.get("description")
    if description is not None and not isinstance(description, str):
        raise bad_request(
            'can\'t parse inline query result: Field "description" must be of type String'
        )
    content = item.get("input_message_content")
    if not isinstance(content, dict) or "message_text" not in content:
        raise bad_request("can't parse inline query result: input_message_content is invalid")
    entities = content.get("entities")
    parsed = prepare_text(
        str(content["message_text"]),
        content.get("parse_mode"),
        entities if isinstance(entities, list) else None,
        strict_entities=ctx.world.strict_html_entities,
    )
    validate_markup(item.get("reply_markup"))
    return InlineResult(result_id, title, description, parsed.text, parsed.entities)


PREPARED_FOR = 24 * 3600
"""Seconds a prepared message stays usable in the stand-in (Telegram says only that it
expires at its ``expiration_date``)."""
_CHAT_TYPES = {"allow_user_chats": "users", "allow_bot_chats": "bots",
               "allow_group_chats": "groups", "allow_channel_chats": "channels"}


async def save_prepared_inline_message(ctx: Ctx) -> Any:
    """savePreparedInlineMessage (Bot API 8.0): a result, checked as answerInlineQuery
    checks its results, kept for ``user_id``; answers a PreparedInlineMessage."""
    world = ctx.world
    params = ctx.params
    user_id = params.need_int("user_id")
    result = _result(ctx, params.raw("result"))
    if user_id not in world.users:
        raise bad_request("user not found")
    kinds = frozenset(kind for name, kind in _CHAT_TYPES.items() if params.get_bool(name))
    prepared = PreparedRecord(f"p{len(world.prepared) + 1}_{result.id}"[:64], user_id, result,
                              kinds, int(world.wall()) + PREPARED_FOR)
    world.prepared[prepared.id] = prepared
    world.touch()
    return {"id": prepared.id, "expiration_date": prepared.expiration_date}


HANDLERS: dict[str, Handler] = {"answerinlinequery": answer_inline_query,
                                "savepreparedinlinemessage": save_prepared_inline_message}
