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

import math
from dataclasses import dataclass, field

from bot.sandbox.models import JSON, ChatRecord, MessageRecord, UserRecord

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
