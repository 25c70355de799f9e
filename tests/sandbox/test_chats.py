"""Chat life events: the bot kicked, a group upgraded to a supergroup, edited messages."""

from __future__ import annotations

import pytest
from telegram.error import ChatMigrated, Forbidden

from bot.sandbox.harness import Sandbox
from tests.sandbox.helpers import exactly


async def test_kicked_bot_gets_my_chat_member_then_403(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.supergroup("Club", admins=[alice])
    tg.world.kick_bot(group, by=alice)
    async with tg.bot() as bot:
        (update,) = await bot.get_updates()
        assert update.my_chat_member is not None
        assert update.my_chat_member.new_chat_member.status == "kicked"
        with pytest.raises(
            Forbidden, match=exactly("Forbidden: bot was kicked from the supergroup chat")
        ):
            await bot.send_message(group.id, "hello?")


async def test_group_upgrade_answers_chat_migrated(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", admins=[alice])
    supergroup = tg.world.migrate(group, by=alice)
    async with tg.bot() as bot:
        updates = await bot.get_updates()
        services = [
            (u.message.migrate_to_chat_id, u.message.migrate_from_chat_id)
            for u in updates
            if u.message is not None
        ]
        assert services == [(supergroup.id, None), (None, group.id)]
        with pytest.raises(ChatMigrated) as raised:
            await bot.send_message(group.id, "old id")
        assert raised.value.new_chat_id == supergroup.id
        await bot.send_message(supergroup.id, "new id")
    assert supergroup.last_bot_message.text == "new id"


async def test_users_edit_their_messages(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice])
    said = await alice.send(group, "/bet 10")
    await alice.edit(said, "/bet 20")
    async with tg.bot() as bot:
        updates = await bot.get_updates()
    assert updates[0].message is not None and updates[0].message.text == "/bet 10"
    edited = updates[1].edited_message
    assert edited is not None and edited.text == "/bet 20" and edited.edit_date is not None
    assert said.history == ["/bet 10"]
