"""A request with the right secret whose body is JSON but no update gets 400 and one log
line, never a 500 with a traceback."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from bot.settings import derive_webhook_secret
from tests.bot.proc import TOKEN
from tests.e2e.test_webhook import Hooked, hooked

__all__ = ["hooked"]


async def test_webhook_json_that_is_not_an_update_gets_400_and_one_line(
    hooked: Hooked, caplog: pytest.LogCaptureFixture
) -> None:
    headers = {"X-Telegram-Bot-Api-Secret-Token": derive_webhook_secret(TOKEN),
               "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session:
        for body in (b"[]", b"1", b"null", b'"x"', b"{}", b'{"update_id": "7"}', b"{"):
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="bot.ops.web"):
                async with session.post(hooked.url, data=body, headers=headers) as reply:
                    assert reply.status == 400, body
            lines = [r for r in caplog.records if r.name.startswith(("bot", "aiohttp"))]
            assert len(lines) == 1, (body, [r.getMessage() for r in lines])
            assert lines[0].exc_info is None and lines[0].name == "bot.ops.web"
