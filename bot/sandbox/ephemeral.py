"""Ephemeral messages of the simulated Telegram: in a group, seen by one member only.

A bot's ephemeral message is shown to its receiver alone (the group never sees it); a
member's ephemeral message (an ephemeral command, or a reply to the bot's ephemeral
message) reaches the bot alone and its sender still sees it. Such a message has no place
in the chat's history: its `message_id` is 0 and it is named by `ephemeral_message_id`
(numbered per chat) together with the receiver.

Delivery is not guaranteed: a message can be lost at once (never shown) or vanish later
(the receiver's app restarted). The stand-in keeps what the bot sent and what the member
sees apart, so a test can tell the two.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.sandbox.models import JSON, ChatRecord, MessageRecord, UserRecord
from bot.sandbox.text import command_target, detect_entities

if TYPE_CHECKING:
    from bot.sandbox.world import World

WINDOW = 15.0
"""Seconds after an eligible action in which any bot may answer it ephemerally."""


@dataclass(slots=True, eq=False)
class EphemeralRecord(MessageRecord):
    """One ephemeral message; `message_id` is always 0."""

    receiver: UserRecord | None = None
    ephemeral_id: int = 0
    sent_at: float = 0.0
    """World clock when it was sent (the start of its 15-second window)."""
    after: int = 0
    """The newest message of the group when it was sent: where its receiver sees it."""
    replaces: int | None = None
    """The group message it is shown in place of, for its receiver only."""
    lost_at: float = math.inf
    """World clock from which its receiver no longer sees it (never, unless lost)."""

    def seen(self, now: float) -> bool:
        """Whether its receiver (and its sender) still see it."""
        return not self.deleted and now < self.lost_at

    def to_json(self, *, nested: bool = False) -> JSON:
        """The Message object of an ephemeral message: message_id 0, its own id, receiver."""
        data = MessageRecord.to_json(self, nested=nested)
        data["message_id"] = 0
        data["ephemeral_message_id"] = self.ephemeral_id
        if self.receiver is not None:
            data["receiver_user"] = self.receiver.to_json()
        return data

    def __repr__(self) -> str:
        receiver = self.receiver.first_name if self.receiver else "?"
        return (
            f"<Ephemeral {self.ephemeral_id} in {self.chat.describe()} from"
            f" {self.sender.first_name} to {receiver}: {self.text or self.caption!r}"
            f" {self.labels}>"
        )


@dataclass(slots=True)
class EphemeralBook:
    """Every ephemeral message, per chat, in the order they were sent."""

    by_chat: dict[int, list[EphemeralRecord]] = field(default_factory=dict)

    def add(self, record: EphemeralRecord) -> EphemeralRecord:
        """File `record` under its chat with the chat's next ephemeral id."""
        sent = self.by_chat.setdefault(record.chat.id, [])
        record.ephemeral_id = len(sent) + 1
        sent.append(record)
        return record

    def all(self, chat: ChatRecord) -> list[EphemeralRecord]:
        """Every ephemeral message of `chat`, deleted and lost ones too."""
        return list(self.by_chat.get(chat.id, []))

    def find(self, chat: ChatRecord, ephemeral_id: int) -> EphemeralRecord | None:
        """The message with this id in `chat`, unless deleted (lost ones are still found:
        the server does not know what an app has lost)."""
        for record in self.by_chat.get(chat.id, []):
            if record.ephemeral_id == ephemeral_id and not record.deleted:
                return record
        return None

    def seen_by(self, chat: ChatRecord, user: UserRecord, now: float) -> list[EphemeralRecord]:
        """What `user` sees of `chat`'s ephemeral messages: those to or from them, shown."""
        return [
            r for r in self.by_chat.get(chat.id, [])
            if (r.receiver is user or r.sender is user) and r.seen(now)
        ]

    def restart_app(self, user: UserRecord, now: float) -> int:
        """`user`'s app restarts: every ephemeral message they see vanishes; how many."""
        gone = 0
        for records in self.by_chat.values():
            for record in records:
                if record.receiver is user and record.seen(now):
                    record.lost_at = now
                    gone += 1
        return gone


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


def commands_for(world: World, chat: ChatRecord, user: UserRecord) -> list[JSON]:
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


def is_ephemeral_command(world: World, chat: ChatRecord, user: UserRecord, text: str) -> bool:
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
    world: World,
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
