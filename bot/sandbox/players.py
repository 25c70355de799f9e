"""Simulated Telegram users: they type, press buttons, start and block the bot."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

from bot.sandbox.ephemeral import EphemeralRecord
from bot.sandbox.ephemeral_members import is_ephemeral_command, send_from_member
from bot.sandbox.errors import SandboxError
from bot.sandbox.models import (
    CallbackAnswer,
    CallbackRecord,
    ChatRecord,
    InlineAnswer,
    InlineQueryRecord,
    MessageRecord,
    UserRecord,
)
from bot.sandbox.state import WorldState
from bot.sandbox.text import detect_entities, utf16_len

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Press:
    """A button press; await `answer()` for what the bot told the presser."""

    def __init__(self, query: CallbackRecord) -> None:
        self.query = query

    @property
    def data(self) -> str:
        """The callback_data the bot received."""
        return self.query.data

    @property
    def answered(self) -> bool:
        """Whether answerCallbackQuery was called for this press."""
        return self.query.answer is not None

    # A plain timeout argument reads best in tests: `await press.answer(timeout=1)`.
    async def answer(self, timeout: float = 2.0) -> CallbackAnswer:  # noqa: ASYNC109
        """Wait for answerCallbackQuery and return what it said."""
        await _answered(self.query.answered, f"the press of {self.data!r}", timeout)
        assert self.query.answer is not None
        return self.query.answer


async def _answered(event: asyncio.Event, what: str, timeout: float) -> None:  # noqa: ASYNC109
    """Wait until the bot has answered `what`; a SandboxError naming it when it does not."""
    try:
        await asyncio.wait_for(event.wait(), timeout)
    except TimeoutError:
        raise SandboxError(f"the bot did not answer {what} within {timeout}s") from None


class Inline:
    """What a user typed after the bot's name; await `answer()` for the results offered."""

    def __init__(self, query: InlineQueryRecord) -> None:
        self.query = query

    @property
    def answered(self) -> bool:
        """Whether answerInlineQuery was accepted for this query."""
        return self.query.answer is not None

    async def answer(self, timeout: float = 2.0) -> InlineAnswer:  # noqa: ASYNC109
        """Wait for answerInlineQuery and return the results it offered."""
        await _answered(self.query.answered, f"the inline query {self.query.query!r}", timeout)
        assert self.query.answer is not None
        return self.query.answer


class Player:
    """A person in the simulated Telegram, driven by a test."""

    def __init__(self, world: WorldState, record: UserRecord) -> None:
        self.world = world
        self.record = record

    @property
    def id(self) -> int:
        """The user id (also the id of their private chat with the bot)."""
        return self.record.id

    @property
    def name(self) -> str:
        """The first name."""
        return self.record.first_name

    @property
    def dm(self) -> ChatRecord:
        """The private chat with the bot."""
        return self.world.private_chat(self.record)

    @property
    def inbox(self) -> list[MessageRecord]:
        """What the bot has sent this user privately (not deleted), oldest first."""
        return self.dm.bot_messages()

    @property
    def last_dm(self) -> MessageRecord:
        """The newest private message from the bot."""
        return self.dm.last_bot_message

    def __repr__(self) -> str:
        return f"<Player {self.name} id={self.id}>"

    async def send(
        self,
        chat: ChatRecord,
        text: str,
        *,
        reply_to: MessageRecord | None = None,
        topic: str | int | None = None,
        mentions: Mapping[str, UserRecord] | None = None,
    ) -> MessageRecord:
        """Type `text` into `chat`; commands and mentions get their entities.

        Each key of `mentions` (a part of `text`) becomes a text mention of its user, as
        when one picks a member without a @username from the client's list.
        In a group, a reply to an ephemeral message, or a command the bot registered as
        ephemeral for this member, is sent ephemerally: only the bot gets it.
        """
        self._check_can_write(chat)
        thread_id = self._thread(chat, topic, reply_to)
        if chat.is_group and (
            isinstance(reply_to, EphemeralRecord)
            or (reply_to is None and is_ephemeral_command(self.world, chat, self.record, text))
        ):
            if reply_to is not None:
                self._visible(reply_to)
            ephemeral = send_from_member(
                self.world, chat, self.record, text, reply_to=reply_to, thread_id=thread_id
            )
            await asyncio.sleep(0)
            return ephemeral
        if reply_to is not None and (reply_to.chat is not chat or reply_to.deleted):
            raise SandboxError(f"{self.name} cannot reply to {reply_to!r} from {chat.describe()}")
        if reply_to is None and thread_id is not None:
            # Telegram shows a message in a topic as a reply to the topic's first message.
            reply_to = self.world.find_message(chat, thread_id)
        message = self.world.store(
            chat,
            self.record,
            text=text,
            entities=_with_mentions(text, detect_entities(text), mentions or {}),
            thread_id=thread_id,
            reply_to=reply_to,
        )
        self.world.deliver(message)
        await asyncio.sleep(0)
        return message

    async def start_bot(self, payload: str | None = None) -> MessageRecord:
        """Press START in the private chat (or follow a deep link with `payload`).

        A blocked bot is unblocked first, which Telegram reports as a my_chat_member update.
        """
        if payload is not None and not _PAYLOAD.fullmatch(payload):
            raise SandboxError(
                f"deep-link payload {payload!r} is invalid: Telegram allows 1-64 of A-Z a-z 0-9 _ -"
            )
        chat = self.dm
        if self.record.blocked:
            self.record.blocked = False
            self.world.push_member_change(chat, self.record, "kicked", "member")
        self.record.started = True
        text = "/start" if payload is None else f"/start {payload}"
        message = self.world.store(chat, self.record, text=text, entities=detect_entities(text))
        self.world.deliver(message)
        await asyncio.sleep(0)
        return message

    async def open_link(self, url: str) -> MessageRecord:
        """Follow a t.me link to the bot, as from a button or a callback answer's url."""
        parts = urlsplit(url if "://" in url else f"https://{url}")
        bot = (self.world.bot.username or "").lower()
        if parts.netloc not in ("t.me", "telegram.me") or parts.path.strip("/").lower() != bot:
            raise SandboxError(f"{url!r} is not a link to @{self.world.bot.username}")
        start = parse_qs(parts.query).get("start")
        return await self.start_bot(start[0] if start else None)

    async def edit(self, message: MessageRecord, text: str) -> None:
        """Edit one of this user's own messages."""
        if message.sender is not self.record or message.deleted:
            raise SandboxError(f"{self.name} cannot edit {message!r}")
        self.world.edit(message, text)
        await asyncio.sleep(0)

    def block_bot(self) -> None:
        """Block the bot: its messages to this user now fail with 403."""
        if not self.record.blocked:
            self.record.blocked = True
            self.world.push_member_change(self.dm, self.record, "member", "kicked")

    async def inline(self, text: str, *, chat_type: str | None = "sender") -> Inline:
        """Type ``@bot text`` in a chat of `chat_type` (the bot need not be in it)."""
        query = self.world.new_inline_query(self.record, text, chat_type)
        await asyncio.sleep(0)
        return Inline(query)

    async def press(self, message: MessageRecord, label: str) -> Press:
        """Press the inline button labelled `label` on the message as it is now."""
        current = self._visible(message)
        button = current.button(label)
        data = button.get("callback_data")
        if data is None:
            kind = next((k for k in button if k != "text"), "nothing")
            raise SandboxError(
                f"button {label!r} has no callback_data (it is a {kind} button);"
                " use open_link() for URL buttons"
            )
        return await self.press_data(current, str(data))

    async def press_data(self, message: MessageRecord, data: str) -> Press:
        """Send a press with arbitrary callback data, as a client with a stale keyboard may."""
        current = self._visible(message)
        query = self.world.new_query(self.record, current, data)
        await asyncio.sleep(0)
        return Press(query)

    def _visible(self, message: MessageRecord) -> MessageRecord:
        chat = message.chat
        if isinstance(message, EphemeralRecord):
            if self.record not in (message.receiver, message.sender) or not message.seen(
                self.world.clock()
            ):
                raise SandboxError(f"{self.name} does not see {message!r}")
            return message
        current = self.world.find_message(chat, message.message_id)
        if current is None:
            raise SandboxError(f"{self.name} cannot press on deleted message {message!r}")
        if chat.type == "private" and chat.id != self.id:
            raise SandboxError(f"{self.name} cannot see {chat.describe()}")
        if chat.is_group and self.id not in chat.members:
            raise SandboxError(f"{self.name} is not a member of {chat.describe()}")
        return current

    def _check_can_write(self, chat: ChatRecord) -> None:
        if chat.type == "private":
            if chat.id != self.id:
                raise SandboxError(f"{self.name} cannot write in {chat.describe()}")
            if not self.record.started or self.record.blocked:
                raise SandboxError(
                    f"{self.name} must start the bot first: await {self.name.lower()}.start_bot()"
                )
        elif self.id not in chat.members:
            raise SandboxError(f"{self.name} is not a member of {chat.describe()}")

    def _thread(
        self, chat: ChatRecord, topic: str | int | None, reply_to: MessageRecord | None
    ) -> int | None:
        if topic is None:
            return reply_to.thread_id if reply_to is not None else None
        if not chat.is_forum:
            raise SandboxError(f"{chat.describe()} has no topics")
        thread_id = chat.topic(topic) if isinstance(topic, str) else topic
        if thread_id not in chat.topics:
            raise SandboxError(f"{chat.describe()} has no topic {topic!r}")
        return thread_id


def _with_mentions(text: str, entities: list[dict[str, Any]],
                   mentions: Mapping[str, UserRecord]) -> list[dict[str, Any]]:
    """`entities` and a ``text_mention`` for the first place of each part of `text`."""
    found = list(entities)
    for part, user in mentions.items():
        start = text.find(part)
        if not part or start < 0:
            raise SandboxError(f"{part!r} is not in the text {text!r}")
        found.append({"type": "text_mention", "offset": utf16_len(text[:start]),
                      "length": utf16_len(part), "user": user.to_json()})
    found.sort(key=lambda e: e["offset"])
    return found
