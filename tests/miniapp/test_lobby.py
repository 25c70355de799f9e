"""The Mini App's lobby: the table's stakes and rules, who sits, and Join/Leave/Start,
top-up and rebuy through the same `Games` calls as the group's buttons and commands; and a
finished hand shared as a prepared inline message."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.miniapp.links import app_payload
from bot.sandbox.harness import Sandbox
from engine import seed_hash
from tests.e2e.bed import Bed
from tests.miniapp.app import PUBLIC_URL, Served, Viewer, audited

VERIFY = "https://svara.example/verify.html"


@pytest.fixture
async def app(tg: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    """The Mini App's bot with a served verifier page (its /hand proofs link it)."""
    bed = Bed(tg, tmp_path_factory.mktemp("db") / "svara.sqlite3", public_url=PUBLIC_URL,
              verify_url=VERIFY)
    bed.derive = True  # dealt as in production: each hand has its fairness proof
    async for found in audited(bed):
        yield found


def actions(v: Viewer) -> dict[str, str]:
    return {a["label"]: a["do"] for a in v.state["lobby"]["actions"]}


async def test_the_lobby_shows_the_table_and_seats_a_player_who_then_starts(
        app: Served) -> None:
    bed = app.bed
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await boris.start_bot()
    await bed.open_table(group, ana)
    live = bed.live(group)
    payload = app_payload(bed.services.link_secret, live.id)
    boris_v = await app.open(boris, payload)
    lobby = boris_v.state["lobby"]
    # The stakes and rules the group's lobby message lists, and who sits.
    message = (await bed.table_message(group)).text or ""
    assert lobby["rules"] and all(line in message for line in lobby["rules"])
    assert "ante" in " ".join(lobby["rules"]).lower()
    assert lobby["heading"] == "Players (1/10):"
    assert [p["name"] for p in lobby["players"]] == ["Ana"]
    assert list(actions(boris_v)) == ["Join"]
    # He sits down from the page: the group's message says so too.
    assert (await boris_v.press(actions(boris_v)["Join"])) == {"ok": True}
    await boris_v.refresh()
    assert [p["name"] for p in boris_v.state["lobby"]["players"]] == ["Ana", "Boris"]
    assert "Leave" in actions(boris_v)
    assert "Boris" in ((await bed.table_message(group)).text or "")
    # Ana starts the table from her page.
    ana_v = await app.open(ana, payload)
    assert ana_v.state["lobby"]["creator"] and not boris_v.state["lobby"]["creator"]
    assert (await ana_v.press(ana_v.button("Start"))) == {"ok": True}
    assert live.hand is not None
    assert "hand 1" in ((await bed.table_message(group)).text or "")


async def test_during_a_hand_the_lobby_keeps_its_presses_for_the_next_hand(
        app: Served) -> None:
    bed = app.bed
    ana, boris, vera = bed.players("Ana", "Boris", "Vera")
    group = bed.group(ana, boris, vera)
    for setting in ("blind off", "buyin 50", "pause 600"):  # buy-in up to 500
        await ana.send(group, "/settings " + setting)
        await bed.idle()
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    payload = app_payload(bed.services.link_secret, live.id)
    ana_v = await app.open(ana, payload)
    boris_v = await app.open(boris, payload)
    assert "Top up" not in actions(ana_v)  # at the table's maximum already
    await ana_v.press(ana_v.button("Start"))
    await vera.start_bot()
    vera_v = await app.open(vera, payload)
    answer = await vera_v.press(actions(vera_v)["Join"])
    assert answer == {"ok": True, "said": "You sit down at the next hand."}
    assert [s.player for s in live.table.seats] == [ana.id, boris.id, vera.id]
    hand = live.hand
    assert hand is not None and hand.seat_of(vera.id) is None  # not dealt into this one
    # Whoever acts folds and loses his ante; between hands his Top up brings him back
    # to the maximum from his balance, as /topup does.
    for v in (ana_v, boris_v):
        await v.refresh()
    folder = next(v for v in (ana_v, boris_v) if v.state["buttons"])
    await folder.press(folder.button("Fold"))
    assert live.hand is None
    await folder.refresh()
    balance = await bed.store.users.balance(folder.player.id)
    seat = live.table.seat(folder.player.id)
    assert seat is not None and seat.stack < 500
    assert (await folder.press(actions(folder)["Top up"])) == {"ok": True}
    seat = live.table.seat(folder.player.id)
    assert seat is not None and seat.stack == 500
    assert f"{folder.player.name}: 500" in ((await bed.table_message(group)).text or "")
    assert await bed.store.users.balance(folder.player.id) < balance
    await folder.refresh()
    assert "Top up" not in actions(folder)
    # Made-up lobby presses do nothing.
    assert (await vera_v.press("app:give")) == {"ok": False,
                                                "error": "This button has expired."}


async def test_a_finished_hand_is_shared_as_a_prepared_inline_message(app: Served) -> None:
    bed = app.bed
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.send(group, "/settings blind off")
    await bed.idle()
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    payload = app_payload(bed.services.link_secret, live.id)
    viewers = [await app.open(p, payload) for p in (ana, boris)]
    await viewers[0].press(viewers[0].button("Start"))
    assert not viewers[0].state["share"]
    status, answer = await app.post("/app/api/share", {"s": viewers[0].session})
    assert answer == {"ok": False, "error": "This button has expired."}  # nothing ended yet
    for v in viewers:
        await v.refresh()
    acting = next(v for v in viewers if v.state["buttons"])
    await acting.press(acting.button("Fold"))
    other = next(v for v in viewers if v is not acting)
    state = await other.refresh()
    assert state["share"] and state["hand_id"]
    # The proof is the verifier page's link the bot gives for /hand 1, not a command.
    assert state["proof"] is not None and state["proof"].startswith(VERIFY + "#")
    status, answer = await app.post("/app/api/share", {"s": other.session})
    assert status == 200 and answer["ok"], answer
    prepared = bed.tg.world.prepared[answer["id"]]
    assert prepared.user_id == other.player.id
    assert prepared.chat_types == {"users", "groups", "channels"}
    text = prepared.result.text
    message = (await bed.table_message(group)).text or ""
    assert text.splitlines()[0] == message.splitlines()[0]  # "… hand 1 is over"
    won = next(line for line in message.splitlines() if line.startswith("🏆"))
    assert won in text
    link = next(e for e in prepared.result.entities if e["type"] == "text_link")
    assert link["url"] == state["proof"]




async def test_one_tap_in_the_lobby_gives_a_seed_of_his_own_that_his_first_deal_uses(
        app: Served) -> None:
    bed = app.bed
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    await ana.send(group, "/settings blind off")
    await bed.idle()
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    fairness = bed.services.store.fairness
    boris_v = await app.open(boris, await_payload(app, live.id))
    assert boris_v.state["lobby"]["seed"] == "🔐 My own seed"
    # What the page did not draw is refused and changes nothing.
    for forged in ("app:seed:" + "AB" * 16, "app:seed:" + "a" * 31, "app:seed:" + "a" * 33,
                   "app:seed:" + "g" * 32, "app:seed:", "app:seed"):
        assert (await boris_v.press(forged)) == {"ok": False,
                                                 "error": "This button has expired."}, forged
    assert await fairness.seed(boris.id) is None
    drawn = "0f" * 16
    answer = await boris_v.press("app:seed:" + drawn)
    assert answer["ok"] and answer["said"].startswith("🔐 Your own seed is set: this app")
    assert await fairness.seed(boris.id) == drawn
    # His first deal at this table takes it: the proof lists its hash at his seat.
    ana_v = await app.open(ana, await_payload(app, live.id))
    assert (await ana_v.press(ana_v.button("Start"))) == {"ok": True}
    assert live.hand is not None
    first = await fairness.proof(live.hand_id)
    assert first is not None
    seat = [p.id for p in (ana, boris)].index(boris.id)
    assert first.seeds[seat] == seed_hash(drawn) and first.defaults[seat] is None
    # After it, the page offers no seed button, and a seed sent anyway is for later tables.
    state = await boris_v.refresh()
    assert state["lobby"]["seed"] is None
    later = "1e" * 16
    answer = await boris_v.press("app:seed:" + later)
    assert answer["ok"] and answer["said"].startswith(
        "🔐 Your own seed is set, for the tables you have not been dealt at yet")
    assert await fairness.seed(boris.id) == later


def await_payload(app: Served, table_id: int) -> str:
    return app_payload(app.bed.services.link_secret, table_id)


async def test_a_tournament_shows_its_level_and_places_and_offers_no_top_up(
        app: Served) -> None:
    bed = app.bed
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris)
    for p in (ana, boris):
        await p.start_bot()
    await ana.send(group, "/tournament 100 200 3")
    await bed.idle()
    live = bed.live(group)
    payload = app_payload(bed.services.link_secret, live.id)
    boris_v = await app.open(boris, payload)
    assert (await boris_v.press(actions(boris_v)["Join"])) == {"ok": True}
    await boris_v.refresh()
    t = boris_v.state["tournament"]
    assert (t["level"], t["ante"], t["pool"], t["hands_to_next"]) == (1, 10, 100, 3)
    assert t["lines"][1] == "Level 1: ante 10 · next level in 3 hands"
    assert t["places"] == []
    # Before the start he may leave (his buy-in goes back); never top up or rebuy.
    assert list(actions(boris_v)) == ["Leave"]
