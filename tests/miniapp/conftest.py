"""Fixtures: the real bot on the stand-in, with its Mini App served over real HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.sandbox.harness import Sandbox
from tests.e2e.bed import Bed
from tests.miniapp.app import PUBLIC_URL, Served, audited


@pytest.fixture
async def app(tg: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    """A running bot whose tables open as a Mini App; audited and checked at teardown."""
    bed = Bed(tg, tmp_path_factory.mktemp("db") / "svara.sqlite3", public_url=PUBLIC_URL)
    async for found in audited(bed):
        yield found
