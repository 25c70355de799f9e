"""Holes found by attacking the bot, second round: odd digits, oversized echoes, practice
play in the statistics, namesakes and look-alikes. Each test is named after its hole."""

from __future__ import annotations

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from bot.store.practice import computer_of
from bot.store.sql import Conn
from tests.e2e.bed import Bed
from tests.e2e.test_history import play_showdown, steady_clock
from tests.e2e.test_practice import play_out, practising

HAND_USAGE = "Use /hand NUMBER, e.g. /hand 12 (numbers are in /history)."


async def answers(bed: Bed, player: Player, chat: ChatRecord, text: str) -> list[str]:
    """Every new message of the bot that `player` sees in `chat` after he typed `text`."""
    await bed.idle()
    before = len(bed.seen(chat, player))
    await player.send(chat, text)
    await bed.idle()
    return [m.text or m.caption or "" for m in bed.seen(chat, player)[before:]]


# --------------------------------------------------------------------- D. clean refusals


async def test_d_hand_with_a_digit_int_refuses_gets_the_usage(bed: Bed) -> None:
    ana = bed.players("Ana")[0]
    group = bed.group(ana)
    steady_clock(bed)
    for odd in ("²", "#³", "١٢", "1²", "#", "##1"):
        assert await answers(bed, ana, group, f"/hand {odd}") == [HAND_USAGE], odd


async def test_d_oversized_unknown_setting_is_echoed_cut(bed: Bed) -> None:
    admin = bed.players("Admin")[0]
    group = bed.group(admin)
    steady_clock(bed)
    name = "<" * 4050
    answer = await answers(bed, admin, group, f"/settings {name} 1")
    assert len(answer) == 1
    assert answer[0].startswith("Unknown setting " + "<" * 31 + "…. Known: ante, ")
    # A number past a float's range is refused by its bound, cut too.
    value = "9" * 4000
    answer = await answers(bed, admin, group, f"/settings ante {value}")
    assert answer == ["ante " + "9" * 31 + "… is not accepted: the most is 1000000000."]


# --------------------------------------------------------------------- A. practice is not play


async def test_a_practice_hands_and_computers_stay_out_of_top_and_stats(bed: Bed) -> None:
    ana = await practising(bed, "/practice 2")
    hands = await play_out(bed, ana, "All-in", "Call", "No blind", "Join svara")
    assert hands >= 1
    steady_clock(bed)
    assert await answers(bed, ana, ana.dm, "/top all") == ["No hand has been played here yet."]
    assert await answers(bed, ana, ana.dm, "/stats") == ["Ana has not played a hand here yet."]

    # Then a real hand in a group: it counts, and the practice still does not.
    boris = bed.players("Boris")[0]
    group = bed.group(ana, boris)
    await bed.open_table(group, ana, boris)
    await play_showdown(bed, group, [ana, boris], folder=-1)
    (top,) = await answers(bed, boris, group, "/top all")
    lines = top.splitlines()
    assert [line.split(": ")[0].split(". ")[1] for line in lines[1:]] in (
        ["Ana", "Boris"], ["Boris", "Ana"]), lines
    assert "1 hand," in lines[1] and "1 hand," in lines[2], lines
    stats = await answers(bed, ana, group, "/stats")
    assert "Hands played 1," in stats[0].splitlines()[1], stats


async def test_a_rows_an_older_version_wrote_for_practice_are_left_out(bed: Bed) -> None:
    ana = await practising(bed, "/practice 2")
    await play_out(bed, ana, "All-in", "Call", "No blind", "Join svara")
    # What a version before this one wrote when it settled a practice hand.
    (table_id,) = (await bed.store.db.fetchall(
        "SELECT id FROM tables WHERE practice = 1"))[0]
    hands = await bed.store.db.fetchall(
        "SELECT id FROM hands WHERE table_id = ? AND status = 'settled'", (table_id,))
    seats = [ana.id, computer_of(ana.id, 1), computer_of(ana.id, 2)]

    async def legacy(conn: Conn) -> None:
        await conn.executemany(
            "INSERT INTO hand_players (hand_id, user_id, chat_id, net, won, svara, svara_won,"
            " points, pot, at) VALUES (?, ?, ?, ?, 1, 0, 0, 30, 60, 1000)",
            [(int(h[0]), u, ana.dm.id, 40 if u < 0 else -80) for h in hands for u in seats])

    await bed.store.db.write(legacy)
    steady_clock(bed)
    assert await answers(bed, ana, ana.dm, "/top all") == ["No hand has been played here yet."]
    assert await answers(bed, ana, ana.dm, "/stats") == ["Ana has not played a hand here yet."]
    history = bed.store.history
    assert await history.chips_over_time(ana.id) == []
    assert await history.chat_nets(ana.dm.id, 0) == []


# --------------------------------------------------------------------- F. /nextgame is listed

NEXTGAME = {
    "": "A private message when the next table opens here (/nextgame off cancels)",
    "bg": "Лично съобщение, когато тук се отвори следващата маса (/nextgame off отменя)",
    "cs": "Soukromá zpráva, až se tu otevře další stůl (/nextgame off to zruší)",
    "id": "Pesan pribadi saat meja berikutnya dibuka di sini (/nextgame off membatalkan)",
    "hi": "यहाँ अगली टेबल खुलते ही प्राइवेट में संदेश (/nextgame off से रद्द)",
    "zu": "Umlayezo ngasese uma itafula elilandelayo livulwa lapha (/nextgame off "
          "uyakhansela)",
}


async def test_f_nextgame_is_in_the_menu_and_help_of_every_language(bed: Bed) -> None:
    menus = {key: {c["command"]: c["description"] for c in commands}
             for key, commands in bed.tg.world.commands.items()}
    for code, text in NEXTGAME.items():
        assert menus[f'[{{"type": "default"}}, "{code}"]']["nextgame"] == text, code
    steady_clock(bed)
    for code, text in NEXTGAME.items():
        reader = bed.tg.world.user(f"Reader {code}", language_code=code or "en")
        await reader.start_bot()
        (help_text,) = await answers(bed, reader, reader.dm, "/help")
        assert f"/nextgame: {text}" in help_text.splitlines(), (code, help_text)


# --------------------------------------------------------------------- B. namesakes, look-alikes


async def test_b_namesakes_are_told_apart_in_history_hand_and_top(bed: Bed) -> None:
    first, second = bed.players("Ana", "Ana")
    group = bed.group(first, second)
    steady_clock(bed)
    await bed.open_table(group, first, second)
    assert set(bed.live(group).names.values()) == {"Ana", "Ana 2"}
    # The second folds: the bed's check of shown cards knows players by their stored names.
    await play_showdown(bed, group, [first, second], folder=1)
    one, two = (f"Ana ({p.id % 10_000:04d})" for p in (first, second))
    assert one != two

    (history,) = await answers(bed, first, group, "/history")
    hand_id = int(history.splitlines()[1].split(" · ")[0].lstrip("#"))
    winner_line = history.splitlines()[1]
    assert one in winner_line or two in winner_line, history
    story = (await answers(bed, first, group, f"/hand {hand_id}"))[0]
    assert one in story and two in story, story
    (top,) = await answers(bed, second, group, "/top")
    names = [line.split(": ")[0].split(". ", 1)[1] for line in top.splitlines()[1:]]
    assert sorted(names) == sorted([one, two]), top


async def test_b_look_alike_names_at_one_table_are_numbered(bed: Bed) -> None:
    latin = bed.tg.world.user("Ana")
    cyrillic = bed.tg.world.user("\u0410na")  # Cyrillic capital A
    greek = bed.tg.world.user("\u0391na")  # Greek capital alpha
    group = bed.group(latin, cyrillic, greek)
    await bed.open_table(group, latin, cyrillic, greek)
    names = bed.live(group).names
    assert names == {latin.id: "Ana", cyrillic.id: "\u0410na 2", greek.id: "\u0391na 3"}
    text = (await bed.table_message(group)).text or ""
    assert "\u0410na 2" in text and "\u0391na 3" in text


async def test_b_group_titles_are_cleaned_like_names(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.tg.world.group("Svara\u202e night\u200b\u2066", members=[ana, boris],
                               admins=[ana])
    steady_clock(bed)
    await bed.open_table(group, ana, boris)
    await bed.press(ana, group, "Start")
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    blind = next(p for p in (ana, boris) if p.id == hand.seats[hand.to_act].player)
    assert await bed.press(blind, group, "No blind") is None
    cards = next(m.text or "" for m in ana.inbox if "Points:" in (m.text or ""))
    assert cards.splitlines()[0].startswith("🃏 Svara night · hand 1"), cards
    (statement,) = await answers(bed, ana, ana.dm, "/balance")
    assert "At the table of Svara night: " in statement, statement
    stored = await bed.store.db.fetchall("SELECT title FROM chats WHERE id = ?", (group.id,))
    assert stored[0][0] == "Svara night"
    for text in (cards, statement):
        assert not {"\u202e", "\u200b", "\u2066"} & set(text)
