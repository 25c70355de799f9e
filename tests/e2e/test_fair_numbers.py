"""One hand number everywhere, counted per chat: the table's title, the card message, the
result line, /history, /hand N and the results message name the same hand alike, also
when a second table of the chat deals after a first one closed."""

from __future__ import annotations

import hashlib
import re

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.test_history import reply, steady_clock


async def fold_a_hand(bed: Bed, group: ChatRecord, ana: Player, boris: Player) -> None:
    """No blind, then whoever acts first folds: the other takes the pot."""
    by_id = {ana.id: ana, boris.id: boris}
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    assert await bed.press(by_id[hand.seats[hand.to_act].player], group, "No blind") is None
    hand = bed.live(group).hand
    assert hand is not None and hand.to_act is not None
    assert await bed.press(by_id[hand.seats[hand.to_act].player], group, "Fold") is None


async def test_the_second_table_of_a_chat_goes_on_counting(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    for table in (1, 2):
        await bed.open_table(group, ana, boris)
        assert await bed.press(ana, group, "Start") is None
        screen = (await bed.table_message(group)).text or ""
        assert screen.splitlines()[0] == f"🃏 Svara · hand {table}", screen
        await fold_a_hand(bed, group, ana, boris)
        screen = (await bed.table_message(group)).text or ""
        assert screen.splitlines()[0] == f"🃏 Svara · hand {table} is over", screen
        assert f"🔐 fairness: /hand {table}" in screen.splitlines(), screen
        for player in (ana, boris):
            dm = [m.text or "" for m in player.inbox if "Points:" in (m.text or "")][-1]
            assert dm.splitlines()[0].endswith(f"hand {table}"), dm
            assert dm.splitlines()[1].startswith(f"Hand {table}: "), dm
        await ana.send(group, "/endgame")
        await bed.idle()
        results = group.bot_messages()[-1].text or ""
        assert results.startswith("🏁 Svara: results after 1 hand"), results
        assert re.search(rf"in hand {table}\.$", results), results
    history = await reply(bed, ana, group, "/history")
    assert [line.split(" · ")[0] for line in history[0].splitlines()[-2:]] == ["#2", "#1"], history
    for number in (1, 2):
        answer = await reply(bed, boris, group, f"/hand {number}")
        assert answer[0].splitlines()[0].startswith(f"📜 Hand {number} · "), answer


async def test_reveal_off_keeps_the_table_secret(bed: Bed) -> None:
    bed.derive = True
    await bed.restart()
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    said = await reply(bed, ana, group, "/settings reveal off")
    assert said and said[0].startswith("Saved."), said
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    await fold_a_hand(bed, group, ana, boris)
    await ana.send(group, "/endgame")
    await bed.idle()
    closed = [m for m in group.bot_messages() if (m.text or "").startswith("🃏 Svara: the table")]
    last = closed[-1].text or ""
    row = await bed.store.db.fetchone("SELECT secret FROM table_secrets")
    assert row is not None
    # The commitment the table showed all along stays, and only it: the secret's SHA-256.
    seal = hashlib.sha256(str(row[0]).encode()).hexdigest()
    assert "🔓" not in last and f"🔐 Table: {seal}" in last.splitlines(), last
    answer = await reply(bed, boris, group, "/hand 1")
    assert not any("Table secret" in a for a in answer), answer
    assert any("This table keeps its secret (chosen when it opened)" in a for a in answer), answer
    row = await bed.store.db.fetchone("SELECT revealed FROM table_secrets")
    assert row is not None and int(row[0]) == 0


async def test_reveal_is_fixed_when_the_table_opens(bed: Bed) -> None:
    """An admin who switches the reveal off while his table plays keeps nothing secret:
    the table reveals as it opened, so its hands can all be recomputed."""
    bed.derive = True
    bed.overrides["next_hand_delay"] = 0.3
    await bed.restart()
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    lobby = await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    await fold_a_hand(bed, group, ana, boris)
    said = await reply(bed, ana, group, "/settings reveal off")
    assert said and said[0].startswith("Saved."), said
    await bed.tg.world.wait_for(lambda: bed.live(group).hand_no == 2, timeout=5,
                                what="the second hand")
    await bed.idle()
    await fold_a_hand(bed, group, ana, boris)  # the second hand deals with the new settings
    assert not bed.live(group).settings.reveal
    await ana.send(group, "/endgame")
    await bed.idle()
    row = await bed.store.db.fetchone("SELECT secret, revealed FROM table_secrets")
    assert row is not None and int(row[1]) == 1
    assert f"🔓 Table secret: {row[0]}" in (lobby.text or "")
    answer = await reply(bed, boris, group, "/hand 2")
    assert any("The table secret is out" in a for a in answer), answer
    # The next table opens with the reveal off, and keeps its secret.
    await bed.open_table(group, ana, boris)
    row = await bed.store.db.fetchone("SELECT reveal FROM table_secrets ORDER BY table_id DESC")
    assert row is not None and int(row[0]) == 0


FIELD = re.compile(r"(?:^|[\s&#>])(v|n|a|t|k|p|q|f|g|s|[cdho][0-9]{1,2})=([^\s&#<>\"]*)")
TECHNICAL = re.compile(r"nonce|hash|sha-?256|нонс|хеш", re.I)


async def test_the_hand_reply_speaks_plain_words_and_still_carries_the_proof(bed: Bed) -> None:
    """/hand N in English and Bulgarian: no technical word and no 64-digit hash outside
    the folded blocks, and the messages' text alone holds the whole proof, which checks."""
    from tests.e2e.test_fair import docs_checker

    check = docs_checker()["check"]
    bed.derive = True
    await bed.restart()
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    await fold_a_hand(bed, group, ana, boris)
    await ana.send(group, "/endgame")
    await bed.idle()
    for language, label in (("en", "For the checking page:"), ("bg", "За страницата за проверка:")):
        await reply(bed, ana, group, f"/language {language}")
        before = len(bed.seen(group, boris))
        await boris.send(group, "/hand 1")
        await bed.idle()
        messages = bed.seen(group, boris)[before + 1:]  # after the hand's story: its proof
        assert len(messages) == 2, [m.text for m in messages]
        fields: dict[str, str] = {}
        for message in messages:
            text = message.text or ""
            assert "expandable_blockquote" in {e.get("type") for e in message.entities}
            read, _, folded = text.partition(label)
            assert folded, text
            assert not TECHNICAL.search(read), read
            assert not re.search(r"[0-9a-f]{64}", read), read
            fields.update({m[1]: m[2] for m in FIELD.finditer(folded)})
        assert fields["v"] == "2" and "s" in fields
        # Neither set a seed: each seat's comes from the table secret and his user id.
        assert fields["q"] == f"{ana.id}.{boris.id}", fields
        if language == "en":
            story = "\n".join(m.text or "" for m in messages)
            for name in ("Ana", "Boris"):
                assert f"{name}: no own seed, one follows from the table secret" in story, story
        assert check("&".join(f"{k}={v}" for k, v in fields.items())) is True


async def test_a_skipped_deal_number_shows_in_hand_and_its_proof(bed: Bed) -> None:
    """A deal number handed out for a hand that was never kept (a redraw) is not silent:
    /hand N of the next hand names the missing deal, and its proof lists it (``g``)."""
    bed.derive = True
    bed.overrides["next_hand_delay"] = 0.3
    bed.overrides["verify_url"] = "https://example.org/verify"
    await bed.restart()
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    steady_clock(bed)
    await bed.open_table(group, ana, boris)
    assert await bed.press(ana, group, "Start") is None
    table = bed.live(group).id
    commitment = (await bed.store.fairness.table(table)).commitment
    await fold_a_hand(bed, group, ana, boris)
    # As if the next deal's hand failed to be stored: its number is used up all the same.
    assert await bed.store.fairness.journal.take(commitment, 2) == 2
    await bed.tg.world.wait_for(lambda: bed.live(group).hand_no == 2, timeout=5,
                                what="the second hand")
    await bed.idle()
    await fold_a_hand(bed, group, ana, boris)
    answer = await reply(bed, boris, group, "/hand 2")
    assert "Deal 3 at this table." in answer[1], answer
    assert "⚠️ This table has no record of its deals 2: a deal that was not kept" in answer[1]
    link = next(str(e["url"]) for m in bed.seen(group, boris)[-3:] for e in m.entities
                if e.get("type") == "text_link")
    fields = dict(part.split("=", 1) for part in link.partition("#")[2].split("&"))
    assert (fields["k"], fields["g"]) == ("3", "2")
    answer = await reply(bed, boris, group, "/hand 1")
    assert "⚠️" not in answer[1] and "Deal 1 at this table." in answer[1]
