"""A strict local stand-in for the Telegram Bot API, with simulated users for tests.

    async with SandboxServer(World()) as server:
        alice = server.world.user("Alice")
        app = ApplicationBuilder().token(server.world.token).base_url(server.base_url)...
"""

from bot.sandbox.errors import ApiError, SandboxError
from bot.sandbox.faults import Fault
from bot.sandbox.limits import FloodMode, FloodRules
from bot.sandbox.models import CallbackAnswer, ChatRecord, MessageRecord, UserRecord
from bot.sandbox.players import Player, Press
from bot.sandbox.server import SandboxServer
from bot.sandbox.world import World

__all__ = [
    "ApiError",
    "CallbackAnswer",
    "ChatRecord",
    "Fault",
    "FloodMode",
    "FloodRules",
    "MessageRecord",
    "Player",
    "Press",
    "SandboxError",
    "SandboxServer",
    "UserRecord",
    "World",
]
