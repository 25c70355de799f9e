"""/give without usernames: as a reply, by a text mention, and by buttons naming the
players of the chat; never to a bot, never twice from one menu, only by the giver."""

from __future__ import annotations

from typing import Any

from bot.sandbox.models import ChatRecord, MessageRecord, UserRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.test_history import steady_clock

USAGE = ("Give chips like this: /give @name 100, or reply to the player's message with "
         "/give 100.")


async def said(bed: Bed, player: Player, chat: ChatRecord, text: str,
               **how: Any) -> list[MessageRecord]:
    """The bot's new messages in `chat` after `player` typed `text` (`how`: a reply, mentions)."""
    await bed.idle()
    before = len(chat.bot_messages())
    await player.send(chat, text, **how)
    await bed.idle()
    return chat.bot_messages()[before:]


async def texts(bed: Bed, player: Player, chat: ChatRecord, text: str,
                mentions: dict[str, UserRecord] | None = None) -> list[str]:
    return [m.text or "" for m in await said(bed, player, chat, text, mentions=mentions)]


async def test_f31_give_by_text_mention_never_pays_a_bot(bed: Bed) -> None:
    kim, ana = bed.players("Kim", "Ana")
    group = bed.group(kim, ana)
    steady_clock(bed)
    await texts(bed, kim, group, "/balance")  # Kim is known, with his 1000 chips
    bot = bed.tg.world.bot
    assert await texts(bed, kim, group, "/give Svara 100", {"Svara": bot}) == [USAGE]
    assert await texts(bed, kim, group, "/give 100 Svara", {"Svara": bot}) == [USAGE]
    assert await bed.store.users.find(bot.id) is None
    assert await bed.store.users.balance(kim.id) == 1000
    await bed.audit()
