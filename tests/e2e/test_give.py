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


async def press(bed: Bed, who: Player, message: MessageRecord, label: str) -> tuple[str, bool]:
    """Press a button of `message`; the answer's text and whether it was an alert."""
    answer = await (await who.press(message, label)).answer()
    await bed.idle()
    return answer.text or "", answer.show_alert


async def forged(bed: Bed, who: Player, message: MessageRecord, data: str) -> tuple[str, bool]:
    answer = await (await who.press_data(message, data)).answer()
    await bed.idle()
    return answer.text or "", answer.show_alert


def current(bed: Bed, message: MessageRecord) -> MessageRecord:
    found = bed.tg.world.find_message(message.chat, message.message_id)
    assert found is not None
    return found


async def test_give_by_reply_and_by_text_mention_to_players_without_usernames(
        bed: Bed) -> None:
    kim, boris = bed.players("Kim", "Boris")  # neither has a @username
    group = bed.group(kim, boris)
    steady_clock(bed)
    hello = await boris.send(group, "hello")
    await texts(bed, kim, group, "/balance")
    assert [m.text for m in await said(bed, kim, group, "/give 100", reply_to=hello)] == [
        "Boris gets 100 chips from Kim."]
    assert await texts(bed, kim, group, "/give Boris 50", {"Boris": boris.record}) == [
        "Boris gets 50 chips from Kim."]
    assert await texts(bed, kim, group, "/give 25 Boris", {"Boris": boris.record}) == [
        "Boris gets 25 chips from Kim."]
    # Named without an amount: the amounts, as buttons.
    (menu,) = await said(bed, kim, group, "/give Boris", mentions={"Boris": boris.record})
    assert menu.text == "🎁 Kim: how many chips for Boris?"
    assert menu.labels == ["100", "200", "500"]  # Kim has 825 chips left
    assert await press(bed, kim, menu, "200") == ("Boris gets 200 chips from Kim.", False)
    assert (current(bed, menu).text, current(bed, menu).labels) == (
        "Boris gets 200 chips from Kim.", [])
    (menu,) = await said(bed, kim, group, "/give", reply_to=hello)
    assert menu.text == "🎁 Kim: how many chips for Boris?"
    assert await bed.store.users.balance(kim.id) == 1000 - 375
    assert await bed.store.users.balance(boris.id) == 1000 + 375
    await bed.audit()


async def test_give_alone_offers_the_chats_players_by_buttons_for_the_giver_alone(
        bed: Bed) -> None:
    world = bed.tg.world
    kim, ana, other_ana, boris, vera = people = [
        world.user(n) for n in ("Kim", "Ana", "Ana", "Boris", "Vera")]
    group = world.group("Svara night", members=people, admins=[kim])
    steady_clock(bed)
    await bed.open_table(group, ana, other_ana)  # the two Anas play a hand and go
    assert await bed.press(ana, group, "Start") is None
    while (hand := bed.live(group).hand) is not None:
        assert hand.to_act is not None
        who = ana if hand.seats[hand.to_act].player == ana.id else other_ana
        labels = (await bed.table_message(group)).labels
        await bed.press(who, group, "No blind" if "No blind" in labels else "Fold")
    await texts(bed, ana, group, "/endgame")
    await bed.open_table(group, boris, vera)  # Boris and Vera sit at the next table
    await texts(bed, kim, group, "/balance")
    before = await bed.store.audit()

    (menu,) = await said(bed, kim, group, "/give")
    assert menu.text == "🎁 Kim: give chips to whom?"
    first, second = sorted((ana.id, other_ana.id))
    assert menu.labels == ["Boris", "Vera", f"Ana ({first % 10_000:04d})",
                           f"Ana ({second % 10_000:04d})"]
    data = [b["callback_data"] for row in menu.reply_markup["inline_keyboard"]  # type: ignore[index]
            for b in row]
    assert all(len(d.encode()) <= 64 for d in data), data
    # Only Kim may press Kim's buttons; a made-up button is refused.
    assert await press(bed, boris, menu, "Vera") == (
        "These buttons are Kim's: send /give to give chips of your own.", True)
    name, _, sign = data[1].rpartition(":")
    assert await forged(bed, kim, menu, data[1].replace(":", ":1", 1)) == (
        "This button has expired.", True)
    assert await forged(bed, kim, menu, f"{name}:{sign[::-1]}") == (
        "This button has expired.", True)
    assert await forged(bed, kim, menu, "g1:nonsense") == ("This button has expired.", True)
    after = await bed.store.audit()
    assert (after.balances, after.stacks) == (before.balances, before.stacks)

    assert await press(bed, kim, menu, "Vera") == ("", False)
    menu = current(bed, menu)
    assert menu.text == "🎁 Kim: how many chips for Vera?"
    assert menu.labels == ["100", "200", "500", "1,000"]
    amounts = [b["callback_data"] for row in menu.reply_markup["inline_keyboard"]  # type: ignore[index]
               for b in row]
    assert await press(bed, kim, menu, "200") == ("Vera gets 200 chips from Kim.", False)
    assert (current(bed, menu).text, current(bed, menu).labels) == (
        "Vera gets 200 chips from Kim.", [])
    # The menu gave once: its old buttons, pressed again, move nothing.
    for stale in (amounts[0], amounts[1], data[0]):
        assert await forged(bed, kim, menu, stale) == ("This button has expired.", True)
    assert await bed.store.users.balance(kim.id) == 800
    assert await bed.store.users.balance(vera.id) == 200  # she sits with her 1000

    # A reply to the bot's own message (the table's) names nobody: the menu asks.
    (menu,) = await said(bed, kim, group, "/give 300", reply_to=await bed.table_message(group))
    assert menu.text == "🎁 Kim: give 300 chips to whom?"
    assert await press(bed, kim, menu, "Boris") == ("Boris gets 300 chips from Kim.", False)
    assert await bed.store.users.balance(kim.id) == 500
    assert await bed.store.users.balance(boris.id) == 300
    # A namesake is named as his button named him, till the chips are given.
    (menu,) = await said(bed, kim, group, "/give")
    ana_first = f"Ana ({first % 10_000:04d})"
    had = await bed.store.users.balance(first)
    assert await press(bed, kim, menu, ana_first) == ("", False)
    assert current(bed, menu).text == f"🎁 Kim: how many chips for {ana_first}?"
    assert await press(bed, kim, menu, "100") == (f"{ana_first} gets 100 chips from Kim.",
                                                  False)
    assert await bed.store.users.balance(first) == had + 100
    assert await bed.store.users.balance(kim.id) == 400
    await bed.audit()


async def test_a_menu_of_the_houses_chips_gives_once_within_the_allowance(bed: Bed) -> None:
    kim, boris = bed.players("Kim", "Boris")
    group = bed.group(kim, boris, admins=(kim,))
    steady_clock(bed)
    await texts(bed, kim, group, "/settings allowance 500")
    await bed.open_table(group, boris, kim)
    (menu,) = await said(bed, kim, group, "/give 100")
    assert menu.labels == ["Boris"]
    stale = menu.reply_markup["inline_keyboard"][0][0]["callback_data"]  # type: ignore[index]
    assert await press(bed, kim, menu, "Boris") == (
        "Boris gets 100 chips from the house; the chat may give 400 chips more today.", False)
    assert await forged(bed, kim, menu, stale) == ("This button has expired.", True)
    assert await bed.store.gifts.left_today(group.id, 500) == 400
    assert await bed.store.users.balance(boris.id) == 100
    await bed.audit()


async def test_give_in_a_topic_is_no_reply_to_the_topics_first_message(bed: Bed) -> None:
    kim, boris = bed.players("Kim", "Boris")
    group = bed.tg.world.supergroup("Svara club", members=[kim, boris], admins=[kim],
                                    forum=True, topics=["Red"])  # Kim opened the topic
    steady_clock(bed)
    await texts(bed, kim, group, "/balance")
    assert [m.text for m in await said(bed, boris, group, "/give 40", topic="Red")] == [USAGE]
    assert await bed.store.users.balance(kim.id) == 1000
    assert await bed.store.users.balance(boris.id) == 1000
    await bed.audit()
