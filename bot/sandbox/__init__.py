"""A strict local stand-in for the Telegram Bot API, with simulated users for tests.

The real PTB Application talks to it over HTTP with long polling (or a webhook); tests
drive simulated users in the same event loop and read the chats' state::

    async def test_join(tg: Sandbox) -> None:           # fixture from pytest_plugin
        alice, bob = tg.world.user("Alice"), tg.world.user("Bob")
        group = tg.world.group("Friends", members=[alice, bob], admins=[alice])
        app = tg.app_builder().build()                  # token, base_url, base_file_url set
        install_handlers(app)
        async with tg.running(app):                     # initialize, start, poll; then stop
            await alice.send(group, "/newgame")
            await tg.world.wait_idle()
            answer = await (await bob.press(group.last_bot_message, "Join")).answer()
            assert answer.text == "..."

Without the fixture: `async with SandboxServer(World()) as server:` and point PTB at
`server.base_url` / `server.base_file_url` with token `server.world.token`.
"""

from bot.sandbox.errors import ApiError, SandboxError
from bot.sandbox.faults import Fault
from bot.sandbox.limits import FloodMode, FloodRules
from bot.sandbox.models import (
    CallbackAnswer,
    ChatRecord,
    InlineAnswer,
    InlineResult,
    MessageRecord,
    UserRecord,
)
from bot.sandbox.players import Inline, Player, Press
from bot.sandbox.server import SandboxServer
from bot.sandbox.world import World

__all__ = [
    "ApiError",
    "CallbackAnswer",
    "ChatRecord",
    "Fault",
    "FloodMode",
    "FloodRules",
    "Inline",
    "InlineAnswer",
    "InlineResult",
    "MessageRecord",
    "Player",
    "Press",
    "SandboxError",
    "SandboxServer",
    "UserRecord",
    "World",
]
