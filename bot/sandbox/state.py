"""The simulated Telegram's state: accounts, chats, messages, queries and the bot's updates.

`WorldState` holds them and the changes users and the API make to them; `World` (in
world.py) adds the people a test drives and the groups it builds from them.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from bot.sandbox.activity import Activity
from bot.sandbox.ephemeral import EphemeralBook
from bot.sandbox.errors import SandboxError
from bot.sandbox.models import (
    JSON,
    CallbackRecord,
    ChatRecord,
    FileRecord,
    InlineQueryRecord,
    MessageRecord,
    PreparedRecord,
    UserRecord,
)
from bot.sandbox.text import command_target, detect_entities, entity_text
from bot.sandbox.updates import UpdateQueue

DEFAULT_TOKEN = "123456789:SANDBOX-token_for-tests"


class WorldState(Activity):
    """Everything the stand-in knows of its Telegram, without the players who drive it."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "svara_test_bot",
        bot_name: str = "Svara",
        privacy_mode: bool = True,
        inline_mode: bool = True,
        callback_timeout: float = 15.0,
        strict_html_entities: bool = True,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.token = token
        bot_id = int(token.split(":", 1)[0])
        self.bot = UserRecord(id=bot_id, first_name=bot_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.inline_mode = inline_mode  # /setinline at BotFather
        self.callback_timeout = callback_timeout
        self.strict_html_entities = strict_html_entities
        self.clock = clock
        self.wall = wall
        self.users: dict[int, UserRecord] = {}
        self.chats: dict[int, ChatRecord] = {}
        self.files: dict[str, FileRecord] = {}
        self.queries: dict[str, CallbackRecord] = {}
        self.inline_queries: dict[str, InlineQueryRecord] = {}
        self.prepared: dict[str, PreparedRecord] = {}  # savePreparedInlineMessage's, by id
        self.commands: dict[str, list[JSON]] = {}  # scope and language -> commands
        self.ephemeral = EphemeralBook()  # messages in a group that one member sees
        Activity.__init__(self, pending=lambda: self.updates.pending)
        self.updates = UpdateQueue(on_change=self.touch)
        self._user_ids = itertools.count(7_000_001)
        self._group_ids = itertools.count(4_100_000_001)
        self._query_ids = itertools.count(880_000_000_001)

    # -- chats --------------------------------------------------------------------------

    def create_topic(self, chat: ChatRecord, name: str, creator: UserRecord) -> int:
        """Open a forum topic; its thread id is the id of its service message."""
        if not chat.is_forum:
            raise SandboxError(f"{chat.describe()} is not a forum")
        message = self.store(chat, creator, text=None)
        message.service = {"forum_topic_created": {"name": name, "icon_color": 7322096}}
        message.thread_id = message.message_id
        chat.topics[message.message_id] = name
        return message.message_id

    def private_chat(self, user: UserRecord) -> ChatRecord:
        """The private chat between `user` and the bot (its id is the user's id)."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = ChatRecord(id=user.id, type="private", user=user)
            self.chats[user.id] = chat
        return chat

    # -- lookups used by the API --------------------------------------------------------

    def find_chat(self, chat_id: int | str | None) -> ChatRecord | None:
        """The chat with this id or @username, creating the private chat of a known user."""
        if isinstance(chat_id, str):
            if chat_id.startswith("@"):
                name = chat_id[1:].lower()
                for chat in self.chats.values():
                    if chat.username and chat.username.lower() == name:
                        return chat
                return None
            try:
                chat_id = int(chat_id)
            except ValueError:
                return None
        if chat_id is None:
            return None
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id in self.users:
            return self.private_chat(self.users[chat_id])
        return None

    def find_message(self, chat: ChatRecord, message_id: int) -> MessageRecord | None:
        """A message that exists and is not deleted."""
        for message in chat.messages:
            if message.message_id == message_id and not message.deleted:
                return message
        return None

    # -- changing the world -------------------------------------------------------------

    def store(
        self,
        chat: ChatRecord,
        sender: UserRecord,
        *,
        text: str | None,
        entities: list[JSON] | None = None,
        reply_markup: JSON | None = None,
        thread_id: int | None = None,
        reply_to: MessageRecord | None = None,
    ) -> MessageRecord:
        """Append a message to a chat and give it the next id."""
        message = MessageRecord(
            chat=chat,
            message_id=chat.next_message_id,
            sender=sender,
            date=int(self.wall()),
            text=text,
            entities=list(entities or []),
            reply_markup=reply_markup,
            thread_id=thread_id,
            reply_to=reply_to,
        )
        chat.next_message_id += 1
        chat.messages.append(message)
        self.touch()
        return message

    def deliver(self, message: MessageRecord) -> bool:
        """Queue a user's message as an update if the bot may see it (privacy mode)."""
        if not self.bot_sees(message):
            return False
        return self.updates.push("message", message.to_json()) is not None

    def bot_sees(self, message: MessageRecord) -> bool:
        """Whether a group message reaches a bot in privacy mode.

        Such a bot sees commands (not those addressed to another bot), mentions of it,
        and replies to its own messages; an admin bot or one without privacy sees all.
        """
        chat = message.chat
        if message.service:
            return chat.bot_status not in ("left", "kicked")
        if not chat.is_group or not self.privacy_mode or chat.bot_status == "administrator":
            return True
        if chat.bot_status in ("left", "kicked"):
            return False
        text = message.text or ""
        me = (self.bot.username or "").lower()
        for entity in message.entities:
            if entity["type"] == "bot_command":
                _, target = command_target(text, entity)
                if target is None or target.lower() == me:
                    return True
            if entity["type"] == "mention" and entity_text(text, entity)[1:].lower() == me:
                return True
        return message.reply_to is not None and message.reply_to.sender.is_bot

    def edit(self, message: MessageRecord, text: str) -> None:
        """A user edits their own message; the bot gets edited_message if it may see it."""
        message.history.append(message.text)
        message.text = text
        message.entities = detect_entities(text)
        message.edit_date = int(self.wall())
        self.touch()
        if self.bot_sees(message):
            self.updates.push("edited_message", message.to_json())

    def new_query(self, user: UserRecord, message: MessageRecord, data: str) -> CallbackRecord:
        """Register a button press and queue its callback_query update."""
        query = CallbackRecord(
            id=str(next(self._query_ids)),
            user=user,
            message=message,
            data=data,
            created=self.clock(),
        )
        self.queries[query.id] = query
        payload: JSON = {
            "id": query.id,
            "from": user.to_json(),
            "message": message.to_json(),
            "chat_instance": str(abs(message.chat.id) * 7 + 3),
            "data": data,
        }
        self.updates.push("callback_query", payload)
        return query

    def new_inline_query(
        self, user: UserRecord, query: str, chat_type: str | None = "sender"
    ) -> InlineQueryRecord:
        """Register what `user` typed after the bot's name and queue its inline_query update.

        Telegram sends one per pause in typing; it answers within the same window as a
        button press (`callback_timeout`), and only to a bot with inline mode switched on.
        """
        if not self.inline_mode:
            raise SandboxError("the bot has no inline mode: switch it on with /setinline")
        if len(query) > 256:
            raise SandboxError("an inline query is at most 256 characters")
        record = InlineQueryRecord(
            id=str(next(self._query_ids)),
            user=user,
            query=query,
            chat_type=chat_type,
            created=self.clock(),
        )
        self.inline_queries[record.id] = record
        payload: JSON = {"id": record.id, "from": user.to_json(), "query": query, "offset": ""}
        if chat_type is not None:
            payload["chat_type"] = chat_type
        self.updates.push("inline_query", payload)
        return record

    def push_member_change(self, chat: ChatRecord, user: UserRecord, old: str, new: str) -> None:
        """Queue a my_chat_member update (the bot's status changed in `chat`)."""
        payload: JSON = {
            "chat": chat.to_json(),
            "from": user.to_json(),
            "date": int(self.wall()),
            "old_chat_member": {"status": old, "user": self.bot.to_json()},
            "new_chat_member": {"status": new, "user": self.bot.to_json()},
        }
        if new == "kicked":
            payload["new_chat_member"]["until_date"] = 0
        if old == "kicked":
            payload["old_chat_member"]["until_date"] = 0
        self.updates.push("my_chat_member", payload)

    def unanswered_queries(self) -> list[CallbackRecord]:
        """Presses the bot never answered."""
        return [q for q in self.queries.values() if q.answer is None]
