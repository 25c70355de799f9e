"""The records of the simulated Telegram: users, chats, messages, files, and their JSON."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from typing import Any

from bot.sandbox.errors import SandboxError

JSON = dict[str, Any]


@dataclass(slots=True, eq=False)
class UserRecord:
    """A Telegram account (a person or the bot)."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False  # has pressed START in the private chat with the bot
    blocked: bool = False  # has blocked the bot

    def to_json(self) -> JSON:
        """The User object as the Bot API shows it."""
        data: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass(slots=True, eq=False)
class ChatRecord:
    """A private chat with the bot, a basic group or a supergroup (maybe a forum)."""

    id: int
    type: str  # "private" | "group" | "supergroup"
    title: str | None = None
    user: UserRecord | None = None  # the other side of a private chat
    username: str | None = None
    is_forum: bool = False
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    bot_status: str = "member"  # "member" | "administrator" | "left" | "kicked"
    topics: dict[int, str] = field(default_factory=dict)  # thread id -> name
    migrated_to: int | None = None  # set when a basic group became a supergroup
    pinned: list[int] = field(default_factory=list)  # pinned message ids, oldest first
    messages: list[MessageRecord] = field(default_factory=list)
    next_message_id: int = 1

    @property
    def is_group(self) -> bool:
        """True for groups and supergroups."""
        return self.type in ("group", "supergroup")

    def to_json(self) -> JSON:
        """The Chat object embedded in messages."""
        data: JSON = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            data.update({k: v for k, v in self.user.to_json().items() if k in _PRIVATE_KEYS})
        else:
            data["title"] = self.title
        if self.username and self.type != "private":
            data["username"] = self.username
        if self.is_forum:
            data["is_forum"] = True
        return data

    def topic(self, name: str) -> int:
        """The thread id of the forum topic called `name`."""
        for thread_id, topic_name in self.topics.items():
            if topic_name == name:
                return thread_id
        raise SandboxError(f"{self.title!r} has no topic {name!r}; it has {list(self.topics)}")

    def bot_messages(self, thread_id: int | None = None) -> list[MessageRecord]:
        """Messages the bot sent here and has not deleted, oldest first."""
        return [
            m
            for m in self.messages
            if m.sender.is_bot
            and not m.deleted
            and (thread_id is None or m.thread_id == thread_id)
        ]

    @property
    def last_bot_message(self) -> MessageRecord:
        """The newest message from the bot; a test error if there is none."""
        sent = self.bot_messages()
        if not sent:
            raise SandboxError(f"the bot has sent nothing to {self.describe()}")
        return sent[-1]

    def describe(self) -> str:
        """A short human name for error messages."""
        if self.type == "private" and self.user is not None:
            return f"the private chat with {self.user.first_name}"
        return f"{self.type} {self.title!r}"


_PRIVATE_KEYS = ("first_name", "last_name", "username")


@dataclass(slots=True, eq=False)
class FileRecord:
    """A stored upload (photos), reachable by file_id and by a download path."""

    file_id: str
    file_unique_id: str
    data: bytes
    path: str
    width: int = 0
    height: int = 0


@dataclass(slots=True, eq=False)
class MessageRecord:
    """One message and its current state; edits change it in place."""

    chat: ChatRecord
    message_id: int
    sender: UserRecord
    date: int
    text: str | None = None
    entities: list[JSON] = field(default_factory=list)
    caption: str | None = None
    photo: FileRecord | None = None
    reply_markup: JSON | None = None
    thread_id: int | None = None
    reply_to: MessageRecord | None = None
    edit_date: int | None = None
    deleted: bool = False
    service: JSON = field(default_factory=dict)  # e.g. {"forum_topic_created": {...}}
    history: list[str | None] = field(default_factory=list)  # earlier texts, oldest first
    silent: bool = False  # sent with disable_notification: it arrives without a sound
    previews: bool = True  # False: sent or last edited with link previews turned off

    @property
    def id(self) -> int:
        """The message id."""
        return self.message_id

    @property
    def buttons(self) -> list[list[str]]:
        """Labels of the inline keyboard, row by row (empty when there is none)."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [[str(button.get("text", "")) for button in row] for row in rows]

    @property
    def labels(self) -> list[str]:
        """All button labels in reading order."""
        return [label for row in self.buttons for label in row]

    def button(self, label: str) -> JSON:
        """The inline button with this label; a test error listing the labels if absent."""
        for row in (self.reply_markup or {}).get("inline_keyboard", []):
            for button in row:
                if button.get("text") == label:
                    return dict(button)
        raise SandboxError(
            f"no button {label!r} on message {self.message_id} in {self.chat.describe()};"
            f" its buttons now are {self.labels} (text: {self.text!r})"
        )

    def to_json(self, *, nested: bool = False) -> JSON:
        """The Message object as the Bot API returns it."""
        data: JSON = {
            "message_id": self.message_id,
            "from": self.sender.to_json(),
            "chat": self.chat.to_json(),
            "date": self.date,
        }
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
            data["is_topic_message"] = True
        if self.reply_to is not None and not nested:
            data["reply_to_message"] = self.reply_to.to_json(nested=True)
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = copy.deepcopy(self.entities)
            if not self.previews:
                data["link_preview_options"] = {"is_disabled": True}
        if self.photo is not None:
            data["photo"] = [
                {
                    "file_id": self.photo.file_id,
                    "file_unique_id": self.photo.file_unique_id,
                    "width": self.photo.width,
                    "height": self.photo.height,
                    "file_size": len(self.photo.data),
                }
            ]
            if self.caption:
                data["caption"] = self.caption
                if self.entities:
                    data["caption_entities"] = copy.deepcopy(self.entities)
        if self.reply_markup and self.reply_markup.get("inline_keyboard"):
            data["reply_markup"] = copy.deepcopy(self.reply_markup)
        data.update(copy.deepcopy(self.service))
        return data

    def __repr__(self) -> str:
        return (
            f"<Message {self.message_id} in {self.chat.describe()} from"
            f" {self.sender.first_name}: {self.text or self.caption!r} {self.labels}>"
        )


@dataclass(frozen=True, slots=True)
class CallbackAnswer:
    """What answerCallbackQuery told the presser."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass(slots=True, eq=False)
class CallbackRecord:
    """A button press waiting for (or given) its answer."""

    id: str
    user: UserRecord
    message: MessageRecord
    data: str
    created: float  # world clock
    answer: CallbackAnswer | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True, slots=True)
class InlineResult:
    """One result of an inline answer, as the user would see and send it."""

    id: str
    title: str
    description: str | None
    text: str
    """The message it sends, after entity parsing."""
    entities: list[JSON]


@dataclass(frozen=True, slots=True)
class PreparedRecord:
    """A message savePreparedInlineMessage kept for a user's Mini App to share."""

    id: str
    user_id: int
    result: InlineResult
    chat_types: frozenset[str]
    """Where it may be sent: "users", "bots", "groups", "channels"."""
    expiration_date: int


@dataclass(frozen=True, slots=True)
class InlineAnswer:
    """What answerInlineQuery offered the user."""

    results: tuple[InlineResult, ...]
    cache_time: int
    is_personal: bool


@dataclass(slots=True, eq=False)
class InlineQueryRecord:
    """What a user typed after the bot's name, waiting for (or given) its answer."""

    id: str
    user: UserRecord
    query: str
    chat_type: str | None
    created: float  # world clock
    answer: InlineAnswer | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
