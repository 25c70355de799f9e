"""The bot also runs behind a webhook: the stand-in POSTs updates to it."""

from __future__ import annotations

import socket
from pathlib import Path

from pydantic import SecretStr

from bot.app import build_application
from bot.sandbox.harness import Sandbox
from bot.settings import Settings
from tests.e2e.bed import FAKE_TOKEN


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_table_opens_over_a_webhook(tg: Sandbox, tmp_path: Path) -> None:
    settings = Settings(bot_token=SecretStr(FAKE_TOKEN), database=tmp_path / "w.sqlite3",
                        rate_limit=False, _env_file=None)  # type: ignore[call-arg]
    app = build_application(settings, tg.app_builder())
    port = free_port()
    await app.initialize()
    assert app.post_init is not None
    await app.post_init(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_webhook(listen="127.0.0.1", port=port, url_path="svara",
                                    webhook_url=f"http://127.0.0.1:{port}/svara",
                                    secret_token="s3cret")
    try:
        ana = tg.world.user("Ana")
        group = tg.world.group("Hooked", members=[ana])
        await ana.send(group, "/newgame")
        await tg.world.wait_for(lambda: group.bot_messages(), timeout=5)
        message = group.last_bot_message
        assert "Svara" in (message.text or "")
        assert [label for row in message.buttons for label in row] == ["Join", "Leave", "Start"]
    finally:
        await app.updater.stop()
        await app.stop()
        assert app.post_shutdown is not None
        await app.post_shutdown(app)
        await app.shutdown()
