"""The checking page is at hand: the bot serves it on its own web server, the sandbox on
its page's address, and /hand N links it by default wherever the bot has a public address."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
from pydantic import SecretStr

from bot.settings import Settings
from bot.webui.run import launch
from tests.e2e.test_webhook import Hooked, hooked  # noqa: F401  (the fixture)

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "verify.html").read_bytes()


def settings(**values: Any) -> Settings:
    return Settings(bot_token=SecretStr("1" * 9 + ":" + "s" * 35),
                    _env_file=None, **values)  # type: ignore[call-arg]


def test_hand_links_the_bots_own_verifier_whenever_it_has_a_public_address() -> None:
    assert settings().verifier_url() is None  # nowhere to serve it from
    assert settings(public_url="https://svara.example/").verifier_url() == (
        "https://svara.example/verify")
    assert settings(webhook_url="https://hooks.example:8443/tg/hook").verifier_url() == (
        "https://hooks.example:8443/verify")
    assert settings(public_url="https://svara.example",
                    verify_url="https://mine.example/v.html").verifier_url() == (
        "https://mine.example/v.html")


async def test_the_bots_web_server_serves_the_verifier(hooked: Hooked) -> None:  # noqa: F811
    assert hooked.settings.verifier_url() == f"{hooked.base}/verify"
    async with aiohttp.ClientSession() as http, http.get(f"{hooked.base}/verify") as got:
        assert got.status == 200 and got.content_type == "text/html"
        assert await got.read() == PAGE  # the very page docs/FAIRNESS.md describes


async def test_the_sandbox_serves_the_verifier_and_links_it(tmp_path: Path) -> None:
    async with launch(players=2, db=tmp_path / "s.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        assert running.services.verify_url == f"{running.url}verify"
        async with http.get(f"{running.url}verify") as got:
            assert got.status == 200 and await got.read() == PAGE
