"""A bot with its Mini App served on 127.0.0.1, and clients that open it as Telegram would."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.miniapp.initdata import sign, user_fields
from bot.miniapp.server import MiniApp, port_of, serve
from bot.sandbox.players import Player
from tests.e2e.bed import Bed

PUBLIC_URL = "https://svara.example"


@dataclass
class Served:
    bed: Bed
    base: str
    http: aiohttp.ClientSession

    @property
    def miniapp(self) -> MiniApp:
        found = self.bed.app.bot_data["miniapp"]
        assert isinstance(found, MiniApp)
        return found

    @property
    def token(self) -> str:
        return str(self.bed.app.bot.token)

    def init(self, player: Player, payload: str | None, *, age: float = 0.0,
             token: str | None = None, language: str | None = None) -> str:
        """initData as Telegram hands it to a page opened by the direct link."""
        fields = user_fields(player.id, player.name, language=language,
                             auth_date=int(time.time() - age), start_param=payload,
                             chat_type="supergroup")
        return sign(fields, token or self.token)

    async def post(self, path: str, body: Any) -> tuple[int, dict[str, Any]]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        async with self.http.post(self.base + path, data=data,
                                  headers={"Content-Type": "application/json"}) as reply:
            text = await reply.text()
            try:
                return reply.status, json.loads(text)
            except ValueError:
                return reply.status, {"raw": text}

    async def open(self, player: Player, payload: str, **kwargs: Any) -> Viewer:
        status, answer = await self.post("/app/api/session",
                                         {"init": self.init(player, payload, **kwargs),
                                          "table": payload})
        assert status == 200, answer
        return Viewer(self, player, answer["session"], answer["state"])


@dataclass
class Viewer:
    served: Served
    player: Player
    session: str
    state: dict[str, Any]
    seen: list[str] = field(default_factory=list)
    """Every state this viewer was sent, as the JSON text."""

    async def refresh(self) -> dict[str, Any]:
        """The state as the stream sends it now (the first event of a new stream)."""
        async with self.served.http.get(self.served.base + "/app/api/events",
                                        params={"s": self.session}) as reply:
            assert reply.status == 200, await reply.text()
            async for line in reply.content:
                if line.startswith(b"data: "):
                    self.seen.append(line[6:].decode())
                    self.state = json.loads(line[6:])
                    return self.state
        raise AssertionError("the stream ended without a state")

    def labels(self) -> list[str]:
        return [b["label"] for row in self.state["buttons"] for b in row]

    def button(self, prefix: str) -> str:
        for row in self.state["buttons"]:
            for b in row:
                if b["label"].startswith(prefix):
                    return str(b["data"])
        raise AssertionError(f"no button {prefix!r} in {self.labels()}")

    async def press(self, data: str) -> dict[str, Any]:
        status, answer = await self.served.post("/app/api/press",
                                                {"s": self.session, "data": data})
        assert status == 200, answer
        await self.served.bed.idle()
        return answer


async def served(bed: Bed) -> AsyncIterator[Served]:
    miniapp = bed.app.bot_data["miniapp"]
    runner = await serve(miniapp, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            yield Served(bed, f"http://127.0.0.1:{port_of(runner)}", http)
    finally:
        await runner.cleanup()
        await asyncio.sleep(0)


async def audited(bed: Bed) -> AsyncIterator[Served]:
    """``bed`` started with its Mini App served; stopped, audited and checked for leaked
    cards at the end."""
    await bed.start()
    try:
        async for found in served(bed):
            yield found
    finally:
        await bed.stop()
    await bed.audit()
    await bed.assert_no_cards_leaked()
