"""The simulated Telegram a test builds: its users (as players), groups and supergroups."""

from __future__ import annotations

from collections.abc import Iterable

from bot.sandbox.errors import SandboxError
from bot.sandbox.models import CallbackAnswer, CallbackRecord, ChatRecord, UserRecord
from bot.sandbox.players import Player
from bot.sandbox.state import DEFAULT_TOKEN, WorldState

__all__ = ["DEFAULT_TOKEN", "CallbackAnswer", "CallbackRecord", "World"]


class World(WorldState):
    """Everything the stand-in knows; tests build it up with users and groups."""

    # -- building the world -------------------------------------------------------------

    def user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
    ) -> Player:
        """Create a Telegram user; they have not started the bot yet."""
        record = UserRecord(
            id=next(self._user_ids),
            first_name=first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
        )
        self.users[record.id] = record
        return Player(self, record)

    def group(
        self,
        title: str,
        members: Iterable[Player] = (),
        admins: Iterable[Player] = (),
        *,
        bot_admin: bool = False,
    ) -> ChatRecord:
        """A basic group with the bot in it; the first admin (or member) is its creator."""
        chat = ChatRecord(id=-next(self._group_ids), type="group", title=title)
        return self._populate(chat, members, admins, bot_admin)

    def supergroup(
        self,
        title: str,
        members: Iterable[Player] = (),
        admins: Iterable[Player] = (),
        *,
        forum: bool = False,
        topics: Iterable[str] = (),
        username: str | None = None,
        bot_admin: bool = False,
    ) -> ChatRecord:
        """A supergroup with the bot in it; with `forum`, `topics` are created in order."""
        chat_id = -(1_000_000_000_000 + next(self._group_ids))
        chat = ChatRecord(
            id=chat_id, type="supergroup", title=title, username=username, is_forum=forum
        )
        self._populate(chat, members, admins, bot_admin)
        creator = next(iter(chat.members), None)
        for name in topics:
            self.create_topic(chat, name, self.users[creator] if creator else self.bot)
        return chat

    def _populate(
        self, chat: ChatRecord, members: Iterable[Player], admins: Iterable[Player], bot_admin: bool
    ) -> ChatRecord:
        admin_list = list(admins)
        for index, player in enumerate(admin_list):
            chat.members[player.id] = "creator" if index == 0 else "administrator"
        for player in members:
            chat.members.setdefault(player.id, "creator" if not chat.members else "member")
        chat.bot_status = "administrator" if bot_admin else "member"
        self.chats[chat.id] = chat
        return chat

    def kick_bot(self, chat: ChatRecord, by: Player) -> None:
        """`by` removes the bot from a group: a my_chat_member update, then 403 on sends."""
        old = chat.bot_status
        chat.bot_status = "kicked"
        self.push_member_change(chat, by.record, old, "kicked")

    def migrate(self, group: ChatRecord, by: Player) -> ChatRecord:
        """Upgrade a basic group to a supergroup, as Telegram does when a group grows.

        The old id then answers 400 with migrate_to_chat_id (PTB raises ChatMigrated).
        """
        if group.type != "group":
            raise SandboxError(f"only basic groups migrate, not {group.describe()}")
        chat_id = -(1_000_000_000_000 + next(self._group_ids))
        new = ChatRecord(id=chat_id, type="supergroup", title=group.title)
        new.members = dict(group.members)
        new.bot_status = group.bot_status
        self.chats[new.id] = new
        group.migrated_to = new.id
        for chat, field_name, value in (
            (group, "migrate_to_chat_id", new.id),
            (new, "migrate_from_chat_id", group.id),
        ):
            message = self.store(chat, by.record, text=None)
            message.service = {field_name: value}
            self.deliver(message)
        return new
