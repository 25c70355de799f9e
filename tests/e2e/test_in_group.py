"""Playing without leaving the group: each player's cards and buttons come in the group as
messages only he sees (ephemeral messages), the private chat stays the record, and a lost
one falls back to the popup."""

from __future__ import annotations

import asyncio
import logging
from itertools import pairwise

import pytest

from bot.sandbox.ephemeral import EphemeralRecord
from bot.sandbox.faults import Fault
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from engine import format_hand
from tests.e2e.bed import Bed
from tests.e2e.seeds import cards_of, find_seed, points_of, replica


def hidden_for(bed: Bed, chat: ChatRecord, player: Player) -> list[EphemeralRecord]:
    """What `player` sees of the bot's ephemeral messages in `chat` now."""
    world = bed.tg.world
    return [r for r in world.ephemeral.seen_by(chat, player.record, world.clock())
            if r.receiver is player.record]


async def cards_in_group(bed: Bed, *names: str) -> tuple[ChatRecord, list[Player]]:
    """A group where the bot is an admin and shows cards there alone, no blinds (the cards
    come at the deal), and a table its players sit at: the group and the players."""
    players = bed.players(*names)
    group = bed.tg.world.group("Svara night", members=players, admins=players[:1],
                               bot_admin=True)
    await bed.store.chats.set_settings(group.id, {"cards": "group", "blind": False})
    await bed.open_table(group, *players)
    return group, players


async def test_a_player_plays_a_hand_from_the_group_alone(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.tg.world.group("Svara night", members=players, admins=[ana], bot_admin=True)
    await ana.send(group, "/settings cards group")
    await bed.idle()
    await ana.send(group, "/newgame")
    table = await bed.table_message(group)
    # Ana never opens the bot's private chat; Boris does.
    await boris.start_bot()
    await bed.idle()
    for player in players:
        answer = await (await player.press(table, "Join")).answer()
        assert not answer.show_alert, answer.text
    await bed.idle()
    seed, hand = find_seed(replica(bed.live(group)), lambda h: h.dealer == 1)
    bed.seeds.append(seed)
    # Boris's message in the group is lost on its way (Telegram does not promise them).
    bed.tg.server.faults.lose_ephemeral(receiver_id=boris.id)
    assert await bed.press(ana, group, "Start") is None
    # The blind comes before the cards, on the table message.
    assert await bed.press(ana, group, "No blind") is None
    cards = {p.id: format_hand(cards_of(hand)[seat]) for seat, p in enumerate(players)}

    # Ana's cards came into the group for her alone, with her buttons: her turn.
    (mine,) = hidden_for(bed, group, ana)
    assert f"Your cards: {cards[ana.id]}" in (mine.text or ""), mine
    assert "Bet 10" in mine.labels, mine.buttons
    assert ana.inbox == []  # nothing in a private chat she never opened
    # Boris sees nothing in the group, but his cards are on record in his private chat.
    assert hidden_for(bed, group, boris) == []
    assert f"Hand 1: {cards[boris.id]}" in (boris.last_dm.text or "")

    # Ana plays on her own message; it follows her hand (her buttons go once she acted).
    answer = await (await ana.press(mine, "Bet 10")).answer()
    assert not answer.show_alert, answer.text
    await bed.idle()
    assert mine.buttons == [], mine.buttons
    assert f"Your cards: {cards[ana.id]}" in (mine.text or ""), mine

    # Boris asks for his cards. His first message there may not have reached him (it did
    # not), so the popup answers at once, and a new message in the group follows his hand.
    answer = await (await boris.press(await bed.table_message(group), "My cards")).answer()
    assert answer.show_alert, answer
    assert answer.text == f"Your cards: {cards[boris.id]} ({points_of(hand)[1]} points)"
    await bed.idle()
    (his,) = hidden_for(bed, group, boris)
    assert f"Your cards: {cards[boris.id]}" in (his.text or "") and "Call 10" in his.labels
    answer = await (await boris.press(his, "Call 10")).answer()
    assert not answer.show_alert, answer.text
    await bed.idle()

    # The hand is over: the messages in the group are gone; the group saw nobody's cards
    # before the showdown (checked for every message at teardown).
    table = await bed.table_message(group)
    assert "is over" in (table.text or ""), table.text
    assert hidden_for(bed, group, ana) == [] and hidden_for(bed, group, boris) == []


async def test_private_asks_in_a_group_are_answered_to_the_asker_alone(bed: Bed) -> None:
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.tg.world.group("Svara night", members=players, admins=[ana])
    before = len(group.bot_messages())
    await ana.send(group, "/balance")
    await bed.idle()
    (answer,) = hidden_for(bed, group, ana)
    assert "Ana: 1,000 chips" in (answer.text or ""), answer
    assert hidden_for(bed, group, boris) == []
    assert len(group.bot_messages()) == before  # the group saw nothing of it


async def _slot_free(bed: Bed, chat: ChatRecord) -> None:
    """Wait until the group's budget has a slot free now (the pace spaces its calls)."""
    await asyncio.sleep(bed.services.outbox.pace.wait_for_slot(chat.id))


async def _dealt(bed: Bed) -> tuple[Player, ChatRecord, str]:
    """Ana and Boris at a table whose cards are dealt, Ana to act: Ana, the group, and
    what her cards' popup says."""
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await bed.open_table(group, ana, boris)
    seed, hand = find_seed(replica(bed.live(group)), lambda h: h.dealer == 1)
    bed.seeds.append(seed)
    assert await bed.press(ana, group, "Start") is None
    assert await bed.press(ana, group, "No blind") is None
    cards = format_hand(cards_of(hand)[0])
    return ana, group, f"Your cards: {cards} ({points_of(hand)[0]} points)"


async def test_my_cards_asked_again_in_a_hand_answers_with_the_popup_too(bed: Bed) -> None:
    ana, group, said = await _dealt(bed)
    await _slot_free(bed, group)
    answer = await (await ana.press(await bed.table_message(group), "My cards")).answer()
    assert (answer.text, answer.show_alert) == (said, False)  # a toast: they are coming
    await bed.idle()
    (first,) = hidden_for(bed, group, ana)
    await _slot_free(bed, group)
    answer = await (await ana.press(await bed.table_message(group), "My cards")).answer()
    assert (answer.text, answer.show_alert) == (said, True)  # maybe not seen: the popup
    await bed.idle()
    (second,) = hidden_for(bed, group, ana)
    assert second is not first and first.deleted


async def test_my_cards_while_the_groups_budget_is_spent_answers_with_the_popup(
        bed: Bed) -> None:
    ana, group, said = await _dealt(bed)
    table = await bed.table_message(group)
    pace = bed.services.outbox.pace
    await pace.slot(group.id)  # another message takes the group's slot
    taken, free_in = bed.tg.world.clock(), pace.wait_for_slot(group.id)
    answer = await (await ana.press(table, "My cards")).answer()
    assert (answer.text, answer.show_alert) == (said, True)
    await bed.idle()
    (mine,) = hidden_for(bed, group, ana)  # it still came, once the slot was there
    assert said.removesuffix(" points)") in (mine.text or ""), mine
    (sent,) = [c for c in bed.tg.transcript.of("sendMessage") if c.chat_id == group.id
               and "ephemeral_message_parameters" in c.params and c.at > taken]
    assert sent.at - taken >= free_in * 0.9, (sent.at - taken, free_in)


@pytest.mark.parametrize(("where", "silent"), [("group", True), ("both", False),
                                               ("private", False)])
async def test_the_private_record_of_the_cards_rings_only_where_the_group_does_not_show_them(
        bed: Bed, where: str, silent: bool) -> None:
    """With `cards group` the group shows each player his cards, so their record in his
    private chat comes without a sound; with `both` or `private` it rings. Each player's
    cards speak his own language."""
    ana = bed.tg.world.user("Ana")
    boris = bed.tg.world.user("Boris", language_code="bg")
    group = bed.tg.world.group("Svara night", members=[ana, boris], admins=[ana],
                               bot_admin=True)
    await ana.send(group, f"/settings cards {where}")
    await bed.idle()
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    assert await bed.press(ana, group, "No blind") is None
    await bed.idle()
    for player, points in ((ana, "Points: "), (boris, "Точки: ")):
        (cards,) = [m for m in player.inbox if points in (m.text or "")]
        assert cards.silent is silent, (player.name, where)
    shown = [r for p in (ana, boris) for r in hidden_for(bed, group, p)]
    assert len(shown) == (0 if where == "private" else 2)
    if shown:
        ana_sees, boris_sees = shown
        assert (ana_sees.text or "").startswith("Your cards: "), ana_sees.text
        assert (boris_sees.text or "").startswith("Твоите карти: "), boris_sees.text


async def test_where_the_bot_may_not_show_cards_in_the_group_their_private_record_rings(
        bed: Bed) -> None:
    """`cards group` in a chat where the bot is no admin: the group cannot show a player
    his cards at the deal, so the private message is where he learns them, with a sound."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.tg.world.group("Svara night", members=players, admins=[ana])
    await bed.store.chats.set_settings(group.id, {"cards": "group", "blind": False})
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    await bed.idle()
    for player in players:
        (cards,) = [m for m in player.inbox if "Hand 1: " in (m.text or "")]
        assert cards.silent is False, player.name
        assert hidden_for(bed, group, player) == []


async def test_a_svaras_cards_follow_in_the_same_messages_in_the_group_and_in_private(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    """With `cards group`, a svara's new cards replace the hand's in each player's own
    message in the group and in his private record: one of each a hand, not a new pair
    for every round."""
    ana, boris = players = bed.players("Ana", "Boris")
    group = bed.tg.world.group("Svara night", members=players, admins=[ana], bot_admin=True)
    # No blind: a svara's cards are dealt the moment it opens, so the messages follow on.
    await bed.store.chats.set_settings(group.id, {"cards": "group", "blind": False})
    await bed.open_table(group, ana, boris)
    seed, hand = find_seed(replica(bed.live(group)), lambda h: h.dealer == 1 and len(
        set(points_of(h).values())) == 1 and len(set(points_of(h, 2).values())) == 2)
    bed.seeds.append(seed)
    assert await bed.press(ana, group, "Start") is None
    first = {p.id: hidden_for(bed, group, p) for p in players}
    records = {p.id: [m for m in p.dm.bot_messages() if "Hand 1:" in (m.text or "")]
               for p in players}
    assert [len(found) for found in first.values()] == [1, 1]
    assert [len(found) for found in records.values()] == [1, 1]
    records[boris.id][0].deleted = True  # Boris deleted his private record of the hand
    assert await bed.press(ana, group, "Bet 10") is None
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        assert await bed.press(boris, group, "Call 10") is None
    # The operator's log says why Boris's cards came as a new message.
    assert any(line.startswith(f"cards to {boris.id} refused: ") and "not found" in line
               for line in caplog.messages), caplog.messages
    assert ((await bed.table_message(group)).text or "").splitlines()[0].endswith("· svara")
    for seat, player in enumerate(players):
        cards = format_hand(cards_of(hand, 2)[seat])
        (mine,) = hidden_for(bed, group, player)
        assert mine.ephemeral_id == first[player.id][0].ephemeral_id, player.name
        assert f"Your cards: {cards}" in (mine.text or ""), mine.text
        (record,) = [m for m in player.dm.bot_messages() if "Hand 1:" in (m.text or "")]
        edited = record.message_id == records[player.id][0].message_id
        assert edited is (player is ana), player.name
        assert f"Hand 1: {cards}" in (record.text or ""), record.text
        assert "<" not in (record.text or "")  # read as HTML, as it was written
        assert record.silent


async def test_cards_telegram_refuses_to_show_in_the_group_ring_in_private_and_are_counted(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    """One player's cards at the deal are refused in the group: he learns them from his
    private chat, with a sound; the other's come in the group and quietly in private; the
    operator's figures and log say which."""
    group, players = await cards_in_group(bed, "Ana", "Boris")
    ana = players[0]
    outbox = bed.services.outbox
    bed.tg.faults.fail_next("sendMessage", Fault.bad_request("USER_NOT_PARTICIPANT"),
                            chat_id=group.id)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        assert await bed.press(ana, group, "Start") is None
        await bed.idle()
    shown = {p.name: bool(hidden_for(bed, group, p)) for p in players}
    assert sorted(shown.values()) == [False, True], shown
    for player in players:
        (record,) = [m for m in player.inbox if "Hand 1: " in (m.text or "")]
        assert record.silent is shown[player.name], player.name
    (refused,) = [p for p in players if not shown[p.name]]
    assert (outbox.delivered["hidden sent"], outbox.delivered["hidden refused"]) == (1, 1)
    figures = outbox.figures()
    assert (figures["messages_hidden sent"], figures["messages_hidden refused"]) == (1.0, 1.0)
    live = bed.live(group)
    assert any(line.startswith(f"table {live.id}: cards for {refused.id} not shown in the "
                               "group: ") and "user_not_participant" in line.lower()
               for line in caplog.messages), caplog.messages


async def test_every_refusal_of_cards_in_the_group_is_counted_and_each_rings_in_private(
        bed: Bed) -> None:
    group, players = await cards_in_group(bed, "Ana", "Boris")
    ana = players[0]
    outbox = bed.services.outbox
    bed.tg.faults.fail_next("sendMessage", Fault.bad_request("USER_NOT_PARTICIPANT"),
                            times=2, chat_id=group.id)
    assert await bed.press(ana, group, "Start") is None
    await bed.idle()
    assert all(hidden_for(bed, group, p) == [] for p in players)
    for player in players:
        (record,) = [m for m in player.inbox if "Hand 1: " in (m.text or "")]
        assert record.silent is False, player.name
    assert (outbox.delivered["hidden sent"], outbox.delivered["hidden refused"]) == (0, 2)


async def test_a_refused_edit_or_deletion_of_a_members_cards_is_logged_and_play_goes_on(
        bed: Bed, caplog: pytest.LogCaptureFixture) -> None:
    """Telegram refuses to edit Ana's own message in the group, then to delete one at the
    hand's end: the operator's log says so each time, and the hand is played out."""
    group, players = await cards_in_group(bed, "Ana", "Boris")
    ana, boris = players
    seed, _ = find_seed(replica(bed.live(group)), lambda h: h.dealer == 1)
    bed.seeds.append(seed)
    assert await bed.press(ana, group, "Start") is None
    (mine,) = hidden_for(bed, group, ana)
    assert "Bet 10" in mine.labels  # her turn first
    bed.tg.faults.fail_next("editEphemeralMessageText", Fault.bad_request("some new error"),
                            chat_id=group.id)
    with caplog.at_level(logging.INFO, logger="bot.outbox"):
        answer = await (await ana.press(mine, "Bet 10")).answer()
        assert not answer.show_alert, answer.text
        await bed.idle()
        assert any(line.startswith("a hidden card message was not edited: ")
                   and "new error" in line.lower() for line in caplog.messages), caplog.messages
        assert "Bet 10" in mine.labels  # the refused edit left her old buttons
        (his,) = hidden_for(bed, group, boris)
        assert "Raise" in " ".join(his.labels) or "Call 10" in his.labels, his.labels
        bed.tg.faults.fail_next("deleteEphemeralMessage", Fault.bad_request("no such message"),
                                chat_id=group.id)
        answer = await (await boris.press(his, "Call 10")).answer()
        assert not answer.show_alert, answer.text
        await bed.idle()
    table = await bed.table_message(group)
    assert "is over" in (table.text or "")
    assert any(line.startswith("a hidden card message was not deleted: ")
               and "no such message" in line.lower() for line in caplog.messages), caplog.messages
    # One of the two was deleted; the other stays where Telegram would not take it away.
    assert len(hidden_for(bed, group, ana)) + len(hidden_for(bed, group, boris)) == 1


def edits_for(bed: Bed, player: Player) -> int:
    """How often the bot asked to edit `player`'s own messages in a group."""
    return sum(1 for c in bed.tg.transcript.of("editEphemeralMessageText")
               if str(c.params.get("receiver_user_id")) == str(player.id))


def turn_shown(record: EphemeralRecord, player: Player) -> bool:
    """His turn on his own message, his name read as HTML (no "&lt;" or "&amp;" left)."""
    return f"{player.name} to act." in (record.text or "")


async def test_members_cards_in_the_group_follow_only_their_own_view_and_go_with_the_hand(
        bed: Bed) -> None:
    """Three members see their cards in the group: each message is formatted, sent and
    edited; it is edited only when what he sees changes (his turn, his buttons), not for
    another player's move; at the hand's end every one is deleted once, and the outbox
    keeps nothing of them."""
    group, players = await cards_in_group(bed, "Ana <3", "Boris & Co", "Vera")
    ana, boris, vera = players
    seed, _ = find_seed(replica(bed.live(group)), lambda h: h.dealer == 2)
    bed.seeds.append(seed)
    outbox = bed.services.outbox
    assert await bed.press(ana, group, "Start") is None
    await bed.idle()
    mine, his, hers = (hidden_for(bed, group, p)[0] for p in players)
    assert turn_shown(mine, ana), mine.text
    assert "Bet 10" in mine.labels and his.labels == [] and hers.labels == []
    assert outbox.delivered["hidden sent"] == 3

    answer = await (await ana.press(mine, "Bet 10")).answer()
    assert not answer.show_alert, answer.text
    await bed.idle()
    # Ana's buttons went and Boris's came; Vera's view did not change: no call for hers.
    assert mine.buttons == [] and "Call 10" in his.labels
    assert turn_shown(his, boris), his.text
    assert (edits_for(bed, ana), edits_for(bed, boris), edits_for(bed, vera)) == (1, 1, 0)
    answer = await (await boris.press(his, "Call 10")).answer()
    assert not answer.show_alert, answer.text
    await bed.idle()
    # Now Vera's turn: Ana's view is as it was, so her message is left alone.
    assert "Call 10" in hers.labels and "Your cards: " in (hers.text or "")
    assert (edits_for(bed, ana), edits_for(bed, boris), edits_for(bed, vera)) == (1, 2, 1)
    answer = await (await vera.press(hers, "Fold")).answer()
    assert not answer.show_alert, answer.text
    await bed.idle()

    table = await bed.table_message(group)
    assert "is over" in (table.text or ""), table.text
    assert all(hidden_for(bed, group, p) == [] for p in players)
    assert len(bed.tg.transcript.of("deleteEphemeralMessage")) == 3
    assert bed.live(group).id not in outbox._hidden
    # Every call into the group kept its pace: the members' own messages, their edits and
    # deletions took the group's slot like the table message.
    calls = [c for c in bed.tg.transcript.calls if c.chat_id == group.id
             and c.method not in ("answerCallbackQuery", "getChatMember", "getChat")]
    gaps = [(b.at - a.at, a.method, b.method) for a, b in pairwise(calls)]
    spacing = outbox.pace.spacing
    assert all(gap >= spacing * 0.9 for gap, _, _ in gaps), (spacing, sorted(gaps)[:3])
