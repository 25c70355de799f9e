"""The sandbox's Mini App without a browser: a seat's link signs initData for that seat,
the page's own authentication lets it in without the sandbox page's token, and other
sites and addresses are still refused."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp

from bot.miniapp.initdata import check
from bot.webui.run import launch


async def test_a_seat_opens_the_mini_app_and_other_sites_cannot(tmp_path: Path) -> None:
    async with launch(players=2, db=tmp_path / "s.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        ana, boris = running.seats
        await ana.send(running.group, "/newgame")
        await running.idle()
        link = running.group.last_bot_message.button("Open the table")["url"]
        own = f"http://127.0.0.1:{running.site.port}"
        url = f"{own}/open-app?" + urlencode({"user": boris.id, "link": link})
        async with http.get(url, allow_redirects=False) as reply:
            assert reply.status == 302
            where = reply.headers["Location"]
        target = urlsplit(where)
        payload = parse_qs(target.query)["t"][0]
        assert link.endswith("startapp=" + payload) and target.path == "/app/"
        init = parse_qs(target.fragment)["tgWebAppData"][0]
        # Signed for Boris with the stand-in's token, exactly as Telegram signs.
        user = check(init, running.tg.world.token, now=time.time(),
                     max_age=60)
        assert (user.id, user.start_param) == (boris.id, payload)
        body = {"init": init, "table": payload}
        async with http.post(f"{own}/app/api/session", json=body,
                             headers={"Origin": own}) as reply:
            assert reply.status == 200
            assert (await reply.json())["state"]["status"] == "lobby"
        for headers in ({"Origin": "https://evil.example"}, {"Host": "evil.example"}):
            async with http.post(f"{own}/app/api/session", json=body,
                                 headers=headers) as reply:
                assert reply.status == 403, headers
        async with http.get(url, headers={"Host": "evil.example"},
                            allow_redirects=False) as reply:
            assert reply.status == 403
        for query in ({"user": "7", "link": link}, {"user": boris.id, "link": "https://x.y/"},
                      {"user": "x", "link": link}):
            async with http.get(f"{own}/open-app?" + urlencode(query),
                                allow_redirects=False) as reply:
                assert reply.status == 400, query
