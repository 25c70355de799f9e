"""Methods about the bot, chats, members, commands, callback answers and files."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from bot.sandbox.api_common import Ctx, Handler, chat_for
from bot.sandbox.errors import ANSWER_TOO_LONG, QUERY_TOO_OLD, ApiError, bad_request
from bot.sandbox.models import JSON, CallbackAnswer, ChatRecord, UserRecord
from bot.sandbox.transcript import ANSWERED_TWICE

MAX_ANSWER = 200
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def get_me(ctx: Ctx) -> Any:
    """getMe: the bot's User with its capability flags."""
    data = ctx.world.bot.to_json()
    data.update(
        {
            "can_join_groups": True,
            "can_read_all_group_messages": not ctx.world.privacy_mode,
            "supports_inline_queries": ctx.world.inline_mode,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
    )
    return data


async def get_chat(ctx: Ctx) -> Any:
    """getChat: a ChatFullInfo (the bot asks for a group's title after a restart)."""
    chat = chat_for(ctx, writing=False)
    data = chat.to_json()
    data.update({"accent_color_id": 0, "max_reaction_count": 11})
    if chat.is_group:
        data["permissions"] = {"can_send_messages": True}
    return data


def _member_json(chat: ChatRecord, user: UserRecord, status: str) -> JSON:
    data: JSON = {"status": status, "user": user.to_json()}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        rights = (
            "can_manage_chat",
            "can_delete_messages",
            "can_manage_video_chats",
            "can_restrict_members",
            "can_change_info",
            "can_invite_users",
            "can_pin_messages",
        )
        data.update({"can_be_edited": False, "is_anonymous": False})
        data.update(dict.fromkeys(rights, True))
        data.update(
            {
                "can_promote_members": False,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
            }
        )
        if chat.type == "supergroup":
            data["can_manage_topics"] = chat.is_forum
    elif status == "kicked":
        data["until_date"] = 0
    return data


async def get_chat_member(ctx: Ctx) -> Any:
    """getChatMember."""
    chat = chat_for(ctx, writing=False)
    user_id = ctx.params.need_int("user_id")
    world = ctx.world
    if user_id == world.bot.id:
        return _member_json(chat, world.bot, chat.bot_status)
    user = world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    if chat.type == "private":
        status = "member" if chat.id == user_id else "left"
    else:
        status = chat.members.get(user_id, "left")
    return _member_json(chat, user, status)


def _commands_key(ctx: Ctx) -> str:
    scope = ctx.params.raw("scope") or {"type": "default"}
    language = ctx.params.get_str("language_code") or ""
    return json.dumps([scope, language], sort_keys=True)


async def set_my_commands(ctx: Ctx) -> Any:
    """setMyCommands: up to 100 commands of lowercase letters, digits and underscores."""
    commands = ctx.params.raw("commands")
    if not isinstance(commands, list) or len(commands) > 100:
        raise bad_request("commands is invalid")
    clean: list[JSON] = []
    for item in commands:
        if not isinstance(item, dict):
            raise bad_request("commands is invalid")
        name, description = str(item.get("command", "")), str(item.get("description", ""))
        if not _COMMAND.fullmatch(name):
            raise bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(description) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        command: JSON = {"command": name, "description": description}
        ephemeral = item.get("is_ephemeral", False)
        if not isinstance(ephemeral, bool):
            raise bad_request('field "is_ephemeral" must be of type Boolean')
        if ephemeral:
            command["is_ephemeral"] = True  # Bot API 10.2: only the bot gets it
        clean.append(command)
    ctx.world.commands[_commands_key(ctx)] = clean
    return True


def _deep_link_ok(ctx: Ctx, url: str) -> bool:
    parts = urlsplit(url if "://" in url else f"https://{url}")
    bot = (ctx.world.bot.username or "").lower()
    if parts.netloc not in ("t.me", "telegram.me") or parts.path.strip("/").lower() != bot:
        return False
    start = parse_qs(parts.query, keep_blank_values=True).get("start")
    return start is None or bool(_PAYLOAD.fullmatch(start[0]))


async def answer_callback_query(ctx: Ctx) -> Any:
    """answerCallbackQuery: once per press, in time, text up to 200 characters."""
    world = ctx.world
    query = world.queries.get(ctx.params.get_str("callback_query_id") or "")
    if query is not None and query.answer is not None:
        # Telegram answers as for an old query; the stand-in also says what happened.
        ctx.transcript.flag(ANSWERED_TWICE, f"press {query.id} answered twice")
        raise ApiError(400, QUERY_TOO_OLD)
    if query is None or world.clock() - query.created > world.callback_timeout:
        raise ApiError(400, QUERY_TOO_OLD)
    text = ctx.params.get_str("text")
    if text is not None and len(text) > MAX_ANSWER:
        raise ApiError(400, ANSWER_TOO_LONG)
    url = ctx.params.get_str("url")
    if url is not None and not _deep_link_ok(ctx, url):
        raise bad_request("URL_INVALID")
    query.answer = CallbackAnswer(
        text=text or None,
        show_alert=ctx.params.get_bool("show_alert"),
        url=url,
        cache_time=ctx.params.get_int("cache_time") or 0,
    )
    query.answered.set()
    world.touch()
    return True


async def get_file(ctx: Ctx) -> Any:
    """getFile: a path under base_file_url for a stored upload."""
    file_id = ctx.params.get_str("file_id") or ""
    record = ctx.world.files.get(file_id)
    if record is None or not record.path:
        raise bad_request("wrong file_id or the file is temporarily unavailable")
    return {
        "file_id": record.file_id,
        "file_unique_id": record.file_unique_id,
        "file_size": len(record.data),
        "file_path": record.path,
    }


HANDLERS: dict[str, Handler] = {
    "getme": get_me,
    "getchat": get_chat,
    "getchatmember": get_chat_member,
    "setmycommands": set_my_commands,
    "answercallbackquery": answer_callback_query,
    "getfile": get_file,
}
