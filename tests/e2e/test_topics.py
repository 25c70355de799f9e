"""Forum topics: one table per topic, each speaking only in its own topic."""

from __future__ import annotations

from bot.live import Live
from bot.sandbox import Player
from bot.sandbox.models import ChatRecord
from tests.e2e.bed import Bed
from tests.e2e.test_robustness import settle


def table_in(bed: Bed, forum: ChatRecord, thread: int | None) -> Live:
    live = bed.games.at(forum.id, thread)
    assert live is not None, f"no table in thread {thread}"
    return live


def to_act(live: Live, players: list[Player]) -> Player:
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    uid = hand.seats[hand.to_act].player
    return next(p for p in players if p.id == uid)


async def press(bed: Bed, player: Player, forum: ChatRecord, live: Live, label: str) -> str | None:
    """Press a button of `live`'s table message; the popup text, if any."""
    message_id = bed.message_id(live)
    assert message_id is not None
    message = bed.tg.world.find_message(forum, message_id)
    assert message is not None
    answer = await (await player.press(message, label)).answer()
    await settle(bed)
    return answer.text if answer.show_alert else None


async def test_two_tables_in_two_topics_each_speak_in_their_own(bed: Bed) -> None:
    ana, boris, carol, dan = bed.players("Ana", "Boris", "Carol", "Dan")
    forum = bed.tg.world.supergroup("Svara club", members=[ana, boris, carol, dan],
                                    admins=[ana], forum=True, topics=["Red", "Blue"])
    red, blue = forum.topic("Red"), forum.topic("Blue")
    for p in (ana, boris, carol, dan):
        await p.start_bot()
    await ana.send(forum, "/newgame", topic="Red")
    await carol.send(forum, "/newgame", topic="Blue")
    await settle(bed)
    at_red, at_blue = table_in(bed, forum, red), table_in(bed, forum, blue)
    assert at_red.id != at_blue.id
    assert bed.games.at(forum.id, None) is None  # nothing in the general topic

    # Join by button in one topic, by command in the other.
    for p in (ana, boris):
        assert await press(bed, p, forum, at_red, "Join") is None
    await carol.send(forum, "/join", topic="Blue")
    await dan.send(forum, "/join", topic="Blue")
    await settle(bed)
    assert [s.player for s in at_red.table.seats] == [ana.id, boris.id]
    assert [s.player for s in at_blue.table.seats] == [carol.id, dan.id]

    # A second /newgame in a topic is refused there; the general topic may open its own.
    again = await boris.send(forum, "/newgame", topic="Red")
    await settle(bed)
    refusal = [m for m in forum.bot_messages()
               if m.reply_to is not None and m.reply_to.message_id == again.message_id]
    assert [(m.text, m.thread_id) for m in refusal] == [("A table is already open here.", red)]

    assert await press(bed, ana, forum, at_red, "Start") is None
    assert await press(bed, carol, forum, at_blue, "Start") is None
    assert at_red.hand is not None and at_blue.hand is not None
    blue_text = bed.tg.world.find_message(forum, bed.message_id(at_blue) or 0)
    assert blue_text is not None
    before = blue_text.text

    # A hand played at Red leaves Blue alone.
    red_players = [ana, boris]
    assert await press(bed, to_act(at_red, red_players), forum, at_red, "No blind") is None
    assert await press(bed, to_act(at_red, red_players), forum, at_red, "Fold") is None
    assert at_red.hand is None
    assert blue_text.text == before
    assert at_blue.hand is not None and len(at_blue.hand.actions) == 0
    # Blue's buttons pressed by Red's players are not theirs to press.
    assert await press(bed, ana, forum, at_blue, "No blind") == "You are not playing at this table."

    # Every message the bot sent to the forum went to the topic of its table.
    tables = {bed.message_id(at_red): red, bed.message_id(at_blue): blue}
    for message in forum.bot_messages():
        if message.message_id in tables:
            assert message.thread_id == tables[message.message_id]
        else:
            assert message.thread_id in (red, blue), message
    sends = [c for c in bed.tg.transcript.of("sendMessage") if c.chat_id == forum.id]
    assert sends and all(int(c.params["message_thread_id"]) in (red, blue) for c in sends)
    edits = [c for c in bed.tg.transcript.of("editMessageText") if c.chat_id == forum.id]
    assert edits and {int(c.params["message_id"]) for c in edits} <= set(tables)


async def test_an_admin_keeps_the_bot_to_chosen_topics_and_it_answers_nowhere_else(
        bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    forum = bed.tg.world.supergroup("Forum", members=[ana, boris], admins=[ana], forum=True,
                                    topics=["Cards", "Chat"])
    cards, chat = forum.topic("Cards"), forum.topic("Chat")
    await boris.send(forum, "/topics here", topic="Cards")  # not an admin: refused
    await settle(bed)
    assert "Only a chat admin" in (forum.bot_messages(cards)[-1].text or "")
    await ana.send(forum, "/topics here", topic="Cards")
    await settle(bed)
    assert "in 1 topic of this chat only" in (forum.bot_messages(cards)[-1].text or "")

    before = len(forum.bot_messages())
    await boris.send(forum, "/newgame", topic="Chat")
    await boris.send(forum, "/balance", topic="Chat")
    await ana.send(forum, "/help")  # the General topic
    await settle(bed)
    assert len(forum.bot_messages()) == before  # not a word outside the chosen topic
    assert bed.games.at(forum.id, chat) is None and bed.games.at(forum.id, None) is None

    await boris.send(forum, "/newgame", topic="Cards")  # the chosen topic works as ever
    await settle(bed)
    assert bed.games.at(forum.id, cards) is not None
    # A restart remembers the choice (the store holds it).
    await bed.restart()
    before = len(forum.bot_messages())
    await boris.send(forum, "/balance", topic="Chat")
    await settle(bed)
    assert len(forum.bot_messages()) == before

    await ana.send(forum, "/topics all", topic="Chat")  # heard anywhere, to undo it
    await settle(bed)
    assert "every topic" in (forum.bot_messages(chat)[-1].text or "")
    await boris.send(forum, "/newgame", topic="Chat")
    await settle(bed)
    assert bed.games.at(forum.id, chat) is not None
