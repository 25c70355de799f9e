"""Hostile clients of the Mini App: each request is refused and changes nothing."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from urllib.parse import parse_qsl, urlencode

from bot.miniapp import server
from bot.miniapp.initdata import sign, user_fields
from bot.miniapp.links import app_payload
from tests.miniapp.app import Served, Viewer

OTHER_BOT = "777:" + "Q" * 35


async def lobby(app: Served, *names: str) -> tuple[Any, list[Any], str]:
    bed = app.bed
    players = bed.players(*names)
    group = bed.group(*players)
    await players[0].send(group, "/settings blind off")
    await bed.idle()
    await bed.open_table(group, *players[:2])
    live = bed.live(group)
    return group, players, app_payload(bed.services.link_secret, live.id)


async def what_changes(app: Served, group: Any) -> tuple[Any, ...]:
    """Everything a refused request must leave as it was."""
    bed = app.bed
    await bed.idle()
    live = bed.live(group)
    rows = await bed.store.db.fetchall("SELECT COUNT(*) AS n FROM ledger")
    actions = 0 if live.hand is None else len(live.hand.actions)
    message = await bed.table_message(group)
    return (rows[0]["n"], live.status, actions, [s.stack for s in live.table.seats],
            message.text)


async def session(app: Served, init: str, table: str) -> tuple[int, dict[str, Any]]:
    return await app.post("/app/api/session", {"init": init, "table": table})


async def test_forged_expired_and_other_bot_init_data_open_nothing(app: Served) -> None:
    group, (ana, boris), payload = await lobby(app, "Ana", "Boris")
    before = await what_changes(app, group)
    good = app.init(ana, payload)
    fields = dict(parse_qsl(good))
    # Another user's id under Ana's signature.
    forged = dict(fields, user=fields["user"].replace(str(ana.id), str(boris.id)))
    # The hash of other data.
    swapped = dict(fields, hash=dict(parse_qsl(app.init(boris, payload)))["hash"])
    cases = {
        "forged user": urlencode(forged),
        "someone else's hash": urlencode(swapped),
        "no hash": urlencode({k: v for k, v in fields.items() if k != "hash"}),
        "expired": app.init(ana, payload, age=app.miniapp.max_age + 5),
        "from the future": app.init(ana, payload, age=-3600),
        "another bot": app.init(ana, payload, token=OTHER_BOT),
        "the Login Widget's key": _login_widget(app, ana, payload),
        "a field twice": good + "&auth_date=1",
        "not a query": "%%%",
        "too long": good + "&x=" + "a" * 5000,
        "empty": "",
    }
    for why, init in cases.items():
        status, answer = await session(app, init, payload)
        assert status == 401, (why, status, answer)
        assert "session" not in answer, why
    assert await what_changes(app, group) == before
    # The same data, untouched, opens the table.
    status, opened = await session(app, good, payload)
    assert status == 200
    # Replayed once it is older than the operator's bound, it opens nothing; the session
    # it gave ends after its hours too.
    miniapp = app.miniapp
    real = miniapp.clock
    try:
        miniapp.clock = lambda: real() + miniapp.max_age + 5
        status, _ = await session(app, good, payload)
        assert status == 401
        miniapp.clock = lambda: real() + 13 * 3600
        status, _ = await app.post("/app/api/press", {"s": opened["session"], "data": "v1:zz"})
        assert status == 401
    finally:
        miniapp.clock = real
    assert await what_changes(app, group) == before


def _login_widget(app: Served, player: Any, payload: str) -> str:
    import hashlib
    import hmac
    fields = user_fields(player.id, player.name, auth_date=int(__import__("time").time()),
                         start_param=payload)
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    key = hashlib.sha256(app.token.encode()).digest()
    return urlencode({**fields, "hash": hmac.new(key, check.encode(),
                                                 hashlib.sha256).hexdigest()})


async def test_a_payload_for_another_table_or_made_up_is_refused(app: Served) -> None:
    group, (ana, _), payload = await lobby(app, "Ana", "Boris")
    live = app.bed.live(group)
    other = app_payload(app.bed.services.link_secret, live.id + 1)
    made_up = f"t{live.id + 1:x}_" + payload.partition("_")[2]
    # Signed for one table, presented for another.
    status, _ = await session(app, app.init(ana, payload), other)
    assert status == 403
    for bad in (made_up, "t1", "j1_abc", "x" * 70, ""):
        status, _ = await session(app, app.init(ana, bad), bad)
        assert status in (400, 403), bad
    # A signed payload for a table that does not exist.
    status, _ = await session(app, app.init(ana, other), other)
    assert status == 404


async def test_presses_out_of_turn_for_another_seat_or_table_change_nothing(
        app: Served) -> None:
    bed = app.bed
    group, (ana, boris, vera), payload = await lobby(app, "Ana", "Boris", "Vera")
    ana_v = await app.open(ana, payload, language="bg")
    assert ana_v.state["language"] == "bg" and ana_v.state["words"]["pot"] == "Банка"
    boris_v = await app.open(boris, payload)
    vera_v = await app.open(vera, payload)
    await ana_v.press(ana_v.button("Старт"))  # her page speaks her Telegram's Bulgarian
    for v in (ana_v, boris_v, vera_v):
        await v.refresh()
    acting, waiting = (ana_v, boris_v) if ana_v.state["buttons"] else (boris_v, ana_v)
    fold = acting.button("Пас" if acting is ana_v else "Fold")
    before = await what_changes(app, group)
    # The other player presses the player-to-act's button: not his turn.
    answer = await waiting.press(fold)
    assert answer["ok"] is False
    assert answer["error"] == ("Не е твой ред." if waiting is ana_v else "Not your turn.")
    # Someone who is not seated presses it.
    answer = await vera_v.press(fold)
    assert answer == {"ok": False, "error": "You are not playing at this table."}
    # A press made up for another table, and garbage.
    live = bed.live(group)
    other = fold.replace(f"v1:{_b36(live.id)}:", f"v1:{_b36(live.id + 1)}:", 1)
    assert other != fold
    expired = "Този бутон вече не е активен." if acting is ana_v else "This button has expired."
    for data in (other, "v1:zz", "", 12, None, "x" * 500):
        answer = await acting.press(data)  # type: ignore[arg-type]
        assert answer == {"ok": False, "error": expired}, data
    assert await what_changes(app, group) == before
    # A session is bound to its table and user: tampered, it is no session.
    body, _, sig = acting.session.rpartition(".")
    status, _ = await app.post("/app/api/press", {"s": body + "x." + sig, "data": fold})
    assert status == 401
    status, _ = await app.post("/app/api/press", {"s": waiting.session[:-2] + "AA",
                                                  "data": fold})
    assert status == 401
    assert await what_changes(app, group) == before
    # The right player's press goes through.
    assert (await acting.press(fold))["ok"]


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = digits[d] + out
        if not n:
            return out


async def test_oversized_and_malformed_requests_are_refused(app: Served) -> None:
    group, _, payload = await lobby(app, "Ana", "Boris")
    before = await what_changes(app, group)
    big = json.dumps({"init": "a" * 9000, "table": payload}).encode()  # over 8 KiB
    status, _ = await app.post("/app/api/session", big)
    assert status == 413
    for body in (b"{", b"[]", b"\xff\xfe", b'"x"', b"{}", b'{"init": 1, "table": 2}'):
        status, _ = await app.post("/app/api/session", body)
        assert status == 400, body
        status, _ = await app.post("/app/api/press", body)
        assert status in (400, 401), body
    async with app.http.get(app.base + "/app/api/events", params={"s": "nope"}) as reply:
        assert reply.status == 401
    async with app.http.get(app.base + "/app/static/..%2Fserver.py") as reply:
        assert reply.status == 404
    assert await what_changes(app, group) == before


async def test_a_flood_of_presses_or_streams_from_one_user_is_cut_off(app: Served) -> None:
    group, (ana, boris), payload = await lobby(app, "Ana", "Boris")
    ana_v: Viewer = await app.open(ana, payload)
    before = await what_changes(app, group)
    # Eight presses at once, then four a second: twenty at once are mostly refused.
    statuses = [(await app.post("/app/api/press", {"s": ana_v.session, "data": "v1:zz"}))[0]
                for _ in range(20)]
    assert statuses[0] == 200 and statuses.count(200) <= 12 and statuses[-1] == 429
    # Opening the page again and again is cut off the same way.
    opened = [(await app.post("/app/api/session", {"init": app.init(ana, payload),
                                                   "table": payload}))[0]
              for _ in range(20)]
    assert opened[0] == 200 and opened.count(200) <= 12 and opened[-1] == 429
    streams = []
    try:
        for _ in range(4):  # four streams a user (a few tabs, a reconnect)
            reply = await app.http.get(app.base + "/app/api/events",
                                       params={"s": ana_v.session})
            assert reply.status == 200
            streams.append(reply)
        async with app.http.get(app.base + "/app/api/events",
                                params={"s": ana_v.session}) as reply:
            assert reply.status == 429
        # Another user is not held up by Ana's flood.
        boris_v = await app.open(boris, payload)
        await boris_v.refresh()
    finally:
        for reply in streams:
            reply.close()
    await asyncio.sleep(0.1)
    assert await what_changes(app, group) == before


async def test_the_page_allows_only_its_own_files_and_telegrams_script(app: Served) -> None:
    async with app.http.get(app.base + "/app/") as reply:
        assert reply.status == 200
        csp = reply.headers["Content-Security-Policy"]
        page = await reply.text()
    assert "script-src 'self' https://telegram.org/js/telegram-web-app.js;" in csp
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert 'src="https://telegram.org/js/telegram-web-app.js"' in page
    # The stand-in of Telegram's script is the sandbox's alone.
    async with app.http.get(app.base + "/app/static/telegram-web-app.js") as reply:
        assert reply.status == 404
    _ = sign


async def test_a_non_member_with_a_forwarded_link_gets_no_session_nor_the_table(
        app: Served) -> None:
    bed = app.bed
    ana, boris, vera, eve = bed.players("Ana", "Boris", "Vera", "Eve")
    group = bed.group(ana, boris, vera)  # Eve is not in the group
    await bed.open_table(group, ana, boris)
    live = bed.live(group)
    payload = app_payload(bed.services.link_secret, live.id)
    before = await what_changes(app, group)
    # Eve got the table message forwarded: its link opens nothing, not even the names.
    status, answer = await session(app, app.init(eve, payload), payload)
    assert status == 403
    assert answer == {"ok": False, "error": "Only members of that group can watch its table."}
    status, answer = await session(app, app.init(eve, payload, language="bg"), payload)
    assert status == 403 and "Ana" not in json.dumps(answer)
    assert answer["error"] != "Only members of that group can watch its table."  # her language
    # A member of the group who is not seated watches; the seated play.
    vera_v = await app.open(vera, payload)
    assert [s["name"] for s in vera_v.state["seats"]] == ["Ana", "Boris"]
    assert not vera_v.state["seated"]
    assert (await app.open(ana, payload)).state["seated"]
    assert await what_changes(app, group) == before


async def test_a_session_lasts_no_longer_than_its_init_data_is_good_for(app: Served) -> None:
    _, (ana, _), payload = await lobby(app, "Ana", "Boris")
    miniapp = app.miniapp
    # Signed almost max_age ago: the session it opens ends with it, not 12 hours later.
    old = await app.open(ana, payload, age=miniapp.max_age - 30)
    fresh = await app.open(ana, payload)
    real = miniapp.clock
    try:
        miniapp.clock = lambda: real() + 60
        status, _ = await app.post("/app/api/press", {"s": old.session, "data": "v1:zz"})
        assert status == 401
        async with app.http.get(app.base + "/app/api/events",
                                params={"s": old.session}) as reply:
            assert reply.status == 401
        status, _ = await app.post("/app/api/press", {"s": fresh.session, "data": "v1:zz"})
        assert status == 200
        # The fresh one ends when its initData does.
        miniapp.clock = lambda: real() + miniapp.max_age + 5
        status, _ = await app.post("/app/api/press", {"s": fresh.session, "data": "v1:zz"})
        assert status == 401
    finally:
        miniapp.clock = real


async def test_a_body_in_two_tcp_writes_is_read_whole(app: Served) -> None:
    _, (ana, _), payload = await lobby(app, "Ana", "Boris")
    body = json.dumps({"init": app.init(ana, payload), "table": payload}).encode()
    host, port = app.base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(b"POST /app/api/session HTTP/1.1\r\nHost: " + host.encode()
                     + b"\r\nContent-Type: application/json\r\nConnection: close\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:40])
        await writer.drain()
        await asyncio.sleep(0.2)  # the server has read the first part by now
        writer.write(body[40:])
        await writer.drain()
        reply = await reader.read()
    finally:
        writer.close()
    head, _, text = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), reply[:300]
    assert "session" in json.loads(text)


async def test_3000_nested_brackets_are_refused_without_a_traceback(
        app: Served, caplog: Any) -> None:
    group, _, _ = await lobby(app, "Ana", "Boris")
    before = await what_changes(app, group)
    caplog.set_level(logging.WARNING)
    for path in ("/app/api/session", "/app/api/press"):
        status, answer = await app.post(path, b"[" * 3000)
        assert (status, answer) == (400, {"ok": False, "error": "not JSON"}), path
        status, _ = await app.post(path, b'{"a":' * 1200 + b"1" + b"}" * 1200)
        assert status == 400, path
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert await what_changes(app, group) == before


async def test_a_dropped_stream_logs_no_error_at_its_next_keep_alive(
        app: Served, caplog: Any, monkeypatch: Any) -> None:
    _, (ana, _), payload = await lobby(app, "Ana", "Boris")
    viewer = await app.open(ana, payload)
    monkeypatch.setattr(server, "KEEPALIVE", 0.05)
    caplog.set_level(logging.INFO)
    reply = await app.http.get(app.base + "/app/api/events", params={"s": viewer.session})
    assert reply.status == 200
    assert (await reply.content.readline()).startswith(b"id: ")
    reply.close()  # the phone went away mid-stream
    for _ in range(100):
        await asyncio.sleep(0.05)
        if app.miniapp._total == 0:
            break
    await asyncio.sleep(0.2)
    assert app.miniapp._total == 0  # the stream ended and was let go
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_wall_clock_set_back_holds_no_presses_up(app: Served) -> None:
    _, (ana, _), payload = await lobby(app, "Ana", "Boris")
    viewer = await app.open(ana, payload)
    miniapp = app.miniapp
    status, _ = await app.post("/app/api/press", {"s": viewer.session, "data": "v1:zz"})
    assert status == 200
    real = miniapp.clock
    try:
        miniapp.clock = lambda: real() - 50  # the machine's clock is stepped back 50 s
        statuses = [(await app.post("/app/api/press",
                                    {"s": viewer.session, "data": "v1:zz"}))[0]
                    for _ in range(5)]
        assert statuses == [200] * 5
        status, _ = await session(app, app.init(ana, payload), payload)  # opened again
        assert status == 200
    finally:
        miniapp.clock = real
