"""The Mini App plays a hand through the same path as the chat's buttons, and shows each
player his own cards and nobody else's."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from bot.live import Live
from bot.miniapp.links import app_payload
from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from engine import format_hand
from tests.e2e.seeds import cards_of, find_seed, points_of, replica
from tests.e2e.test_tell import first_turn_with_reminders, nudge_job, reminders
from tests.miniapp.app import PUBLIC_URL, Served, Viewer


def payload_of(app: Served, table_id: int) -> str:
    return app_payload(app.bed.services.link_secret, table_id)


async def ana_and_boris(app: Served) -> tuple[ChatRecord, tuple[Player, Player], Live]:
    """Ana and Boris seated at a table in their group."""
    ana, boris = app.bed.players("Ana", "Boris")
    group = app.bed.group(ana, boris)
    await app.bed.open_table(group, ana, boris)
    return group, (ana, boris), app.bed.live(group)


async def test_the_table_message_opens_the_mini_app_by_a_signed_direct_link(
        app: Served) -> None:
    bed = app.bed
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    table = await bed.open_table(group, ana, boris)
    live = bed.live(group)
    button = table.button("Open the table")
    assert button == {"text": "Open the table",
                      "url": f"https://t.me/{bed.tg.world.bot.username}?startapp="
                             f"{payload_of(app, live.id)}"}


async def test_two_players_play_a_hand_in_the_mini_app_as_the_group_sees_it(
        app: Served) -> None:
    bed = app.bed
    group, (ana, boris), live = await ana_and_boris(app)
    payload = payload_of(app, live.id)
    viewers = {p.id: await app.open(p, payload) for p in (ana, boris)}
    assert viewers[ana.id].state["status"] == "lobby"
    assert viewers[ana.id].labels() == ["Leave", "Start"]

    answer = await viewers[ana.id].press(viewers[ana.id].button("Start"))
    assert answer == {"ok": True}
    hand = live.hand
    assert hand is not None
    cards: dict[int, str] = {}
    for step in range(12):
        for v in viewers.values():
            await v.refresh()
        if live.hand is None:
            break
        if not cards and hand.cards(0):
            cards = {hand.seats[i].player: format_hand(hand.cards(i)) for i in range(2)}
        acting = [v for v in viewers.values() if v.state["buttons"]]
        assert len(acting) == 1, [v.state["buttons"] for v in viewers.values()]
        v = acting[0]
        me = v.state["me"]
        shown = " ".join(c["text"] for c in me["cards"])
        assert shown == cards.get(v.player.id, ""), (shown, v.state["phase"])
        labels = v.labels()
        choice = next(lb for lb in labels if lb in ("No blind", "Call 0")
                      or lb.startswith(("Call", "Bet")))
        assert (await v.press(v.button(choice)))["ok"], (step, labels)
    else:
        raise AssertionError("the hand did not end")
    for v in viewers.values():
        await v.refresh()
    message = await bed.table_message(group)
    text = message.text or ""
    assert "hand 1 is over" in text
    # What the page shows of the showdown is what the group reads.
    results = viewers[ana.id].state["results"]
    assert results and all(line in text for line in results)
    for p in (ana, boris):
        assert f"{p.name}: {cards[p.id]}" in text
    # Before the hand was over, neither page ever got the other's cards.
    for mine, other in ((ana, boris), (boris, ana)):
        during = [s for s in viewers[mine.id].seen if json.loads(s)["phase"] not in
                  (None, "over")]
        assert during
        for seen in during:
            texts = [c["text"] for seat in json.loads(seen)["seats"]
                     for c in seat.get("shown", [])]
            me = json.loads(seen)["me"]
            assert " ".join(c["text"] for c in me["cards"]) in ("", cards[mine.id])
            assert not texts
            for card in cards[other.id].split():
                assert card not in seen


async def test_a_watcher_sees_the_public_table_and_no_buttons(app: Served) -> None:
    bed = app.bed
    ana, boris, vera = bed.players("Ana", "Boris", "Vera")
    group = bed.group(ana, boris, vera)
    await ana.send(group, "/settings blind off")  # the cards come at once
    await bed.idle()
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    payload = payload_of(app, live.id)
    ana_v = await app.open(ana, payload)
    await ana_v.press(ana_v.button("Start"))
    vera_v: Viewer = await app.open(vera, payload)
    state = vera_v.state
    assert state["status"] == "playing" and state["me"] is None and not state["seated"]
    # No move of the hand for him: only the seat a latecomer may take for the next one.
    assert [b["label"] for row in state["buttons"] for b in row] == ["Sit in next hand"]
    hand = live.hand
    assert hand is not None
    text = json.dumps(state, ensure_ascii=False)
    for i in range(2):
        assert hand.cards(i)
        for card in hand.cards(i):
            assert str(card) not in text
    assert [s["name"] for s in state["seats"]] == ["Ana", "Boris"]
    assert state["pot"] == hand.pot


async def test_the_stream_sends_each_new_revision_and_the_whole_state_after_a_drop(
        app: Served) -> None:
    bed = app.bed
    group, (ana, boris), live = await ana_and_boris(app)
    ana_v = await app.open(ana, payload_of(app, live.id))
    url = app.base + "/app/api/events"
    async with app.http.get(url, params={"s": ana_v.session}) as stream:
        first = await _event(stream)
        assert first[1]["status"] == "lobby"
        await ana_v.press(ana_v.button("Start"))
        second = await _event(stream)
        assert int(second[0]) > int(first[0]) and second[1]["status"] == "playing"
    # Reconnecting with the last id seen: nothing is sent until the table moves again...
    async with app.http.get(url, params={"s": ana_v.session},
                            headers={"Last-Event-ID": second[0]}) as stream:
        await boris.send(group, "/leave")
        await bed.idle()
        third = await _event(stream)
        assert int(third[0]) > int(second[0])
    # ...and with an old id, the whole current state at once.
    async with app.http.get(url, params={"s": ana_v.session},
                            headers={"Last-Event-ID": first[0]}) as stream:
        again = await _event(stream)
        assert again[0] == third[0]


async def _event(stream: aiohttp.ClientResponse) -> tuple[str, dict[str, Any]]:
    event_id = ""
    async for line in stream.content:
        if line.startswith(b"id: "):
            event_id = line[4:].decode().strip()
        elif line.startswith(b"data: "):
            return event_id, json.loads(line[6:])
    raise AssertionError("the stream ended")


async def test_private_chats_open_the_page_itself_with_a_web_app_button(app: Served) -> None:
    bed = app.bed
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.send(group, "/settings blind off")  # the cards come at once
    await bed.idle()
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    page = f"{PUBLIC_URL}/app/?t={payload_of(app, live.id)}"
    await bed.press(ana, group, "Start")
    # The cards come with the button that opens the table (web_app: private chats only).
    for p in (ana, boris):
        assert p.last_dm.button("Open the table") == {"text": "Open the table",
                                                       "web_app": {"url": page}}
    # A practice table's own message in private opens it the same way.
    await ana.send(group, "/endgame")
    await bed.idle()
    await ana.send(ana.dm, "/practice 1")
    await bed.idle()
    practice = bed.live(ana.dm)
    message = await bed.table_message(ana.dm)
    assert message.button("Open the table") == {
        "text": "Open the table",
        "web_app": {"url": f"{PUBLIC_URL}/app/?t={payload_of(app, practice.id)}"}}
    # Opened from a web_app button there is no start_param: the page's ?t= names the table.
    status, answer = await app.post("/app/api/session", {
        "init": app.init(ana, None), "table": payload_of(app, practice.id)})
    assert status == 200 and answer["state"]["seated"]


async def test_joining_from_the_page_asks_what_the_join_button_asks(app: Served) -> None:
    bed = app.bed
    ana, boris, vera = bed.players("Ana", "Boris", "Vera")
    group = bed.group(ana, boris, vera)
    await bed.open_table(group, ana)
    live = bed.live(group)
    payload = payload_of(app, live.id)
    boris_v = await app.open(boris, payload)
    assert boris_v.labels() == ["Join"]
    # He never opened the bot: his cards could not reach him.
    answer = await boris_v.press(boris_v.button("Join"))
    assert answer == {"ok": False, "error": "Open a private chat with me first, so I can "
                                            "send you your cards."}
    await boris.start_bot()
    await bed.idle()
    assert (await boris_v.press(boris_v.button("Join")))["ok"]
    assert [s.player for s in live.table.seats] == [ana.id, boris.id]
    # Vera opened the page, then left the group: she may not sit down, nor open it again.
    await vera.start_bot()
    vera_v = await app.open(vera, payload)
    del group.members[vera.id]
    status, _ = await app.post("/app/api/session", {"init": app.init(vera, payload),
                                                    "table": payload})
    assert status == 403
    answer = await vera_v.press(vera_v.button("Join"))
    assert answer == {"ok": False, "error": "Only members of that group can sit at its table."}
    assert [s.player for s in live.table.seats] == [ana.id, boris.id]
    message = await bed.table_message(group)
    assert "Boris" in (message.text or "") and "Vera" not in (message.text or "")


async def test_a_closed_table_is_shown_closed_then_forgotten(app: Served) -> None:
    bed = app.bed
    group, (ana, boris), live = await ana_and_boris(app)
    payload = payload_of(app, live.id)
    ana_v = await app.open(ana, payload)
    shown = bed.message_id(live)
    await ana.send(group, "/endgame")
    await bed.idle()
    # The group's message of a closed table opens nothing any more.
    closed = bed.tg.world.find_message(group, shown or 0)
    assert closed is not None and "closed" in (closed.text or "")
    assert "Open the table" not in closed.labels, closed
    # The stream sends the closed table and ends.
    async with app.http.get(app.base + "/app/api/events", params={"s": ana_v.session}) as s:
        event_id, state = await _event(s)
        assert state["status"] == "closed" and state["buttons"] == []
        assert (await s.content.read()).strip() == b""
    # A page opened late still sees it closed...
    assert (await app.open(boris, payload)).state["status"] == "closed"
    # ...until the closed table is forgotten; then nothing is kept open for it.
    hub = app.miniapp.hub
    hub._forget(live.id, int(event_id))
    async with app.http.get(app.base + "/app/api/events", params={"s": ana_v.session}) as s:
        assert s.status == 404
    status, _ = await app.post("/app/api/session", {"init": app.init(ana, payload),
                                                    "table": payload})
    assert status == 404


async def test_an_endgame_during_the_hand_reaches_the_page_at_once(app: Served) -> None:
    bed = app.bed
    group, (ana, _), live = await ana_and_boris(app)
    ana_v = await app.open(ana, payload_of(app, live.id))
    await ana_v.press(ana_v.button("Start"))
    before = await ana_v.refresh()
    await ana.send(group, "/endgame")
    await bed.idle()
    after = await ana_v.refresh()
    assert after["rev"] > before["rev"]
    line = "🔚 Closing after this hand: then every stack goes back."
    assert line not in before["text"] and line in after["text"]
    assert line in ((await bed.table_message(group)).text or "")


async def test_the_turn_reminder_opens_the_mini_app(app: Served) -> None:
    bed = app.bed
    group, _, first = await first_turn_with_reminders(bed)
    await nudge_job(bed, group).run(bed.app)  # the delay ran out
    await bed.idle()
    [nudge] = reminders(first)
    page = f"{PUBLIC_URL}/app/?t={payload_of(app, bed.live(group).id)}"
    assert nudge.button("Open the table") == {"text": "Open the table",
                                              "web_app": {"url": page}}


async def test_a_svaras_cards_keep_the_button_that_opens_the_table(app: Served) -> None:
    """The card message is edited for a svara's new cards; its button stays."""
    bed = app.bed
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await bed.store.chats.set_settings(group.id, {"blind": False})  # the cards come at once
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    seed, hand = find_seed(replica(live), lambda h: h.dealer == 1 and len(
        set(points_of(h).values())) == 1 and len(set(points_of(h, 2).values())) == 2)
    bed.seeds.append(seed)
    page = f"{PUBLIC_URL}/app/?t={payload_of(app, live.id)}"
    await bed.press(ana, group, "Start")
    first = {p.id: p.last_dm.message_id for p in (ana, boris)}
    assert await bed.press(ana, group, "Bet 10") is None
    assert await bed.press(boris, group, "Call 10") is None
    for seat, p in enumerate((ana, boris)):
        card = p.last_dm
        assert card.message_id == first[p.id]
        assert f"Hand 1: {format_hand(cards_of(hand, 2)[seat])}" in (card.text or "")
        assert card.button("Open the table") == {"text": "Open the table",
                                                 "web_app": {"url": page}}
