"""What a group member does ephemerally: the commands their app sends only to the bot, and
sending such a message (see ephemeral.py for the messages themselves)."""

from __future__ import annotations

import json

from bot.sandbox.ephemeral import EphemeralRecord
from bot.sandbox.models import JSON, ChatRecord, MessageRecord, UserRecord
from bot.sandbox.state import WorldState
from bot.sandbox.text import command_target, detect_entities


def _scope_matches(scope: JSON, chat: ChatRecord, user_id: int, admin: bool) -> int | None:
    """How specific a command scope is for this member of `chat` (lower first), or None."""
    kind = scope.get("type")

    def same_chat() -> bool:
        return str(scope.get("chat_id")) in (str(chat.id), f"@{chat.username}")

    if kind == "chat_member":
        return 0 if same_chat() and str(scope.get("user_id")) == str(user_id) else None
    if kind == "chat_administrators":
        return 1 if admin and same_chat() else None
    if kind == "chat":
        return 2 if same_chat() else None
    if kind == "all_chat_administrators":
        return 3 if admin else None
    if kind == "all_group_chats":
        return 4
    if kind == "default":
        return 5
    return None


def commands_for(world: WorldState, chat: ChatRecord, user: UserRecord) -> list[JSON]:
    """The command list a member of a group is shown, chosen as Telegram chooses it:
    the narrowest scope that has a list, the member's language before no language."""
    admin = chat.members.get(user.id) in ("creator", "administrator")
    best: tuple[int, int] | None = None
    chosen: list[JSON] = []
    for key, commands in world.commands.items():
        scope, language = json.loads(key)
        rank = _scope_matches(scope, chat, user.id, admin)
        if rank is None or language not in ("", user.language_code):
            continue
        order = (rank, 0 if language else 1)
        if best is None or order < best:
            best, chosen = order, commands
    return chosen


def is_ephemeral_command(world: WorldState, chat: ChatRecord, user: UserRecord, text: str) -> bool:
    """Whether `text` typed by `user` in a group starts with one of the bot's commands
    registered with is_ephemeral for them (their app then sends it ephemerally)."""
    if not chat.is_group:
        return False
    entities = detect_entities(text)
    first = next((e for e in entities if e["type"] == "bot_command" and e["offset"] == 0), None)
    if first is None:
        return False
    name, target = command_target(text, first)
    if target is not None and target.lower() != (world.bot.username or "").lower():
        return False
    return any(
        c.get("command") == name.lower() and c.get("is_ephemeral") is True
        for c in commands_for(world, chat, user)
    )


def send_from_member(
    world: WorldState,
    chat: ChatRecord,
    sender: UserRecord,
    text: str,
    *,
    reply_to: MessageRecord | None = None,
    thread_id: int | None = None,
) -> EphemeralRecord:
    """A member sends an ephemeral message to the bot; the bot gets it as a message update
    whatever its privacy mode (it is addressed to the bot alone)."""
    record = EphemeralRecord(
        chat=chat,
        message_id=0,
        sender=sender,
        date=int(world.wall()),
        text=text,
        entities=detect_entities(text),
        thread_id=thread_id,
        reply_to=reply_to,
        receiver=world.bot,
        sent_at=world.clock(),
        after=chat.next_message_id - 1,
    )
    world.ephemeral.add(record)
    world.touch()
    if chat.bot_status not in ("left", "kicked"):
        world.updates.push("message", record.to_json())
    return record
