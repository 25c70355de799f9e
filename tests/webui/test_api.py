"""The sandbox's HTTP API end to end: a hand played through it, as the page plays it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import aiohttp

from bot.store import Store
from bot.webui.run import Running, launch

HOSTILE = '<b>Eve</b>&amp;<i>'
"""A name the page must show as typed, never as markup."""


class Page:
    """What the page does: read the state, type, press."""

    def __init__(self, running: Running, http: aiohttp.ClientSession) -> None:
        self.running = running
        self.http = http

    async def state(self) -> dict[str, Any]:
        await self.running.idle()
        async with self.http.get(self.running.url + "api/state") as response:
            assert response.status == 200
            data: dict[str, Any] = await response.json()
            return data

    async def token(self) -> str:
        """This run's token, read from the page's HTML as the page reads it."""
        async with self.http.get(self.running.url) as response:
            found = re.search(r'<meta name="sandbox-token" content="([^"]+)">',
                              await response.text())
        assert found is not None
        return found[1]

    async def post(self, path: str, **body: Any) -> tuple[int, dict[str, Any]]:
        headers = {"X-Sandbox-Token": await self.token()}
        async with self.http.post(self.running.url + path, json=body,
                                  headers=headers) as response:
            return response.status, await response.json()

    async def table(self) -> dict[str, Any]:
        """The newest bot message in the group with buttons (the live table message)."""
        group = (await self.state())["group"]
        tables = [m for m in group["messages"] if m["bot"] and m["text"].startswith("🃏")]
        assert tables, group["messages"]
        last: dict[str, Any] = tables[-1]
        return last

    async def press(self, user: int, label: str) -> dict[str, Any]:
        table = await self.table()
        data = [b["data"] for row in table["buttons"] for b in row if b["text"] == label]
        assert data, f"no {label!r} on {table['text']!r}: {table['buttons']}"
        status, answer = await self.post("api/press", user=user, chat=self.running.group.id,
                                         message=table["id"], data=data[0])
        assert status == 200, answer
        return answer


def _changed(running: Running, table: dict[str, Any]) -> Callable[[], bool]:
    def changed() -> bool:
        message = running.tg.world.find_message(running.group, table["id"])
        return message is not None and message.text != table["text"]
    return changed


async def test_a_hand_through_the_api(tmp_path: Any) -> None:
    db = tmp_path / "sandbox.sqlite3"
    async with launch(players=2, db=db, speed=20.0, names=("Ana", HOSTILE),
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        ana, eve = (s.id for s in running.seats)
        group = running.group.id

        status, _ = await page.post("api/send", user=ana, chat=group, text="/newgame")
        assert status == 200
        for who in (ana, eve):
            answer = await page.press(who, "Join")
            assert not answer["alert"], answer
        lobby = await page.table()
        assert HOSTILE in lobby["text"], lobby["text"]  # shown as typed, no markup in it
        assert not any(e["type"] == "bold" and lobby["text"][e["offset"]:].startswith("Eve")
                       for e in lobby["entities"])
        await page.press(ana, "Start")

        # Eve plays by herself from here: the computer takes her seat; Ana calls or folds.
        status, auto = await page.post("api/auto", user=eve, on=True)
        assert (status, auto) == (200, {"auto": True})
        for _ in range(60):
            table = await page.table()
            if " is over" in table["text"].splitlines()[0]:
                break
            labels = [b["text"] for row in table["buttons"] for b in row]
            choice = next((x for x in labels if x in ("No blind", "Skip")), None) \
                or next((x for x in labels if x.startswith("Call")), None) or "Fold"
            if choice in labels and _to_act(table["text"]).startswith("Ana"):
                await page.press(ana, choice)
            else:
                await running.tg.world.wait_for(
                    _changed(running, table), timeout=10, what="the computer's move")
        else:
            raise AssertionError(f"the hand did not end: {table['text']!r}")

        # What the API shows is what the bot last wrote into that message.
        writes = [c for c in running.tg.transcript.calls
                  if c.method in ("sendMessage", "editMessageText") and c.ok
                  and c.chat_id == group and (c.result or {}).get("message_id") == table["id"]]
        assert writes, "the table message was never written"
        assert writes[-1].result["text"] == table["text"]
        assert running.tg.unexpected() == []

        status, error = await page.post("api/press", user=ana, chat=eve, message=1, data="x")
        assert (status, error) == (400, {"error": "that chat is not open to this seat"})

    store = await Store.open(db)
    try:
        report = await store.audit()
        assert report.ok, report
        assert report.hands == {"settled": 1}
    finally:
        await store.close()


def test_sandbox_command_refuses_a_bad_player_count(capsys: Any) -> None:
    from bot.__main__ import main

    try:
        main(["sandbox", "--players", "1"])
    except SystemExit as stop:
        assert stop.code == 2
    else:
        raise AssertionError("--players 1 was accepted")
    assert "--players must be 2..9" in capsys.readouterr().err


def _to_act(text: str) -> str:
    """The line of the table message that says whose turn it is ("" when none does)."""
    return next((line for line in text.splitlines() if " to act" in line
                 or ": blind or not?" in line), "")


async def test_the_page_and_the_bot_speak_the_sandbox_language(tmp_path: Any) -> None:
    async with launch(players=2, db=tmp_path / "bg.sqlite3", speed=20.0, robot_delay=0.05,
                      language="bg") as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        state = await page.state()
        assert state["language"] == "bg"
        assert state["words"]["send"] == "Изпрати"
        assert state["words"]["you_are"] == "{chat} — ти си {name}"
        ana = running.seats[0].id
        status, _ = await page.post("api/send", user=ana, chat=running.group.id,
                                    text="/newgame")
        assert status == 200
        assert (await page.table())["text"].startswith("🃏 Свара: нова маса")
    async with launch(players=2, db=tmp_path / "en.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        words = (await Page(running, http).state())["words"]
        assert (words["send"], words["computer"]) == ("Send", "computer")


async def test_the_page_gives_by_username_by_reply_and_by_buttons(tmp_path: Any) -> None:
    async with launch(players=3, db=tmp_path / "give.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        group = running.group.id
        seats = {s["name"]: s for s in (await page.state())["seats"]}
        ana, boris, vera = (seats[n]["id"] for n in ("Ana", "Boris", "Vera"))
        assert (seats["Ana"]["username"], seats["Boris"]["username"]) == ("ana_1", "boris")

        async def newest(text: str, **more: Any) -> dict[str, Any]:
            """Type `text` as Ana; the bot's newest message in the group after it."""
            status, _ = await page.post("api/send", user=ana, chat=group, text=text, **more)
            assert status == 200
            messages = (await page.state())["group"]["messages"]
            last: dict[str, Any] = [m for m in messages if m["bot"]][-1]
            return last

        await newest("/newgame")  # Boris and Vera sit down with all they have
        for who in (boris, vera):
            assert not (await page.press(who, "Join"))["alert"]
        said = await newest(f"/give @{seats['Boris']['username']} 100")
        assert said["text"] == "Boris gets 100 chips from Ana."
        status, hello = await page.post("api/send", user=vera, chat=group, text="hello")
        assert status == 200
        said = await newest("/give 50", reply_to=hello["id"])
        assert said["text"] == "Vera gets 50 chips from Ana."
        shown = [m for m in (await page.state())["group"]["messages"]
                 if m["text"] == "/give 50"]
        assert shown[-1]["reply_to"] == {"id": hello["id"], "from": "Vera", "text": "hello"}
        status, error = await page.post("api/send", user=ana, chat=group, text="/give 5",
                                        reply_to=10_000)
        assert (status, error) == (400, {"error": "the message to reply to is gone"})

        menu = await newest("/give")
        assert menu["text"] == "🎁 Ana: give chips to whom?"

        async def press(label: str) -> dict[str, Any]:
            data = [b["data"] for row in menu["buttons"] for b in row if b["text"] == label]
            assert data, menu
            status, answer = await page.post("api/press", user=ana, chat=group,
                                             message=menu["id"], data=data[0])
            assert status == 200, answer
            return answer

        assert [b["text"] for row in menu["buttons"] for b in row] == ["Boris", "Vera"]
        await press("Boris")
        menu = next(m for m in (await page.state())["group"]["messages"]
                    if m["id"] == menu["id"])
        assert menu["text"] == "🎁 Ana: how many chips for Boris?"
        answer = await press("200")
        assert answer["text"] == "Boris gets 200 chips from Ana."
        users = running.services.store.users
        assert [await users.balance(u) for u in (ana, boris, vera)] == [650, 300, 50]
