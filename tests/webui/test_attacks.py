"""Holes found by attacking the sandbox page: only the page itself drives it (other sites,
other addresses, posts that are not JSON or lack the run's token are refused and change
nothing), a database in use is refused, computers join in any language, charts show."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.ops.lock import DatabaseLock
from bot.webui.run import Refused, Running, launch
from tests.webui.test_api import Page


def typed(running: Running) -> int:
    """Messages in the group so far."""
    return len(running.group.messages)


async def test_c_other_sites_and_addresses_cannot_type_or_press(tmp_path: Path) -> None:
    async with launch(players=2, db=tmp_path / "s.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        token = await page.token()
        ana = running.seats[0].id
        body = {"user": ana, "chat": running.group.id, "text": "/newgame"}
        before = typed(running)
        own = f"http://127.0.0.1:{running.site.port}"
        refused: list[tuple[dict[str, str], str | None, int]] = [
            # A form post from a site the developer visits: text/plain needs no preflight.
            ({"Origin": "https://evil.example", "Content-Type": "text/plain"}, token, 403),
            ({"Origin": "https://evil.example", "Content-Type": "application/json"}, token,
             403),
            ({"Origin": own, "Content-Type": "text/plain"}, token, 400),
            ({"Content-Type": "application/json"}, None, 403),
            ({"Content-Type": "application/json"}, "guessed", 403),
            # DNS rebinding: the attacker's name resolving to 127.0.0.1.
            ({"Host": "evil.example", "Content-Type": "application/json"}, token, 403),
        ]
        for headers, sent_token, status in refused:
            if sent_token is not None:
                headers = {**headers, "X-Sandbox-Token": sent_token}
            async with http.post(running.url + "api/send", data=json.dumps(body),
                                 headers=headers) as response:
                assert response.status == status, (headers, await response.text())
                assert set(await response.json()) == {"error"}
        async with http.get(running.url + "api/state",
                            headers={"Host": f"evil.example:{running.site.port}"}) as response:
            assert response.status == 403
        async with http.get(running.url, headers={"Host": "evil.example"}) as response:
            assert response.status == 403 and token not in await response.text()
        await running.idle()
        assert typed(running) == before

        # The page itself, with its token, from its own origin: typed.
        async with http.post(running.url + "api/send", json=body,
                             headers={"Origin": own, "X-Sandbox-Token": token}) as response:
            assert response.status == 200, await response.text()
        await running.idle()
        assert typed(running) > before


async def test_c_tokens_differ_between_runs(tmp_path: Path) -> None:
    tokens = []
    for run in range(2):
        async with launch(players=2, db=tmp_path / f"{run}.sqlite3", speed=20.0,
                          robot_delay=0.05) as running, aiohttp.ClientSession() as http:
            tokens.append(await Page(running, http).token())
    assert tokens[0] != tokens[1] and len(tokens[0]) >= 24


@pytest.mark.parametrize("user", [[1], {"id": 1}, None, "1", 1.5, True])
async def test_c_a_seat_id_that_is_no_number_gets_400(tmp_path: Path, user: Any) -> None:
    async with launch(players=2, db=tmp_path / "s.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        for path, body in (("api/send", {"chat": running.group.id, "text": "/newgame"}),
                           ("api/press", {"chat": running.group.id, "message": 1, "data": "x"}),
                           ("api/auto", {"on": True})):
            status, answer = await page.post(path, user=user, **body)
            assert (status, answer) == (400, {"error": "no such seat"}), path
        ana = running.seats[0].id
        status, answer = await page.post("api/press", user=ana, chat=running.group.id,
                                         message=[1], data="x")
        assert (status, answer) == (400, {"error": "that message is gone"})


async def test_c_sandbox_refuses_the_database_of_a_running_bot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    db = tmp_path / "svara.sqlite3"
    with DatabaseLock(db, role="bot", now=0.0):
        with pytest.raises(Refused, match=r"^another process \(pid \d+, a bot\) is using"):
            async with launch(players=2, db=db):
                raise AssertionError("the sandbox started on a locked database")
        assert not db.exists()
    # The command says it in one line and ends with 1; the lock is back after it.
    with DatabaseLock(db, role="bot", now=0.0):
        assert await _in_thread(main, ["sandbox", "--db", str(db), "--port", "0"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("Cannot start the sandbox: another process (pid ")
    assert len(err.splitlines()) == 1 and not db.exists()


async def _in_thread(function: Any, *args: Any) -> Any:
    """`function(*args)` where it may run its own event loop."""
    import asyncio

    return await asyncio.to_thread(function, *args)


async def test_f_computer_seats_join_in_bulgarian(tmp_path: Path) -> None:
    async with launch(players=3, db=tmp_path / "bg.sqlite3", speed=20.0, robot_delay=0.05,
                      language="bg") as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        ana, boris, vera = (s.id for s in running.seats)
        for seat in (boris, vera):
            assert await page.post("api/auto", user=seat, on=True) == (200, {"auto": True})
        status, _ = await page.post("api/send", user=ana, chat=running.group.id,
                                    text="/newgame")
        assert status == 200

        def seated() -> bool:
            live = running.services.games.at(running.group.id, None)
            return live is not None and all(live.table.seat(s) is not None
                                            for s in (boris, vera))

        await running.tg.world.wait_for(seated, timeout=10, what="the computers to join")
        lobby = await page.table()
        labels = [b["text"] for row in lobby["buttons"] for b in row]
        assert "Join" not in labels and "Сядам" in labels, labels


async def test_e_a_chart_shows_as_a_picture_on_the_page(tmp_path: Path) -> None:
    async with launch(players=2, db=tmp_path / "s.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        ana, boris = (s.id for s in running.seats)
        group = running.group.id
        assert (await page.post("api/send", user=ana, chat=group, text="/newgame"))[0] == 200
        for who in (ana, boris):
            await page.press(who, "Join")
        await page.press(ana, "Start")
        # Both seats to the computer: the hand plays itself out.
        for who in (ana, boris):
            await page.post("api/auto", user=who, on=True)

        def settled() -> bool:
            return any(" is over" in (m.text or "").splitlines()[0] for m in running.group.messages
                       if m.sender.is_bot and m.text)

        await running.tg.world.wait_for(settled, timeout=20, what="the hand to end")
        for who in (ana, boris):
            await page.post("api/auto", user=who, on=False)
        assert (await page.post("api/send", user=ana, chat=group, text="/stats"))[0] == 200
        await running.idle()
        # /stats is an ephemeral command: its chart is in the group for Ana's eyes only.
        state = await page.state()
        seats = {seat["id"]: seat for seat in state["seats"]}
        photos = [m for m in seats[ana]["group_ephemeral"] if m["photo"]]
        assert len(photos) == 1, photos
        assert not [m for m in state["group"]["messages"] if m["photo"]]
        assert not [m for m in seats[boris]["group_ephemeral"] if m["photo"]]
        photo = photos[0]["photo"]
        assert (photo["width"], photo["height"]) == (960, 600)
        async with http.get(running.url + photo["src"].lstrip("/")) as response:
            assert response.status == 200 and response.content_type == "image/png"
            assert (await response.read()).startswith(b"\x89PNG\r\n\x1a\n")
        async with http.get(running.url + "api/photo/1/1") as response:
            assert response.status == 404
