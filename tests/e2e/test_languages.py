"""Who reads which language: the group its chat's, each player his own in private and
in popups; /language switches a group, or a user for himself.

Expected words are written here as players of each language read them, not taken
from the catalogues.
"""

from __future__ import annotations

from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed

NOT_YOUR_TURN = {
    "Ivan": "Не е твой ред.",
    "Emma": "Not your turn.",
    "Ravi": "तुम्हारी बारी नहीं है।",
}
ONLY_CREATOR = {
    "Emma": "Only the table's creator or a chat admin can do that.",
    "Ravi": "यह सिर्फ़ टेबल खोलने वाला या चैट का एडमिन कर सकता है।",
}


def _trio(bed: Bed) -> tuple[list[Player], ChatRecord]:
    world = bed.tg.world
    people = [world.user("Ivan", language_code="bg"), world.user("Emma", language_code="en-GB"),
              world.user("Ravi", language_code="hi")]
    return people, bed.group(*people, admins=(people[0],))


def _lines(player: Player) -> list[str]:
    """The private card message, each line up to its colon."""
    return [line.split(":")[0] for line in (player.last_dm.text or "").splitlines()]


async def _act(bed: Bed, group: ChatRecord, players: list[Player], label: str,
               refusals: dict[str, str] = NOT_YOUR_TURN) -> Player:
    """Press `label` as each player in turn until the one whose turn it is does; everyone
    pressing out of turn is told so in his own language."""
    for player in players:
        text = await bed.press(player, group, label)
        if text is None:
            return player
        assert text == refusals[player.name], (player.name, text)
    raise AssertionError(f"nobody could press {label}")


async def _opened(bed: Bed, group: ChatRecord, players: list[Player]) -> MessageRecord:
    ivan = players[0]
    await ivan.send(group, "/newgame")
    table = await bed.table_message(group)
    assert table.buttons == [["Сядам", "Ставам", "Старт"]], table.buttons
    for player in players:
        await player.start_bot()
        await bed.idle()
        answer = await (await player.press(table, "Сядам")).answer()
        assert not answer.show_alert, answer.text
    await bed.idle()
    return await bed.table_message(group)


async def test_a_bulgarian_group_with_an_english_and_a_hindi_player(bed: Bed) -> None:
    players, group = _trio(bed)
    ivan, emma, ravi = players
    await _opened(bed, group, players)

    # Start is the creator's: the others are refused, each in his own language.
    for player in (emma, ravi):
        assert await bed.press(player, group, "Старт") == ONLY_CREATOR[player.name]
    assert await bed.press(ivan, group, "Старт") is None

    # Nobody plays blind, and the cards are dealt.
    await _act(bed, group, players, "Без тъмно")
    # Private cards: each in his reader's language.
    assert _lines(ivan)[:2] == ["🃏 Svara night · ръка 1", "Ръка 1"], ivan.last_dm.text
    assert _lines(emma)[:2] == ["🃏 Svara night · hand 1", "Hand 1"], emma.last_dm.text
    assert _lines(ravi)[:2] == ["🃏 Svara night · बाज़ी 1", "बाज़ी 1"], ravi.last_dm.text
    assert _lines(ivan)[2] == "Точки" and _lines(emma)[2] == "Points"

    # The "My cards" popup speaks to the one who pressed it.
    table = await bed.table_message(group)
    mine = await (await emma.press(table, "Моите карти")).answer()
    assert (mine.text or "").startswith("Your cards: "), mine.text
    mine = await (await ivan.press(table, "Моите карти")).answer()
    assert (mine.text or "").startswith("Твоите карти: "), mine.text

    # Two fold; the hand is over, told to the group in Bulgarian.
    await _act(bed, group, players, "Пас")
    await _act(bed, group, players, "Пас")
    screen = (await bed.table_message(group)).text or ""
    assert screen.startswith("🃏 Свара · ръка 1 свърши"), screen
    await bed.audit()

    # An admin switches the group to Zulu; the very next screen is Zulu.
    await ivan.send(group, "/language")
    await bed.idle()
    menu = group.last_bot_message
    labels = [label for row in menu.buttons for label in row]
    assert labels == ["English", "✓ Български", "Čeština", "Indonesia", "हिन्दी", "isiZulu",
                      "Русский"], labels
    refused = await (await emma.press(menu, "isiZulu")).answer()
    assert refused.text == "Only the group's admins can change its language."
    assert (await bed.table_message(group)).text == screen  # nothing changed
    await (await ivan.press(menu, "isiZulu")).answer()
    await bed.idle()
    screen = (await bed.table_message(group)).text or ""
    assert screen.startswith("🃏 Svara · umzuliswano 1 uphelile"), screen
    assert "✓ isiZulu" in [label for row in group.last_bot_message.buttons for label in row]


async def test_a_user_chooses_his_language_in_private(bed: Bed) -> None:
    players, group = _trio(bed)
    ivan, emma, ravi = players
    await _opened(bed, group, players)
    await emma.send(emma.dm, "/language bg")
    await bed.idle()
    assert emma.last_dm.text == "Запазено. Твоят език: Български."
    # Her popups are Bulgarian now, in an English-speaking Telegram.
    assert await bed.press(emma, group, "Старт") == \
        "Това може само създателят на масата или админ на чата."
    await bed.press(ivan, group, "Старт")
    await _act(bed, group, players, "Без тъмно", {**NOT_YOUR_TURN, "Emma": NOT_YOUR_TURN["Ivan"]})
    # Her cards come in Bulgarian now; the group and the others are unchanged.
    assert _lines(emma)[:2] == ["🃏 Svara night · ръка 1", "Ръка 1"], emma.last_dm.text
    assert _lines(ravi)[:2] == ["🃏 Svara night · बाज़ी 1", "बाज़ी 1"], ravi.last_dm.text

    # Back to what her Telegram says, with the menu's last button.
    await emma.send(emma.dm, "/language")
    await bed.idle()
    menu = emma.last_dm
    assert "✓ Български" in [label for row in menu.buttons for label in row]
    assert menu.buttons[-1] == ["Като в Telegram"]  # "As in Telegram", in her Bulgarian
    back = await (await emma.press(menu, menu.buttons[-1][0])).answer()
    assert back.text == "Saved. Your language: English."
    await bed.idle()
    assert (emma.last_dm.text or "").startswith("Your language: English."), emma.last_dm.text
    assert emma.last_dm.buttons[-1] == ["✓ As in Telegram"]
    table = await bed.table_message(group)
    mine = await (await emma.press(table, "Моите карти")).answer()
    assert (mine.text or "").startswith("Your cards: "), mine.text


async def test_language_refusals_change_nothing(bed: Bed) -> None:
    players, group = _trio(bed)
    ivan, emma, _ = players
    screen = (await _opened(bed, group, players)).text
    for text in ("/language xx", "/language bg cs", "/language auto"):
        await ivan.send(group, text)
        await bed.idle()
        assert group.last_bot_message.text == (
            "Избери с бутоните или напиши /language и код: en, bg, cs, id, hi, zu, ru."), text
    await emma.send(group, "/language zu")
    await bed.idle()
    assert group.last_bot_message.text == "Само админите на групата могат да сменят езика ѝ."
    assert (await bed.table_message(group)).text == screen
    assert (await bed.store.chats.get(group.id)).language == "bg"
    # A forged press names no language: the popup says the button is stale.
    await ivan.send(group, "/language")
    await bed.idle()
    forged = await (await ivan.press_data(group.last_bot_message, "l1:xx")).answer()
    assert forged.show_alert
    assert (await bed.table_message(group)).text == screen


async def test_the_command_menu_is_registered_in_every_language(bed: Bed) -> None:
    menus = {key: {c["command"]: c["description"] for c in commands}
             for key, commands in bed.tg.world.commands.items()}
    assert sorted(menus) == sorted(
        f'[{{"type": "default"}}, "{code}"]' for code in ("", "bg", "cs", "id", "hi", "zu", "ru"))
    english, bulgarian = menus['[{"type": "default"}, ""]'], menus['[{"type": "default"}, "bg"]']
    assert english["newgame"] == "Open a Svara table in this chat"
    assert bulgarian["newgame"] == "Отвори маса за Свара в този чат"
    for menu in menus.values():
        assert list(menu) == list(english)  # the same commands, in the same order
        assert all(0 < len(text) <= 256 for text in menu.values())
