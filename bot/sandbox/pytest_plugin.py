"""Pytest fixtures for tests against the stand-in.

Enable with `pytest_plugins = ["bot.sandbox.pytest_plugin"]` in the top conftest.py.
The `tg` fixture gives a running Sandbox and, at teardown, fails the test on any
unanswered button press, unknown method, flood violation, HTML, length or keyboard
error, or edit that changes nothing ("message is not modified") the test did not
declare with `tg.expect(...)`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.sandbox.harness import Sandbox
from bot.sandbox.server import SandboxServer
from bot.sandbox.world import World


@pytest.fixture
async def tg() -> AsyncIterator[Sandbox]:
    """A running stand-in with an empty world; checked for rule breaks at teardown."""
    async with SandboxServer(World()) as server:
        sandbox = Sandbox(server)
        yield sandbox
    sandbox.check()
