"""Simulated users: privacy mode, commands to bots, deep links, blocking, topics."""

from __future__ import annotations

import pytest
from telegram import Update

from bot.sandbox.errors import SandboxError
from bot.sandbox.harness import Sandbox


async def delivered_texts(tg: Sandbox) -> list[str]:
    async with tg.bot() as bot:
        updates = await bot.get_updates()
        if updates:
            await bot.get_updates(offset=updates[-1].update_id + 1)
    return [u.message.text or "" for u in updates if u.message]


async def test_privacy_mode_in_groups(tg: Sandbox) -> None:
    alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
    group = tg.world.group("Friends", members=[alice, bob])
    await alice.send(group, "just chatting")
    await alice.send(group, "/newgame")
    await alice.send(group, "/newgame@svara_test_bot")
    await alice.send(group, "/newgame@other_bot")
    await alice.send(group, "hey @svara_test_bot deal")
    async with tg.bot() as bot:
        ours = await bot.send_message(group.id, "table")
    await bob.send(group, "a reply to the bot", reply_to=group.last_bot_message)
    await bob.send(group, "a reply to Alice", reply_to=group.messages[0])
    assert ours.message_id == group.last_bot_message.message_id
    assert await delivered_texts(tg) == [
        "/newgame",
        "/newgame@svara_test_bot",
        "hey @svara_test_bot deal",
        "a reply to the bot",
    ]
    assert len(group.messages) == 8  # undelivered messages still exist in the chat


async def test_admin_bot_sees_everything(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.supergroup("Club", members=[alice], bot_admin=True)
    await alice.send(group, "just chatting")
    assert await delivered_texts(tg) == ["just chatting"]


async def test_command_entities_match_ptb(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    group = tg.world.group("Friends", members=[alice])
    await alice.send(group, "/bet@svara_test_bot 50")
    async with tg.bot() as bot:
        (update,) = await bot.get_updates()
    assert isinstance(update, Update) and update.message is not None
    (entity,) = update.message.entities
    assert (entity.type, entity.offset, entity.length) == ("bot_command", 0, 19)
    assert update.message.chat.type == "group"
    assert update.message.from_user is not None
    assert update.message.from_user.first_name == "Alice"


async def test_deep_link_start(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    with pytest.raises(SandboxError, match="must start the bot first"):
        await alice.send(alice.dm, "hello?")
    await alice.start_bot("join_t42-h7")
    await alice.open_link("https://t.me/svara_test_bot?start=seat_3")
    await alice.open_link("t.me/svara_test_bot")
    with pytest.raises(SandboxError, match="payload"):
        await alice.start_bot("not valid!")
    with pytest.raises(SandboxError, match="payload"):
        await alice.start_bot("x" * 65)
    assert await delivered_texts(tg) == ["/start join_t42-h7", "/start seat_3", "/start"]


async def test_block_and_restart_send_my_chat_member(tg: Sandbox) -> None:
    carol = tg.world.user("Carol")
    await carol.start_bot()
    carol.block_bot()
    await carol.start_bot()
    async with tg.bot() as bot:
        updates = await bot.get_updates()
    kinds: list[str | None] = []
    for update in updates:
        if update.my_chat_member is not None:
            kinds.append(update.my_chat_member.new_chat_member.status)
        elif update.message is not None:
            kinds.append(update.message.text)
    assert kinds == ["/start", "kicked", "member", "/start"]


async def test_topics_carry_thread_ids(tg: Sandbox) -> None:
    alice = tg.world.user("Alice")
    club = tg.world.supergroup("Club", admins=[alice], forum=True, topics=["Table 1", "Table 2"])
    await alice.send(club, "/newgame", topic="Table 2")
    async with tg.bot() as bot:
        (update,) = await bot.get_updates()
        assert update.message is not None
        assert update.message.message_thread_id == club.topic("Table 2")
        assert update.message.is_topic_message
        await bot.send_message(club.id, "dealt", message_thread_id=club.topic("Table 2"))
    assert [m.text for m in club.bot_messages(thread_id=club.topic("Table 2"))] == ["dealt"]


async def test_users_cannot_act_where_they_are_not(tg: Sandbox) -> None:
    alice, mallory = tg.world.user("Alice"), tg.world.user("Mallory")
    group = tg.world.group("Friends", members=[alice])
    with pytest.raises(SandboxError, match="not a member"):
        await mallory.send(group, "/newgame")
    await alice.start_bot()
    with pytest.raises(SandboxError, match="cannot write"):
        await mallory.send(alice.dm, "hi")
